"""The fast move generator gives exactly what the old one gave: the same moves,
in the same order, with the same scores (issues 26 and 31).

Robots, hints, reviews and seeded games depend on the order of the move list,
so ``all_moves``, ``ReplySearch.all_moves`` and ``near_moves`` are compared
element by element with the frozen old generator (``movegen_reference``) on
positions from seeded robot games (empty board to nearly full) and on boards
reached by random play, with racks drawn to include jokers, repeated digits
and short racks.
"""

import random
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.abaku.rules import JOKER, Board, all_moves, apply, new_game, robot_action
from games.abaku.rules.reply import ReplySearch, near_moves

from . import movegen_reference as reference
from .abaku_helpers import random_position

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def game_boards(seed: int) -> tuple[tuple[Board, tuple[int, ...]], ...]:
    """Every board of a seeded greedy-vs-greedy game, with the rack on turn."""
    state = new_game(["greedy", "greedy"], seed=seed, turn_seconds=None)
    rng = random.Random(seed)
    boards = []
    while not state.finished:
        boards.append((state.board, state.players[state.turn].rack))
        state, _ = apply(state, robot_action(state, "greedy", rng))
    boards.append((state.board, ()))
    return tuple(boards)


@st.composite
def racks(draw: st.DrawFn) -> list[int]:
    """1-5 stones; repeated digits are likely (few kinds drawn from), a joker
    often, two jokers only on short racks (the old generator is slow there)."""
    kinds = draw(st.lists(st.integers(0, 9), min_size=1, max_size=5))
    size = draw(st.integers(1, 5))
    rack = [draw(st.sampled_from(kinds)) for _ in range(size)]
    jokers = draw(st.sampled_from([0, 0, 1, 1, 2]))
    if jokers == 2 and len(rack) > 2:
        jokers = 1
    for _ in range(jokers):
        rack[draw(st.integers(0, len(rack) - 1))] = JOKER
    return draw(st.permutations(rack))


def assert_same(board: Board, rack: list[int], rng: random.Random) -> None:
    expected = reference.all_moves(board, rack)
    assert all_moves(board, rack) == expected
    search = ReplySearch(rack)
    assert search.all_moves(board) == expected
    stones = [(r, c) for r, c, _ in board.stones()]
    if stones:
        cells = rng.sample(stones, min(2, len(stones)))
        want = reference.ReplySearch(rack).near_moves(board, cells)
        assert near_moves(board, rack, cells) == want
        assert search.near_moves(board, cells) == want


@SETTINGS
@given(at=st.floats(0, 1), rack=racks())
def test_the_same_moves_in_the_same_order_on_real_game_positions(
    at: float, rack: list[int]
) -> None:
    boards = game_boards(1)
    board, _ = boards[min(len(boards) - 1, int(at * len(boards)))]
    assert_same(board, rack, random.Random(len(board)))


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    turns=st.integers(0, 5),
    layout=st.sampled_from(["standard", "plain"]),
    rack=racks(),
)
def test_the_same_moves_in_the_same_order_after_random_play(
    seed: int, turns: int, layout: str, rack: list[int]
) -> None:
    assert_same(random_position(seed, turns, layout), rack, random.Random(seed))


def test_the_racks_really_dealt_in_a_game_give_the_same_moves_all_game_long() -> None:
    """One seeded game, every fifth turn, the rack the player really held; then
    the same rack on the next board too (the generator keeps a rack's search
    between calls: it must not carry anything board-specific over)."""
    boards = game_boards(1)
    rng = random.Random(1)
    for turn in range(2, len(boards) - 1, 5):
        board, rack = boards[turn]
        assert_same(board, list(rack), rng)
        following = boards[turn + 1][0]
        assert all_moves(following, rack) == reference.all_moves(following, rack)


def test_no_stones_and_bad_stones_behave_as_before() -> None:
    board = game_boards(1)[6][0]
    assert all_moves(board, []) == reference.all_moves(board, []) == []
    assert all_moves(Board.empty(), [4]) == reference.all_moves(Board.empty(), [4]) == []
    for bad in ([11], [-1], ["3"]):
        try:
            all_moves(board, bad)
        except Exception as error:  # noqa: BLE001
            new = (type(error), getattr(error, "code", None))
        try:
            reference.all_moves(board, bad)
        except Exception as error:  # noqa: BLE001
            old = (type(error), getattr(error, "code", None))
        assert new == old
