"""The seed's six-turn worked example, premiums off (spec section 4)."""

import pytest

from games.abaku.rules import Board, evaluate_move

# The seed names each turn's examples and score; these squares reproduce them.
SEED_TURNS = [
    ([(7, 7, 2), (7, 8, 4)], {"2²=4"}, 6),
    ([(7, 6, 1), (7, 9, 3)], {"12:4=3"}, 10),
    ([(6, 8, 6), (8, 8, 2)], {"6-4=2", "√4=2"}, 18),
    ([(9, 7, 7), (9, 8, 4), (9, 9, 9)], {"7²=49", "6×4=24", "2²=4"}, 42),
    ([(8, 5, 1), (8, 6, 0), (8, 7, 5)], {"10:5=2", "2+5=7"}, 22),
    ([(10, 8, 8), (10, 9, 3), (10, 10, 5)], {"8-3=5", "2×4=8", "6+42=48", "√9=3"}, 66),
]


def seed_board(turns: int) -> Board:
    board = Board.empty("plain")
    for placements, _, _ in SEED_TURNS[:turns]:
        board = board.place(placements)
    return board


@pytest.mark.parametrize("turn", range(6))
def test_seed_turn_scores_and_examples_match_the_seed(turn: int) -> None:
    placements, texts, score = SEED_TURNS[turn]
    result = evaluate_move(seed_board(turn), placements)
    assert result.score == score
    assert sorted(e.text for e in result.examples) == sorted(texts)


def test_seed_game_scores_6_10_18_42_22_66_in_a_row() -> None:
    board = Board.empty("plain")
    scores = []
    for placements, _, _ in SEED_TURNS:
        scores.append(evaluate_move(board, placements).score)
        board = board.place(placements)
    assert scores == [6, 10, 18, 42, 22, 66]


def test_seed_turn_five_zero_touching_an_old_one_needs_no_example() -> None:
    result = evaluate_move(seed_board(4), SEED_TURNS[4][0])
    # the new 0 at (8, 6) sits under the old 1 at (7, 6): "1 0" reads as nothing
    assert all((8, 6) not in e.cells or e.text == "10:5=2" for e in result.examples)
