"""Robot opponents (spec section 6): a ladder of levels a child can climb.

The levels are one table, ``LEVEL_TABLE`` (easiest first): the id, the name
and description a child reads, and how the level picks its move. ``LEVELS``
(the ids in order) and ``DEFAULT_LEVEL`` (a first game) are read from it by
the rooms adapter, the pages (``presentation.py`` translates the names), the
bench and the docs' test. Each level should beat the one below it in 55-75 %
of games, and each bench player (``BENCH_PLAYERS``) meets a level it beats in
30-70 % (issue 42). All levels choose among :func:`all_moves`, so they also
make the first move.

* The first thirteen (``easy`` .. ``medium``) play a move from a range of the
  position's legal moves by score (a random percentile in ``percentiles``,
  each level's range higher than the one below): ``easy`` plays around the
  middle, ``medium`` from the top fifth.
* The next ten (``medium2`` .. ``advanced``) aim at a share of the best score
  (the move nearest to r x the best, r drawn from ``shares`` each move). A
  rank near the top of the move list would not do: the best move is usually
  far ahead of the 90th-99th percentile ones (issue 31).
* ``greedy`` plays the highest-scoring move (the true best, the move list is
  complete).
* ``strong`` is greedy with judgement. Mid-game it ranks the moves by score
  plus the value of the stones it keeps (rack leave, fitted from greedy
  self-play: ``leave_table``), and (with ``PROBE_RACKS``) takes the few best
  of them through a look at the opponent's answer: racks drawn from the stones
  it has not seen answer each candidate. Once the bag is empty against one
  opponent it knows their rack and looks two replies ahead (their best
  answers, then its own), counting the end adjustment: the closer gains the
  opponent's leftover stones and the opponent loses them.

Measured in ``bench/abaku_robot_levels.py`` / ``bench/RESULTS-abaku.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import leave_table
from .board import Board
from .data import JOKER, RACK_SIZE, STONE_SET
from .errors import IllegalMove
from .game import ACTIVE, GameState, stone_value
from .movegen import Move, all_moves
from .reply import ReplySearch


def gettext_noop(message: str) -> str:
    """Marks a level's name or description for translation (the catalogues'
    extraction reads these calls); the pages translate it when they show it.
    The rules engine itself imports nothing of Django."""
    return message


@dataclass(frozen=True)
class Level:
    """One robot level: ``id`` (stored in room settings), ``name`` and
    ``description`` (English, translated by the pages; a child reads them:
    they say "you"), ``play`` (how it picks a move: ``percentile`` -- a random
    share of the legal moves by score scoring below the move, drawn uniformly
    from ``percentiles``; ``share`` -- the move whose score is nearest to r x
    the best score, r drawn uniformly from ``shares`` each move; ``best`` --
    the highest score; ``strong`` -- judgement, below). Each level should beat
    the one below it in 55-75 % of games (issue 42)."""

    id: str
    name: str
    description: str
    play: str
    percentiles: tuple[float, float] = (1.0, 1.0)
    shares: tuple[float, float] = (1.0, 1.0)


# The ladder, easiest first: each level should beat the one below it in 55-75 %
# of games, and the bench players (the median, 75th- and 90th-percentile move,
# greedy) each meet a level they beat in 30-70 % (issue 42; measured in
# bench/RESULTS-abaku.md). 22 rungs since issue 42's second pass: from ``easy``
# to ``advanced`` 19 equal steps in expected points a move on recorded
# positions (bench/abaku_ladder_positions.py), x1.094 a move between the
# percentile levels and x1.092 between the share levels. In played games (by
# deal: the games of one seed move together) a step of x1.07 (27 rungs) won
# about 56 % and one of x1.17 (14 rungs) about 82 %: x1.09 lies between, at
# about 60-65 %. 25 rungs since issue 42's fourth pass: the percentile half
# measured steeper than designed (72 % pooled over 374 games; easy5/easy4 80 %,
# easy7/easy5 77 %, easy11/easy10 83 % at 41-44 games each), so a level sits
# in the middle of each of those three steps (``easy4_5``, ``easy6`` -- the
# 27-rung ladder's rung at that place, back -- and ``easy10_11``), the other
# levels unchanged: 12 steps from ``easy`` to ``medium`` instead of 9. Fifth
# pass: ``easy6`` moved two thirds of the way from ``easy5`` to ``easy7`` (it
# was midway: easy6/easy5 53 %, easy7/easy6 68 % of 90 games each).
# ``easy10_11`` stays: its own steps measured flat (52 % and 58 %), but
# easy11 beat easy10 directly in 84 % of 70 games (third and fifth passes),
# so without it that step would be a cliff (bench/RESULTS-abaku.md).
LEVEL_TABLE: tuple[Level, ...] = (
    Level(
        "easy",
        gettext_noop("Snail"),
        gettext_noop("Plays simple examples and often leaves points lying. Start here."),
        "percentile",
        (0.37, 0.6),
    ),
    Level(
        "easy2",
        gettext_noop("Earthworm"),
        gettext_noop("Digs slowly, but finds a few more points than the Snail."),
        "percentile",
        (0.43, 0.65),
    ),
    Level(
        "easy4",
        gettext_noop("Ladybird"),
        gettext_noop("Plays short examples and now and then spots a better square."),
        "percentile",
        (0.486, 0.697),
    ),
    Level(
        "easy4_5",
        gettext_noop("Turtle"),
        gettext_noop("Slow but careful: scores a little more than the Ladybird."),
        "percentile",
        (0.513, 0.72),
    ),
    Level(
        "easy5",
        gettext_noop("Hedgehog"),
        gettext_noop("Looks a bit longer and finds a few more points than the Ladybird."),
        "percentile",
        (0.54, 0.744),
    ),
    Level(
        "easy6",
        gettext_noop("Mole"),
        gettext_noop("Digs around the board and often finds a square worth a few more points."),
        "percentile",
        (0.573, 0.776),
    ),
    Level(
        "easy7",
        gettext_noop("Mouse"),
        gettext_noop("Tries longer examples now and then and looks at more squares."),
        "percentile",
        (0.59, 0.792),
    ),
    Level(
        "easy8",
        gettext_noop("Frog"),
        gettext_noop("Often finds a good example, but misses the big ones."),
        "percentile",
        (0.638, 0.834),
    ),
    Level(
        "easy10",
        gettext_noop("Rabbit"),
        gettext_noop("Jumps at good examples and often uses a coloured square."),
        "percentile",
        (0.689, 0.869),
    ),
    Level(
        "easy10_11",
        gettext_noop("Hamster"),
        gettext_noop("Fills its cheeks with points and seldom misses a good move."),
        "percentile",
        (0.711, 0.887),
    ),
    Level(
        "easy11",
        gettext_noop("Squirrel"),
        gettext_noop("Collects points busily and seldom plays a weak move."),
        "percentile",
        (0.733, 0.904),
    ),
    Level(
        "easy13",
        gettext_noop("Goose"),
        gettext_noop("Mostly plays good moves, but does not see the biggest ones yet."),
        "percentile",
        (0.768, 0.936),
    ),
    Level(
        "medium",
        gettext_noop("Duck"),
        gettext_noop("Often finds a good move, but seldom the best one."),
        "percentile",
        (0.8, 0.96),
    ),
    Level(
        "medium2",
        gettext_noop("Cat"),
        gettext_noop("Stalks bigger examples than the Duck does."),
        "share",
        shares=(0.351, 0.541),
    ),
    Level(
        "medium3",
        gettext_noop("Dog"),
        gettext_noop("Goes for bigger examples and uses the coloured squares more often."),
        "share",
        shares=(0.399, 0.575),
    ),
    Level(
        "medium4",
        gettext_noop("Goat"),
        gettext_noop("Stubbornly keeps trying until it finds a move worth good points."),
        "share",
        shares=(0.452, 0.612),
    ),
    Level(
        "medium5",
        gettext_noop("Pony"),
        gettext_noop("Usually scores about half of what the best move would."),
        "share",
        shares=(0.505, 0.656),
    ),
    Level(
        "medium6",
        gettext_noop("Fox"),
        gettext_noop(
            "Plans cleverly and mostly scores well over half of what the best move would."
        ),
        "share",
        shares=(0.567, 0.702),
    ),
    Level(
        "medium8",
        gettext_noop("Beaver"),
        gettext_noop("Builds long examples and often comes close to the best move."),
        "share",
        shares=(0.635, 0.76),
    ),
    Level(
        "medium9",
        gettext_noop("Wolf"),
        gettext_noop("Hunts for big examples and seldom leaves many points behind."),
        "share",
        shares=(0.706, 0.818),
    ),
    Level(
        "medium10",
        gettext_noop("Lynx"),
        gettext_noop("Almost always finds a strong move; only the very best slips past it."),
        "share",
        shares=(0.768, 0.87),
    ),
    Level(
        "medium11",
        gettext_noop("Bear"),
        gettext_noop("Strong and steady: nearly as good as the Owl."),
        "share",
        shares=(0.835, 0.925),
    ),
    Level(
        "advanced",
        gettext_noop("Owl"),
        gettext_noop("Nearly always finds a move worth many points."),
        "share",
        shares=(0.92, 1.0),
    ),
    Level(
        "greedy",
        gettext_noop("Eagle"),
        gettext_noop("Always plays the move worth the most points right now."),
        "best",
    ),
    Level(
        "strong",
        gettext_noop("Dragon"),
        gettext_noop(
            "Plays for many points and thinks ahead: which stones to keep and what you could answer."
        ),
        "strong",
    ),
)
# The bench players (bench/abaku_robot_levels.py: every turn the legal move at a
# fixed percentile by score, or the greedy robot) and the levels just below and
# just above them in expected points a move, of which each should beat one in
# 30-70 % of games -- where a child who plays like them stands.
BENCH_PLAYERS: dict[str, tuple[str, ...]] = {
    "median": ("easy", "easy2"),
    "p75": ("easy8", "easy10"),
    "p90": ("medium", "medium2"),
    "greedy": ("advanced", "strong"),
}
LEVEL_BY_ID: dict[str, Level] = {level.id: level for level in LEVEL_TABLE}
LEVELS: tuple[str, ...] = tuple(level.id for level in LEVEL_TABLE)
DEFAULT_LEVEL = LEVELS[0]
# Ids stored before (rooms' settings, homework, a pupil's finished games:
# ``GameResult.details["robot_level"]``) that are no longer levels, and the
# kept level each plays and counts as now, so running rooms, saved settings
# and a pupil's "beaten" marks keep working: "beginner" (before issue 19), and
# the rungs of issue 42's 27-level ladder that the 22 rungs dropped, each
# mapped to the kept level nearest in expected points a move (``easy6`` is a
# level again since the 25 rungs). Every id of the 22 rungs is still a level.
OLD_LEVELS: dict[str, str] = {
    "beginner": "easy",
    "easy3": "easy2",
    "easy9": "easy10",
    "easy12": "easy13",
    "medium7": "medium6",
}

# The percentile ranges of the lower levels (kept as names for callers).
EASY_PERCENTILES = LEVEL_BY_ID["easy"].percentiles
MEDIUM_PERCENTILES = LEVEL_BY_ID["medium"].percentiles

# The order in which every level gives stones back when it exchanges (hand-set,
# worst first). Jokers fit anywhere; 0 only lives inside numbers.
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
# What keeping a stone is worth to the strong robot, in points against a fresh
# stone, and the penalty per repeated kind: fitted from greedy self-play
# (``leave_table``, generated by bench/abaku_fit_leave.py).
STRONG_LEAVE_VALUE: dict[int, float] = dict(leave_table.LEAVE_VALUES)
DUPLICATE_PENALTY = leave_table.DUPLICATE_PENALTY
LEAVE_WEIGHT = 1.0
STRONG_CANDIDATES = 40
# Mid-game look-ahead: the best few moves (by score and leave) are answered by
# PROBE_RACKS racks of as many unseen stones as the opponent holds; the average
# of their best replies counts PROBE_WEIGHT times against the move. Off since
# issue 42: on 200 paired held-out games against greedy the probes won 62 %
# and the robot without them 61 % (+105 points a game against +76), at a tenth
# of the time (decision p95 0.40 s against 0.90 s CPU; every level must answer
# within 1 s p95) -- bench/RESULTS-abaku.md.
PROBE_CANDIDATES = 6
PROBE_RACKS = 0
PROBE_WEIGHT = 1.0
# Endgame look-ahead (bag empty, one opponent): how many of the best moves (plus
# the best move of each size and the best one that empties the rack) are
# answered; at depth 2 the opponent's best ENDGAME_REPLIES answers (and their
# best way out) are each followed by the robot's best reply.
ENDGAME_CANDIDATES = 8
ENDGAME_DEPTH = 2
ENDGAME_REPLIES = 4


def current_level(level: Any) -> Any:
    """The id a stored robot level names now: an id that was once a level
    (``OLD_LEVELS``) becomes the level it plays as; anything else -- a current
    id, ``None`` (a human's seat), an id the rules never had -- is returned as
    it is (the caller refuses what is not a level)."""
    return OLD_LEVELS.get(level, level) if isinstance(level, str) else level


def resolve_level(level: str) -> str:
    """The level id ``level`` names now (old stored ids are mapped)."""
    level = current_level(level)
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
    play = LEVEL_BY_ID[level]
    if play.play == "percentile":
        return percentile_move(moves, rng.uniform(*play.percentiles), rng)
    if play.play == "share":
        return share_move(moves, rng.uniform(*play.shares), rng)
    if play.play == "best":
        best = max(m.score for m in moves)
        return rng.choice([m for m in moves if m.score == best])
    moves.sort(key=lambda m: -m.score)
    if bag_count == 0 and len(opponent_racks) == 1:
        theirs = list(unseen_stones(board, rack).elements())
        if len(theirs) == opponent_racks[0]:
            return endgame_move(board, rack, moves, theirs)
    reply_stones = opponent_racks[0] if len(opponent_racks) == 1 else RACK_SIZE
    return _strong_midgame_move(board, rack, moves, rng, reply_stones)


def percentile_move(moves: Sequence[Move], share: float, rng: random.Random) -> Move:
    """A move whose score is at the ``share`` percentile of ``moves`` (0 the
    lowest, 1 the best), one of the equally scoring ones at random."""
    scores = sorted(m.score for m in moves)
    target = scores[min(len(scores) - 1, int(share * len(scores)))]
    return rng.choice([m for m in moves if m.score == target])


def share_move(moves: Sequence[Move], share: float, rng: random.Random) -> Move:
    """A move whose score is nearest to ``share`` x the best score of ``moves``
    (ties: the higher score), one of the equally scoring ones at random.

    A rank near the top of the list is not a score near the best (the best move
    of a position is usually far ahead of the rest), so the level just below
    greedy aims at a share of the best score instead (issue 31)."""
    best = max(m.score for m in moves)
    target = share * best
    score = min({m.score for m in moves}, key=lambda s: (abs(s - target), -s))
    return rng.choice([m for m in moves if m.score == score])


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
    return sum(STRONG_LEAVE_VALUE[k] for k in leave) - DUPLICATE_PENALTY * sum(
        n - 1 for n in counts.values() if n > 1
    )


def _strong_midgame_move(
    board: Board,
    rack: Sequence[int],
    moves: Sequence[Move],
    rng: random.Random,
    reply_stones: int = 5,
) -> Move:
    """Score plus rack leave, minus the opponent's expected best answer.

    The best few moves (by score and leave) are each answered by
    ``PROBE_RACKS`` racks of ``reply_stones`` stones drawn from the unseen
    stones (the same racks for every candidate, so the comparison is fair).
    An answer is the best of the moves near the candidate's stones on the new
    board (:meth:`reply.ReplySearch.near_moves`, one search per probe rack, reused) and the best move of the old board that
    the candidate neither covers nor touches, which is what the opponent's
    best reply is in nearly every position at a fraction of the cost.
    """
    ranked = sorted(
        moves[:STRONG_CANDIDATES],
        key=lambda m: -(m.score + LEAVE_WEIGHT * _leave_value(_leave(rack, m))),
    )
    candidates = ranked[:PROBE_CANDIDATES]
    # A joker multiplies the search (every digit on every square) and is rare:
    # the probes leave jokers out.
    unseen = [k for k in unseen_stones(board, rack).elements() if k != JOKER]
    size = min(reply_stones, len(unseen))
    if size == 0 or PROBE_RACKS == 0:
        return candidates[0]
    probes = [ReplySearch(rng.sample(unseen, size)) for _ in range(PROBE_RACKS)]
    before = [sorted(probe.all_moves(board), key=lambda m: -m.score) for probe in probes]
    best, best_value = candidates[0], None
    for move in candidates:
        after = board.place(move.placements)
        cells = [(p.row, p.col) for p in move.placements]
        touched = {(r + dr, c + dc) for r, c in cells for dr, dc in _AROUND}
        threat = 0.0
        for probe, old in zip(probes, before, strict=True):
            far = next(
                (m.score for m in old if not any((p.row, p.col) in touched for p in m.placements)),
                0,
            )
            near = max((m.score for m in probe.near_moves(after, cells)), default=0)
            threat += max(far, near)
        threat /= len(probes)
        value = move.score + LEAVE_WEIGHT * _leave_value(_leave(rack, move)) - PROBE_WEIGHT * threat
        if best_value is None or value > best_value:
            best, best_value = move, value
    return best


_AROUND = ((0, 0), (0, 1), (1, 0), (0, -1), (-1, 0))


def _rack_points(rack: Sequence[int]) -> int:
    return sum(stone_value(k) for k in rack)


def endgame_move(
    board: Board, rack: Sequence[int], moves: Sequence[Move], theirs: Sequence[int]
) -> Move:
    """The strong robot's move with the bag empty and one opponent holding
    ``theirs``: maximise the points of the move minus what the opponent's best
    answer gains them, counting the end adjustment whenever a move empties a
    rack (the closer gains the other's leftovers and the other loses them:
    twice their value).

    ``moves`` are the legal moves, best-scoring first. Looked at: the best
    ``ENDGAME_CANDIDATES`` moves, the best move for each number of stones (so
    a move that keeps the right stones to go out next turn is seen), and the
    best move that empties the rack. With ``ENDGAME_DEPTH`` 2 the opponent's
    best few answers are each followed by the robot's best reply (going out
    if it can), so keeping a stone that goes out next turn counts.
    """
    theirs = list(theirs)
    their_points = _rack_points(theirs)
    outs = [m for m in moves if len(m.placements) == len(rack)]
    best_out = max(outs, key=lambda m: m.score) if outs else None
    best_value: float | None = None
    best = best_out
    if best_out is not None:
        # going out ends the game: nothing to answer
        best_value = best_out.score + 2 * their_points
    candidates = list(moves[:ENDGAME_CANDIDATES])
    by_size: dict[int, Move] = {}
    for m in moves:
        by_size.setdefault(len(m.placements), m)
    candidates += [m for _, m in sorted(by_size.items()) if m not in candidates]
    for move in candidates:
        if move is best_out or len(move.placements) == len(rack):
            continue
        left = _leave(rack, move)
        after = board.place(move.placements)
        value = move.score - _answer(after, theirs, left)
        if best_value is None or value > best_value:
            best, best_value = move, value
    assert best is not None
    return best


def _answer(board: Board, theirs: list[int], mine: list[int]) -> float:
    """What the opponent holding ``theirs`` gains (minus what the robot holding
    ``mine`` then gains back, at ``ENDGAME_DEPTH`` 2) with their best answer."""
    replies = sorted(all_moves(board, theirs), key=lambda m: -m.score)
    my_points = _rack_points(mine)
    out_bonus = 2 * my_points
    best: float | None = None
    if ENDGAME_DEPTH < 2:
        for r in replies:
            value: float = r.score + (out_bonus if len(r.placements) == len(theirs) else 0)
            best = value if best is None else max(best, value)
        return max(0.0, best or 0.0)
    outs = [r for r in replies if len(r.placements) == len(theirs)]
    look = replies[:ENDGAME_REPLIES]
    if outs and outs[0] not in look:
        look.append(outs[0])
    if not replies:
        # they cannot move: the robot plays again
        return -_follow_up(board, mine, theirs)
    for r in look:
        if len(r.placements) == len(theirs):
            value = r.score + out_bonus
        else:
            left = _leave(theirs, r)
            value = r.score - _follow_up(board.place(r.placements), mine, left)
        best = value if best is None else max(best, value)
    return best or 0.0


def _follow_up(board: Board, mine: list[int], theirs: list[int]) -> float:
    """The robot's best next move: its points, twice the opponent's leftovers if
    it empties the rack (0 without a move)."""
    bonus = 2 * _rack_points(theirs)
    return max(
        (
            m.score + (bonus if len(m.placements) == len(mine) else 0)
            for m in all_moves(board, mine)
        ),
        default=0,
    )
