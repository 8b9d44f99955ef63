"""Robot opponents (spec section 6): four levels a child can climb.

The level ids and their order live here only (``LEVELS``, easiest first;
``DEFAULT_LEVEL`` for a first game). All levels choose among :func:`all_moves`,
so they also make the first move.

* ``easy`` (level 1) plays a move from the lower-middle of the position's legal
  moves by score (a random percentile between ``EASY_PERCENTILES``): a player
  who always takes the median-scoring move beats it most of the time.
* ``medium`` (level 2) plays from the upper range (``MEDIUM_PERCENTILES``): a
  player who always takes the 90th-percentile move beats it most of the time.
* ``greedy`` (level 3) plays the highest-scoring move (the true best, the move
  list is complete).
* ``strong`` (level 4) is greedy with judgement: among the best-scoring moves it
  weighs the stones it keeps (rack leave), and once the bag is empty against one
  opponent it looks one reply ahead, since the closer gains the opponent's
  leftover stones and the opponent loses them (an endgame look-ahead).

Measured in ``bench/abaku_robot_levels.py`` / ``bench/RESULTS-abaku.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .board import Board
from .data import JOKER, STONE_SET
from .errors import IllegalMove
from .game import ACTIVE, GameState, stone_value
from .movegen import Move, all_moves

LEVELS: tuple[str, ...] = ("easy", "medium", "greedy", "strong")
DEFAULT_LEVEL = LEVELS[0]
# Ids stored by rooms before the four levels (issue 19) and the level each
# plays now, so running rooms and saved settings keep working.
OLD_LEVELS: dict[str, str] = {"beginner": "easy"}

# The share of legal moves (ordered by score) scoring below the move played is
# drawn uniformly from these ranges.
EASY_PERCENTILES = (0.15, 0.5)
MEDIUM_PERCENTILES = (0.6, 0.88)

# What keeping a stone is worth to the strong robot, in points, relative to a
# stone drawn at random. Jokers fit anywhere; 0 only lives inside numbers.
LEAVE_VALUE = {
    JOKER: 6.0,
    0: -2.0,
    1: 1.5,
    2: 1.5,
    3: 0.5,
    4: 0.5,
    5: 0,
    6: 0,
    7: -1.0,
    8: -0.5,
    9: -1.0,
}
DUPLICATE_PENALTY = 1.5
LEAVE_WEIGHT = 1.0
STRONG_CANDIDATES = 40
# Mid-game look-ahead: the best few moves (by score and leave) are answered by
# PROBE_RACKS racks of PROBE_STONES unseen stones; their best reply counts
# PROBE_WEIGHT times against the move.
PROBE_CANDIDATES = 6
PROBE_RACKS = 2
PROBE_STONES = 3
PROBE_WEIGHT = 1.5
# Endgame look-ahead: how many of the best moves (plus every move that empties
# the rack) are answered with the opponent's best reply.
ENDGAME_CANDIDATES = 8


def resolve_level(level: str) -> str:
    """The level id ``level`` names now (old stored ids are mapped)."""
    level = OLD_LEVELS.get(level, level)
    if level not in LEVELS:
        raise ValueError(f"unknown robot level {level!r}")
    return level


def choose_move(
    board: Board,
    rack: Sequence[int],
    level: str,
    rng: random.Random,
    *,
    bag_count: int | None = None,
    opponent_racks: Sequence[int] = (),
) -> Move | None:
    """The move the robot of ``level`` plays, or ``None`` if it has none.

    ``bag_count`` (stones left in the bag) and ``opponent_racks`` (how many
    stones each active opponent holds: public) let the strong robot see the
    endgame; without them it plays as in mid-game. The robot never looks at
    hidden stones: with the bag empty and one opponent, the stones it has not
    seen are exactly that opponent's rack.
    """
    level = resolve_level(level)
    moves = all_moves(board, rack)
    if not moves:
        return None
    if level == "easy":
        return percentile_move(moves, rng.uniform(*EASY_PERCENTILES), rng)
    if level == "medium":
        return percentile_move(moves, rng.uniform(*MEDIUM_PERCENTILES), rng)
    if level == "greedy":
        best = max(m.score for m in moves)
        return rng.choice([m for m in moves if m.score == best])
    moves.sort(key=lambda m: -m.score)
    if bag_count == 0 and len(opponent_racks) == 1:
        theirs = list(unseen_stones(board, rack).elements())
        if len(theirs) == opponent_racks[0]:
            return endgame_move(board, rack, moves, theirs)
    return _strong_midgame_move(board, rack, moves, rng)


def percentile_move(moves: Sequence[Move], share: float, rng: random.Random) -> Move:
    """A move whose score is at the ``share`` percentile of ``moves`` (0 the
    lowest, 1 the best), one of the equally scoring ones at random."""
    scores = sorted(m.score for m in moves)
    target = scores[min(len(scores) - 1, int(share * len(scores)))]
    return rng.choice([m for m in moves if m.score == target])


def robot_action(state: GameState, level: str, rng: random.Random) -> dict[str, Any]:
    """The action the robot on turn sends to :func:`game.apply`.

    Without a move it exchanges its whole rack (as much as the bag allows); after
    two turns in a row without placing it skips instead, so a hopeless robot
    lets the game end (three empty turns) rather than exchanging forever.
    """
    if state.finished:
        raise IllegalMove("game_over", "the game has ended")
    seat = state.turn
    rack = state.players[seat].rack
    opponent_racks = [
        len(p.rack) for s, p in enumerate(state.players) if s != seat and p.status == ACTIVE
    ]
    move = choose_move(
        state.board, rack, level, rng, bag_count=len(state.bag), opponent_racks=opponent_racks
    )
    if move is not None:
        return {"type": "place", "player": seat, "placements": [list(p) for p in move.placements]}
    idle = 0
    for event in reversed(state.history):
        if event.get("player") != seat or event["type"] not in ("placed", "exchanged", "skipped"):
            continue
        if event["type"] == "placed":
            break
        idle += 1
    if state.bag and idle < 2:
        give = _worst_stones(rack, min(len(rack), len(state.bag)))
        return {"type": "exchange", "player": seat, "stones": give}
    return {"type": "skip", "player": seat}


def unseen_stones(board: Board, rack: Sequence[int]) -> Counter[int]:
    """Stones the player with ``rack`` has not seen: in the bag or on other racks."""
    unseen = Counter(STONE_SET)
    for _, _, stone in board.stones():
        unseen[JOKER if stone.joker else stone.digit] -= 1
    unseen.subtract(rack)
    return +unseen


def _worst_stones(rack: Sequence[int], count: int) -> list[int]:
    return sorted(rack, key=lambda k: LEAVE_VALUE[k])[:count]


def _leave(rack: Sequence[int], move: Move) -> list[int]:
    leave = list(rack)
    for p in move.placements:
        leave.remove(JOKER if p.joker else p.digit)
    return leave


def _leave_value(leave: Sequence[int]) -> float:
    counts = Counter(leave)
    return sum(LEAVE_VALUE[k] for k in leave) - DUPLICATE_PENALTY * sum(
        n - 1 for n in counts.values() if n > 1
    )


def _strong_midgame_move(
    board: Board, rack: Sequence[int], moves: Sequence[Move], rng: random.Random
) -> Move:
    """Score plus rack leave, minus what the move opens for the opponent: the
    best few moves are each answered by small probe racks drawn from the unseen
    stones (the same racks for every candidate, so the comparison is fair), and
    the probes' average best reply is subtracted."""
    ranked = sorted(
        moves[:STRONG_CANDIDATES],
        key=lambda m: -(m.score + LEAVE_WEIGHT * _leave_value(_leave(rack, m))),
    )
    candidates = ranked[:PROBE_CANDIDATES]
    unseen = list(unseen_stones(board, rack).elements())
    probes = [rng.sample(unseen, min(PROBE_STONES, len(unseen))) for _ in range(PROBE_RACKS)]
    best, best_value = candidates[0], None
    for move in candidates:
        after = board.place(move.placements)
        threat = sum(
            max((r.score for r in all_moves(after, probe)), default=0) for probe in probes
        ) / max(1, len(probes))
        value = move.score + LEAVE_WEIGHT * _leave_value(_leave(rack, move)) - PROBE_WEIGHT * threat
        if best_value is None or value > best_value:
            best, best_value = move, value
    return best


def _rack_points(rack: Sequence[int]) -> int:
    return sum(stone_value(k) for k in rack)


def endgame_move(
    board: Board, rack: Sequence[int], moves: Sequence[Move], theirs: Sequence[int]
) -> Move:
    """The strong robot's move with the bag empty and one opponent holding
    ``theirs``: maximise the points of the move minus the opponent's best answer,
    counting the end adjustment whenever a move empties a rack (the closer gains
    the other's leftovers and the other loses them: twice their value).

    ``moves`` are the legal moves, best-scoring first; the best ones and the best
    move that empties the rack are looked at.
    """
    theirs = list(theirs)
    their_points = _rack_points(theirs)
    outs = [m for m in moves if len(m.placements) == len(rack)]
    if outs:
        # going out ends the game: nothing to answer
        best_out = max(outs, key=lambda m: m.score)
        out_value = best_out.score + 2 * their_points
    else:
        best_out, out_value = None, None
    candidates = [m for m in moves[:ENDGAME_CANDIDATES] if m is not best_out]
    best, best_value = best_out, out_value
    for move in candidates:
        left = _leave(rack, move)
        after = board.place(move.placements)
        replies = all_moves(after, theirs)
        reply = 0
        for r in replies:
            value = r.score + (2 * _rack_points(left) if len(r.placements) == len(theirs) else 0)
            reply = max(reply, value)
        value = move.score - reply
        if best_value is None or value > best_value:
            best, best_value = move, value
    assert best is not None
    return best
