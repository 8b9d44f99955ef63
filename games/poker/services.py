"""Writes for server-led solo poker: start a game, act in it, record its end.

Each public function is one user intent in one transaction. The game row is
locked (``select_for_update``) while the engine applies the action, so two
requests of the same player cannot interleave; other players' rows are never
touched. Time comes in as ``now`` (epoch seconds) so hard-mode forfeits are
decided from stored timestamps, whichever process handles the request.
"""

import secrets
import uuid
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import PlayerProfile
from games.models import Game, GameRecord, GameResult

from .errors import RULE_MESSAGES, PokerError
from .models import SoloGame
from .rules import DEFAULT_TABLE, EASY, MODES, TABLE_NAMES, IllegalMove, PokerGame
from .rules.deck import seeded_deck
from .rules.state import MAX_SECONDS, MIN_SECONDS

#: Actions the browser may send; ``advance`` only applies what time decided.
ACTIONS = ("place", "use_joker", "keep_joker", "place_kept_joker", "advance")


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)


def _parse_settings(
    *, mode: object, table: object, seconds_per_card: object
) -> tuple[str, str, int | None]:
    if mode not in MODES:
        raise PokerError("bad_mode", _("Choose the easy or the hard game."))
    table = DEFAULT_TABLE if table in (None, "") else table
    if table not in TABLE_NAMES:
        raise PokerError("bad_table", _("Unknown scoring table."))
    if mode == EASY:
        return mode, table, None
    if isinstance(seconds_per_card, str) and seconds_per_card.strip().isdigit():
        seconds_per_card = int(seconds_per_card)
    if type(seconds_per_card) is not int or not MIN_SECONDS <= seconds_per_card <= MAX_SECONDS:
        raise PokerError(
            "bad_seconds",
            _("Seconds per number must be a whole number from %(min)d to %(max)d.")
            % {"min": MIN_SECONDS, "max": MAX_SECONDS},
        )
    return mode, table, seconds_per_card


def start_solo_game(
    *,
    player: PlayerProfile | None,
    storage_enabled: bool,
    mode: object,
    table: object = None,
    seconds_per_card: object = None,
    now: float,
) -> SoloGame:
    """Deal a new server-led game from a secretly seeded deck.

    Without saving or without a profile nothing could be recorded, so the
    server refuses and the browser plays the game itself.
    """
    if not storage_enabled:
        raise PokerError(
            "storage_off", _("Saving is off: this game is played in your browser."), 403
        )
    if player is None:
        raise PokerError(
            "no_profile", _("Choose a nickname first so your games can be recorded."), 403
        )
    mode, table, seconds = _parse_settings(
        mode=mode, table=table, seconds_per_card=seconds_per_card
    )
    deck = seeded_deck(secrets.randbits(256), table)
    engine = PokerGame.new(table=table, mode=mode, seconds_per_card=seconds, deck=deck, now=now)
    moment = _moment(now)
    return SoloGame.objects.create(
        player=player,
        mode=mode,
        table=table,
        seconds_per_card=seconds,
        state=engine.to_dict(),
        created_at=moment,
        updated_at=moment,
    )


def act_in_solo_game(
    *, game_id: object, player: PlayerProfile | None, action: object, now: float
) -> tuple[SoloGame, list[dict[str, Any]]]:
    """Apply one action of the player to their game.

    Time is applied first and kept even when the action itself is refused:
    a forfeit that happened is a fact, not part of the refused input.
    """
    if not isinstance(action, dict) or action.get("type") not in ACTIONS:
        raise PokerError("unknown_action", RULE_MESSAGES["unknown_action"])
    with transaction.atomic():
        game = _locked_game(game_id=game_id, player=player)
        engine = PokerGame.from_dict(game.state)
        events = engine.advance(now)
        refusal: IllegalMove | None = None
        if action["type"] != "advance":
            try:
                events += engine.apply(action, now)
            except IllegalMove as error:
                refusal = error
        if events:
            _save(game=game, engine=engine, now=now)
    if refusal is not None:
        raise PokerError(refusal.code, str(RULE_MESSAGES[refusal.code]), 409)
    return game, events


def _locked_game(*, game_id: object, player: PlayerProfile | None) -> SoloGame:
    not_found = PokerError("not_found", _("This game does not exist or is not yours."), 404)
    if player is None:
        raise not_found
    try:
        key = uuid.UUID(str(game_id))
        return SoloGame.objects.select_for_update().get(pk=key, player=player)
    except (SoloGame.DoesNotExist, ValueError):
        raise not_found from None


def _save(*, game: SoloGame, engine: PokerGame, now: float) -> None:
    game.state = engine.to_dict()
    game.updated_at = _moment(now)
    if engine.over and game.record_id is None:
        game.finished_at = _moment(engine.finished_at or now)
        game.record = _record(game=game, engine=engine)
    game.save()


def _record(*, game: SoloGame, engine: PokerGame) -> GameRecord:
    """Write the finished game where profile stats and class reports read."""
    started = engine.started_at if engine.started_at is not None else engine.finished_at
    record = GameRecord.objects.create(
        game=Game.POKER,
        mode=game.mode,
        settings={"table": game.table, "seconds_per_card": game.seconds_per_card},
        started_at=_moment(started),
        finished_at=game.finished_at,
    )
    GameResult.objects.create(
        record=record,
        player=game.player,
        score=engine.score().total,
        completed=engine.completed,
        finished_at=game.finished_at,
        details={
            "table": game.table,
            "duration": round(engine.finished_at - started, 3),
            "forfeited": engine.forfeited,
            "cells": engine.cells,
            "joker_cells": engine.joker_cells,
        },
    )
    return record
