"""Hints and the after-game review: the best move of a position, per turn."""

import random

from games.abaku.rules import (
    JOKER,
    Board,
    all_moves,
    apply,
    best_move,
    evaluate_move,
    new_game,
    review,
    robot_action,
)

from .abaku_helpers import random_position


def test_the_hint_is_a_highest_scoring_legal_move() -> None:
    board = random_position(21, 5)
    rack = [1, 2, 3, 6, 8]
    hint = best_move(board, rack)
    assert hint.score == max(m.score for m in all_moves(board, rack))
    assert evaluate_move(board, hint.placements).score == hint.score


def test_the_hint_does_not_spend_a_joker_for_nothing() -> None:
    board = random_position(4, 3)
    rack = [JOKER, 1, 2, 3, 6]
    moves = all_moves(board, rack)
    hint = best_move(board, rack)
    top = [m for m in moves if m.score == hint.score]
    assert hint.score == max(m.score for m in moves)
    assert sum(p.joker for p in hint.placements) == min(
        sum(p.joker for p in m.placements) for m in top
    )


def test_no_move_no_hint() -> None:
    assert best_move(Board.empty(), [4]) is None


def _robot_game(levels: list[str], seed: int):  # noqa: ANN202
    initial = new_game(levels, seed=seed, rack_size=3, turn_seconds=None)
    state, actions = initial, []
    rng = random.Random(seed)
    while not state.finished:
        action = robot_action(state, levels[state.turn], rng)
        actions.append(action)
        state, _ = apply(state, action)
    return initial, actions, state


def test_review_lists_every_turn_with_the_best_move_available() -> None:
    initial, actions, final = _robot_game(["greedy", "easy"], seed=3)
    turns = review(initial, actions)
    assert len(turns) == len(actions)
    assert [t["player"] for t in turns] == [a.get("player", None) for a in actions]
    state = initial
    for turn, action in zip(turns, actions, strict=True):
        assert turn["best_score"] >= turn["score"] and turn["missed"] >= 0
        if turn["best"] is not None:
            assert evaluate_move(state.board, turn["best"]).score == turn["best_score"]
        if action["type"] == "place":
            assert turn["placements"] == action["placements"]
            if turn["player"] == 0:  # the greedy robot never misses a point
                assert turn["missed"] == 0
        else:
            assert turn["placements"] is None and turn["score"] == 0
        state, _ = apply(state, action)
    assert sum(t["score"] for t in turns if t["player"] == 1) > 0
    assert state == final


def test_the_review_of_the_weak_robot_shows_points_it_missed() -> None:
    initial, actions, _ = _robot_game(["easy", "greedy"], seed=8)
    turns = review(initial, actions)
    assert sum(t["missed"] for t in turns if t["player"] == 0) > 0
