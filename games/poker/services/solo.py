"""A server-led solo game: start it, act in it, save it and record its end."""

import secrets
import uuid
from functools import cache
from typing import Any

from django.db import connection, transaction
from django.utils.translation import gettext as _
from psycopg.types.json import Jsonb

from accounts.models import Browser, PlayerProfile
from core import rawrows

from .. import coach_robot
from ..assignments import game_finished
from ..errors import RULE_MESSAGES, PokerError
from ..models import SoloGame
from ..rules import DEFAULT_TABLE, EASY, HARD, TABLE_NAMES, IllegalMove, PokerGame
from ..rules.deck import seeded_deck
from ..rules.state import MAX_SECONDS, MIN_SECONDS
from . import daily, leaderboards, results
from .clock import moment

#: Actions the browser may send; ``advance`` only applies what time decided.
ACTIONS = ("place", "use_joker", "keep_joker", "place_kept_joker", "advance")
#: What the start request may ask for (``SoloGame.Mode``).
KINDS = ("easy", "hard", "ranked", "daily", "robot")


def _parse_seconds(seconds_per_card: object) -> int:
    if isinstance(seconds_per_card, str) and seconds_per_card.strip().isdigit():
        seconds_per_card = int(seconds_per_card)
    if type(seconds_per_card) is not int or not MIN_SECONDS <= seconds_per_card <= MAX_SECONDS:
        raise PokerError(
            "bad_seconds",
            _("Seconds per number must be a whole number from %(min)d to %(max)d.")
            % {"min": MIN_SECONDS, "max": MAX_SECONDS},
        )
    return seconds_per_card


def _parse_settings(
    *, mode: object, difficulty: object, table: object, seconds_per_card: object
) -> tuple[str, str, str, int | None]:
    """(kind, engine difficulty, table, seconds). Ranked and daily games always use
    the default table so their scores compare; the daily game is always easy."""
    if mode not in KINDS:
        raise PokerError("bad_mode", _("Choose the easy or the hard game."))
    if mode == "daily":
        return "daily", EASY, DEFAULT_TABLE, None
    if mode == "robot":
        # Against the robot: easy rules, any table (never on a public table).
        table = DEFAULT_TABLE if table in (None, "") else table
        if table not in TABLE_NAMES:
            raise PokerError("bad_table", _("Unknown scoring table."))
        return "robot", EASY, str(table), None
    if mode == "ranked":
        if difficulty not in (EASY, HARD):
            raise PokerError("bad_difficulty", _("Choose the difficulty: easy or hard."))
        table = DEFAULT_TABLE
    else:
        difficulty = mode
        table = DEFAULT_TABLE if table in (None, "") else table
        if table not in TABLE_NAMES:
            raise PokerError("bad_table", _("Unknown scoring table."))
    if difficulty == EASY:
        return str(mode), EASY, str(table), None
    return str(mode), HARD, str(table), _parse_seconds(seconds_per_card)


def start_solo_game(
    *,
    player: PlayerProfile | None,
    storage_enabled: bool,
    mode: object,
    table: object = None,
    seconds_per_card: object = None,
    difficulty: object = None,
    replay: bool = False,
    level: object = None,
    now: float,
    browser: Browser | None = None,
) -> SoloGame:
    """Deal a new server-led game: a secretly seeded deck, or the day's deck.

    ``browser``: the browser asking; the day's counted attempt is one per
    browser as well as one per profile.

    Without saving or without a profile nothing could be recorded, so the
    server refuses; the browser then plays easy/hard itself, while ranked and
    daily games explain that they need both.
    """
    if not storage_enabled:
        raise PokerError(
            "storage_off", _("Saving is off: this game is played in your browser."), 403
        )
    if player is None:
        raise PokerError(
            "no_profile", _("Choose a nickname first so your games can be recorded."), 403
        )
    kind, difficulty, table, seconds = _parse_settings(
        mode=mode, difficulty=difficulty, table=table, seconds_per_card=seconds_per_card
    )
    started = moment(now)
    if kind == "daily":
        return daily.start_daily(player=player, browser=browser, replay=bool(replay), now=now)
    robot = None
    if kind == "robot":
        if level not in coach_robot.LEVELS:
            raise PokerError("bad_level", _("Choose the robot: beginner, greedy or coach."))
        robot = coach_robot.new_robot(str(level))
    deck = seeded_deck(secrets.randbits(256), table)
    engine = PokerGame.new(
        table=table, mode=difficulty, seconds_per_card=seconds, deck=deck, now=now
    )
    game: SoloGame = SoloGame.objects.create(
        player=player,
        mode=kind,
        difficulty=difficulty,
        table=table,
        seconds_per_card=seconds,
        state=engine.to_dict(),
        robot=robot,
        created_at=started,
        updated_at=started,
    )
    return game


#: Optimistic tries of a placement before it waits for the row lock instead.
OPTIMISTIC_TRIES = 3


def act_in_solo_game(
    *, game_id: object, player: PlayerProfile | None, action: object, now: float
) -> tuple[SoloGame, list[dict[str, Any]]]:
    """Apply one action of the player to their game.

    Time is applied first and kept even when the action itself is refused:
    a forfeit that happened is a fact, not part of the refused input.

    A placement that does not end the game is optimistic (issue 41): the row
    is read without a lock and written back only if nobody wrote it in
    between (``UPDATE ... WHERE xmin = <the version read>``), each statement
    on its own -- two round trips instead of five (``BEGIN``, the lock, the
    update, ``COMMIT``). When another write came first the action is applied
    again to what it wrote, as the lock would have made it; an action that
    ends the game (or keeps missing) takes the row lock in one transaction,
    because the end is recorded with it (results, homework, leaderboards).
    """
    if not isinstance(action, dict) or action.get("type") not in ACTIONS:
        raise PokerError("unknown_action", str(RULE_MESSAGES["unknown_action"]))
    outcome: Outcome | str = MISSED
    for _try in range(OPTIMISTIC_TRIES):
        outcome = _act_optimistically(game_id=game_id, player=player, action=action, now=now)
        if outcome is not MISSED:
            break
    if isinstance(outcome, str):  # ends the game, or missed every time
        outcome = _act_locked(game_id=game_id, player=player, action=action, now=now)
    game, events, refusal = outcome
    if refusal is not None:
        raise PokerError(refusal.code, str(RULE_MESSAGES[refusal.code]), 409)
    return game, events


Outcome = tuple[SoloGame, list[dict[str, Any]], IllegalMove | None]
#: ``_act_optimistically``: another write came first (try again) / the action
#: ends the game (take the row lock at once: the end is recorded with it).
MISSED, ENDS = "missed", "ends"


def _apply(
    game: SoloGame, action: dict[str, Any], now: float
) -> tuple[PokerGame, list[dict[str, Any]], IllegalMove | None]:
    engine = PokerGame.from_dict(game.state)
    events = engine.advance(now)
    refusal: IllegalMove | None = None
    if action["type"] != "advance":
        before = _move_context(engine)
        try:
            events += engine.apply(action, now)
        except IllegalMove as error:
            refusal = error
        else:
            game.moves = [*game.moves, _move(action, before)]
    return engine, events, refusal


def _act_locked(
    *, game_id: object, player: PlayerProfile | None, action: dict[str, Any], now: float
) -> Outcome:
    with transaction.atomic():
        game = locked_game(game_id=game_id, player=player)
        engine, events, refusal = _apply(game, action, now)
        if events:
            save(game=game, engine=engine, now=now)
    return game, events, refusal


def _act_optimistically(
    *, game_id: object, player: PlayerProfile | None, action: dict[str, Any], now: float
) -> Outcome | str:
    """The action on the game as read; ``ENDS`` when it must go the locked way
    (the game ends with it), ``MISSED`` when someone wrote the row after it
    was read (nothing written)."""
    game, version = read_game(game_id=game_id, player=player)
    known = len(game.moves)
    engine, events, refusal = _apply(game, action, now)
    if not events:  # refused, and time changed nothing: nothing to write
        return game, events, refusal
    if engine.over and game.finished_at is None:
        return ENDS
    new_moves = game.moves[known:]
    if not save_in_progress(
        game=game, engine=engine, now=now, version=version, new_moves=new_moves
    ):
        return MISSED
    return game, events, refusal


def _move_context(engine: PokerGame) -> dict[str, Any]:
    """What the player knew when acting: the card in hand, how many cards were
    behind them (``handled``) and dealt, and the jokers in the reserve."""
    return {
        "card": engine.hand,
        "handled": engine.handled,
        "dealt": len(engine.sequence),
        "kept": engine.kept_jokers,
    }


def _move(action: dict[str, Any], before: dict[str, Any]) -> dict[str, Any]:
    move = {"type": action["type"], **before}
    if action["type"] != "keep_joker":
        move["cell"] = action["cell"]
        move["value"] = action.get("value", before["card"])
    return move


@cache
def _locked_game_sql() -> str:
    return (
        f'SELECT {rawrows.select_list(SoloGame, "g")} FROM "{SoloGame._meta.db_table}" g'
        " WHERE g.id = %s AND g.player_id = %s FOR UPDATE"
    )


@cache
def _game_sql() -> str:
    return (
        f'SELECT {rawrows.select_list(SoloGame, "g")}, g.xmin::text FROM "{SoloGame._meta.db_table}" g'
        " WHERE g.id = %s AND g.player_id = %s"
    )


def _not_found() -> PokerError:
    return PokerError("not_found", _("This game does not exist or is not yours."), 404)


def _own_row(
    sql: str, game_id: object, player: PlayerProfile | None
) -> tuple[tuple[Any, ...], PlayerProfile]:
    """The row of the player's own game (and the player); ``not_found`` else."""
    if player is None:
        raise _not_found()
    try:
        key = uuid.UUID(str(game_id))
    except ValueError:
        raise _not_found() from None
    # The statement written once per process (core.rawrows), not compiled by the
    # ORM on every placement (issue 41): what ``select_for_update().get()`` reads.
    with connection.cursor() as cursor:
        cursor.execute(sql, [key, player.pk])
        row = cursor.fetchone()
    if row is None:
        raise _not_found()
    return tuple(row), player


def read_game(*, game_id: object, player: PlayerProfile | None) -> tuple[SoloGame, str]:
    """The player's own game as it is now, unlocked, and its row version
    (``xmin``); ``not_found`` for anyone else's."""
    row, owner = _own_row(_game_sql(), game_id, player)
    game: SoloGame = rawrows.instance(SoloGame, row[:-1])
    game.player = owner  # matched on this profile
    return game, row[-1]


def locked_game(*, game_id: object, player: PlayerProfile | None) -> SoloGame:
    """The player's own game, row-locked; ``not_found`` for anyone else's."""
    row, owner = _own_row(_locked_game_sql(), game_id, player)
    game: SoloGame = rawrows.instance(SoloGame, row)
    # The row was matched on this profile: recording the game's end need not
    # read it again (one query less on every finishing placement, issue 28).
    game.player = owner
    return game


def _robot_plays(*, game: SoloGame, engine: PokerGame) -> None:
    """The robot handles the numbers the player has handled; at the end it
    plays on with the same deck until its board is full."""
    if game.robot is None:
        return
    seed = game.pk.int % 2**32
    robot = dict(game.robot)
    if engine.over:
        deck = [*engine.sequence, *(engine.deck or [])]
        coach_robot.finish(robot, deck, table=game.table, seed=seed)
    else:
        coach_robot.catch_up(robot, engine.sequence, engine.handled, table=game.table, seed=seed)
    game.robot = robot


_PLACEMENT_UPDATE_SQL = (
    f'UPDATE "{SoloGame._meta.db_table}"'
    ' SET "state" = %s, "moves" = %s, "robot" = %s, "updated_at" = %s WHERE "id" = %s'
)
#: The same onto the row version read (``xmin``: every write makes a new one),
#: the move list only appended to (the version read is the list read).
_OPTIMISTIC_UPDATE_SQL = (
    f'UPDATE "{SoloGame._meta.db_table}" SET "state" = %s, "moves" = "moves" || %s,'
    ' "robot" = %s, "updated_at" = %s WHERE "id" = %s AND xmin = %s::xid'
)


def save(*, game: SoloGame, engine: PokerGame, now: float) -> None:
    """Store the engine's state; a game that just ended is recorded, handed to
    its homework and put on its public table, all in the caller's transaction."""
    if game.robot is not None:
        _robot_plays(game=game, engine=engine)
    game.state = engine.to_dict()
    game.updated_at = moment(now)
    if engine.over and game.finished_at is None:
        game.finished_at = moment(engine.finished_at or now)
        if not game.replay:
            result = results.record(game=game, engine=engine)
            game.record = result.record
            game.save()
            if game.mode == SoloGame.Mode.HOMEWORK:
                game_finished(game=game, result=result)
            leaderboards.publish(game=game, result=result, now=now)
            return
        game.save()
        return
    # Every placement of a game in progress: only what an action changes. The
    # row is locked (``locked_game``), so nothing else moved in between; the
    # other fifteen columns and their JSON need not be compiled and sent again
    # (bench/homework_bench.py, issue 28), nor the UPDATE itself (issue 41).
    with connection.cursor() as cursor:
        cursor.execute(_PLACEMENT_UPDATE_SQL, _placement_params(game))


def _placement_params(game: SoloGame) -> list[Any]:
    # (psycopg adapts its Jsonb wrappers; Django's types know only plain values)
    return [
        Jsonb(game.state),
        Jsonb(game.moves),
        None if game.robot is None else Jsonb(game.robot),
        game.updated_at,
        game.pk,
    ]


def save_in_progress(
    *, game: SoloGame, engine: PokerGame, now: float, version: str, new_moves: list[Any]
) -> bool:
    """Store a placement of a game the action did not end, read unlocked as
    ``version`` (``read_game``), its moves after those read as ``new_moves``:
    written only if the row is still that version; False (nothing written)
    when another write came first."""
    if game.robot is not None:
        _robot_plays(game=game, engine=engine)
    game.state = engine.to_dict()
    game.updated_at = moment(now)
    robot = None if game.robot is None else Jsonb(game.robot)
    params: list[Any] = [
        Jsonb(game.state),
        Jsonb(new_moves),
        robot,
        game.updated_at,
        game.pk,
        version,
    ]
    with connection.cursor() as cursor:
        cursor.execute(_OPTIMISTIC_UPDATE_SQL, params)
        return bool(cursor.rowcount == 1)
