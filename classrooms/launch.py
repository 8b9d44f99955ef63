"""Which games a teacher can start for a class, and starting them.

Games run in rooms (``games.rooms``). This module is the only place that
knows whether the rooms runtime and each game are ready, so the class page
shows games that are not playable yet as disabled with a note instead of
buttons that lead nowhere.
"""

from dataclasses import dataclass
from importlib import import_module

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.catalogue import GAMES, GameInfo

# How each game is started for a class: poker as one host-controlled group game
# for everybody, the table games as tables (optionally the whole class split).
CLASS_MODES = {
    "poker": ("group",),
    "mathesso": ("table",),
    "abaku": ("table",),
    "theorems": ("table",),
}
TABLE_SIZES = {"mathesso": 6, "abaku": 4, "theorems": 4}


@dataclass(frozen=True)
class ClassGame:
    info: GameInfo
    modes: tuple[str, ...]
    playable: bool
    max_table: int | None
    note: Promise | None


def _rooms_module(name: str):
    try:
        return import_module(f"games.rooms.{name}")
    except ImportError:
        return None


def create_room_function():
    services = _rooms_module("services")
    return getattr(services, "create_room", None) if services else None


def live_rooms(classroom) -> list:
    selectors = _rooms_module("selectors")
    function = getattr(selectors, "live_rooms_for_classroom", None) if selectors else None
    return list(function(classroom)) if function else []


def class_games() -> list[ClassGame]:
    runtime_ready = create_room_function() is not None
    games = []
    for info in GAMES:
        playable = runtime_ready and info.ready
        if not runtime_ready:
            note = _("Live games for a class are coming soon.")
        elif not info.ready:
            note = _("This game is not on the site yet.")
        else:
            note = None
        games.append(
            ClassGame(
                info=info,
                modes=CLASS_MODES.get(info.slug, ()),
                playable=playable,
                max_table=TABLE_SIZES.get(info.slug),
                note=note,
            )
        )
    return games


def start_for_class(*, classroom, user, game: str, mode: str, table_size: int = 0) -> str:
    """Start a game for the class; returns the URL the teacher goes to next."""
    from classrooms.errors import ClassroomError

    games = {item.info.slug: item for item in class_games()}
    chosen = games.get(game)
    if chosen is None or mode not in chosen.modes:
        raise ClassroomError("unknown_game", _("This game cannot be started for a class."))
    if not chosen.playable:
        raise ClassroomError("game_not_ready", str(chosen.note))
    if classroom.archived_at is not None:
        raise ClassroomError("class_archived", _("An archived class cannot start games."))
    raise ClassroomError("game_not_ready", _("Live games for a class are coming soon."))
