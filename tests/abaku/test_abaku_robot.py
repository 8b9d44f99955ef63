"""Robots: legal moves at every level, the greedy one the best, whole games."""

import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.abaku.rules import (
    LEVELS,
    Board,
    GameState,
    all_moves,
    apply,
    choose_move,
    evaluate_move,
    new_game,
    robot_action,
)

from .abaku_helpers import random_position


def test_every_level_makes_a_legal_first_move() -> None:
    for level in LEVELS:
        move = choose_move(Board.empty(), [2, 4, 1, 3, 6], level, random.Random(1))
        assert evaluate_move(Board.empty(), move.placements).score == move.score


def test_greedy_plays_the_best_scoring_move() -> None:
    board = random_position(11, 6)
    rack = [1, 2, 3, 4, 6]
    move = choose_move(board, rack, "greedy", random.Random(2))
    assert move.score == max(m.score for m in all_moves(board, rack))


def test_strong_robot_plays_a_legal_move_among_the_best() -> None:
    board = random_position(12, 6)
    rack = [1, 2, 2, 5, 0]
    move = choose_move(board, rack, "strong", random.Random(3))
    assert evaluate_move(board, move.placements).score == move.score


def test_robot_without_a_move_exchanges_then_skips() -> None:
    state = new_game(["r", "p"], seed=1, turn_seconds=None)
    stuck = replace(state.players[0], rack=(0, 0))
    state = replace(state, players=(stuck, state.players[1]))
    action = robot_action(state, "greedy", random.Random(0))
    assert action == {"type": "exchange", "player": 0, "stones": [0, 0]}
    for _ in range(2):
        state, _ = apply(state, {"type": "exchange", "player": 0, "stones": [0, 0]})
        state = replace(state, players=(replace(state.players[0], rack=(0, 0)), state.players[1]))
        state, _ = apply(state, {"type": "skip", "player": 1})
    assert robot_action(state, "greedy", random.Random(0)) == {"type": "skip", "player": 0}


def play_out(levels: list[str], seed: int, rack_size: int) -> GameState:
    """A robot game to its end, checking after every action that no stone is
    lost or made, and at the end that the scores add up."""
    state = new_game(levels, seed=seed, rack_size=rack_size, turn_seconds=None)
    rng = random.Random(seed)
    points = Counter()
    for _ in range(500):
        if state.finished:
            break
        state, events = apply(state, robot_action(state, levels[state.turn], rng))
        assert state.stone_count() == 102
        for event in events:
            if event["type"] == "placed":
                points[event["player"]] += event["score"]
    assert state.finished
    result = state.result
    for seat, player in enumerate(state.players):
        assert player.score == points[seat] + result["adjustments"][seat]
    if result["reason"] == "last_stone":
        assert not state.bag and not state.players[result["closer"]].rack
    if result["closer"] is not None:
        # what the opponents lose the closer gains; its own leftovers do not count
        assert sum(result["adjustments"]) == 0
    if result["reason"] == "forfeit":
        assert not any(result["adjustments"])
    assert set(result["standings"]) == set(range(len(levels)))
    return state


# Small racks keep a whole game fast enough to play several per test run.
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    levels=st.lists(st.sampled_from(LEVELS), min_size=1, max_size=4),
    rack_size=st.sampled_from([2, 3]),
)
def test_robot_games_end_consistently(seed: int, levels: list[str], rack_size: int) -> None:
    play_out(levels, seed, rack_size)


def test_full_size_duel_ends_with_the_greedy_robot_ahead() -> None:
    state = play_out(["greedy", "beginner"], seed=4, rack_size=5)
    assert state.result["winners"] == [0]
