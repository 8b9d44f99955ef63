"""Matematici's end screen and its counts (issue 31, low), on a 360 px phone.

Seen: when the game ended, the first-game tutorial still showed its step over
the final table and the last player to act still wore the "on turn" badge; the
turn line and the log said "2 action(s) left", "took 1 card(s)".
"""

import re

import pytest
from django.db import transaction
from playwright.sync_api import expect

from games.rooms.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 360, "height": 740}
TABLE = "[data-theorems-table]"


def _actions_left(text: str) -> int:
    found = re.fullmatch(r"Your turn: (\d+) actions? left\.", text.strip())
    assert found, text
    count = int(found.group(1))
    assert text.strip() == _your_turn(count), text
    return count


def _your_turn(count: int) -> str:
    return f"Your turn: {count} action left." if count == 1 else f"Your turn: {count} actions left."


def test_the_end_screen_has_no_tutorial_step_and_nobody_on_turn(
    transactional_db, browser, asgi_server
):
    context = browser.new_context(base_url=asgi_server, viewport=PHONE, locale="en-GB")
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto("/theorems/")
    page.get_by_label("Your nickname").fill("Sofia")
    page.locator("input[name=table_size][value='2']").check()
    page.get_by_test_id("open-table").click()
    page.wait_for_url("**/rooms/*/")
    page.locator("[data-room-connection][data-state=online]").wait_for()
    page.get_by_role("button", name="Start the game").click()
    page.locator("[data-choose-deck]").first.click()
    page.locator(f"{TABLE}[data-phase=playing]").wait_for()

    # While it runs: the tutorial's first step and whose turn it is, counted in words.
    expect(page.locator("[data-tutorial]")).to_be_visible()
    turn = page.locator("[data-th-turn]")
    expect(turn).to_have_text(re.compile(r"^Your turn: \d+ actions? left\.$"))
    expect(page.locator(".th-on-turn")).to_have_count(1)
    left = _actions_left(turn.inner_text())
    page.locator(".th-action[data-action-type=draw]").first.click()
    if left > 1:
        expect(turn).to_have_text(_your_turn(left - 1))
    log = page.locator("[data-th-log]")
    expect(log).to_contain_text(re.compile(r"Sofia took (1 card|[2-9] cards)\."))
    expect(log).not_to_contain_text("(s)")
    expect(turn).not_to_contain_text("(s)")

    # Sofia is one yawn from sleep: ending the turn makes her lose, the robot wins.
    with transaction.atomic():
        room = Room.objects.select_for_update().get(code=page.url.rstrip("/").rsplit("/", 1)[-1])
        seat = next(i for i, s in enumerate(room.state["seats"]) if not s["robot"])
        room.state["game"]["players"][seat]["boredom"] = 99
        room.save(update_fields=["state"])
    page.locator(".th-action[data-action-type=end_turn]").first.click()
    page.get_by_role("dialog").get_by_role("button", name="Yes").click()

    page.locator(f"{TABLE}[data-phase=finished]").wait_for()
    expect(turn).to_contain_text("The game is over")
    expect(page.locator("[data-tutorial]")).to_have_count(0)
    expect(page.locator(".th-tutorial-target")).to_have_count(0)
    expect(page.locator(".th-on-turn")).to_have_count(0)
    expect(page.locator(".th-current")).to_have_count(0)
    assert not errors, errors
    context.close()
