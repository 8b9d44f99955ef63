"""The game plug-in registry: what the platform knows about a game, declared by the game.

A game is one folder under ``games/`` and one line in ``INSTALLED_APPS``. Its
``game.py`` builds a :class:`GameSpec` and its ``AppConfig.ready()`` calls
:func:`register` with it. Everything the platform does with games -- the home
catalogue, the URL tree, rooms, starting a game for a class, profile statistics,
class reports, the staff dashboard, the demo data -- reads this registry and
never names a game.

The platform sits below the games: this module imports nothing from a game
package. Game slugs stored in shared tables (``GameRecord.game``, ``Room.game``)
are plain strings validated against the registry at run time, so a new game
needs no migration of shared tables.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.errors import DomainError

if TYPE_CHECKING:
    from django.db.models import QuerySet
    from django.http import HttpResponse
    from django.utils.functional import _StrPromise

    StrOrPromise: TypeAlias = str | _StrPromise


class SettingsForm(Protocol):
    """A game's settings form on the class page: a Django form whose ``settings()``
    turns what was posted into the settings dict its rooms adapter takes."""

    def settings(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class ClassLaunch:
    """How a teacher starts the game for a class from the class page.

    ``kind="group"``: one host-driven room for the whole class, hosted by the
    teacher. ``kind="tables"``: the class's students are shuffled into tables of
    at most the adapter's ``max_players``, each its own room, first student hosts.
    """

    mode: str
    kind: Literal["group", "tables"]
    # Called with the POSTed data (or None for an empty form) and ``prefix``; the
    # form's ``settings()`` returns the dict for the adapter (errors: ClassroomError).
    settings_form: Callable[..., SettingsForm] | None = None
    # The template fragment that renders ``form`` on the class page.
    settings_template: str = "classrooms/_settings_fields.html"
    # Static ES modules the class page loads for this game's settings.
    scripts: tuple[str, ...] = ()
    # (teacher's settings, the table's players) -> the settings of one table.
    table_settings: Callable[[dict, list], dict] | None = None

    def settings_for_table(self, chosen: dict, table: list) -> dict:
        if self.table_settings is None:
            return dict(chosen)
        return self.table_settings(chosen, table)


@dataclass(frozen=True)
class ProfileStats:
    """A game's part of a player's profile statistics.

    ``compute(results, player=..., today=...)`` gets the player's ``GameResult``
    rows of this game (``select_related("record")``) and returns a dict the
    ``template`` fragment renders as ``game_stats``.
    """

    compute: Callable[..., dict]
    template: str


@dataclass(frozen=True)
class Assignable:
    """How a game can be given to a class as homework (``homework`` app).

    Every pupil plays the same seeded solo game; the game keeps its own API and
    pages and tells the homework app when a game starts and ends through the
    :class:`AssignmentGate` that app provides.
    """

    # The teacher's settings -> the cleaned settings stored on the assignment;
    # raises ``ValidationError`` with a stable ``code`` on bad input.
    clean_settings: Callable[[Any], dict]
    # The settings form's fields for the teacher's page: [(name, label, choices|None, default)].
    setting_fields: Callable[[], list[tuple[str, StrOrPromise, list[Any] | None, Any]]]
    # (request, game reference) -> the game's review page of that pupil's game,
    # for a viewer the homework app already checked (a teacher of the class).
    # (the request is the view's: accounts.requests.PlayerRequest, which core does not import)
    review_response: Callable[[Any, str], HttpResponse] | None = None
    # The URL of the page the pupil plays the assignment on: (assignment id) -> str.
    play_url: Callable[[int], str] | None = None
    # The pupil's own review of their game, once the homework allows it: (game reference) -> str.
    pupil_review_url: Callable[[str], str] | None = None
    # For a game played in a room (``GameSpec.rooms``): the mode its homework
    # rooms have. The game reference of such an attempt is the room's id, and
    # when a room of this mode finishes the rooms runtime tells the gate
    # (``AssignmentGate.finished``) in the finishing transaction.
    room_mode: str | None = None
    # The homework score of a finished game's result (a ``GameResult``), when the
    # game's own score does not tell pupils apart; None: the result's score.
    score: Callable[[Any], int | None] | None = None
    # The default "full marks" point of a homework with these settings (the
    # score at and above which the LMS gradebook shows 100 %), when the teacher
    # sets none: (settings) -> int, documented per game in docs/lti.md.
    full_marks: Callable[[Mapping[str, Any]], int] | None = None


@dataclass(frozen=True)
class AssignmentTicket:
    """A started (or continued) homework attempt, as the gate hands it to a game.

    ``key`` is what the game derives the shared deck from (with its own server
    secret); it is never sent to a browser."""

    attempt_id: int
    assignment_id: int
    settings: Mapping[str, Any]
    key: str
    counted: bool
    hints: bool
    # The game reference of the pupil's unfinished attempt to continue, if any.
    resume: str | None = None


class AssignmentRefused(DomainError):  # noqa: N818 -- a refusal, not a crash
    """The gate refuses a start: a stable ``code``, a human ``message``, an HTTP
    ``status`` (409 unless given) -- the one domain error type (``core.errors``)."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(code, message, status)


@dataclass(frozen=True)
class GameSpec:
    slug: str
    name: Promise
    tagline: Promise
    players: Promise
    # CSS colour of the game's cards and accents (rendered into /games.css).
    colour: str
    # The URL name of the game's hub page.
    index_url: str
    # URL modules mounted at ``<slug>/``.
    urls: tuple[str, ...] = ()
    # Rooms adapters by mode (``games.rooms.registry.RoomGame`` instances; typed
    # loosely so this bottom layer imports nothing of the runtime above it).
    rooms: Mapping[str, Any] = field(default_factory=dict)
    # A short human name per mode (room headers), e.g. {"group": _("group game")}.
    mode_names: Mapping[str, Promise] = field(default_factory=dict)
    class_launch: ClassLaunch | None = None
    profile_stats: ProfileStats | None = None
    # (app_label, model_name) of the game's own admin change lists for staff.
    staff_models: tuple[tuple[str, str], ...] = ()
    # Domain event "these players' results must leave every public table now"
    # (consent withdrawn, stats reset, profile deleted, nickname hidden, a class
    # that forbids publication gained them): player ids -> None. Called by the
    # platform's services inside their transaction (``withdraw_public_data``).
    withdraw_public_data: Callable[[list[int]], None] | None = None
    # Whether and how the game can be given as homework (None: it cannot).
    assignable: Assignable | None = None
    # Demo data for a class: (classroom, rng) -> None (``make run``'s demo loader).
    demo: Callable[[Any, random.Random], None] | None = None
    # Sort position on the home page and the class page.
    order: int = 100
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return reverse(self.index_url)

    @property
    def ready(self) -> bool:
        return True

    def mode_name(self, mode: str) -> str:
        return str(self.mode_names.get(mode, mode))


_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> None:
    """Add a game (from its ``AppConfig.ready``). The rooms runtime reads its
    ``rooms`` from here (``games.rooms.registry``); this module imports nothing
    above it."""
    if spec.slug in _GAMES and _GAMES[spec.slug] is not spec:
        raise ValueError(f"game {spec.slug!r} is registered twice")
    if not spec.slug.isidentifier() or len(spec.slug) > 16:
        raise ValueError(f"game slug {spec.slug!r} must be an identifier of at most 16 characters")
    _GAMES[spec.slug] = spec


def unregister(slug: str) -> None:
    """Remove a game (tests that add a fake game clean up with this)."""
    _GAMES.pop(slug, None)


def games() -> list[GameSpec]:
    """Every registered game, in home-page order."""
    return sorted(_GAMES.values(), key=lambda spec: (spec.order, spec.slug))


def get(slug: str) -> GameSpec | None:
    return _GAMES.get(slug)


def name(slug: str) -> str:
    """The game's display name, or the slug itself for a game no longer installed."""
    spec = _GAMES.get(slug)
    return str(spec.name) if spec else slug


def validate_slug(value: str) -> None:
    """Model-field validator: the stored game must be a registered one."""
    if value not in _GAMES:
        raise ValidationError(
            _("Unknown game: %(game)s"), code="unknown_game", params={"game": value}
        )


class AssignmentGate:
    """What a game asks the homework app (which sits above the games and
    registers itself here from its ``AppConfig.ready``): may this player start
    an attempt, and here is how it ended."""

    def begin(self, *, game: str, assignment_id: object, player: Any) -> AssignmentTicket:
        raise AssignmentRefused("not_found", str(_("This homework does not exist.")), 404)

    def attach(self, *, attempt_id: int, ref: str) -> None:
        """Link a started attempt to the game's own reference (its game id)."""

    def finished(self, *, game: str, ref: str, result: Any) -> None:
        """The game ``ref`` ended and wrote ``result`` (a ``GameResult``)."""

    def pupil_may_review(self, *, game: str, ref: str) -> bool:
        return False

    def is_assignment(self, *, game: str, ref: str) -> bool:
        """Whether the game ``ref`` is a homework attempt (its own rules then apply:
        no hints unless practice, no review before the homework allows it)."""
        return False

    def hints_allowed(self, *, game: str, ref: str) -> bool:
        return False


_gate: list[AssignmentGate] = [AssignmentGate()]


def provide_assignments(gate: AssignmentGate) -> None:
    """The homework app plugs in here (without it, nothing can be assigned)."""
    _gate[0] = gate


def assignments() -> AssignmentGate:
    return _gate[0]


def assignable_games() -> list[GameSpec]:
    return [spec for spec in games() if spec.assignable is not None]


def withdraw_public_data(player_ids: Iterable[int | None]) -> None:
    """Tell every game that these players may no longer appear in public output.

    An explicit call from the service that decided it (accounts: consent, reset,
    deletion, moderation; classrooms: a class that forbids publication gains a
    member or switches publication off) -- not a model signal, so nothing
    happens behind a plain ``save()`` and no game imports the platform's models
    to find out."""
    ids = sorted({int(pk) for pk in player_ids if pk is not None})
    if not ids:
        return
    for spec in games():
        if spec.withdraw_public_data is not None:
            spec.withdraw_public_data(ids)


def profile_stats(results: QuerySet, **kwargs: Any) -> dict[str, dict]:
    """Each game's own profile statistics, keyed by slug (games without any are absent)."""
    stats = {}
    for spec in games():
        if spec.profile_stats is not None:
            stats[spec.slug] = spec.profile_stats.compute(
                results.filter(record__game=spec.slug), **kwargs
            )
    return stats
