"""A player leaves a Mathesso table: the engine's ``remove_player`` and the adapter's
``player_removed`` (no server; the rooms runtime is tested in tests/rooms)."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime

import pytest

from games.mathesso.adapter import MathessoSolo, MathessoTable, clean_settings
from games.mathesso.rules import (
    GameState,
    IllegalMove,
    apply_action,
    legal_actions,
    new_game,
    remove_player,
    result,
    view,
)
from games.rooms.registry import SeatInfo
from tests.mathesso.cheat import next_moves

from .helpers import assert_consistent, decide_order, flip, ids_of, miss, take, types

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TABLE = MathessoTable()


def started(players=("ann", "bob", "cid"), seed="leave"):
    """A game in play; players play in the order given."""
    state = new_game(list(players), "pico", seed=seed)
    ranks = ["mult:1x2", "mult:1x3", "mult:1x4", "mult:1x5"]
    state, _ = decide_order(state, dict(zip(players, ranks, strict=False)))
    assert state.order == list(players) and state.player == players[0]
    return state


def room_start(*ids: int) -> dict:
    seats = [SeatInfo(pid, f"P{pid}", "host" if i == 0 else "player") for i, pid in enumerate(ids)]
    return TABLE.start(
        settings=clean_settings({"variant": "pico"}), seats=seats, rng=random.Random(5), now=NOW
    ).state


def removed(adapter, state: dict, player_id: int):
    return adapter.player_removed(state, player_id=player_id, now=NOW, rng=random.Random(0))


def play_room(state: dict, rounds: int) -> dict:
    for _ in range(rounds):
        for player, message in next_moves(state):
            action = {"type": message["type"], "player": player, "tile": message.get("tile")}
            state = apply_action(GameState.from_dict(state), action)[0].to_dict()
    return state


# --- the engine -------------------------------------------------------------------


def test_the_player_on_turn_leaves_and_the_next_player_is_on_turn_at_once():
    state = started()
    first = ids_of(state, "mult:2x3")[0]
    state, _ = apply_action(state, flip("ann", first))  # one flip of an unfinished turn
    state, events = remove_player(state, "ann")
    assert types(events) == ["player_gone", "turned_back", "turn_started"]
    assert events[1]["tiles"] == [first]
    assert events[2] == {"type": "turn_started", "player": "bob", "round": 1, "extra": False}
    assert state.player == "bob" and state.flips == [] and state.gone == ["ann"]
    assert first not in state.face_up()
    assert legal_actions(state, "ann") == []
    with pytest.raises(IllegalMove) as refused:
        apply_action(state, flip("ann", ids_of(state, "mult:2x3")[1]))
    assert refused.value.code == "not_your_turn"
    assert_consistent(state)


def test_a_player_not_on_turn_leaves_and_is_skipped_from_then_on():
    state = started()
    state, events = remove_player(state, "bob")
    assert types(events) == ["player_gone"]
    assert state.player == "ann"
    state, events = miss(state)  # ann's turn ends without a pair: cid, not bob
    assert events[-1] == {"type": "turn_started", "player": "cid", "round": 1, "extra": False}
    state, events = miss(state)  # cid's turn: the round wraps back to ann
    assert events[-1] == {"type": "turn_started", "player": "ann", "round": 2, "extra": False}
    assert_consistent(state)


def test_the_last_one_on_the_order_leaves_on_turn_and_the_round_wraps():
    state = started()
    state, _ = miss(state)
    state, _ = miss(state)
    assert state.player == "cid"
    state, events = remove_player(state, "cid")
    assert events[-1] == {"type": "turn_started", "player": "ann", "round": 2, "extra": False}


def test_an_offered_extra_turn_lapses_when_its_player_leaves():
    state = new_game(["ann", "bob", "cid"], "pico", ["cjv"], seed="sheldon")
    state, _ = decide_order(state, {"ann": "mult:1x2", "bob": "mult:1x3", "cid": "mult:1x4"})
    state, _ = take(state, "cjv:1")
    state, _ = miss(state)
    state, _ = miss(state)
    state, _ = take(state, "cjv:3")  # ann completes a Sheldon: an extra turn is offered
    assert state.offer and state.player == "ann"
    state, events = remove_player(state, "ann")
    assert not state.offer and state.player == "bob"
    assert events[-1]["type"] == "turn_started"


def test_the_last_opponent_leaves_and_the_game_is_over_for_the_one_who_stayed():
    state = started(("ann", "bob"))
    state, _ = take(state, "mult:2x3")  # ann holds a pair
    state, _ = miss(state)
    state, _ = take(state, "mult:2x4")
    state, _ = take(state, "mult:2x5")  # ann takes another one: two for ann, none for bob
    state, events = remove_player(state, "ann")
    assert types(events) == ["player_gone", "game_over"]
    assert state.phase == "over"
    # ann scored more but left: the winner is who stayed
    assert events[-1]["winners"] == ["bob"] and result(state)["winners"] == ["bob"]
    assert all(legal_actions(state, p) == [] for p in state.seats)
    with pytest.raises(IllegalMove) as refused:
        remove_player(state, "bob")
    assert refused.value.code == "game_over"


def test_leaving_during_the_order_flips_is_not_waited_for():
    state = new_game(["ann", "bob", "cid", "dan"], "pico", seed="order")
    ones = {
        face: next(p.id for p in state.tiles if p.tile.face == face and p.tile.bw == 1)
        for face in ("mult:1x2", "mult:1x3", "mult:1x4")
    }
    state, _ = apply_action(state, flip("ann", ones["mult:1x2"]))
    state, events = remove_player(state, "ann")  # ann had flipped: her tile goes face down
    assert types(events) == ["player_gone", "turned_back"]
    assert events[1]["tiles"] == [ones["mult:1x2"]]
    assert state.waiting == ["bob", "cid", "dan"] and "ann" not in state.draws
    state, _ = apply_action(state, flip("cid", ones["mult:1x3"]))
    state, _ = apply_action(state, flip("dan", ones["mult:1x4"]))
    state, events = remove_player(state, "bob")  # the last one waited for leaves
    assert "order_decided" in types(events)
    assert state.phase == "play" and state.player == "cid"
    assert state.order == ["cid", "dan", "ann", "bob"]  # the ones who left sit at the end
    state, events = miss(state)
    assert events[-1]["player"] == "dan"
    state, events = miss(state)
    assert events[-1] == {"type": "turn_started", "player": "cid", "round": 2, "extra": False}


def test_the_order_flips_end_the_game_when_one_player_is_left():
    state = new_game(["ann", "bob"], "pico", seed="order")
    one = next(p.id for p in state.tiles if p.tile.bw == 1)
    state, _ = apply_action(state, flip("bob", one))
    state, events = remove_player(state, "ann")
    assert types(events) == ["player_gone", "turned_back", "game_over"]
    assert events[1]["tiles"] == [one] and state.face_up() == set()
    assert state.phase == "over" and result(state)["winners"] == ["bob"]


def test_leaving_twice_or_an_unknown_player_is_refused_with_a_code():
    state = started()
    state, _ = remove_player(state, "bob")
    for player, code in (("bob", "already_gone"), ("zed", "unknown_player")):
        with pytest.raises(IllegalMove) as refused:
            remove_player(state, player)
        assert refused.value.code == code


def test_the_state_keeps_who_left_and_older_states_read_as_nobody_left():
    state, _ = remove_player(started(), "bob")
    stored = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(stored).gone == ["bob"]
    del stored["gone"]
    assert GameState.from_dict(stored).gone == []
    players = {p["id"]: p for p in view(state, "ann")["players"]}
    assert players["bob"]["gone"] is True and players["ann"]["gone"] is False


def test_remove_player_leaves_the_given_state_untouched():
    state = started()
    before = state.to_dict()
    remove_player(state, "ann")
    assert state.to_dict() == before


# --- the adapter --------------------------------------------------------------------


def test_the_adapter_passes_the_turn_when_the_player_on_turn_leaves():
    state = play_room(room_start(1, 2, 3), rounds=1)  # the order is decided
    on_turn = GameState.from_dict(state).player
    outcome = removed(TABLE, state, int(on_turn))
    assert not outcome.finished
    assert outcome.public[0] == {"type": "player_gone", "player": on_turn}
    assert outcome.public[-1]["type"] == "turn_started"
    assert GameState.from_dict(outcome.state).player != on_turn


def test_the_adapter_ignores_watchers_unknown_ids_and_players_already_gone():
    state = play_room(room_start(1, 2, 3), rounds=1)
    assert removed(TABLE, state, 99) is None
    waiting = next(p for p in ("1", "2", "3") if p != GameState.from_dict(state).player)
    state = removed(TABLE, state, int(waiting)).state
    assert removed(TABLE, state, int(waiting)) is None
    assert removed(TABLE, {}, 1) is None
    assert removed(TABLE, TABLE.end(state, now=NOW), 1) is None  # the host ended it


def test_the_last_opponent_leaves_the_game_finishes_and_the_leaver_is_not_completed():
    state = play_room(room_start(1, 2), rounds=4)
    outcome = removed(TABLE, state, 2)
    assert outcome.finished
    assert [e["type"] for e in outcome.public][-1] == "game_over"
    results = {r.player_id: r for r in TABLE.results(outcome.state, {})}
    assert results[1].completed and results[1].rank == 1
    assert not results[2].completed and results[2].rank == 2
    assert results[2].details["left"] is True and results[1].details["left"] is False
    shown = TABLE.view(outcome.state, player_id=1, role="host", seat_state={})
    assert shown["phase"] == "over" and shown["result"]["winners"] == ["1"]


def test_solo_practice_is_unaffected():
    solo = MathessoSolo()
    state = solo.start(
        settings=clean_settings({"variant": "atto"}),
        seats=[SeatInfo(8, "P8", "host")],
        rng=random.Random(3),
        now=NOW,
    ).state
    before = json.dumps(state, sort_keys=True)
    assert removed(solo, state, 9) is None
    assert json.dumps(state, sort_keys=True) == before
    state = play_room(state, rounds=30)
    (result_,) = solo.results(state, {})
    assert result_.completed and result_.rank == 1 and result_.details["left"] is False
