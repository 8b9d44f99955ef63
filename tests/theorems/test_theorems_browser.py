"""A full two-player Matematici game in headless Chromium: a human against a robot.

The human opens a table from the hub (a newcomer with a nickname), starts it,
picks a starter deck and plays through the game screen to the end, clicking
legal actions the page offers; the robot takes the empty seat and acts on the
ticks the page sends.
"""

from __future__ import annotations

import pytest

from games.models import GameResult
from games.rooms.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.live]

TABLE = "[data-theorems-table]"
# What the test human prefers, first match wins (all are buttons the page offers).
PREFERENCES = [
    "[data-th-decision] .th-action",
    ".th-action[data-action-type=prove]",
    ".th-action[data-action-type=define]",
    ".th-hand-card.th-kind-theorem .th-action[data-action-type=play]",
    ".th-hand-card.th-kind-tool .th-action[data-action-type=play]",
    ".th-hand-card.th-kind-event .th-action[data-action-type=play]",
    ".th-action[data-action-type=use]",
    ".th-action[data-action-type=draw]",
    ".th-action[data-action-type=end_turn]",
]


@pytest.fixture
def watched_page(transactional_db, page):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: errors.append(message.text) if message.type == "error" else None,
    )
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"


def _version(page) -> str:
    return page.locator(TABLE).get_attribute("data-version") or ""


def _wait_for_change(page, version: str, *, clicked: bool, timeout: float = 15000) -> None:
    """Until the screen shows a new view (or, after a click, the server refused it)."""
    page.wait_for_function(
        """([selector, version, clicked]) => {
            const root = document.querySelector(selector);
            return root.dataset.version !== version
              || (clicked && root.dataset.busy === "false"
                  && root.querySelector("[data-th-error]").textContent !== "");
        }""",
        arg=[TABLE, version, clicked],
        timeout=timeout,
    )


def test_a_human_plays_a_whole_game_against_a_robot(watched_page, asgi_server):
    page = watched_page
    page.goto("/theorems/")
    page.get_by_label("Your nickname").fill("Sofia")
    page.locator("input[name=table_size][value='2']").check()
    page.get_by_test_id("open-table").click()
    page.wait_for_url("**/rooms/*/")
    page.locator("[data-room-connection][data-state=online]").wait_for()
    page.get_by_role("button", name="Start the game").click()

    page.locator("[data-choose-deck]").first.wait_for()
    assert page.locator("[data-choose-deck]").count() == 2  # the two starter decks
    page.locator("[data-choose-deck]").first.click()
    page.locator(f"{TABLE}[data-phase=playing], {TABLE}[data-phase=finished]").wait_for()
    assert page.locator("[data-th-players] .th-player").count() == 2
    assert page.locator("[data-th-players]").get_by_role("heading", name="Robot 1").is_visible()

    clicks = 0
    for _step in range(1500):
        if page.locator(TABLE).get_attribute("data-phase") == "finished":
            break
        version = _version(page)
        clicked = False
        for selector in PREFERENCES:
            button = page.locator(selector).first
            if button.count() and button.is_visible() and button.is_enabled():
                button.click()
                clicks += 1
                clicked = True
                break
        # no button: the robot is acting, wait for its move to arrive
        _wait_for_change(page, version, clicked=clicked)
    else:
        pytest.fail("the game did not finish")

    page.screenshot(path="/tmp/theorems_end.png", full_page=True)
    assert clicks > 0
    turn = page.locator("[data-th-turn]").inner_text()
    assert "The game is over" in turn
    log = page.locator("[data-th-log] li")
    assert log.count() > 10
    assert "The game is over" in log.last.inner_text()
    room = Room.objects.get()
    assert room.status == Room.Status.FINISHED
    result = GameResult.objects.get(record=room.record)
    assert result.player.nickname == "Sofia"
    assert result.completed is True


def _open_table(page, seats: str) -> None:
    page.goto("/theorems/")
    page.get_by_label("Your nickname").fill("Emmy")
    page.locator(f"input[name=table_size][value='{seats}']").check()
    page.get_by_test_id("open-table").click()
    page.wait_for_url("**/rooms/*/")
    page.locator("[data-room-connection][data-state=online]").wait_for()
    page.get_by_role("button", name="Start the game").click()
    page.locator("[data-choose-deck]").first.wait_for()


def test_robots_fill_a_table_of_four_and_the_host_can_end_it(watched_page, asgi_server):
    page = watched_page
    _open_table(page, "4")
    page.locator("[data-choose-deck]").last.click()
    page.locator(f"{TABLE}[data-phase=playing]").wait_for()
    players = page.locator("[data-th-players] .th-player")
    assert players.count() == 4
    for number in (1, 2, 3):
        assert (
            page.locator("[data-th-players]").get_by_role("heading", name=f"Robot {number}").count()
        )
    page.locator(".th-mathematician .th-chip-name").first.click()
    dialog = page.get_by_role("dialog")
    assert "Patience" in dialog.inner_text()
    dialog.get_by_role("button", name="Close").click()
    # the dialog closes (and is removed) on the next tick; wait for it, do not race it
    page.wait_for_function("document.querySelectorAll('dialog[open]').length === 0", timeout=5000)
    page.get_by_role("button", name="End the room").click()
    page.get_by_role("dialog").get_by_role("button", name="Yes").click()
    page.locator(f"{TABLE}[data-phase=ended]").wait_for()
    # against robots alone, ending the game is giving it up (not "the host ended it")
    assert page.locator("[data-th-turn]").inner_text() == (
        "You gave up the game: a game not played to the end does not count."
    )
    assert page.locator(".th-action").count() == 0
    room = Room.objects.get()
    assert room.status == Room.Status.FINISHED
    assert GameResult.objects.get(record=room.record).completed is False


def test_building_and_saving_a_deck_with_live_statistics(watched_page, asgi_server):
    page = watched_page
    page.goto("/theorems/decks/new/")
    page.get_by_label("Deck name").fill("Analysts")
    page.get_by_label("Your nickname").fill("Cauchy fan")
    page.locator("input[name=mathematician][value=cauchy]").check()
    page.locator("[data-filter-kind]").select_option("theorem")
    page.locator("[data-filter-field]").select_option("analysis")
    analysis = page.locator("[data-pick]:visible input[name=cards]")
    assert analysis.count() == 8  # the analysis theorems (two of them share a second field)
    for index in range(analysis.count()):
        analysis.nth(index).check()
    page.wait_for_function("() => document.querySelector('[data-deck-count]').textContent === '8'")
    assert page.locator("[data-check-error]").get_attribute("data-code") == "deck_too_small"
    page.locator("[data-filter-kind]").select_option("event")
    page.locator("[data-filter-field]").select_option("")
    events = page.locator("[data-pick]:visible input[name=cards]")
    for index in range(4):
        events.nth(index).check()
    # The deck is valid from 10 cards on: wait for all four events to be counted.
    page.wait_for_function("() => document.querySelector('[data-deck-count]').textContent === '12'")
    page.wait_for_function(
        "() => document.querySelector('[data-deck-builder]').dataset.valid === 'true'"
    )
    page.get_by_test_id("save-deck").click()
    page.wait_for_url("**/theorems/")
    assert page.get_by_text("The deck Analysts is saved.").is_visible()
    assert page.locator("[data-saved-deck]").count() == 1
