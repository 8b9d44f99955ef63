"""A pupil who presses fast does not lose a move.

A step's new view can reach the page before the answer (ack) to the message that
made it. A button of that newer view pressed in between is the player's next move:
the page sends it once the answer is in. On the old code the Matematici table
dropped it without a word (one message at a time), and the move never reached the
server. The answers are held back here in the page (HOLD_ACKS), so the gap is wide and
certain instead of a few milliseconds on a busy machine.
"""

from __future__ import annotations

import pytest

from games.rooms.models import Room
from games.theorems.rules import GameState, legal_actions
from tests.a11y.keyboard import PHONE
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
