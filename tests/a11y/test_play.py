"""Every game played with the keyboard alone, on pages that pass the checks of
``tests/a11y/pages.py`` (one shared live region, targets of 24 px, in view on a
phone, the first playable element within 6 plain Tab presses at both widths).

Each game page is opened once: the page checks run first, then the play.
"""

from __future__ import annotations

import random
import time

import pytest
from playwright.sync_api import expect

from games.abaku import review as abaku_review
from games.abaku.rules import GameState as AbakuGame
from games.rooms import services as rooms
from games.rooms.models import Room
from games.rooms.turntable import seat_of
from games.theorems.rules import GameState, robot_action
from tests.a11y.keyboard import PHONE, answer_joker, focused, poker_started, tab_until, tabs_to
from tests.a11y.pages import assert_read_out, check_page, listen, said
from tests.foundation import test_site_crawl as crawl
from tests.mathesso.cheat import next_moves

pytestmark = [pytest.mark.browser, pytest.mark.live]

POKER_CELL = "#poker-board button.poker-cell"
ABAKU_PLAYABLE = ".ab-cell, .ab-rack-stone"


def _label(page) -> str:
    return focused(page)["label"]


def _room(game: str, nickname: str, mode: str = "solo", **settings) -> tuple[str, dict]:
    me, cookies = crawl._player_cookie(nickname)
    room = crawl._room(game, mode, me, started=True, **settings)
    return f"/rooms/{room.code}/", cookies


def test_poker_is_played_to_the_end_with_the_keyboard(transactional_db, open_page):
    """Arrows, Home/End and Ctrl+Home/End move on the board; Enter places the number in
    hand (a joker's value is chosen in its dialog with Enter) until the board is full;
    each placement is one message of the shared announcer."""
    page = poker_started(open_page, PHONE)
    check_page(page, playable=POKER_CELL, targets="#poker-board .poker-cell", area="#poker-board")
    tabs_to(page, POKER_CELL)
    page.keyboard.press("Control+Home")
    assert _label(page).startswith("Row 1, column 1")
    page.keyboard.press("ArrowRight")
    assert _label(page).startswith("Row 1, column 2")
    page.keyboard.press("ArrowDown")
    assert _label(page).startswith("Row 2, column 2")
    page.keyboard.press("End")
    assert _label(page).startswith("Row 2, column 5")
    page.keyboard.press("Home")
    assert _label(page).startswith("Row 2, column 1")
    page.keyboard.press("Control+End")
    assert _label(page).startswith("Row 5, column 5")
    # the board is one Tab stop: Tab leaves it
    assert page.locator(f"{POKER_CELL}[tabindex='0']").count() == 1
    listen(page)
    end = page.locator("#poker-end-dialog")
    presses = 0
    for _move in range(80):
        if end.is_visible():
            break
        if page.locator("#poker-joker-dialog[open]").count() == 0:
            assert focused(page)["data"].get("cell") is not None, focused(page)
        before = len(said(page))
        page.keyboard.press("Enter")
        presses += 1
        page.wait_for_function(f"() => window.a11ySaid.length > {before}")
        if presses == 1:  # what the announcer says reaches the accessibility tree
            assert_read_out(page, said(page)[-1])
    expect(end).to_be_visible()
    assert page.locator(f"{POKER_CELL}.is-filled").count() == 25
    messages = said(page)
    # one message per key press: a placement ("In hand: 7"), a joker's value chosen
    assert len(messages) == presses, messages


def test_poker_pupils_room_page(transactional_db, open_page):
    """A pupil's page in a class's group game, a number drawn by the host."""
    host, _ = crawl._player_cookie("Hostitel")
    pupil, cookies = crawl._player_cookie("Bystrý Sokol")
    room = crawl._room("poker", "group", host, [pupil], started=True)
    rooms.submit(room_id=room.pk, player=host, client_id="draw-1", message={"type": "draw"})
    page = open_page(f"/rooms/{room.code}/", PHONE, cookies)
    cell = "[data-pr-board] button.poker-cell:not([disabled])"
    page.locator(cell).first.wait_for()
    answer_joker(page)
    # the whole board, its last row too, is on the first screen (as in solo poker)
    check_page(
        page,
        playable=cell,
        targets="[data-pr-board] .poker-cell",
        area="[data-pr-board]",
        in_view="whole",
    )


def test_abaku_is_played_to_the_end_with_the_keyboard(transactional_db, open_page):
    """Against a robot: Enter on a rack stone picks it, Shift+Tab returns to the board,
    the arrows go to the centre square, Enter lays the stone and Enter again takes it
    back; the hint's stones are played with "Play these stones"; three skips in a row
    end the game (the skipping player gives up), and the result is shown."""
    path, cookies, room_id = _abaku_room_with_a_hint()
    page = open_page(path, PHONE, cookies)
    mine = ".ab-rack-stone[draggable=true]"  # the player's turn
    page.locator(mine).first.wait_for()
    _caught_up(page, "[data-abaku-table]", room_id)  # keys act on the server's step
    check_page(page, playable=ABAKU_PLAYABLE, targets=ABAKU_PLAYABLE, area="[data-ab-board]")
    listen(page)
    tabs_to(page, ".ab-rack-stone")
    page.keyboard.press("Enter")
    expect(page.locator(".ab-rack-stone[aria-pressed=true]")).to_have_count(1)
    page.keyboard.press("Shift+Tab")
    assert _label(page).startswith("row "), focused(page)
    page.keyboard.press("Control+Home")
    for _step in range(7):
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowRight")
    assert _label(page).startswith("row 8, column 8"), focused(page)
    page.keyboard.press("Enter")
    if page.locator("[data-ab-joker][open]").count():
        # The rack's first stone is a joker (2 of the bag's 102 stones): it asks for its
        # digit first, and Enter takes the focused 0 (this, not a board drawn anew, was
        # the play-through's rare "no pending stone after Enter on a cell").
        page.keyboard.press("Enter")
        expect(page.locator("[data-ab-joker][open]")).to_have_count(0)
    expect(page.locator(".ab-pending")).to_have_count(1)
    assert "not played yet" in _label(page), focused(page)
    page.keyboard.press("Enter")
    expect(page.locator(".ab-pending")).to_have_count(0)
    assert _label(page).startswith("row 8, column 8"), focused(page)

    tab_until(page, "[data-ab-hint]")
    page.keyboard.press("Enter")
    expect(page.locator("[data-abaku-table][data-preview=ok]")).to_be_attached()
    tab_until(page, "[data-ab-confirm]", back=True)
    _abaku_move(page)
    for skip in range(3):
        tab_until(page, "[data-ab-skip]")
        page.keyboard.press("Enter")
        page.locator("dialog[open]").wait_for()
        page.keyboard.press("Tab")  # from Cancel to Yes
        _abaku_move(page, last=skip == 2)
    expect(page.locator("[data-ab-result]")).to_be_visible()
    print(said(page))


def _abaku_room_with_a_hint() -> tuple[str, dict, int]:
    """A room against a robot where the player moves first and the first rack has a
    move for the hint to show (a rack such as 2 6 9 2 6 has none: the hint then says
    "exchange or skip", which is right, but this test plays the hint's stones)."""
    for nickname in ("Bystrý Sokol", "Tichý Rys", "Chytrá Sova", "Hbitá Veverka", "Malý Ježek"):
        me, cookies = crawl._player_cookie(nickname)
        room = crawl._room("abaku", "solo", me, started=True, table_size=2, robot_delay_ms=0)
        state = room.state
        mine = AbakuGame.from_dict(state["game"]).turn == seat_of(state, me.pk)
        if mine and abaku_review.hint(state, player_id=me.pk)["placements"] is not None:
            return f"/rooms/{room.code}/", cookies, room.pk
    raise AssertionError("no room of five where the player starts with a move")


def _abaku_move(page, *, last: bool = False) -> None:
    """Enter on the focused button makes a move; wait until the robot answered."""
    version = page.get_attribute("[data-abaku-table]", "data-version")
    page.keyboard.press("Enter")
    if last:
        return
    page.wait_for_function(
        """(version) => {
          const table = document.querySelector("[data-abaku-table]");
          return table.dataset.version !== version && table.dataset.turn === "mine";
        }""",
        arg=version,
    )


# The arrow keys from the focused item to a target, shortest first: a breadth-first
# search over where each arrow leads (the kit's own `nearest`, as roving.js moves).
ROUTE = """async ([target, items]) => {
  const { nearest } = await import("/static/js/kit/roving.js");
  const all = [...document.querySelectorAll(items)].filter(
    (el) => !el.disabled && el.getClientRects().length
  );
  const goal = document.querySelector(target);
  const arrows = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
  const from = document.activeElement;
  const routes = new Map([[from, []]]);
  const queue = [from];
  while (queue.length) {
    const here = queue.shift();
    if (here === goal) return routes.get(here);
    for (const [key, step] of Object.entries(arrows)) {
      const there = nearest(all, here, step);
      if (there && !routes.has(there)) {
        routes.set(there, [...routes.get(here), key]);
        queue.push(there);
      }
    }
  }
  return null;
}"""


def walk_to(page, target: str, items: str) -> None:
    """Arrow keys from the focused item of a board to ``target`` (planned again when
    the board moved under the keys: a taken pair leaving the table)."""
    for _plan in range(3):
        keys = page.evaluate(ROUTE, [target, items])
        # Every item is reached by some arrows (roving.js; the nearest item by distance
        # alone once stranded a scattered Mathesso tile: this assertion's old flake).
        assert keys is not None, f"no arrow keys lead to {target}: {focused(page)}"
        for key in keys:
            page.keyboard.press(key)
        if page.evaluate("(t) => document.activeElement.matches(t)", target):
            return
    raise AssertionError(f"the arrow keys do not reach {target}: {focused(page)}")


def _caught_up(page, table: str, room_id: int) -> None:
    """Wait until the page's table shows the step the server holds (its data-seq: the
    seq of the snapshot or private view it drew last), so keys act on what the server has."""
    seq = Room.objects.values_list("seq", flat=True).get(pk=room_id)
    page.wait_for_function(
        "([table, seq]) => Number(document.querySelector(table).dataset.seq) >= seq",
        arg=[table, seq],
    )


def _state_after(room_id: int, before: dict, seconds: float = 30) -> dict:
    """The room's game state once a move changed it (the socket's move reached the server)."""
    for _poll in range(int(seconds / 0.05)):
        state = Room.objects.get(pk=room_id).state
        if state != before:
            return state
        time.sleep(0.05)
    raise AssertionError("the move did not reach the server")


def test_mathesso_is_played_to_the_end_with_the_keyboard(transactional_db, open_page):
    """A whole solo game of Atto (11 pairs): the order tile and every pair flipped with
    the arrows and Enter, a pair's extra turn declined with "End turn", until the end
    screen. The pairs are read from the server's state (the player's perfect memory)."""
    me, cookies = crawl._player_cookie("Bystrý Sokol")
    room = crawl._room("mathesso", "solo", me, started=True, variant="atto")
    page = open_page(f"/rooms/{room.code}/", PHONE, cookies)
    page.locator(".mt-tile").first.wait_for()
    # Atto's few tiles are big: the table's last row may need a scroll (Pico's is checked below)
    check_page(page, playable=".mt-tile", targets=".mt-tile", area="[data-board]", in_view="")
    listen(page)
    tabs_to(page, ".mt-tile")
    state = Room.objects.get(pk=room.pk).state
    end = page.locator("[data-end]")
    for _move in range(60):
        _caught_up(page, "[data-mathesso]", room.pk)
        moves = next_moves(state)
        if not moves:  # the game is over: the end card comes with the last snapshot
            break
        _player, message = moves[0]
        if message["type"] == "end_turn":
            tab_until(page, "[data-end-turn]", back=True)
        else:
            page.wait_for_function("() => !document.querySelector('.mt-tile.is-leaving')")
            if not page.evaluate("() => document.activeElement.matches('.mt-tile')"):
                tab_until(page, ".mt-tile")
            tile = f".mt-tile[data-tile-id='{message['tile']}']"
            page.locator(f"{tile}.is-playable").wait_for()  # the page has the server's turn
            walk_to(page, tile, ".mt-tile")
        before = len(said(page))
        page.keyboard.press("Enter")
        state = _state_after(room.pk, state)
        page.wait_for_function(f"() => window.a11ySaid.length > {before}")
    expect(end).to_be_visible()
    print(said(page))


def test_mathesso_default_table_on_a_phone(transactional_db, open_page):
    """The default variant's whole table (58 tiles) is in view at 360 x 740."""
    path, cookies = _room("mathesso", "Tichý Rys")
    page = open_page(path, PHONE, cookies)
    page.locator(".mt-tile").first.wait_for()
    check_page(page, playable=".mt-tile", targets=".mt-tile", area="[data-board]")


MARK = """(wanted) => {
  for (const el of document.querySelectorAll("[data-a11y-target]")) el.removeAttribute("data-a11y-target");
  const same = (a, b) => JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());
  const button = [...document.querySelectorAll("[data-action]")].find(
    (el) => el.getClientRects().length && same(JSON.parse(el.dataset.action), wanted)
  );
  if (!button) return null;
  button.setAttribute("data-a11y-target", "");
  return button.closest("[data-th-hand]") ? "hand" : "page";
}"""


def test_matematici_is_played_to_the_end_with_the_keyboard(transactional_db, open_page):
    """Against a robot: the deck chosen, the tutorial skipped and every action of the
    game (draw, play, prove, use, choose, end the turn) taken with Tab, the arrows in
    the hand and Enter, until the game is over. The player's choices are the planning
    robot's on the server's state (the test knows what to do; the keyboard does it)."""
    me, cookies = crawl._player_cookie("Bystrý Sokol")
    room = crawl._room("theorems", "table", me, started=True, table_size=2, robot_delay_ms=0)
    page = open_page(f"/rooms/{room.code}/", PHONE, cookies)
    page.locator("[data-choose-deck]").first.wait_for()
    tabs_to(page, "[data-choose-deck]", most=12)
    page.keyboard.press("Enter")
    page.locator("[data-theorems-table][data-phase=playing]").wait_for()
    playable = "[data-th-global] button, [data-th-hand] button"
    page.locator(playable).first.wait_for()
    if page.locator("[data-tutorial-skip]").is_visible():  # a first visit
        tab_until(page, "[data-tutorial-skip]", most=30)
        page.keyboard.press("Enter")
        expect(page.locator("[data-tutorial-skip]")).to_have_count(0)
    check_page(
        page,
        playable=playable,
        targets="[data-th-hand] button",
        area="[data-th-hand]",
        in_view="top",
    )
    listen(page)
    rng = random.Random(7)
    state = Room.objects.get(pk=room.pk).state
    seat = next(i for i, s in enumerate(state["seats"]) if s["player_id"] == me.pk)
    for _action in range(150):
        game = GameState.from_dict(state["game"])
        if game.status != "running":
            break
        if game.to_act != seat:
            state = _state_after(room.pk, state)
            continue
        wanted = {k: v for k, v in robot_action(game, rng).items() if k != "player"}
        _caught_up(page, "[data-theorems-table]", room.pk)  # the page shows the server's state
        page.wait_for_function(
            "() => document.querySelector('[data-theorems-table]').dataset.busy !== 'true'"
        )
        where = page.evaluate(MARK, wanted)
        assert where, f"no button for {wanted}"
        if where == "hand":
            if not page.evaluate("() => !!document.activeElement.closest('[data-th-hand]')"):
                tab_until(page, "[data-th-hand] button", most=30)
            walk_to(page, "[data-a11y-target]", "[data-th-hand] button")
        else:
            tab_until(page, "[data-a11y-target]", most=40)
        page.keyboard.press("Enter")
        if page.locator("dialog[open]").count():  # "End the turn anyway?"
            page.keyboard.press("Tab")
            page.keyboard.press("Enter")
        state = _state_after(room.pk, state)
    assert GameState.from_dict(state["game"]).status == "finished"
    expect(page.locator("[data-theorems-table]")).to_have_attribute("data-phase", "finished")
    print(said(page))
