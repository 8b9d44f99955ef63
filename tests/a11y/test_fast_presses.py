"""A pupil who presses fast does not lose a move.

(Matematici and a poker room's board; Abaku's table follows the same rule.)

A step's new view can reach the page before the answer (ack) to the message that
made it. A button of that newer view pressed in between is the player's next move:
the page sends it once the answer is in. On the old code the Matematici table
dropped it without a word (one message at a time), and the move never reached the
server. The answers are held back here in the page (HOLD_ACKS), so the gap is wide and
certain instead of a few milliseconds on a busy machine.
"""

from __future__ import annotations

import time

import pytest

from games.rooms import services as rooms
from games.rooms.models import Room, Seat
from games.theorems.rules import GameState, legal_actions
from tests.a11y.keyboard import PHONE, answer_joker
from tests.a11y.test_play import _caught_up, _state_after
from tests.foundation import test_site_crawl as crawl

pytestmark = [pytest.mark.browser, pytest.mark.live]

TABLE = "[data-theorems-table]"

# In the page before its scripts: the room socket's answers (acks) wait while
# window.holdAcks is set; window.releaseAcks() hands them over in order.
HOLD_ACKS = """(() => {
  const Native = window.WebSocket;
  const held = [];
  window.holdAcks = false;
  window.heldAcks = () => held.length;
  window.releaseAcks = () => {
    window.holdAcks = false;
    for (const [handler, event] of held.splice(0)) handler(event);
  };
  window.WebSocket = class extends Native {
    set onmessage(handler) {
      super.onmessage = (event) => {
        if (window.holdAcks && JSON.parse(event.data).type === "ack") held.push([handler, event]);
        else handler(event);
      };
    }
  };
})()"""


def _draws(game: GameState) -> int:
    return sum(1 for action in legal_actions(game) if action["type"] == "draw")


def test_a_move_pressed_before_the_last_one_was_answered_is_sent(transactional_db, open_page):
    me, cookies = crawl._player_cookie("Bystrý Sokol")
    room = crawl._room("theorems", "table", me, started=True, table_size=2, robot_delay_ms=0)
    page = open_page(
        f"/rooms/{room.code}/", PHONE, cookies, before=lambda page: page.add_init_script(HOLD_ACKS)
    )
    page.locator("[data-choose-deck]").first.click()
    page.locator(f"{TABLE}[data-phase=playing]").wait_for()
    if page.locator("[data-tutorial-skip]").is_visible():
        page.locator("[data-tutorial-skip]").click()
    state = Room.objects.get(pk=room.pk).state
    seat = next(i for i, s in enumerate(state["seats"]) if s["player_id"] == me.pk)
    while GameState.from_dict(state["game"]).to_act != seat:  # the robot's first turn
        state = _state_after(room.pk, state)
    game = GameState.from_dict(state["game"])
    assert game.actions_left >= 2 and _draws(game), game.actions_left
    _caught_up(page, TABLE, room.pk)

    page.evaluate("() => { window.holdAcks = true; }")
    page.locator("[data-action-type=draw]").click()
    state = _state_after(room.pk, state)
    _caught_up(page, TABLE, room.pk)  # the new view is drawn, its answer still held
    assert page.get_attribute(TABLE, "data-busy") == "true"
    assert _draws(GameState.from_dict(state["game"]))
    page.locator("[data-action-type=draw]").click()  # a button of the new view
    assert page.evaluate("() => window.heldAcks()") == 1
    page.evaluate("() => window.releaseAcks()")

    state = _state_after(room.pk, state)  # the second draw reached the server
    assert GameState.from_dict(state["game"]).actions_left == game.actions_left - 2


def _placed(room_id: int, player, count: int, seconds: float = 15) -> None:
    """Wait until the player's board on the server holds ``count`` numbers."""
    for _poll in range(int(seconds / 0.05)):
        cells = Seat.objects.get(room_id=room_id, player=player).state["cells"]
        if sum(value is not None for value in cells) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"the board on the server does not hold {count} numbers: {cells}")


def test_a_number_drawn_before_the_last_placement_was_answered_is_placed(
    transactional_db, open_page
):
    """A pupil's poker room board: the host draws the next number while the answer to
    the pupil's placement is still on its way; the pupil places the new number at once."""
    host, _ = crawl._player_cookie("Hostitel")
    pupil, cookies = crawl._player_cookie("Bystrý Sokol")
    room = crawl._room("poker", "group", host, [pupil], started=True)
    rooms.submit(room_id=room.pk, player=host, client_id="draw-1", message={"type": "draw"})
    page = open_page(
        f"/rooms/{room.code}/", PHONE, cookies, before=lambda page: page.add_init_script(HOLD_ACKS)
    )
    free = "[data-pr-board] button.poker-cell:not([disabled])"
    page.locator(free).first.wait_for()
    answer_joker(page)
    page.evaluate("() => { window.holdAcks = true; }")
    page.locator("[data-pr-board] [data-cell='0']").click()
    _placed(room.pk, pupil, 1)
    rooms.submit(room_id=room.pk, player=host, client_id="draw-2", message={"type": "draw"})
    page.locator(free).first.wait_for()  # the next number is in hand, the answer still held
    assert page.evaluate("() => window.heldAcks()") == 1
    answer_joker(page)
    page.locator("[data-pr-board] [data-cell='1']").click()
    page.evaluate("() => window.releaseAcks()")
    _placed(room.pk, pupil, 2)
