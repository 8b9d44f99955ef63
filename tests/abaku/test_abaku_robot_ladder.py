"""The robot ladder (issues 31 and 42: "each step is a climb a child can make").

Properties (hypothesis) for one level of each way of playing in the one level
table (the levels of one way share its code; every level is checked cheaply on
one move list below): only legal moves, and the same move (the same action)
for the same seed. Examples for the levels, and the table as the one source
of the levels, their names and their order.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.abaku.rules import (
    DEFAULT_LEVEL,
    JOKER,
    LEVEL_TABLE,
    LEVELS,
    all_moves,
    apply,
    choose_move,
    evaluate_move,
    new_game,
    robot,
    robot_action,
)
from games.abaku.rules.robot import BENCH_PLAYERS, LEVEL_BY_ID, OLD_LEVELS, share_move

from .abaku_helpers import ALL_STONES, random_position

racks = st.lists(st.sampled_from(sorted(set(ALL_STONES))), min_size=1, max_size=5)
# One level of each way of playing (percentile, share, best, strong): the
# property tests' cost stays that of four levels while the ladder has 25.
ONE_OF_EACH_PLAY = tuple({level.play: level.id for level in reversed(LEVEL_TABLE)}.values())


# Few examples per level: the strong robot's look-ahead costs about a second a
# move on the busy test machine.
@pytest.mark.parametrize("level", ONE_OF_EACH_PLAY)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    position=st.integers(0, 10_000),
    moves=st.integers(0, 6),
    rack=racks,
    seed=st.integers(0, 2**32),
)
def test_every_level_plays_only_legal_moves_and_the_same_one_for_a_seed(
    level: str, position: int, moves: int, rack: list[int], seed: int
) -> None:
    board = random_position(position, moves)
    rack = [k for k in rack if k != JOKER] or [1]  # a joker multiplies the search tenfold
    first = choose_move(board, rack, level, random.Random(seed), bag_count=40, opponent_racks=[5])
    again = choose_move(board, rack, level, random.Random(seed), bag_count=40, opponent_racks=[5])
    legal = all_moves(board, rack)
    if first is None:
        assert again is None and not legal
        return
    assert again is not None and first.placements == again.placements
    # legal on this board with these stones, scored as the rules score it
    assert evaluate_move(board, first.placements).score == first.score
    used = [JOKER if p.joker else p.digit for p in first.placements]
    for kind in used:
        rack.remove(kind)


@pytest.mark.parametrize("level", ONE_OF_EACH_PLAY)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), turns=st.integers(1, 3))
def test_robot_actions_are_deterministic_for_a_seed_and_accepted_by_the_rules(
    level: str, seed: int, turns: int
) -> None:
    def run() -> list[dict]:
        state = new_game(["a", "b"], seed=seed, turn_seconds=None)
        rng = random.Random(seed)
        actions = []
        for _ in range(turns):
            if state.finished:
                break
            action = robot_action(state, level, rng)
            state, _events = apply(state, action)  # IllegalMove would fail the test
            actions.append(action)
        return actions

    assert run() == run()


def test_the_level_table_is_the_one_source_of_the_levels() -> None:
    assert LEVELS == tuple(level.id for level in LEVEL_TABLE)
    assert len(set(LEVELS)) == len(LEVELS) == 25
    assert DEFAULT_LEVEL == LEVEL_TABLE[0].id == "easy"
    # the ids rooms stored before the ladder keep their place in it
    assert [lv for lv in LEVELS if not lv[-1].isdigit()] == [
        "easy",
        "medium",
        "advanced",
        "greedy",
        "strong",
    ]
    plays = [level.play for level in LEVEL_TABLE]
    assert plays == ["percentile"] * 13 + ["share"] * 10 + ["best", "strong"]
    # every level has its own name and its own description, in English (the
    # pages translate): the hub's ladder repeats no description (issue 42)
    names = [level.name for level in LEVEL_TABLE]
    assert len(set(names)) == len(names) and all(level.description for level in LEVEL_TABLE)
    descriptions = [level.description for level in LEVEL_TABLE]
    assert len(set(descriptions)) == len(descriptions)
    for level in LEVEL_TABLE:
        for low, high in (level.percentiles, level.shares):
            assert 0 <= low <= high <= 1
    # each way of playing climbs: each level's range starts and ends above the one below
    for play, field in (("percentile", "percentiles"), ("share", "shares")):
        ranges = [getattr(level, field) for level in LEVEL_TABLE if level.play == play]
        assert all(a[0] < b[0] and a[1] < b[1] for a, b in zip(ranges, ranges[1:], strict=False))
    # the bench players are each measured against levels of the table
    assert set(BENCH_PLAYERS) == {"median", "p75", "p90", "greedy"}
    assert all(set(levels) <= set(LEVELS) for levels in BENCH_PLAYERS.values())
    # level 3's successor aims at a share of the best score, below the best but close to it
    low, high = LEVEL_BY_ID["advanced"].shares
    assert LEVEL_BY_ID["advanced"].play == "share" and 0.5 < low < high <= 1


# The 27 rungs of issue 42's first ladder (commit 7ae7b5b), easiest first: a
# pupil's finished games, rooms and homework may have stored any of them.
LADDER_27 = (
    ["easy"]
    + [f"easy{k}" for k in range(2, 14)]
    + ["medium"]
    + [f"medium{k}" for k in range(2, 12)]
    + ["advanced", "greedy", "strong"]
)


# The 22 rungs of issue 42's second pass (commit 22e9ebc); the 25 rungs since
# the fourth pass keep all of them and add one in the middle of three steps.
LADDER_22 = (
    "easy easy2 easy4 easy5 easy7 easy8 easy10 easy11 easy13 medium medium2 medium3 medium4"
    " medium5 medium6 medium8 medium9 medium10 medium11 advanced greedy strong"
).split()
ADDED_25 = ("easy4_5", "easy6", "easy10_11")


def test_the_25_rungs_keep_the_22_in_order_and_split_three_steps() -> None:
    assert len(LADDER_22) == 22
    assert [lv for lv in LEVELS if lv in LADDER_22] == LADDER_22
    assert sorted(set(LEVELS) - set(LADDER_22)) == sorted(ADDED_25)
    # each added rung sits inside the step it splits, its range between its neighbours'
    for added, (below, above) in zip(
        ADDED_25, (("easy4", "easy5"), ("easy5", "easy7"), ("easy10", "easy11")), strict=True
    ):
        assert LEVELS.index(below) + 1 == LEVELS.index(added) == LEVELS.index(above) - 1
        low, high = (LEVEL_BY_ID[lv].percentiles for lv in (below, above))
        mid = LEVEL_BY_ID[added].percentiles
        assert low[0] < mid[0] < high[0] and low[1] < mid[1] < high[1]


def test_the_mole_sits_nearer_the_mouse_than_the_hedgehog() -> None:
    # issue 42's fifth pass: midway, easy6 won 53 % of 90 games against easy5
    # and lost 68 % against easy7, so it moved about two thirds of the way up
    below, mole, above = (LEVEL_BY_ID[lv].percentiles for lv in ("easy5", "easy6", "easy7"))
    for end in (0, 1):
        assert 0.6 < (mole[end] - below[end]) / (above[end] - below[end]) < 0.75


def test_every_id_a_pupil_may_have_stored_still_plays_as_a_neighbouring_kept_level() -> None:
    assert len(LADDER_27) == 27 and set(LEVELS) - set(ADDED_25) <= set(LADDER_27)
    for old in LADDER_27:
        if old in LEVELS:
            assert old not in OLD_LEVELS and robot.resolve_level(old) == old
            continue
        kept = robot.resolve_level(old)
        # the nearest kept rung below or above it in the old ladder
        below = max(i for i, lv in enumerate(LADDER_27[: LADDER_27.index(old)]) if lv in LEVELS)
        above = min(
            i for i, lv in enumerate(LADDER_27) if lv in LEVELS and i > LADDER_27.index(old)
        )
        assert kept in (LADDER_27[below], LADDER_27[above]), old
    assert robot.resolve_level("beginner") == "easy"
    assert set(OLD_LEVELS.values()) <= set(LEVELS) and not set(OLD_LEVELS) & set(LEVELS)


@pytest.fixture
def one_move_list(monkeypatch: pytest.MonkeyPatch) -> None:
    """The examples below ask a level for its move 20-40 times on one board and
    rack: the robot's move generator is asked once (the same board and rack give
    the same list) and a fresh copy is handed out each time, so only the level's
    choice runs again (a full generation costs up to a second on a busy machine)."""
    real = robot.all_moves
    seen: dict[tuple[int, tuple[int, ...]], tuple[object, list]] = {}

    def cached(board, rack):  # noqa: ANN001, ANN202
        key = (id(board), tuple(rack))
        if key not in seen:
            seen[key] = (board, real(board, rack))  # the board kept alive: its id stays its own
        return list(seen[key][1])

    monkeypatch.setattr(robot, "all_moves", cached)


def _rank(moves, move) -> tuple[float, float]:  # noqa: ANN001
    below = sum(m.score < move.score for m in moves) / len(moves)
    at_most = sum(m.score <= move.score for m in moves) / len(moves)
    return below, at_most


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    position=st.integers(0, 10_000),
    moves=st.integers(1, 6),
    rack=racks,
    share=st.floats(0, 1),
    seed=st.integers(0, 2**32),
)
def test_share_move_plays_the_score_nearest_to_the_share_of_the_best(
    position: int, moves: int, rack: list[int], share: float, seed: int
) -> None:
    board = random_position(position, moves)
    rack = [k for k in rack if k != JOKER] or [1]
    legal = all_moves(board, rack)
    if not legal:
        return
    move = share_move(legal, share, random.Random(seed))
    assert move in legal  # one of the legal moves, scored as the rules score it
    assert evaluate_move(board, move.placements).score == move.score
    target = share * max(m.score for m in legal)
    # no legal move's score is nearer to the target (ties go to the higher score)
    assert all(abs(m.score - target) >= abs(move.score - target) for m in legal)
    assert all(
        m.score <= move.score for m in legal if abs(m.score - target) == abs(move.score - target)
    )
    assert share_move(legal, share, random.Random(seed)) == move  # the same for a seed
    assert share_move(legal, 1.0, random.Random(seed)).score == max(m.score for m in legal)


def test_the_advanced_robot_plays_close_to_the_best_score_but_not_always_the_best(
    one_move_list: None,
) -> None:
    low, high = LEVEL_BY_ID["advanced"].shares
    board = random_position(4, 5)  # scores close together near the top
    rack = [2, 3, 4, 6, 7]
    moves = all_moves(board, rack)
    best = max(m.score for m in moves)
    scores = [choose_move(board, rack, "advanced", random.Random(seed)).score for seed in range(30)]
    assert max(scores) <= best
    # each pick is the score nearest to some r x best with r in the range
    distinct = sorted({m.score for m in moves})
    for score in scores:
        nearest = [min(distinct, key=lambda s: (abs(s - r * best), -s)) for r in (low, high)]
        assert nearest[0] <= score <= nearest[1]
    assert len(set(scores)) > 1  # not one fixed move: a spread just below the best
    assert min(scores) < best
    medium = [choose_move(board, rack, "medium", random.Random(k)).score for k in range(30)]
    assert sum(scores) > sum(medium)


def test_the_beginner_plays_around_the_median_move(one_move_list: None) -> None:
    low, high = LEVEL_BY_ID["easy"].percentiles
    assert low < 0.5 < high  # the median player is one step up
    board = random_position(4, 5)
    rack = [2, 3, 4, 6, 7]
    moves = sorted(all_moves(board, rack), key=lambda m: m.score)
    median = moves[len(moves) // 2].score
    scores = [choose_move(board, rack, "easy", random.Random(k)).score for k in range(40)]
    assert min(scores) <= median <= max(scores)
    assert max(scores) < moves[-1].score


def test_the_learner_plays_from_its_percentile_range_around_the_90th_percentile_move(
    one_move_list: None,
) -> None:
    low, high = LEVEL_BY_ID["medium"].percentiles
    assert low < 0.9 < high  # the 90th-percentile player is one step up
    board = random_position(4, 5)
    rack = [2, 3, 4, 6, 7]
    moves = all_moves(board, rack)
    picks = [choose_move(board, rack, "medium", random.Random(k)) for k in range(40)]
    for move in picks:
        below, at_most = _rank(moves, move)
        # the score at a percentile in [low, high]: fewer than `high` of the moves
        # score below it, more than `low` score at most as much
        assert below <= high and at_most > low
    scores = sorted(m.score for m in moves)
    p90 = scores[int(0.9 * len(scores))]
    picked = [m.score for m in picks]
    assert min(picked) <= p90 <= max(picked)  # sometimes below, sometimes above
    easy = [choose_move(board, rack, "easy", random.Random(k)).score for k in range(40)]
    assert sum(picked) > sum(easy)  # a step above level 1


def test_every_level_climbs_on_one_move_list(one_move_list: None) -> None:
    """Every level of the ladder picks a legal move of the list, and at the
    middle of its range each level scores at least as much as the one below
    within its way of playing; the top of the list is greedy's."""
    board = random_position(4, 5)
    rack = [2, 3, 4, 6, 7]
    moves = all_moves(board, rack)
    best = max(m.score for m in moves)
    middles: dict[str, list[int]] = {"percentile": [], "share": []}
    for level in LEVEL_TABLE:
        move = choose_move(board, rack, level.id, random.Random(7))
        assert move in moves
        if level.play in middles:
            low, high = level.percentiles if level.play == "percentile" else level.shares
            pick = robot.percentile_move if level.play == "percentile" else share_move
            middles[level.play].append(pick(moves, (low + high) / 2, random.Random(0)).score)
    for scores in middles.values():
        assert scores == sorted(scores)
    assert middles["percentile"][0] < middles["percentile"][-1] < best
    assert middles["share"][0] < middles["share"][-1] <= best
    assert choose_move(board, rack, "greedy", random.Random(1)).score == best
