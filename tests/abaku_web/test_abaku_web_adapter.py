"""The Abaku room adapter: settings, seats, refusals, what each seat sees, robots, results."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from games.abaku.adapter import AbakuSolo, AbakuTable, loaded
from games.abaku.rules import LEVELS, GameState, all_moves
from games.rooms.errors import RoomError
from games.rooms.registry import SeatInfo

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def seats(*ids: int) -> list[SeatInfo]:
    return [
        SeatInfo(player_id=pid, nickname=f"P{pid}", role="host" if i == 0 else "player")
        for i, pid in enumerate(ids)
    ]


def start(adapter=None, settings=None, ids=(1,), seed=4):
    adapter = adapter or AbakuTable()
    return adapter, adapter.start(
        settings=settings or {}, seats=seats(*ids), rng=random.Random(seed), now=NOW
    )


def apply(adapter, state, player_id, message, now=NOW):
    return adapter.apply(
        state, player_id=player_id, role="player", message=message, now=now, rng=random.Random(1)
    )


def best_placements(state: dict) -> list:
    game = GameState.from_dict(state["game"])
    moves = all_moves(game.board, game.players[game.turn].rack)
    assert moves, "the seeded deal has a first move"
    return [list(p) for p in max(moves, key=lambda m: m.score).placements]


@pytest.mark.parametrize(
    "settings",
    [
        {"table_size": 1},
        {"table_size": 5},
        {"table_size": True},
        {"robot_level": "genius"},
        {"turn_seconds": 7},
        {"layout": "round"},
        {"robot_delay_ms": -1},
    ],
)
def test_bad_table_settings_are_refused_with_a_code(settings):
    with pytest.raises(RoomError) as refused:
        AbakuTable().clean_settings(settings)
    assert refused.value.code.startswith("bad_")


def test_solo_settings_allow_one_or_two_seats_and_never_a_clock():
    assert AbakuSolo().clean_settings({"table_size": 2, "turn_seconds": 60})["turn_seconds"] is None
    assert AbakuSolo().clean_settings({})["table_size"] == 1
    with pytest.raises(RoomError):
        AbakuSolo().clean_settings({"table_size": 3})


def test_robots_fill_the_empty_seats_of_a_table():
    _, outcome = start(settings={"table_size": 4, "robot_level": "medium"}, ids=(1, 2))
    table = outcome.state["seats"]
    assert [s["robot"] for s in table] == [None, None, "medium", "medium"]
    assert len(outcome.state["game"]["players"]) == 4


def test_a_player_without_a_seat_cannot_move():
    adapter, outcome = start(settings={"table_size": 2}, ids=(1,))
    with pytest.raises(RoomError) as refused:
        apply(adapter, outcome.state, 99, {"type": "skip"})
    assert refused.value.code == "not_seated"


def test_a_player_cannot_move_out_of_turn():
    adapter, outcome = start(settings={"table_size": 2}, ids=(1, 2))
    with pytest.raises(RoomError) as refused:
        apply(adapter, outcome.state, 2, {"type": "skip"})
    assert refused.value.code == "not_your_turn"


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "place", "placements": [[0, 0, 1], [0, 1, 1]]}, "not_in_rack"),
        ({"type": "place", "placements": []}, "no_stones"),
        ({"type": "place", "placements": "7,7,1"}, "no_stones"),
        ({"type": "place", "placements": [[7, 7, "x"]]}, "bad_placement"),
        ({"type": "exchange", "stones": []}, "bad_exchange"),
        ({"type": "exchange", "stones": "all"}, "bad_exchange"),
    ],
)
def test_illegal_moves_are_refused_and_keep_the_state(message, code):
    adapter, outcome = start(settings={"table_size": 2}, ids=(1,))
    before = json.dumps(outcome.state, sort_keys=True)
    with pytest.raises(RoomError) as refused:
        apply(adapter, outcome.state, 1, message)
    assert refused.value.code == code
    assert refused.value.message
    assert json.dumps(outcome.state, sort_keys=True) == before


def test_a_move_off_the_centre_is_refused_with_a_translated_code():
    adapter, outcome = start(settings={"table_size": 2}, ids=(1,))
    placements = best_placements(outcome.state)
    shifted = [[0, i, p[2], *p[3:]] for i, p in enumerate(placements)]
    with translation.override("en"), pytest.raises(RoomError) as refused:
        apply(adapter, outcome.state, 1, {"type": "place", "placements": shifted})
    assert refused.value.code == "off_centre"
    assert "centre" in refused.value.message
    with translation.override("cs"), pytest.raises(RoomError) as refused:
        apply(adapter, outcome.state, 1, {"type": "place", "placements": shifted})
    assert "prostředním poli" in refused.value.message


def test_a_legal_move_scores_what_the_engine_says_and_hands_the_turn_to_the_robot():
    adapter, outcome = start(settings={"table_size": 2}, ids=(1,))
    placements = best_placements(outcome.state)
    after = apply(adapter, outcome.state, 1, {"type": "place", "placements": placements})
    placed = next(e for e in after.public if e["type"] == "placed")
    assert placed["score"] == after.state["game"]["players"][0]["score"] > 0
    assert after.state["game"]["turn"] == 1
    assert after.state["robot_due"] is not None
    assert adapter.next_deadline(after.state) == NOW + timedelta(milliseconds=700)


def test_views_hide_other_racks_and_the_bag_order():
    adapter, outcome = start(settings={"table_size": 3}, ids=(1, 2))
    for player_id, seat in ((1, 0), (2, 1)):
        shown = adapter.view(outcome.state, player_id=player_id, role="player", seat_state={})
        assert shown["you"] == seat
        players = shown["game"]["players"]
        assert "rack" in players[seat]
        assert all("rack" not in p for i, p in enumerate(players) if i != seat)
        assert "bag" not in shown["game"] and "seed" not in shown["game"]
    spectator = adapter.view(outcome.state, player_id=None, role="spectator", seat_state={})
    assert all("rack" not in p for p in spectator["game"]["players"])
    # the pushed views follow the same rule: public has no rack, private only the own
    public_views = [e["view"] for e in outcome.public if e["type"] == "view"]
    assert public_views and all("rack" not in p for p in public_views[0]["game"]["players"])
    for events in outcome.private.values():
        mine = events[0]["view"]
        assert [("rack" in p) for p in mine["game"]["players"]] == [
            i == mine["you"] for i in range(3)
        ]
    text = json.dumps([outcome.public, outcome.private])
    assert '"bag":' not in text and '"seed"' not in text


def test_robot_seats_play_on_ticks_only_when_due():
    adapter, outcome = start(settings={"table_size": 2}, ids=(1,))
    state = apply(adapter, outcome.state, 1, {"type": "skip"}).state
    assert adapter.tick(state, now=NOW, rng=random.Random(2)) is None
    later = NOW + timedelta(seconds=1)
    ticked = adapter.tick(state, now=later, rng=random.Random(2))
    assert ticked is not None
    assert ticked.state["game"]["turn"] == 0
    assert ticked.state["game"]["history"][-1]["player"] == 1
    assert ticked.state["robot_due"] is None


def test_a_turn_that_runs_out_is_an_empty_turn():
    adapter, outcome = start(settings={"table_size": 2, "turn_seconds": 30}, ids=(1, 2))
    state = outcome.state
    due = adapter.next_deadline(state)
    assert due == NOW + timedelta(seconds=30)
    assert adapter.tick(state, now=NOW + timedelta(seconds=10), rng=random.Random(1)) is None
    timed = adapter.tick(state, now=due, rng=random.Random(1))
    assert timed.public[0] == {"type": "skipped", "player": 0, "reason": "timeout"}
    assert timed.state["game"]["turn"] == 1


def test_three_skips_with_stones_in_the_bag_forfeit_and_end_a_game_against_a_robot():
    adapter, outcome = start(AbakuSolo(), settings={"table_size": 2}, ids=(7,))
    state = outcome.state
    now = NOW
    for _ in range(3):
        result = apply(adapter, state, 7, {"type": "skip"}, now=now)
        state = result.state
        if result.finished:
            break
        now += timedelta(seconds=1)
        state = adapter.tick(state, now=now, rng=random.Random(5)).state
    assert result.finished and state["phase"] == "finished"
    assert state["game"]["result"]["reason"] == "forfeit"
    (record,) = adapter.results(state, {})
    assert record.player_id == 7
    assert record.details["outcome"] == "loss"
    assert record.details["forfeited"] is True
    assert record.details["duration_s"] is not None
    assert record.rank == 2 and record.completed


def test_a_whole_solo_practice_game_ends_and_gives_a_result():
    adapter, outcome = start(AbakuSolo(), settings={"table_size": 1}, ids=(5,), seed=11)
    state = outcome.state
    now = NOW
    for _ in range(3):
        result = apply(adapter, state, 5, {"type": "skip"}, now=now)
        state = result.state
    assert result.finished
    (record,) = adapter.results(state, {})
    assert record.details["outcome"] == "loss"  # the only player forfeited


def test_results_of_a_game_the_host_ended_are_not_completed():
    adapter, outcome = start(settings={"table_size": 2}, ids=(1, 2))
    ended = adapter.end(outcome.state, now=NOW + timedelta(seconds=5))
    assert adapter.next_deadline(ended) is None
    records = adapter.results(ended, {})
    assert {r.player_id for r in records} == {1, 2}
    assert all(not r.completed and r.details["outcome"] is None for r in records)
    with pytest.raises(RoomError):
        apply(adapter, ended, 1, {"type": "skip"})


def test_a_class_table_with_more_people_than_its_size_seats_them_all_without_robots():
    _, outcome = start(settings={}, ids=(1, 2, 3))
    assert [s["robot"] for s in outcome.state["seats"]] == [None, None, None]
    assert outcome.state["game"]["turn_seconds"] == 120


def test_a_lone_student_at_a_class_table_gets_a_robot():
    _, outcome = start(settings={}, ids=(1,))
    # a first game preselects level 1 (issue 19)
    assert [s["robot"] for s in outcome.state["seats"]] == [None, LEVELS[0]] == [None, "easy"]


def test_the_robot_levels_come_from_the_rules_and_old_ids_still_work():
    # five levels since issue 31 (``advanced`` between the learner and greedy),
    # 25 since issue 42 (steps between easy, medium and advanced)
    assert len(LEVELS) == 25 and LEVELS[0] == "easy" and LEVELS[-2:] == ("greedy", "strong")
    for level in LEVELS:
        assert AbakuTable().clean_settings({"robot_level": level})["robot_level"] == level
    # "beginner" was stored by rooms before the four levels: it plays level 1 now
    assert AbakuTable().clean_settings({"robot_level": "beginner"})["robot_level"] == "easy"
    # a rung of issue 42's first 27-level ladder plays the kept level next to it
    assert AbakuTable().clean_settings({"robot_level": "easy3"})["robot_level"] == "easy2"
    with pytest.raises(RoomError):
        AbakuTable().clean_settings({"robot_level": "hltoun"})
    with pytest.raises(RoomError):
        AbakuTable().clean_settings({"robot_level": ["easy"]})


def test_a_room_started_with_a_dropped_level_id_shows_the_level_it_plays():
    # A room started before the deploy that dropped ``easy3`` keeps that id in its
    # stored settings and robot seat. Read as the runtime hands it to the table
    # (a snapshot, a move), its views name the kept level the robot plays
    # (``easy2``), so the page finds the robot's name and, after a win, the next
    # robot of the ladder (both look the id up among the kept levels).
    adapter, outcome = start(settings={"robot_level": "easy2"}, ids=(1,))
    state = outcome.state
    state["settings"]["robot_level"] = "easy3"
    state["seats"][1]["robot"] = "easy3"
    snapshot = adapter.view(state, player_id=1, role="host", seat_state={})
    move = {"type": "place", "placements": best_placements(state)}
    step = apply(adapter, state, 1, move)
    pushed = [e["view"] for e in step.public if e["type"] == "view"]
    pushed += [e["view"] for e in step.private[1]]
    for view in (snapshot, *pushed):
        assert [s["robot"] for s in view["seats"]] == [None, "easy2"]
        assert view["settings"]["robot_level"] == "easy2"
    # an id the rules never had is shown as it is stored, never a traceback
    state["seats"][1]["robot"] = "hltoun"
    snapshot = adapter.view(state, player_id=1, role="host", seat_state={})
    assert snapshot["seats"][1]["robot"] == "hltoun"


def test_a_room_started_with_a_dropped_level_id_is_mapped_once_as_it_is_loaded():
    # The stored state is read through one mapping as the table takes it in: the
    # next stored state holds the current ids (later loads find nothing to map),
    # the robot plays its turn, and the pupil's result records the level played
    # (the profile's ladder marks it without a second mapping).
    adapter, outcome = start(AbakuSolo(), settings={"table_size": 2, "robot_level": "easy2"})
    state = outcome.state
    state["settings"]["robot_level"] = "easy3"
    state["seats"][1]["robot"] = "easy3"
    stored = apply(adapter, state, 1, {"type": "skip"}).state
    assert stored["settings"]["robot_level"] == "easy2" and stored["seats"][1]["robot"] == "easy2"
    assert state["settings"]["robot_level"] == "easy3"  # the state handed in is not changed
    assert loaded(stored) is stored  # nothing left to map
    ticked = adapter.tick(stored, now=NOW + timedelta(seconds=1), rng=random.Random(2))
    assert ticked is not None and ticked.state["game"]["history"][-1]["player"] == 1
    ended = adapter.end(state, now=NOW + timedelta(seconds=5))  # a stored old state
    (record,) = adapter.results(ended, {})
    assert record.details["robot_level"] == "easy2"
