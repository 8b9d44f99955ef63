"""A player leaves a Matematici table: the engine's ``remove_player`` / ``end_game``
and the adapter's ``player_removed`` (no server; the rooms runtime is in tests/rooms)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from games.rooms.registry import SeatInfo
from games.theorems.adapter import TheoremsTable
from games.theorems.rules import (
    STARTER_DECKS,
    GameState,
    IllegalMove,
    end_game,
    legal_actions,
    remove_player,
)

from .theorems_helpers import act, all_cards, seat, table

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TABLE = TheoremsTable()


def started(humans: int, table_size: int) -> dict:
    seats = [SeatInfo(100 + i, f"P{i}", "host" if i == 0 else "player") for i in range(humans)]
    return TABLE.start(
        settings={"table_size": table_size, "robot_delay_ms": 500},
        seats=seats,
        rng=random.Random(1),
        now=NOW,
    ).state


def choose_deck(state: dict, player_id: int, starter=STARTER_DECKS[0]) -> dict:
    message = {
        "type": "deck",
        "name": starter.id,
        "mathematician": starter.mathematician,
        "cards": list(starter.deck),
    }
    return TABLE.apply(
        state, player_id=player_id, role="player", message=message, now=NOW, rng=random.Random(0)
    ).state


def dealt(humans: int, table_size: int) -> dict:
    state = started(humans, table_size)
    for i in range(humans):
        state = choose_deck(state, 100 + i, STARTER_DECKS[i % 2])
    assert state["phase"] == "playing"
    return state


def with_turn(state: dict, seat_: int) -> dict:
    """The same deal with ``seat_`` on turn (the start player is drawn at random)."""
    game = GameState.from_dict(state["game"])
    game.current = game.start_player = seat_
    return {**state, "game": game.to_dict()}


def removed(state: dict, player_id: int, now: datetime = NOW):
    return TABLE.player_removed(state, player_id=player_id, now=now, rng=random.Random(2))


# --- the engine -------------------------------------------------------------------


def test_the_player_on_turn_leaves_mid_choice_and_the_next_player_is_on_turn():
    state = table(seat(hand=("stolen_idea",)), seat("euclid"), seat("hypatia", hand=("rolle",)))
    cards = all_cards(state)
    state = act(state, "play", "stolen_idea")
    assert state.decision is not None and state.players[0].resolving == ["stolen_idea"]
    after = remove_player(state, 0)
    assert after.players[0].lost and after.decision is None and after.queue == []
    assert after.players[0].discard_pile == ["stolen_idea"]  # the event left unresolved
    assert after.current == 1 and after.to_act == 1 and after.status == "running"
    assert [e["type"] for e in after.log[-2:]] == ["left", "turn"]
    assert after.log[-2] == {"type": "left", "player": 0}
    assert all(a["player"] == 1 for a in legal_actions(after))
    assert all_cards(after) == cards
    assert state.decision is not None  # the given state is untouched


def test_a_player_not_on_turn_leaves_and_is_skipped_from_then_on():
    state = table(seat(), seat("euclid"), seat("hypatia"))
    after = remove_player(state, 1)
    assert after.players[1].lost and after.current == 0 and after.actions_left == 3
    assert after.log == [{"type": "left", "player": 1}]
    after = act(after, "end_turn")
    assert after.current == 2


def test_the_last_opponent_leaves_and_the_one_still_in_wins():
    after = remove_player(table(seat(), seat("euclid")), 0)
    assert after.status == "finished" and after.winners == [1]
    assert after.log[-1] == {"type": "game_over", "winners": [1]}
    with pytest.raises(IllegalMove) as refused:
        remove_player(after, 1)
    assert refused.value.code == "game_over"


def test_leaving_twice_changes_nothing_and_a_bad_seat_is_refused():
    state = remove_player(table(seat(), seat("euclid"), seat("hypatia")), 2)
    assert remove_player(state, 2).to_dict() == state.to_dict()
    for bad in (3, -1, "1", True):
        with pytest.raises(IllegalMove) as refused:
            remove_player(state, bad)
        assert refused.value.code == "malformed_action"


def test_end_game_closes_a_running_game_with_the_given_winners():
    state = end_game(table(seat(), seat("euclid")), [1])
    assert state.status == "finished" and state.winners == [1]


# --- the adapter --------------------------------------------------------------------


def test_the_human_on_turn_leaves_and_the_robot_acts_after_its_delay():
    state = with_turn(dealt(humans=2, table_size=3), 1)
    outcome = removed(state, 101)
    assert not outcome.finished
    assert outcome.public[0] == {"type": "seat_left", "seat": 1}
    entries = next(e["entries"] for e in outcome.public if e["type"] == "log")
    assert entries[0] == {"type": "left", "player": 1}
    assert entries[-1]["type"] == "turn" and entries[-1]["player"] == 2
    assert outcome.state["seats"][1]["left"] is True
    assert TABLE.next_deadline(outcome.state) == NOW + timedelta(milliseconds=500)
    ticked = TABLE.tick(outcome.state, now=NOW + timedelta(seconds=1), rng=random.Random(3))
    assert ticked.state["game"]["players"][1]["lost"]  # the robot played, the leaver is out


def test_a_human_not_on_turn_leaves_and_the_host_keeps_the_turn():
    state = with_turn(dealt(humans=3, table_size=3), 0)
    outcome = removed(state, 102)
    game = GameState.from_dict(outcome.state["game"])
    assert not outcome.finished and game.current == 0 and game.actions_left == 2
    assert game.players[2].lost
    seats = outcome.private[100][0]["view"]["seats"]
    assert seats[2]["left"] is True and "left" not in seats[0]


def test_the_last_opponent_leaves_and_the_game_ends_with_results():
    state = dealt(humans=2, table_size=2)
    outcome = removed(state, 101)
    assert outcome.finished and outcome.state["phase"] == "finished"
    results = {r.player_id: r for r in TABLE.results(outcome.state, {})}
    assert results[100].completed and results[100].rank == 1
    assert results[100].details["outcome"] == "win"
    assert not results[101].completed and results[101].rank == 2
    assert results[101].details["left"] is True


def test_when_only_robots_would_be_left_the_game_ends():
    state = dealt(humans=1, table_size=3)
    outcome = removed(state, 100)
    assert outcome.finished and outcome.state["game"]["status"] == "finished"
    assert outcome.state["game"]["winners"] == [1, 2]
    (result,) = TABLE.results(outcome.state, {})
    assert not result.completed


def test_robots_keep_playing_while_a_human_is_in():
    state = dealt(humans=2, table_size=4)
    outcome = removed(state, 101)
    assert not outcome.finished
    assert [p["lost"] for p in outcome.state["game"]["players"]] == [False, True, False, False]


def test_before_the_deal_a_robot_takes_the_seat_and_the_cards_are_dealt_when_ready():
    state = choose_deck(started(humans=2, table_size=2), 100)
    outcome = removed(state, 101)
    assert not outcome.finished
    assert outcome.state["seats"][1]["robot"] == 1 and outcome.state["seats"][1]["deck"]
    assert outcome.state["phase"] == "playing"  # the host was ready: dealt at once
    assert [e["type"] for e in outcome.public][:3] == ["seat_left", "table", "dealt"]
    assert {r.player_id for r in TABLE.results(outcome.state, {})} == {100}


def test_before_the_deal_a_table_without_humans_closes():
    outcome = removed(started(humans=1, table_size=2), 100)
    assert outcome.finished and outcome.state["phase"] == "ended"
    assert TABLE.results(outcome.state, {}) == []


def test_watchers_unknown_ids_and_players_already_gone_change_nothing():
    state = dealt(humans=3, table_size=3)
    assert removed(state, 99) is None
    state = removed(state, 102).state
    assert removed(state, 102) is None
    assert removed({}, 100) is None
    assert removed(TABLE.end(state, now=NOW), 100) is None
