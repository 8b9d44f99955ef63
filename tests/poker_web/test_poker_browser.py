"""Poker played in a real headless Chromium against the real ASGI server."""

import re
import time

import pytest
from playwright.sync_api import expect

from games.models import GameResult
from games.poker.models import SoloGame
from games.poker.rules import JOKER, PokerGame

pytestmark = [pytest.mark.browser, pytest.mark.live]

DIALOG_JOKER = "#poker-joker-dialog"
DIALOG_END = "#poker-end-dialog"


def start(page, mode="easy", seconds=None, query=""):
    page.goto(f"/poker/play/{query}")
    page.check(f"input[name=mode][value={mode}]")
    if seconds is not None:
        page.fill("#poker-seconds", str(seconds))
    page.click("#poker-start")
    page.wait_for_selector("#poker-game:not([hidden])")


def hand(page) -> str:
    return page.inner_text("#poker-hand")


def free_cell(page):
    return page.locator(".poker-cell:not([disabled])").first


def start_rigged(page, cards, *, mode="easy", seconds=None):
    """Start a server game, then give it a known deck after its first (already
    shown) card; a first card that happens to be a joker means a new game."""
    for _ in range(5):
        start(page, mode=mode, seconds=seconds)
        game = SoloGame.objects.latest("created_at")
        first = game.state["sequence"][0]
        if first != JOKER:
            break
        game.delete()
    engine = PokerGame.new(
        mode=mode, seconds_per_card=seconds, deck=[first, *cards], now=time.time()
    )
    SoloGame.objects.filter(pk=game.pk).update(state=engine.to_dict())
    return first


def cell(page, index):
    return page.locator(f".poker-cell[data-cell='{index}']")


def choose_joker_value(page, value):
    page.locator(f"{DIALOG_JOKER} [data-value='{value}']").click()
    page.wait_for_selector(f"{DIALOG_JOKER}:not([open])", state="attached")


def play_to_end(page):
    """Click through whatever comes (jokers get the value 7) until the end dialog."""
    for _ in range(80):
        if page.locator(f"{DIALOG_END}[open]").count():
            return
        if page.locator(f"{DIALOG_JOKER}[open]").count():
            choose_joker_value(page, 7)
        target = free_cell(page)
        if target.count():
            before = page.locator(".poker-cell.is-filled").count()
            target.click()
            expect(page.locator(".poker-cell.is-filled, dialog[open]")).not_to_have_count(before)
    raise AssertionError("the game did not end")


def test_full_easy_game_with_a_joker_used_and_one_kept(player_page, artifacts):
    page = player_page
    page.set_viewport_size({"width": 390, "height": 844})
    numbers = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] * 2
    first = start_rigged(page, [JOKER, JOKER, *numbers])
    expect(page.locator("#poker-hand")).to_have_text(str(first))
    cell(page, 0).click()
    expect(page.locator(f"{DIALOG_JOKER}[open]")).to_be_visible()
    choose_joker_value(page, first)
    # the preview follows the joker's chosen value: a pair next to the first number
    expect(cell(page, 1).locator(".poker-gain")).to_have_text("+15")
    expect(cell(page, 1)).to_have_class(re.compile("is-best"))
    cell(page, 1).click()
    expect(page.locator(f"{DIALOG_JOKER}[open]")).to_be_visible()
    expect(cell(page, 1)).to_have_class(re.compile("is-joker"))
    page.click("#poker-keep-joker")
    expect(page.locator("#poker-kept-count")).to_have_text("1")
    expect(page.locator("#poker-hand")).to_have_text("1")
    for index in range(2, 24):
        value = hand(page)
        cell(page, index).click()
        expect(cell(page, index).locator(".poker-value")).to_have_text(value)
    expect(page.locator("#poker-warning")).to_be_visible()
    page.screenshot(path=str(artifacts / "board-phone.png"), full_page=True)
    page.click("#poker-kept")
    expect(page.locator(f"{DIALOG_JOKER}[open]")).to_be_visible()
    expect(page.locator("#poker-keep-joker")).to_be_hidden()
    choose_joker_value(page, 13)
    cell(page, 24).click()
    expect(page.locator(f"{DIALOG_END}[open]")).to_be_visible()
    total = page.inner_text("#poker-total")
    expect(page.locator("[data-testid=end-score]")).to_have_text(total)
    expect(page.locator("[data-testid=end-record]")).to_contain_text("recorded in your profile")
    result = GameResult.objects.get()
    assert result.player == page.profile
    assert result.completed is True
    assert str(result.score) == total
    assert result.details["joker_cells"] == [1, 24]
    page.keyboard.press("Escape")
    expect(page.locator(f"{DIALOG_END}[open]")).to_have_count(0)
    expect(page.locator("#poker-new")).to_be_visible()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.screenshot(path=str(artifacts / "board-projector.png"), full_page=True)


def test_joker_dialog_can_be_cancelled_and_reopened(player_page):
    page = player_page
    start_rigged(page, [JOKER, 5, 5, 5])
    cell(page, 0).click()
    expect(page.locator(f"{DIALOG_JOKER}[open]")).to_be_visible()
    expect(page.locator(f"{DIALOG_JOKER} [data-value]")).to_have_count(13)
    page.keyboard.press("Escape")
    expect(page.locator(f"{DIALOG_JOKER}[open]")).to_have_count(0)
    expect(page.locator("#poker-hand")).to_have_text("★")
    page.click("#poker-hand")
    expect(page.locator(f"{DIALOG_JOKER}[open]")).to_be_visible()
    choose_joker_value(page, 9)
    expect(page.locator("#poker-hand")).to_have_text("★9")
    cell(page, 12).click()
    expect(page.locator("#poker-hand")).to_have_text("5")
    expect(cell(page, 12).locator(".poker-value")).to_have_text("9")
    assert SoloGame.objects.get().state["joker_cells"] == [12]


def test_keyboard_arrow_to_a_cell_and_enter_or_space_places_the_number(player_page):
    page = player_page
    first = start_rigged(page, [4, 8, 8])
    cell(page, 0).focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator("#poker-hand")).to_have_text("4")
    expect(cell(page, 1).locator(".poker-value")).to_have_text(str(first))
    # the focus moved on to the next free cell; the arrow selects the one after it
    expect(cell(page, 2)).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    expect(page.locator("#poker-hand")).to_have_text("8")
    expect(cell(page, 3).locator(".poker-value")).to_have_text("4")
    # the eye toggle hides the preview and remembers it
    page.click("#poker-preview-toggle")
    expect(page.locator("#poker-preview-toggle")).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".poker-gain:not(:empty)")).to_have_count(0)


def test_hard_game_forfeits_a_number_not_placed_in_time(player_page):
    page = player_page
    first = start_rigged(page, [6, 7, 8, 9], mode="hard", seconds=3)
    expect(page.locator("[data-testid=timer]")).to_be_visible()
    expect(page.locator("#poker-status")).to_contain_text(
        f"Time ran out: the number {first} was lost.", timeout=15_000
    )
    expect(page.locator("#poker-hand")).to_have_text("6")
    game = SoloGame.objects.get()
    assert game.state["forfeited"] >= 1
    assert game.mode == "hard" and game.seconds_per_card == 3
    cell(page, 0).click()
    expect(cell(page, 0).locator(".poker-value")).to_have_text(re.compile("^(6|7|8)$"))


def test_with_saving_off_the_game_runs_in_the_browser_and_is_not_recorded(player_page, asgi_server):
    page = player_page
    page.context.add_cookies([{"name": "matika_storage", "value": "off", "url": asgi_server}])
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    start(page)
    play_to_end(page)
    record = page.locator("[data-testid=end-record]")
    expect(record).to_contain_text("Saving is off")
    expect(record).to_contain_text("not recorded")
    assert not [url for url in requests if "/poker/api/" in url]
    assert SoloGame.objects.count() == 0
    assert GameResult.objects.count() == 0


def test_when_the_server_cannot_be_reached_the_game_goes_on_in_the_browser(player_page):
    page = player_page
    start(page)
    if page.locator(f"{DIALOG_JOKER}[open]").count():
        choose_joker_value(page, 7)
    free_cell(page).click()
    expect(page.locator(".poker-cell.is-filled")).to_have_count(1)
    page.route("**/poker/api/**", lambda route: route.abort())
    play_to_end(page)
    expect(page.locator(".poker-cell.is-filled")).to_have_count(25)
    record = page.locator("[data-testid=end-record]")
    expect(record).to_contain_text("could not be reached")
    expect(record).to_contain_text("not recorded")
    assert GameResult.objects.count() == 0


def test_a_game_started_without_the_server_plays_in_the_browser(player_page):
    page = player_page
    page.route("**/poker/api/**", lambda route: route.abort())
    start(page, mode="hard", seconds=300)
    expect(page.locator("#poker-info")).to_contain_text("not recorded")
    expect(page.locator("[data-testid=timer]")).to_be_visible()
    play_to_end(page)
    expect(page.locator("[data-testid=end-record]")).to_contain_text("not recorded")
    page.click("#poker-again")
    expect(page.locator(f"{DIALOG_END}[open]")).to_have_count(0)
    expect(page.locator(".poker-cell.is-filled")).to_have_count(0)


def test_a_reload_continues_the_server_game(player_page):
    page = player_page
    first = start_rigged(page, [3, 4, 5])
    cell(page, 7).click()
    expect(page.locator("#poker-hand")).to_have_text("3")
    page.reload()
    expect(page.locator("#poker-game")).to_be_visible()
    expect(cell(page, 7).locator(".poker-value")).to_have_text(str(first))
    expect(page.locator("#poker-hand")).to_have_text("3")
    cell(page, 8).click()
    expect(page.locator("#poker-hand")).to_have_text("4")
    assert SoloGame.objects.get().state["cells"][8] == 3


def test_a_reload_continues_a_browser_game(player_page, asgi_server):
    page = player_page
    page.context.add_cookies([{"name": "matika_storage", "value": "off", "url": asgi_server}])
    start(page)
    if page.locator(f"{DIALOG_JOKER}[open]").count():
        choose_joker_value(page, 7)
    cell(page, 4).click()
    expect(page.locator(".poker-cell.is-filled")).to_have_count(1)
    value = cell(page, 4).locator(".poker-value").inner_text()
    page.reload()
    expect(page.locator("#poker-game")).to_be_visible()
    expect(cell(page, 4).locator(".poker-value")).to_have_text(value)
    expect(page.locator("#poker-info")).to_contain_text("not recorded")
