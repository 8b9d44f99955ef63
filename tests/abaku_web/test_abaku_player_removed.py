"""A player leaves an Abaku table: the engine's ``remove_player`` / ``end_game`` and
the adapter's ``player_removed`` (no server; the rooms runtime is in tests/rooms)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from games.abaku.adapter import AbakuTable
from games.abaku.rules import GameState, IllegalMove, apply, new_game
from games.abaku.rules.game import end_game, remove_player
from games.rooms.errors import RoomError
from games.rooms.registry import SeatInfo

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TABLE = AbakuTable()


def game(players: int = 3, turn_seconds: float | None = 60) -> GameState:
    return new_game(
        [f"p{k}" for k in range(players)], seed=7, turn_seconds=turn_seconds, now=1000.0
    )


def start(ids=(1, 2), **settings) -> dict:
    seats = [SeatInfo(pid, f"P{pid}", "host" if i == 0 else "player") for i, pid in enumerate(ids)]
    settings = {"table_size": len(ids), "turn_seconds": 60, **settings}
    return TABLE.start(settings=settings, seats=seats, rng=random.Random(4), now=NOW).state


def removed(state: dict, player_id: int, now: datetime = NOW):
    return TABLE.player_removed(state, player_id=player_id, now=now, rng=random.Random(0))


def skip(state: dict, player_id: int, now: datetime = NOW) -> dict:
    return TABLE.apply(
        state,
        player_id=player_id,
        role="player",
        message={"type": "skip"},
        now=now,
        rng=random.Random(1),
    ).state


# --- the engine -------------------------------------------------------------------


def test_the_player_on_turn_leaves_and_the_next_one_gets_a_fresh_clock():
    state = game()
    state, events = remove_player(state, 0, now=1010.0)
    assert events == [
        {"type": "forfeited", "player": 0, "reason": "left"},
        {"type": "turn", "player": 1, "deadline": 1070.0},
    ]
    assert state.players[0].status == "forfeited" and state.turn == 1
    assert state.turn_started == 1010.0 and state.deadline == 1070.0
    assert state.history[-1] == events[0]
    assert apply(state, {"type": "skip", "player": 1, "now": 1011.0})[0].turn == 2
    with pytest.raises(IllegalMove) as refused:
        apply(state, {"type": "skip", "player": 0, "now": 1011.0})
    assert refused.value.code == "not_your_turn"


def test_a_player_not_on_turn_leaves_and_is_skipped_from_then_on():
    state = game()
    stones = state.stone_count()
    state, events = remove_player(state, 1, now=1010.0)
    assert events == [{"type": "forfeited", "player": 1, "reason": "left"}]
    assert state.turn == 0 and state.deadline == 1060.0  # the clock on turn runs on
    state, events = apply(state, {"type": "skip", "player": 0, "now": 1020.0})
    assert events[-1]["player"] == 2
    assert state.stone_count() == stones  # the leaver's stones stay on their rack


def test_the_last_opponent_leaves_and_the_game_ends_without_an_adjustment():
    state, events = remove_player(game(players=2), 1, now=1010.0)
    assert state.finished and state.deadline is None
    assert state.result["reason"] == "forfeit" and state.result["winners"] == [0]
    assert state.result["adjustments"] == [0, 0]
    assert [e["type"] for e in events] == ["forfeited", "game_over"]
    with pytest.raises(IllegalMove) as refused:
        remove_player(state, 0)
    assert refused.value.code == "game_over"


def test_leaving_twice_changes_nothing_and_a_bad_seat_is_refused():
    state, _ = remove_player(game(), 2)
    again, events = remove_player(state, 2)
    assert (again, events) == (state, [])
    for seat in (5, -1, "0", True):
        with pytest.raises(IllegalMove) as refused:
            remove_player(state, seat)
        assert refused.value.code == "malformed_action"


def test_end_game_closes_a_running_game_as_it_stands():
    state, events = end_game(game(), "robots_only")
    assert state.finished and state.result["reason"] == "robots_only"
    assert state.result["closer"] is None and events[-1]["type"] == "game_over"


# --- the adapter --------------------------------------------------------------------


def test_the_guest_on_turn_leaves_and_the_robot_plays_next():
    state = start(ids=(1, 2), table_size=3)
    state = skip(state, 1)  # the guest (seat 1) is on turn
    later = NOW + timedelta(seconds=5)
    outcome = removed(state, 2, now=later)
    assert not outcome.finished
    assert outcome.public[0] == {"type": "forfeited", "player": 1, "reason": "left"}
    assert outcome.public[1]["type"] == "turn" and outcome.public[1]["player"] == 2
    assert outcome.state["seats"][1]["left"] is True
    assert outcome.state["robot_due"] is not None  # the robot plays after its delay
    assert TABLE.next_deadline(outcome.state) > later
    ticked = TABLE.tick(outcome.state, now=later + timedelta(seconds=1), rng=random.Random(3))
    assert ticked.state["game"]["turn"] == 0  # robot done, the host again, not the leaver


def test_a_guest_not_on_turn_leaves_and_the_host_keeps_the_turn_and_clock():
    state = start(ids=(1, 2, 3))
    outcome = removed(state, 3, now=NOW + timedelta(seconds=5))
    assert not outcome.finished
    assert outcome.state["game"]["turn"] == 0
    assert TABLE.next_deadline(outcome.state) == NOW + timedelta(seconds=60)
    seats = outcome.public[-1]["view"]["seats"]
    assert [s["left"] for s in seats] == [False, False, True]
    state = skip(outcome.state, 1)
    assert state["game"]["turn"] == 1
    state = skip(state, 2)
    assert state["game"]["turn"] == 0  # seat 2 is skipped


def test_the_last_opponent_leaves_and_the_game_ends_with_results():
    state = start(ids=(1, 2))
    outcome = removed(state, 2)
    assert outcome.finished and outcome.state["phase"] == "finished"
    assert outcome.state["finished_at"] == NOW.isoformat()
    results = {r.player_id: r for r in TABLE.results(outcome.state, {})}
    assert results[1].completed and results[1].rank == 1
    assert results[1].details["outcome"] == "win"
    assert not results[2].completed and results[2].rank == 2
    assert results[2].details["left"] is True and results[2].details["forfeited"] is True


def test_when_only_robots_would_be_left_the_game_ends():
    state = start(ids=(1,), table_size=3)
    outcome = removed(state, 1)
    assert outcome.finished
    assert outcome.state["game"]["result"]["reason"] == "robots_only"
    (result,) = TABLE.results(outcome.state, {})
    assert not result.completed


def test_robots_keep_playing_while_a_human_is_left():
    state = start(ids=(1, 2), table_size=4)
    outcome = removed(state, 2)
    assert not outcome.finished
    assert [p["status"] for p in outcome.state["game"]["players"]] == [
        "active",
        "forfeited",
        "active",
        "active",
    ]


def test_watchers_unknown_ids_and_players_already_gone_change_nothing():
    state = start(ids=(1, 2, 3))
    assert removed(state, 99) is None
    state = removed(state, 3).state
    assert removed(state, 3) is None
    assert removed({}, 1) is None
    assert removed(TABLE.end(state, now=NOW), 1) is None
    with pytest.raises(RoomError) as refused:
        skip(state, 3)
    assert refused.value.code == "not_your_turn"
