"""One player's game: the state machine every poker mode is built from.

The player consumes a *sequence* of cards in order. Who deals it differs by
mode: in solo modes (easy, hard, ranked, daily) the state carries its own deck
and deals the next card the moment the player is ready for it; in group games
and duels the lobby owns the deck and calls ``deal`` on every player's state.

Time is never read from a clock: every action takes ``now`` (seconds since the
epoch, a float) and hard-mode forfeits are computed from stored timestamps, so
any process can enforce them after a restart. A card's deadline runs from the
moment the player *reached* it: its deal if they were waiting for it, or the
handling of the previous card if they were catching up.

Actions mutate the state and return a list of events (plain dicts); an illegal
action raises ``IllegalMove`` and leaves the state exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .deck import JOKER
from .scoring import CELLS, MAX_VALUE, MIN_VALUE, BoardScore, score_board
from .tables import DEFAULT_TABLE, get_table

EASY, HARD = "easy", "hard"
MODES = (EASY, HARD)
MIN_SECONDS, MAX_SECONDS = 3, 300
STATE_VERSION = 1

#: The stable error codes of ``IllegalMove``; clients translate them.
ERROR_CODES: Mapping[str, str] = {
    "game_over": "the game has ended",
    "no_card": "there is no card in hand (wait for the next draw)",
    "joker_in_hand": "the card in hand is a joker: use it with a value, or keep it",
    "not_joker": "the card in hand is a number, not a joker",
    "no_kept_joker": "there is no kept joker to place",
    "bad_cell": "the cell must be an int 0..24",
    "cell_taken": "the cell is already filled",
    "bad_value": "a joker's value must be an int 1..13",
    "bad_card": "this card does not exist in the table's deck",
    "sequence_closed": "no more cards can be dealt",
    "own_deck": "this game deals from its own deck",
    "unknown_action": "unknown action type",
}

Event = dict[str, Any]


class IllegalMove(Exception):
    """An action the rules do not allow; ``code`` is stable, ``message`` is for humans."""

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self.message = message or ERROR_CODES[code]
        super().__init__(f"{code}: {self.message}")


def _check_now(now: object) -> float:
    if type(now) not in (int, float):
        raise ValueError(f"now must be a number of seconds, got {now!r}")
    return float(now)  # type: ignore[arg-type]


@dataclass(eq=True)
class PokerGame:
    """The state of one player's board. Build it with ``PokerGame.new``."""

    table: str = DEFAULT_TABLE
    mode: str = EASY
    seconds_per_card: int | None = None
    cells: list[int | None] = field(default_factory=lambda: [None] * CELLS)
    joker_cells: list[int] = field(default_factory=list)
    #: The cards dealt so far and when; ``handled`` of them are behind the player.
    sequence: list[int] = field(default_factory=list)
    dealt_at: list[float] = field(default_factory=list)
    handled: int = 0
    handled_at: float | None = None
    kept_jokers: int = 0
    forfeited: int = 0
    #: The undealt rest of the game's own deck (solo modes), or None when the
    #: lobby deals. Secret: never part of ``player_view``.
    deck: list[int] | None = None
    closed: bool = False
    started_at: float | None = None
    finished_at: float | None = None

    # --- construction and storage -------------------------------------------

    @classmethod
    def new(
        cls,
        *,
        table: str = DEFAULT_TABLE,
        mode: str = EASY,
        seconds_per_card: int | None = None,
        deck: Sequence[int] | None = None,
        now: float | None = None,
    ) -> PokerGame:
        """Start a game. With ``deck`` the game deals itself and its first card
        is dealt at ``now``; without it, cards come through ``deal``."""
        get_table(table)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if mode == HARD:
            if type(seconds_per_card) is not int or not (
                MIN_SECONDS <= seconds_per_card <= MAX_SECONDS
            ):
                raise ValueError(
                    f"hard mode needs seconds_per_card as an int {MIN_SECONDS}..{MAX_SECONDS}, "
                    f"got {seconds_per_card!r}"
                )
        elif seconds_per_card is not None:
            raise ValueError("seconds_per_card is only for hard mode")
        game = cls(table=table, mode=mode, seconds_per_card=seconds_per_card)
        if deck is not None:
            if now is None:
                raise ValueError("a game with its own deck starts at a given now")
            cards = list(deck)
            for card in cards:
                if not game._is_card(card):
                    raise ValueError(f"card {card!r} does not belong to the {table} deck")
            game.deck = cards
            game._refill(_check_now(now))
        return game

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable snapshot (for storage; includes the secret deck)."""
        return {
            "version": STATE_VERSION,
            "table": self.table,
            "mode": self.mode,
            "seconds_per_card": self.seconds_per_card,
            "cells": list(self.cells),
            "joker_cells": list(self.joker_cells),
            "sequence": list(self.sequence),
            "dealt_at": list(self.dealt_at),
            "handled": self.handled,
            "handled_at": self.handled_at,
            "kept_jokers": self.kept_jokers,
            "forfeited": self.forfeited,
            "deck": None if self.deck is None else list(self.deck),
            "closed": self.closed,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PokerGame:
        if data.get("version") != STATE_VERSION:
            raise ValueError(f"unsupported poker state version {data.get('version')!r}")
        fields = {key: value for key, value in data.items() if key != "version"}
        for key in ("cells", "joker_cells", "sequence", "dealt_at"):
            fields[key] = list(fields[key])
        if fields["deck"] is not None:
            fields["deck"] = list(fields["deck"])
        return cls(**fields)

    # --- what the player sees ----------------------------------------------

    @property
    def hand(self) -> int | None:
        """The card the player has to handle now (``JOKER`` for a joker), if any."""
        return self.sequence[self.handled] if self.handled < len(self.sequence) else None

    @property
    def placed(self) -> int:
        return CELLS - self.cells.count(None)

    @property
    def free_cells(self) -> int:
        """Cells that can still be filled (a forfeited card costs one)."""
        return CELLS - self.placed - self.forfeited

    @property
    def jokers_at_risk(self) -> bool:
        """True when kept jokers can no longer all be placed (the UI warns)."""
        return self.kept_jokers > 0 and self.free_cells <= self.kept_jokers

    @property
    def over(self) -> bool:
        return self.finished_at is not None

    @property
    def completed(self) -> bool:
        """All 25 cells filled; an incomplete board still has a score."""
        return self.placed == CELLS

    def reached_at(self) -> float | None:
        """When the player reached the card in hand."""
        if self.hand is None:
            return None
        dealt = self.dealt_at[self.handled]
        return dealt if self.handled_at is None else max(dealt, self.handled_at)

    def deadline(self) -> float | None:
        """Hard mode: the moment the card in hand is forfeited."""
        reached = self.reached_at()
        if self.mode != HARD or reached is None or self.seconds_per_card is None:
            return None
        return reached + self.seconds_per_card

    def score(self) -> BoardScore:
        return score_board(self.cells, self.table)

    def player_view(self) -> dict[str, Any]:
        """What may be sent to the player: everything but the undealt deck."""
        score = self.score()
        return {
            "table": self.table,
            "mode": self.mode,
            "seconds_per_card": self.seconds_per_card,
            "cells": list(self.cells),
            "joker_cells": list(self.joker_cells),
            "hand": self.hand,
            "deadline": self.deadline(),
            "kept_jokers": self.kept_jokers,
            "jokers_at_risk": self.jokers_at_risk,
            "forfeited": self.forfeited,
            "free_cells": self.free_cells,
            "dealt": len(self.sequence),
            "over": self.over,
            "completed": self.completed,
            "score": score.total,
            "lines": score.lines,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
        }

    # --- actions -------------------------------------------------------------

    def advance(self, now: float) -> list[Event]:
        """Apply everything time has decided up to ``now`` (hard-mode forfeits)."""
        return self._transaction(now, list, after_end=True)

    def deal(self, card: int, now: float) -> list[Event]:
        """The lobby deals the next card of the shared sequence to this player."""

        def act() -> list[Event]:
            if self.deck is not None:
                raise IllegalMove("own_deck")
            if self.closed:
                raise IllegalMove("sequence_closed")
            if not self._is_card(card):
                raise IllegalMove("bad_card", f"card {card!r} is not in the {self.table} deck")
            return self._append(card, float(now))

        return self._transaction(now, act, after_end=True)

    def close_sequence(self, now: float) -> list[Event]:
        """No more cards will come (the lobby's deck ran out or it stopped dealing)."""

        def act() -> list[Event]:
            if self.deck is not None:
                raise IllegalMove("own_deck")
            self.closed = True
            return self._check_end(float(now))

        return self._transaction(now, act, after_end=True)

    def place(self, cell: int, now: float) -> list[Event]:
        """Write the number in hand into an empty cell."""

        def act() -> list[Event]:
            card = self._hand_or_raise()
            if card == JOKER:
                raise IllegalMove("joker_in_hand")
            return self._put(cell, card, now, joker=False, from_reserve=False)

        return self._transaction(now, act)

    def use_joker(self, cell: int, value: int, now: float) -> list[Event]:
        """Give the joker in hand a value and place it at once."""

        def act() -> list[Event]:
            self._joker_or_raise()
            return self._put(cell, value, now, joker=True, from_reserve=False)

        return self._transaction(now, act)

    def keep_joker(self, now: float) -> list[Event]:
        """Put the joker in hand into the reserve; the next card comes at once."""

        def act() -> list[Event]:
            self._joker_or_raise()
            self.kept_jokers += 1
            at = self._handle_card(now)
            events: list[Event] = [{"type": "kept_joker", "index": self.handled - 1, "at": at}]
            return events + self._after_handling(at)

        return self._transaction(now, act)

    def place_kept_joker(self, cell: int, value: int, now: float) -> list[Event]:
        """Place a kept joker: it takes a cell but no card of the sequence, so it
        works while holding a number and after the sequence ran out."""

        def act() -> list[Event]:
            if self.kept_jokers == 0:
                raise IllegalMove("no_kept_joker")
            return self._put(cell, value, now, joker=True, from_reserve=True)

        return self._transaction(now, act)

    def apply(self, action: Mapping[str, Any], now: float) -> list[Event]:
        """Dispatch a client message: ``{"type": "place", "cell": 7}``,
        ``use_joker`` / ``place_kept_joker`` (with ``cell`` and ``value``) or
        ``keep_joker``."""
        kind = action.get("type")
        if kind == "place":
            return self.place(action.get("cell"), now)  # type: ignore[arg-type]
        if kind == "use_joker":
            return self.use_joker(action.get("cell"), action.get("value"), now)  # type: ignore[arg-type]
        if kind == "keep_joker":
            return self.keep_joker(now)
        if kind == "place_kept_joker":
            return self.place_kept_joker(action.get("cell"), action.get("value"), now)  # type: ignore[arg-type]
        raise IllegalMove("unknown_action", f"unknown action type {kind!r}")

    # --- internals -----------------------------------------------------------

    def _transaction(
        self, now: float, act: Callable[[], list[Event]], *, after_end: bool = False
    ) -> list[Event]:
        """Expire what time decided, then act; on an illegal action restore all.

        ``after_end`` lets dealing and closing reach a finished player, so every
        board of a group holds the same sequence.
        """
        at = _check_now(now)
        saved = self.to_dict()
        try:
            events = self._expire(at)
            if self.over and not after_end:
                raise IllegalMove("game_over")
            return events + act()
        except IllegalMove:
            self.__dict__.update(PokerGame.from_dict(saved).__dict__)
            raise

    def _is_card(self, card: object) -> bool:
        if type(card) is not int:
            return False
        if card == JOKER:
            return get_table(self.table).jokers > 0
        return MIN_VALUE <= card <= MAX_VALUE

    def _hand_or_raise(self) -> int:
        card = self.hand
        if card is None:
            raise IllegalMove("no_card")
        return card

    def _joker_or_raise(self) -> None:
        if self._hand_or_raise() != JOKER:
            raise IllegalMove("not_joker")

    def _put(
        self, cell: object, value: object, now: float, *, joker: bool, from_reserve: bool
    ) -> list[Event]:
        if type(cell) is not int or not 0 <= cell < CELLS:
            raise IllegalMove("bad_cell", f"cell must be an int 0..{CELLS - 1}, got {cell!r}")
        if type(value) is not int or not MIN_VALUE <= value <= MAX_VALUE:
            raise IllegalMove("bad_value", f"value must be an int 1..13, got {value!r}")
        if self.cells[cell] is not None:
            raise IllegalMove("cell_taken", f"cell {cell} already holds {self.cells[cell]}")
        self.cells[cell] = value
        if joker:
            self.joker_cells = sorted([*self.joker_cells, cell])
        event: Event = {"type": "placed", "cell": cell, "value": value, "joker": joker}
        if from_reserve:
            self.kept_jokers -= 1
            at = float(now)
            event.update(kept=True, at=at)
            return [event, *self._check_end(at)]
        at = self._handle_card(now)
        event.update(kept=False, at=at)
        return [event, *self._after_handling(at)]

    def _handle_card(self, now: float) -> float:
        """Mark the card in hand as handled; returns when (never before it was reached)."""
        reached = self.reached_at()
        at = float(now) if reached is None else max(float(now), reached)
        self.handled += 1
        self.handled_at = at
        return at

    def _after_handling(self, at: float) -> list[Event]:
        events = self._check_end(at)
        if not self.over:
            events += self._refill(at)
        return events

    def _append(self, card: int, at: float) -> list[Event]:
        self.sequence.append(card)
        self.dealt_at.append(at)
        if self.started_at is None:
            self.started_at = at
        if self.over:
            return []
        return [{"type": "dealt", "index": len(self.sequence) - 1, "card": card, "at": at}]

    def _refill(self, at: float) -> list[Event]:
        """Own deck: deal the next card as soon as the player has nothing in hand."""
        if self.deck is None or self.hand is not None:
            return []
        if not self.deck:
            self.closed = True
            return self._check_end(at)
        events = self._append(self.deck.pop(0), at)
        if not self.deck:
            self.closed = True
        return events

    def _expire(self, now: float) -> list[Event]:
        """Forfeit every card whose deadline passed before ``now``, in order."""
        events: list[Event] = []
        while not self.over:
            deadline = self.deadline()
            if deadline is None or now <= deadline:
                break
            card = self.hand
            index = self.handled
            self.handled += 1
            self.handled_at = deadline
            if card == JOKER:
                # A joker left undecided is lost like a kept joker never placed;
                # it was never bound to a cell, so it does not cost one.
                events.append({"type": "joker_expired", "index": index, "at": deadline})
            else:
                self.forfeited += 1
                events.append({"type": "forfeited", "index": index, "card": card, "at": deadline})
            events += self._after_handling(deadline)
        return events

    def _check_end(self, at: float) -> list[Event]:
        if self.over:
            return []
        board_full = self.placed + self.forfeited >= CELLS
        ran_out = self.closed and self.hand is None and self.kept_jokers == 0
        if not (board_full or ran_out):
            return []
        self.finished_at = at
        return [
            {
                "type": "game_over",
                "completed": self.completed,
                "score": self.score().total,
                "at": at,
            }
        ]
