"""Robots: legal moves at every level, the greedy one the best, whole games."""

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.abaku.rules import (
    DEFAULT_LEVEL,
    JOKER,
    LEVELS,
    Board,
    GameState,
    all_moves,
    apply,
    choose_move,
    evaluate_move,
    new_game,
    percentile_move,
    resolve_level,
    robot_action,
)
from games.abaku.rules.robot import (
    EASY_PERCENTILES,
    MEDIUM_PERCENTILES,
    endgame_move,
    unseen_stones,
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
    state = play_out(["greedy", "easy"], seed=4, rack_size=5)
    assert state.result["winners"] == [0]


# --- the levels (issue 19; five since issue 31) ---------------------------------------------------


def test_the_ladder_easiest_first_and_a_first_game_gets_level_1() -> None:
    # issue 31 added ``advanced`` between the learner and greedy, issue 42 the
    # steps between the first levels
    assert LEVELS[0] == "easy" and LEVELS[-2:] == ("greedy", "strong")
    assert LEVELS.index("easy") < LEVELS.index("medium") < LEVELS.index("advanced")
    assert DEFAULT_LEVEL == LEVELS[0]


def test_old_level_ids_still_play() -> None:
    assert resolve_level("beginner") == "easy"
    assert resolve_level("greedy") == "greedy"
    board = random_position(3, 4)
    assert choose_move(board, [1, 2, 3, 4, 6], "beginner", random.Random(1)) is not None
    with pytest.raises(ValueError):
        resolve_level("genius")


def test_percentile_move_takes_the_move_at_that_rank_by_score() -> None:
    board = random_position(5, 5)
    moves = all_moves(board, [1, 2, 3, 4, 6])
    scores = sorted(m.score for m in moves)
    rng = random.Random(0)
    assert percentile_move(moves, 0.0, rng).score == scores[0]
    assert percentile_move(moves, 1.0, rng).score == scores[-1]
    assert percentile_move(moves, 0.5, rng).score == scores[len(scores) // 2]
    assert percentile_move(moves, 0.9, rng).score == scores[int(0.9 * len(scores))]


def _rank(moves, move) -> tuple[float, float]:  # noqa: ANN001
    """Shares of the moves scoring below and at most the move's score."""
    below = sum(m.score < move.score for m in moves) / len(moves)
    at_most = sum(m.score <= move.score for m in moves) / len(moves)
    return below, at_most


@pytest.mark.parametrize(
    ("level", "shares"), [("easy", EASY_PERCENTILES), ("medium", MEDIUM_PERCENTILES)]
)
def test_easy_and_medium_play_inside_their_percentile_range(level: str, shares) -> None:  # noqa: ANN001
    board = random_position(7, 6)
    rack = [1, 2, 3, 5, 8]
    moves = all_moves(board, rack)
    for seed in range(8):
        move = choose_move(board, rack, level, random.Random(seed))
        below, at_most = _rank(moves, move)
        assert below <= shares[1] and at_most >= shares[0]


def test_the_levels_climb_on_one_position() -> None:
    board = random_position(9, 6)
    rack = [1, 2, 4, 6, 9]
    best = max(m.score for m in all_moves(board, rack))
    easy = [choose_move(board, rack, "easy", random.Random(k)).score for k in range(5)]
    medium = [choose_move(board, rack, "medium", random.Random(k)).score for k in range(5)]
    greedy = choose_move(board, rack, "greedy", random.Random(0)).score
    assert max(easy) <= min(medium) and max(medium) <= greedy == best


def test_unseen_stones_are_the_set_minus_the_board_and_the_own_rack() -> None:
    board = Board.empty("plain").place([(7, 7, 2), (7, 8, 4, True)])
    unseen = unseen_stones(board, [1, 1, JOKER])
    assert unseen[2] == 13 and unseen[4] == 12 and unseen[1] == 12 and JOKER not in unseen
    assert sum(unseen.values()) == 102 - 2 - 3


def test_strong_robot_goes_out_in_the_endgame_when_the_leftovers_are_worth_it() -> None:
    """Bag empty: going out wins the opponent's leftovers twice over (the closer
    gains them, the opponent loses them), so the strong robot takes a lower-scoring
    move that empties its rack over a higher one that keeps a stone."""
    board = random_position(2, 3, "plain")
    rack = [1, 9]
    moves = sorted(all_moves(board, rack), key=lambda m: -m.score)
    outs = [m for m in moves if len(m.placements) == 2]
    assert outs and moves[0].score > max(m.score for m in outs)  # greedy keeps a stone
    theirs = [9, 9, 8, 7, 7]  # 40 points left with the opponent
    move = endgame_move(board, rack, moves, theirs)
    assert len(move.placements) == 2


def test_strong_robot_uses_the_endgame_only_when_the_unseen_stones_are_one_rack() -> None:
    board = random_position(2, 5)
    rack = [1, 2, 3, 4, 6]
    # bag "empty" but 90-odd stones unseen: not a real endgame, so it plays as mid-game
    move = choose_move(board, rack, "strong", random.Random(1), bag_count=0, opponent_racks=[5])
    assert evaluate_move(board, move.placements).score == move.score
