"""The rooms runtime's turn table (games/rooms/turntable.py) and the one ranking
function (games/rooms/ranking.py), driven through the tiny count game's engine
(tests/plugin/tinyturns/): pure calls, no database."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from core import registry as game_registry
from games.rooms.errors import RoomError
from games.rooms.ranking import competition_ranks, ranked, ranks_by
from games.rooms.registry import SeatInfo
from games.rooms.turntable import ENDED, FINISHED, PLAYING, TurnEngine, TurnTable
from tests.plugin.tinyturns.game import CountTable

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


class RecordingTable(CountTable):
    record_actions = True


def _seats(*ids: int) -> list[SeatInfo]:
    roles = ["host"] + ["player"] * (len(ids) - 1)
    return [SeatInfo(pid, f"P{pid}", role) for pid, role in zip(ids, roles, strict=True)]


def _start(table: TurnTable, *ids: int, **settings):
    settings = {"goal": 5, "robot_delay_ms": 700, **settings}
    return table.start(settings=settings, seats=_seats(*ids), rng=random.Random(1), now=NOW)


def _add(table: TurnTable, state: dict, player_id: int, by: int, now=NOW):
    message = {"type": "add", "by": by}
    return table.apply(
        state, player_id=player_id, role="player", message=message, now=now, rng=random.Random(2)
    )


# --- ranking ---------------------------------------------------------------------


def test_equal_keys_share_a_rank_and_the_next_rank_skips_their_places():
    assert competition_ranks([9, 7, 7, 4]) == [1, 2, 2, 4]
    assert competition_ranks([(False, 9), (True, 1), (True, 1)]) == [3, 1, 1]
    assert competition_ranks([]) == []
    assert ranks_by({"a": 3, "b": 5, "c": 3}) == {"a": 2, "b": 1, "c": 2}


def test_ranked_entries_keep_their_input_order_among_equals():
    entries = [{"id": "x", "s": 1}, {"id": "y", "s": 2}, {"id": "z", "s": 1}]
    assert [(e["id"], e["rank"]) for e in ranked(entries, key=lambda e: e["s"])] == [
        ("y", 1),
        ("x", 2),
        ("z", 2),
    ]


# --- the engine contract ---------------------------------------------------------


def test_every_turn_table_plugs_in_an_engine_that_keeps_the_contract():
    tables = [
        adapter
        for spec in game_registry.games()
        for adapter in spec.rooms.values()
        if isinstance(adapter, TurnTable)
    ]
    assert {type(t).__name__ for t in tables} >= {"AbakuTable", "AbakuSolo", "TheoremsTable"}
    for table in [*tables, CountTable()]:
        assert isinstance(table.engine, TurnEngine), type(table.engine).__name__


# --- seats and robots -------------------------------------------------------------


def test_robots_fill_the_seats_nobody_took_up_to_the_table_size():
    outcome = _start(CountTable(), 7, table_size=3)
    seats = outcome.state["seats"]
    assert [s["player_id"] for s in seats] == [7, None, None]
    assert [bool(s["robot"]) for s in seats] == [False, True, True]
    assert outcome.state["phase"] == PLAYING
    assert outcome.public[0] == {"type": "table", "seats": CountTable().public_seats(outcome.state)}
    assert set(outcome.private) == {7}  # a view for every seated human, none for robots


def test_a_table_has_at_least_its_minimum_of_seats():
    assert len(_start(CountTable(), 7, table_size=1).state["seats"]) == 2


def test_public_seats_say_who_sits_where_and_who_left():
    assert CountTable().public_seats(_start(CountTable(), 7).state)[1] == {
        "seat": 1,
        "player_id": None,
        "nickname": None,
        "robot": "slow",
        "left": False,
    }


def test_a_player_without_a_seat_is_refused():
    state = _start(CountTable(), 7).state
    with pytest.raises(RoomError) as refused:
        _add(CountTable(), state, 99, 1)
    assert refused.value.code == "not_seated"


# --- robot pacing and the turn clock -------------------------------------------------


def test_a_robot_to_act_plays_exactly_once_and_only_when_its_moment_has_come():
    table = CountTable()
    state = _add(table, _start(table, 7).state, 7, 2).state
    due = datetime.fromisoformat(state["robot_due"])
    assert due == NOW + timedelta(milliseconds=700)
    assert table.next_deadline(state) == due
    assert table.tick(state, now=due - timedelta(milliseconds=1), rng=random.Random(3)) is None
    ticked = table.tick(state, now=due, rng=random.Random(3))
    assert ticked.state["game"]["counts"] == [2, 1]
    assert ticked.state["robot_due"] is None  # a human is to act again
    assert ticked.public[0] == {"type": "counted", "seat": 1, "by": 1}


def test_a_humans_turn_runs_out_on_the_engines_deadline():
    table = CountTable()
    state = _start(table, 7, 8, turn_seconds=30).state
    deadline = table.next_deadline(state)
    assert deadline == NOW + timedelta(seconds=30)
    assert table.tick(state, now=deadline - timedelta(seconds=1), rng=random.Random(3)) is None
    ticked = table.tick(state, now=deadline, rng=random.Random(3))
    assert ticked.state["game"]["turn"] == 1 and ticked.state["game"]["counts"] == [0, 0]


def test_nothing_is_due_without_a_clock_or_after_the_game():
    table = CountTable()
    state = _start(table, 7, 8).state
    assert table.next_deadline(state) is None
    assert table.tick(state, now=NOW + timedelta(days=1), rng=random.Random(3)) is None
    ended = table.end(state, now=NOW)
    assert ended["phase"] == ENDED and ended["robot_due"] is None
    assert table.next_deadline(ended) is None


# --- players leaving ----------------------------------------------------------------------


def test_a_leaver_is_out_and_their_turn_passes_on_at_once():
    table = CountTable()
    state = _start(table, 7, 8, 9).state
    outcome = table.player_removed(state, player_id=7, now=NOW, rng=random.Random(4))
    assert outcome.state["seats"][0]["left"] is True
    assert outcome.state["game"]["turn"] == 1
    assert not outcome.finished
    again = table.player_removed(outcome.state, player_id=7, now=NOW, rng=random.Random(4))
    assert again is None  # already gone
    assert table.player_removed(state, player_id=99, now=NOW, rng=random.Random(4)) is None


def test_a_table_where_only_robots_are_still_in_is_over():
    table = CountTable()
    state = _add(table, _start(table, 7, table_size=3).state, 7, 2).state
    outcome = table.player_removed(state, player_id=7, now=NOW, rng=random.Random(4))
    assert outcome.finished and outcome.state["phase"] == FINISHED
    assert {"type": "ended_early"} in outcome.public
    assert outcome.state["robot_due"] is None


def test_moves_after_the_game_are_refused():
    table = CountTable()
    state = _start(table, 7, 8, goal=2).state
    finished = _add(table, state, 7, 2).state
    assert finished["phase"] == FINISHED and finished["finished_at"] == NOW.isoformat()
    with pytest.raises(RoomError) as refused:
        _add(table, finished, 8, 1)
    assert refused.value.code == "game_over"


def test_a_recording_table_keeps_the_first_state_and_every_action_for_a_replay():
    table = RecordingTable()
    state = _start(table, 7, 8).state
    assert state["initial"] == state["game"] and state["actions"] == []
    state = _add(table, state, 7, 2).state
    state = table.player_removed(state, player_id=8, now=NOW, rng=random.Random(4)).state
    assert [a["type"] for a in state["actions"]] == ["add", "removed"]
    assert "actions" not in _start(CountTable(), 7).state


# --- results -------------------------------------------------------------------------------


def test_results_rank_every_seat_and_put_leavers_after_those_still_in():
    table = CountTable()
    state = _start(table, 7, 8, 9, goal=3).state
    state = _add(table, state, 7, 2).state
    state = _add(table, state, 8, 2).state
    state = table.player_removed(state, player_id=9, now=NOW, rng=random.Random(4)).state
    state = table.end(state, now=NOW + timedelta(seconds=42))
    results = {r.player_id: r for r in table.results(state, {})}
    assert {pid: r.rank for pid, r in results.items()} == {7: 1, 8: 1, 9: 3}
    assert not any(r.completed for r in results.values())  # the host ended it
    assert results[9].details == {"duration_s": 42.0, "players": 3, "robots": 0, "left": True}
