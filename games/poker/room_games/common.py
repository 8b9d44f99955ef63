"""What the poker group game and the duel share: settings, the shared deck, boards, ranking.

Both modes deal ONE sequence to every board (spec §4 "Group game", "Duel 1v1").
The lobby owns the deck; every player's board is a ``PokerGame`` created without
a deck, fed with ``deal(card, at)`` at the moment each card was drawn. Because
every deal and every action carries its stored time, a board can be rebuilt and
brought up to any moment (hard-mode forfeits included) by any process, after a
reconnect or a server restart alike.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext as _

from games.poker.errors import RULE_MESSAGES
from games.poker.rules import (
    DEFAULT_TABLE,
    EASY,
    HARD,
    JOKER,
    TABLE_NAMES,
    IllegalMove,
    PokerGame,
    build_deck,
    shuffle,
)
from games.poker.rules.state import MAX_SECONDS, MIN_SECONDS
from games.rooms import ranking
from games.rooms.errors import RoomError

CELLS = 25
DEFAULT_SECONDS = 20
#: Every number card consumes a cell of every board (placed or forfeited), so
#: after 25 numbers every board is decided and the sequence closes by itself.
NUMBERS_PER_GAME = CELLS
STATE_VERSION = 1

#: Actions a player sends for their own board (the engine's ``apply`` names).
BOARD_ACTIONS = frozenset({"place", "use_joker", "keep_joker", "place_kept_joker"})


def seconds(moment: datetime) -> float:
    """The engine measures time in float seconds since the epoch."""
    return moment.timestamp()


def moment(value: float) -> datetime:
    return datetime.fromtimestamp(value, tz=UTC)


def wall_clock() -> float:
    """The clock, for a ``view`` asked without ``now`` (adapter unit tests patch it)."""
    return time.time()


def view_time(now: datetime | None) -> float:
    """The moment a view shows, in engine seconds: the runtime passes ``now``."""
    return wall_clock() if now is None else seconds(now)


# --- settings -------------------------------------------------------------------


def clean_common_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """Table, difficulty and seconds per number, with defaults for a bare ``{}``."""
    table = settings.get("table", DEFAULT_TABLE)
    if table not in TABLE_NAMES:
        raise RoomError("bad_table", _("Choose one of the scoring tables."))
    difficulty = settings.get("difficulty", EASY)
    if difficulty not in (EASY, HARD):
        raise RoomError("bad_difficulty", _("Choose easy or hard."))
    per_card = None
    if difficulty == HARD:
        per_card = settings.get("seconds", DEFAULT_SECONDS)
        if isinstance(per_card, str) and per_card.strip().isdigit():
            per_card = int(per_card.strip())
        if type(per_card) is not int or not MIN_SECONDS <= per_card <= MAX_SECONDS:
            raise RoomError(
                "bad_seconds",
                _("Seconds per number must be a whole number from %(low)d to %(high)d.")
                % {"low": MIN_SECONDS, "high": MAX_SECONDS},
            )
    return {"table": table, "difficulty": difficulty, "seconds": per_card}


# --- the shared sequence -----------------------------------------------------------


def new_sequence_state(settings: Mapping[str, Any], rng: random.Random) -> dict[str, Any]:
    """The lobby's deck and the (empty) sequence dealt from it."""
    return {
        "deck": shuffle(build_deck(settings["table"]), rng),
        "sequence": [],
        "dealt_at": [],
        "numbers": 0,
        "closed": False,
        "closed_at": None,
    }


def draw_card(state: dict[str, Any], at: float) -> dict[str, Any]:
    """Deal the next card of the lobby's deck into the shared sequence (mutates)."""
    if state["closed"] or not state["deck"]:
        raise RoomError("sequence_closed", str(RULE_MESSAGES["sequence_closed"]))
    if state["dealt_at"]:
        at = max(at, state["dealt_at"][-1])  # never earlier than the previous card
    card = state["deck"].pop(0)
    state["sequence"].append(card)
    state["dealt_at"].append(at)
    if card != JOKER:
        state["numbers"] += 1
    if state["numbers"] >= NUMBERS_PER_GAME or not state["deck"]:
        state["closed"] = True
        state["closed_at"] = at
    return {
        "type": "drawn",
        "index": len(state["sequence"]) - 1,
        "card": card,
        "at": at,
        "closed": state["closed"],
    }


def new_board(settings: Mapping[str, Any]) -> PokerGame:
    return PokerGame.new(
        table=settings["table"],
        mode=settings["difficulty"],
        seconds_per_card=settings["seconds"],
    )


def late_board(state: Mapping[str, Any], *, missed: int, at: float) -> PokerGame:
    """The board of a player who joined the running game at ``at``: the first
    ``missed`` cards of the shared sequence are behind them unplayed (each number
    a forfeited cell, a joker simply lost), and the next card is reached at ``at``
    (a hard-mode clock runs from there)."""
    game = new_board(state["settings"])
    cards = state["sequence"][:missed]
    game.sequence = list(cards)
    game.dealt_at = list(state["dealt_at"][:missed])
    game.handled = len(cards)
    game.handled_at = at if cards else None
    game.forfeited = sum(1 for card in cards if card != JOKER)
    game.started_at = game.dealt_at[0] if cards else None
    return game


def catch_up(game: PokerGame, state: Mapping[str, Any], until: float | None = None) -> list[dict]:
    """Deal the cards of the shared sequence this board has not received yet, each
    at the moment it was drawn (so deadlines run exactly as if it was live).

    With ``until``, only cards drawn by then: a move timed just before a draw
    that committed while it waited for its lock is judged as of its own time.
    Returns the engine's events (deals, forfeits on the way).
    """
    events: list[dict] = []
    for index in range(len(game.sequence), len(state["sequence"])):
        if until is not None and state["dealt_at"][index] > until:
            return events
        events += game.deal(state["sequence"][index], state["dealt_at"][index])
    if state["closed"] and not game.closed:
        closed_at = max(state["closed_at"], game.handled_at or 0.0)
        if until is None or closed_at <= until:
            events += game.close_sequence(closed_at)
    return events


def board_at(
    state: Mapping[str, Any],
    stored: Mapping[str, Any] | None,
    now: float | None,
    events: list[dict] | None = None,
) -> PokerGame:
    """A player's board rebuilt from storage, caught up with the sequence and,
    when ``now`` is given, with every forfeit time has decided up to ``now``
    (the engine's events for that are appended to ``events``)."""
    game = PokerGame.from_dict(stored) if stored else new_board(state["settings"])
    happened = catch_up(game, state, now)
    if now is not None:
        happened += game.advance(now)
    if events is not None:
        events += happened
    return game


def act(game: PokerGame, message: Mapping[str, Any], now: float) -> list[dict]:
    """Apply a board action; the engine's refusals become translated RoomErrors."""
    if message.get("type") not in BOARD_ACTIONS:
        raise RoomError("unknown_type", _("This game does not accept that message."))
    try:
        return game.apply(message, now)
    except IllegalMove as error:
        raise rule_error(error) from None


def rule_error(error: IllegalMove) -> RoomError:
    text = RULE_MESSAGES.get(error.code)
    return RoomError(error.code, str(text) if text is not None else error.message)


def board_public(game: PokerGame) -> dict[str, Any]:
    """What everyone may know of a board while the game runs: no cells."""
    score = game.score()
    return {
        "score": score.total,
        "filled": game.placed,
        "handled": game.handled,
        "forfeited": game.forfeited,
        "kept_jokers": game.kept_jokers,
        "over": game.over,
        "completed": game.completed,
    }


def board_final(game: PokerGame) -> dict[str, Any]:
    """A finished board as the final ranking shows it."""
    return {
        **board_public(game),
        "cells": list(game.cells),
        "joker_cells": list(game.joker_cells),
        "lines": game.score().lines,
    }


# --- ranking ---------------------------------------------------------------------


def ranked(entries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sort by score, then filled cells; equal score and filled cells share a rank
    (1, 1, 3: standard competition ranking). Input order breaks display ties."""
    return ranking.ranked(entries, key=lambda e: (e["score"], e["filled"]))


def rule_error_code(code: str) -> RoomError:
    return rule_error(IllegalMove(code))
