"""The strong robot (level 4): legal, deterministic, and its cheap reply look-up
(``reply.near_moves``) is exactly the move generator on the lines it covers."""

import importlib.util
import math
import random
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.abaku.rules import (
    JOKER,
    STONE_SET,
    all_moves,
    apply,
    choose_move,
    evaluate_move,
    leave_table,
    new_game,
    robot,
    robot_action,
)
from games.abaku.rules.reply import ReplySearch, near_lines, near_moves
from games.abaku.rules.robot import unseen_stones

from .abaku_helpers import ALL_STONES, key, random_position

SLOW = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 8),
    bag_count=st.sampled_from([None, 40, 3, 0]),
)
def test_strong_robot_plays_a_legal_move_with_its_true_score(
    seed: int, moves: int, bag_count: int | None
) -> None:
    board = random_position(seed, moves)
    rng = random.Random(seed)
    rack = rng.sample(ALL_STONES, 5)
    move = choose_move(
        board, rack, "strong", random.Random(seed), bag_count=bag_count, opponent_racks=[5]
    )
    options = all_moves(board, rack)
    if not options:
        assert move is None
        return
    assert move is not None
    assert evaluate_move(board, move.placements).score == move.score
    assert key(move.placements) in {key(m.placements) for m in options}
    kinds = [JOKER if p.joker else p.digit for p in move.placements]
    for kind in set(kinds):
        assert kinds.count(kind) <= rack.count(kind)


def test_strong_robot_is_deterministic_for_a_seed() -> None:
    board = random_position(21, 5)
    rack = [1, 2, 4, 6, 9]
    first = [choose_move(board, rack, "strong", random.Random(s)) for s in range(3)]
    again = [choose_move(board, rack, "strong", random.Random(s)) for s in range(3)]
    assert first == again


def _greedy_until_the_bag_is_empty(seed: int):  # noqa: ANN202
    state = new_game(["a", "b"], seed=seed, turn_seconds=None)
    rng = random.Random(seed)
    while state.bag and not state.finished:
        state, _ = apply(state, robot_action(state, "greedy", rng))
    return state


def test_strong_robot_in_the_exact_endgame_is_deterministic_and_legal() -> None:
    """Bag empty: the unseen stones are exactly the one opponent's rack, and the
    strong robot's look-ahead still sends an action the engine accepts."""
    for seed in (3, 4):
        state = _greedy_until_the_bag_is_empty(seed)
        if state.finished:
            continue
        seat = state.turn
        theirs = state.players[1 - seat].rack
        assert sorted(unseen_stones(state.board, state.players[seat].rack).elements()) == sorted(
            theirs
        )
        action = robot_action(state, "strong", random.Random(seed))
        assert action == robot_action(state, "strong", random.Random(seed))
        after, events = apply(state, action)
        assert events[0]["player"] == seat


@SLOW
@given(seed=st.integers(0, 10**6), moves=st.integers(1, 8), size=st.integers(1, 5))
def test_near_moves_are_all_moves_on_the_lines_near_the_cells(
    seed: int, moves: int, size: int
) -> None:
    board = random_position(seed, moves)
    stones = [(r, c) for r, c, _ in board.stones()]
    rng = random.Random(seed)
    cells = rng.sample(stones, min(len(stones), 2))
    rack = rng.sample(ALL_STONES, size)
    rows, cols = near_lines(cells)

    def on_near_line(move) -> bool:  # noqa: ANN001
        rs = {p.row for p in move.placements}
        cs = {p.col for p in move.placements}
        if len(move.placements) == 1:
            return rs <= rows or cs <= cols
        return (len(rs) == 1 and rs <= rows) or (len(cs) == 1 and cs <= cols)

    expected = {(key(m.placements), m.score) for m in all_moves(board, rack) if on_near_line(m)}
    got = {(key(m.placements), m.score) for m in near_moves(board, rack, cells)}
    assert got == expected


def test_near_lines_are_the_bounding_box_grown_by_one_inside_the_board() -> None:
    assert near_lines([(7, 7), (7, 9)]) == ({6, 7, 8}, {6, 7, 8, 9, 10})
    assert near_lines([(0, 14)]) == ({0, 1}, {13, 14})


@SLOW
@given(seed=st.integers(0, 10**6), moves=st.integers(0, 8), size=st.integers(1, 5))
def test_a_reused_reply_search_lists_exactly_all_moves_on_every_board(
    seed: int, moves: int, size: int
) -> None:
    """One rack's search serves several boards (its caches depend on line
    patterns only): on each it gives all_moves' list, in the same order."""
    rng = random.Random(seed)
    rack = rng.sample(ALL_STONES, size)
    search = ReplySearch(rack)
    for board in (random_position(seed, moves), random_position(seed + 1, moves + 2)):
        assert search.all_moves(board) == all_moves(board, rack)
        cells = [(r, c) for r, c, _ in board.stones()][:1] or [(7, 7)]
        assert search.near_moves(board, cells) == near_moves(board, rack, cells)


def test_the_generated_leave_table_values_every_stone_kind() -> None:
    """games/abaku/rules/leave_table.py is generated by bench/abaku_fit_leave.py:
    one finite value per stone kind (digits and the joker), a duplicate penalty,
    and the fit's provenance; the strong robot reads exactly these values."""
    assert set(leave_table.LEAVE_VALUES) == set(STONE_SET)
    assert all(math.isfinite(v) and abs(v) < 100 for v in leave_table.LEAVE_VALUES.values())
    assert 0 <= leave_table.DUPLICATE_PENALTY < 50
    assert leave_table.GAMES >= 100 and leave_table.SAMPLES > leave_table.GAMES
    assert robot.STRONG_LEAVE_VALUE == leave_table.LEAVE_VALUES
    # keeping two of a kind is worth less than the two values alone
    two = robot._leave_value([5, 5])
    assert two == 2 * leave_table.LEAVE_VALUES[5] - leave_table.DUPLICATE_PENALTY


def test_the_leave_fit_recovers_known_values() -> None:
    """The fit of bench/abaku_fit_leave.py on synthetic samples whose next-move
    points are exactly 100 + 10 per kept 9 - 20 per kept 0 - 5 per duplicate."""
    fit_module = _load_fit_script()
    rng = random.Random(0)
    data = []
    for _ in range(3000):
        leave = rng.sample(ALL_STONES, rng.randint(0, 4))
        dup = sum(n - 1 for n in Counter(leave).values() if n > 1)
        data.append((leave, 100 + 10 * leave.count(9) - 20 * leave.count(0) - 5 * dup))
    result = fit_module.fit(data)
    # the fit's small ridge (for the rare joker) shrinks rare kinds a little
    assert abs(result["values"]["9"] - 10) < 2 and abs(result["values"]["0"] + 20) < 2
    assert abs(result["values"]["5"]) < 1 and abs(result["duplicate_penalty"] - 5) < 1


def _load_fit_script():  # noqa: ANN202
    path = Path(__file__).resolve().parents[2] / "bench" / "abaku_fit_leave.py"
    spec = importlib.util.spec_from_file_location("abaku_fit_leave", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
