"""The plug-in interface between the rooms runtime and a game.

A game declares one adapter per mode in its ``GameSpec.rooms``
(``core/registry.py``), which registers them here::

    rooms={"table": MyGameTable(), "solo": MyGameSolo()}

The runtime owns everything generic -- codes, seats, host controls, locking,
the event log, idempotency, delivery, expiry. The adapter owns the rules: it
turns a state and a player's message into a new state and the events to tell
people, and it says what each player may see. Adapters are stateless
translators to the game's pure rules engine; they never touch the database.

Every value passed in or returned must be JSON-serialisable (it is stored in
PostgreSQL). See docs/protocol.md for the whole contract.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar

from django.utils.translation import gettext as _

from core import registry as game_registry
from games.rooms.errors import RoomError

if TYPE_CHECKING:
    from pydantic import BaseModel

# Message types the runtime handles itself; a game cannot claim them.
RESERVED_TYPES = frozenset(
    {"sync", "ping", "start", "lock", "unlock", "kick", "end", "leave", "tick"}
)


@dataclass(frozen=True)
class Limits:
    """How many may sit in a room of this game and mode."""

    max_players: int
    min_players: int = 1
    spectators: bool = False
    # False for games where the host only deals (a teacher's group game): the host
    # then does not take one of the ``max_players`` places.
    host_plays: bool = True


@dataclass(frozen=True)
class SeatInfo:
    """What a game learns about a seat when the game starts."""

    player_id: int
    nickname: str
    role: str  # "host" | "player" | "spectator"


@dataclass
class Outcome:
    """What a move (or start, or tick) produced.

    ``public`` goes to everyone in the room under one new ``seq``; ``private``
    maps a player id to events only that player receives. ``finished`` ends the
    game: the runtime then asks ``results()`` and writes the game record.
    """

    state: dict[str, Any]
    public: list[dict[str, Any]] = field(default_factory=list)
    private: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    finished: bool = False


@dataclass
class SeatOutcome:
    """What a per-seat move produced (see ``RoomGame.seat_message_types``)."""

    seat_state: dict[str, Any]
    public: list[dict[str, Any]] = field(default_factory=list)
    private: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class PlayerResult:
    player_id: int
    score: int
    rank: int | None = None
    completed: bool = True
    details: dict[str, Any] = field(default_factory=dict[str, Any])


def duration_s(state: dict[str, Any]) -> float | None:
    """Seconds between the ISO ``started_at`` and ``finished_at`` an adapter keeps
    in its state (for ``details.duration_s``), or None while either is missing."""
    if not (state.get("started_at") and state.get("finished_at")):
        return None
    elapsed = datetime.fromisoformat(state["finished_at"]) - datetime.fromisoformat(
        state["started_at"]
    )
    return round(elapsed.total_seconds(), 1)


class RoomGame:
    """Base class for game adapters; override what your game needs.

    Refuse a message by raising ``RoomError(code, message)`` (or any exception
    with string attributes ``code`` and ``message``, such as a rules engine's
    ``IllegalMove``): the runtime answers the sender with that error and
    nothing is stored.

    Optional hooks: ``tick`` / ``next_deadline`` for time-based rules, and
    ``player_removed`` for a player who leaves a running game or is removed by
    the host (turn-based games hand the turn on there, or finish the game).
    """

    limits: ClassVar[Limits] = Limits(max_players=4)
    # Message types this game accepts from players, handled by ``apply``.
    message_types: ClassVar[frozenset[str]] = frozenset()
    # Message types handled by ``apply_seat``: they lock only the sender's seat
    # row, so many players can act at the same moment without queueing.
    seat_message_types: ClassVar[frozenset[str]] = frozenset()
    # The schema of every type above ({type: model}, see games/rooms/schemas.py):
    # the runtime validates each message against it before ``apply`` sees it and
    # passes on (and stores) only the fields it defines.
    messages: ClassVar[dict[str, type[BaseModel]]] = {}
    # The schema of every event this game emits, public or private (checked by the tests).
    events: ClassVar[dict[str, type[BaseModel]]] = {}
    # The model of what ``view`` returns once the game runs (the `sync` frame's ``view``;
    # in the lobby the view is ``{}``): checked by the tests, exported to the JSON
    # Schema and the JS typedefs (``python -m tools.protocol_schema``).
    view_model: ClassVar[type[BaseModel] | None] = None
    # Optional: a template included in the room page once the game runs, and
    # the ES module (static path) that drives it with a RoomSocket.
    template_name: ClassVar[str | None] = None
    script: ClassVar[str | None] = None
    # True for games that start by themselves once ``limits.max_players`` are in
    # (a duel): the join that fills the room starts it in the same transaction.
    starts_when_full: ClassVar[bool] = False
    # True for games whose finished room offers a rematch (``lifecycle.rematch``):
    # a new room with the same settings and the same players, started at once.
    rematch: ClassVar[bool] = False
    # True for games a player can still join while they run (a group game where
    # everyone plays their own board): ``latecomer`` then seats them. Games that
    # cannot admit anybody mid-game leave it False and refuse ``already_started``.
    admits_latecomers: ClassVar[bool] = False

    def clean_settings(self, settings: dict[str, Any]) -> dict[str, Any]:
        """Validate and normalise the host's settings; raise RoomError if bad."""
        return dict(settings)

    def table_seats(self, settings: dict[str, Any]) -> int:
        """How many playing places this room's table has, as the room page counts
        them ("Players 1/2"); a game whose host picks the table size says so."""
        return self.limits.max_players

    def start(
        self, *, settings: dict[str, Any], seats: list[SeatInfo], rng: random.Random, now: datetime
    ) -> Outcome:
        raise NotImplementedError

    def initial_seat_state(self, state: dict[str, Any], player_id: int) -> dict[str, Any]:
        """The per-seat state a seat starts with (only for per-seat games)."""
        return {}

    def apply(
        self,
        state: dict[str, Any],
        *,
        player_id: int,
        role: str,
        message: dict[str, Any],
        now: datetime,
        rng: random.Random,
    ) -> Outcome:
        raise RoomError("unknown_type", _("This game does not accept that message."))

    def apply_seat(
        self,
        state: dict[str, Any],
        seat_state: dict[str, Any],
        *,
        player_id: int,
        message: dict[str, Any],
        now: datetime,
    ) -> SeatOutcome:
        raise RoomError("unknown_type", _("This game does not accept that message."))

    def view(
        self,
        state: dict[str, Any],
        *,
        player_id: int | None,
        role: str,
        seat_state: dict[str, Any],
        now: datetime,
    ) -> dict[str, Any]:
        """What ``player_id`` may see (a spectator sees only public things) at ``now``.

        The runtime passes the moment of the read, so a game whose view depends on
        time (a clock, numbers that expired) computes it from ``now`` instead of
        reading the clock itself.
        """
        return {}

    def tick(self, state: dict[str, Any], *, now: datetime, rng: random.Random) -> Outcome | None:
        """Apply time-based rules; None when nothing is due."""
        return None

    def next_deadline(self, state: dict[str, Any]) -> datetime | None:
        """When ``tick`` should next be evaluated (from timestamps in the state)."""
        return None

    def player_removed(
        self, state: dict[str, Any], *, player_id: int, now: datetime, rng: random.Random
    ) -> Outcome | None:
        """A player left the running game or the host removed them; None: nothing to do.

        Called inside the leave/kick step (same lock, same ``seq``) for every seat
        that stops being joined while the game runs -- spectators included, so
        ignore ids that do not play (and ids already removed: a player may come
        back to watch and leave again). Turn-based games take the player out of
        the turn order, hand a turn they held to the next player at once and,
        when too few remain, finish the game (``Outcome.finished``). The player
        never comes back as a player, and ``results()`` still reports them.
        """
        return None

    def latecomer(
        self, state: dict[str, Any], *, player_id: int, nickname: str, now: datetime
    ) -> Outcome:
        """A player joins the running game (only with ``admits_latecomers``).

        Called inside the join step (same lock, same ``seq``); the runtime then
        gives the new seat ``initial_seat_state`` of the returned state, so a
        per-seat game records there what the latecomer missed.
        """
        raise RoomError("already_started", _("The game has already started."))

    def end(self, state: dict[str, Any], *, now: datetime) -> dict[str, Any]:
        """The host ends a running game early; return the final state."""
        return state

    def results(
        self, state: dict[str, Any], seat_states: dict[int, dict[str, Any]]
    ) -> list[PlayerResult]:
        """Scores for GameRecord/GameResult when the game is over."""
        return []


_REGISTRY: dict[tuple[str, str], RoomGame] = {}


def check(game: str, mode: str, adapter: RoomGame) -> None:
    """Refuse an adapter that claims the runtime's messages or mixes its own up."""
    clash = (adapter.message_types | adapter.seat_message_types) & RESERVED_TYPES
    if clash:
        raise ValueError(f"{game}/{mode} claims reserved message types: {sorted(clash)}")
    if adapter.message_types & adapter.seat_message_types:
        raise ValueError(f"{game}/{mode}: a message type is both room-wide and per-seat")
    accepted, typed = adapter.message_types | adapter.seat_message_types, set(adapter.messages)
    if adapter.messages and typed != accepted:
        raise ValueError(
            f"{game}/{mode}: `messages` must hold one schema per message type; no schema:"
            f" {sorted(accepted - typed)}, no such type: {sorted(typed - accepted)}"
        )


def register(game: str, mode: str, adapter: RoomGame) -> None:
    """Add an adapter by hand (the runtime's own tests); games declare theirs in
    their ``GameSpec.rooms`` instead, which this registry reads."""
    check(game, mode, adapter)
    _REGISTRY[(game, mode)] = adapter


def unregister(game: str, mode: str) -> None:
    _REGISTRY.pop((game, mode), None)


_checked: set[tuple[str, str, int]] = set()


def _adapters() -> dict[tuple[str, str], RoomGame]:
    """Hand-registered adapters and every registered game's ``rooms``; a game's
    adapter is checked the first time the runtime meets it."""
    adapters = dict(_REGISTRY)
    for spec in game_registry.games():
        for mode, adapter in spec.rooms.items():
            key = (spec.slug, mode)
            if key in adapters:
                continue
            if (spec.slug, mode, id(adapter)) not in _checked:
                check(spec.slug, mode, adapter)
                _checked.add((spec.slug, mode, id(adapter)))
            adapters[key] = adapter
    return adapters


def get(game: str, mode: str) -> RoomGame:
    adapter = _REGISTRY.get((game, mode))
    if adapter is None:
        spec = game_registry.get(game)
        adapter = spec.rooms.get(mode) if spec else None
        if adapter is not None and (game, mode, id(adapter)) not in _checked:
            check(game, mode, adapter)
            _checked.add((game, mode, id(adapter)))
    if adapter is None:
        raise RoomError("unknown_game", _("This game or mode does not exist."))
    return adapter


def registered() -> list[tuple[str, str]]:
    return sorted(_adapters())
