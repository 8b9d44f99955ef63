"""all_moves: every move it lists is legal with the same score, and it misses none."""

import random
from collections import Counter
from itertools import permutations, product

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.abaku.rules import (
    CENTRE,
    JOKER,
    Board,
    IllegalMove,
    all_moves,
    evaluate_move,
)

from .abaku_helpers import key, random_position
from .test_abaku_seed_example import seed_board

racks = st.lists(st.sampled_from([*range(10), JOKER]), min_size=1, max_size=5)


def brute_force(board: Board, rack: list[int]) -> dict[frozenset, int]:
    """Every legal move found by asking evaluate_move about every placement of
    the rack on every set of squares of one line that leaves no gap."""
    found = {}
    size = 15
    kinds = list(rack)
    for horizontal, line in product((True, False), range(size)):
        squares = [(line, k) if horizontal else (k, line) for k in range(size)]
        for start in range(size):
            chosen = []
            for r, c in squares[start:]:
                if board.stone(r, c) is not None:
                    if not chosen:
                        break
                    continue
                chosen.append((r, c))
                if len(chosen) > len(kinds):
                    break
                for order in set(permutations(kinds, len(chosen))):
                    digit_options = [range(10) if kind == JOKER else [kind] for kind in order]
                    for digits in product(*digit_options):
                        placements = [
                            (r0, c0, d, kind == JOKER)
                            for (r0, c0), d, kind in zip(chosen, digits, order, strict=True)
                        ]
                        try:
                            result = evaluate_move(board, placements)
                        except IllegalMove:
                            continue
                        found[key(placements)] = result.score
    return found


def test_first_move_list_covers_the_centre_and_reads_as_examples() -> None:
    moves = all_moves(Board.empty("plain"), [2, 4, 1, 3, 6])
    assert moves
    assert all(any((p.row, p.col) == CENTRE for p in m.placements) for m in moves)
    assert {
        (m.placements[0].digit, m.placements[1].digit) for m in moves if len(m.placements) == 2
    } >= {(2, 4), (4, 2)}


def test_first_move_with_one_stone_has_no_moves() -> None:
    assert all_moves(Board.empty(), [4]) == []


def test_seed_position_moves_all_evaluate_to_their_scores() -> None:
    board = seed_board(6)
    moves = all_moves(board, [2, 4, 1, 3, 6])
    assert len(moves) > 100
    for move in moves:
        assert evaluate_move(board, move.placements).score == move.score


def test_the_seed_turns_are_among_the_generated_moves() -> None:
    from .test_abaku_seed_example import SEED_TURNS

    for turn, (placements, _, score) in enumerate(SEED_TURNS):
        rack = [p[2] for p in placements]
        moves = {key(m.placements): m.score for m in all_moves(seed_board(turn), rack)}
        assert moves[key(placements)] == score


def test_moves_are_listed_once() -> None:
    board = random_position(3, 6)
    moves = all_moves(board, [1, 2, 2, JOKER, 5])
    assert len({key(m.placements) for m in moves}) == len(moves)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), turns=st.integers(0, 8), rack=racks)
def test_every_generated_move_is_accepted_with_the_same_score(
    seed: int, turns: int, rack: list[int]
) -> None:
    board = random_position(seed, turns)
    moves = all_moves(board, rack)
    sample = random.Random(seed).sample(moves, min(len(moves), 80))
    for move in sample:
        assert evaluate_move(board, move.placements).score == move.score
        used = Counter(JOKER if p.joker else p.digit for p in move.placements)
        assert not used - Counter(rack)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    turns=st.integers(0, 4),
    rack=st.lists(st.integers(0, 9), min_size=1, max_size=3),
    layout=st.sampled_from(["plain", "standard"]),
)
def test_brute_force_finds_no_move_that_all_moves_missed(
    seed: int, turns: int, rack: list[int], layout: str
) -> None:
    board = random_position(seed, turns, layout)
    generated = {key(m.placements): m.score for m in all_moves(board, rack)}
    assert brute_force(board, rack) == generated


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 4), digit=st.integers(0, 9))
def test_brute_force_agrees_on_racks_with_a_joker(seed: int, turns: int, digit: int) -> None:
    board = random_position(seed, turns)
    rack = [digit, JOKER]
    generated = {key(m.placements): m.score for m in all_moves(board, rack)}
    assert brute_force(board, rack) == generated
