"""Which games a teacher can start for a class, and starting them.

Games run in rooms (``games.rooms``); each game says in its ``GameSpec.class_launch``
(``core/registry.py``) how a class plays it, and a game/mode is playable once
its adapter is registered with the rooms registry. Until then the class page
shows it as disabled with a note instead of a button that leads nowhere.

- ``kind="group"``: one host-controlled game for the whole class; the teacher
  hosts (deals) with their own player profile.
- ``kind="tables"``: "split the class into tables of N" -- the class's students
  are shuffled into tables as even as possible, each table is its own room with
  every student already seated, and the first student of a table hosts it (so
  the teacher does not take a place at every table).
"""

import math
import random
from dataclasses import dataclass

from django.db import transaction
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts import trust
from accounts.models import PlayerProfile, User
from classrooms import services
from classrooms.errors import ClassroomError
from classrooms.models import Classroom, Membership
from core import registry as game_registry
from core.registry import ClassLaunch, GameSpec
from games.rooms import registry
from games.rooms import selectors as room_selectors
from games.rooms import services as room_services
from games.rooms.models import Room, Seat


@dataclass(frozen=True)
class ClassGame:
    info: GameSpec
    launch: ClassLaunch
    playable: bool
    max_table: int | None
    note: Promise | None

    @property
    def mode(self) -> str:
        return self.launch.mode

    @property
    def is_group(self) -> bool:
        return self.launch.kind == "group"


def class_games() -> list[ClassGame]:
    """Every registered game a class can play, in catalogue order."""
    registered = set(registry.registered())
    games = []
    for spec in game_registry.games():
        launch = spec.class_launch
        if launch is None:
            continue
        playable = (spec.slug, launch.mode) in registered
        max_table = None
        if playable and launch.kind == "tables":
            max_table = registry.get(spec.slug, launch.mode).limits.max_players
        games.append(
            ClassGame(
                info=spec,
                launch=launch,
                playable=playable,
                max_table=max_table,
                note=None if playable else gettext_lazy("Not playable on the site yet."),
            )
        )
    return games


@dataclass(frozen=True)
class LiveRoom:
    room: Room
    players: list[str]
    mine: bool

    @property
    def game_name(self) -> str:
        return game_registry.name(self.room.game)

    @property
    def joinable(self) -> bool:
        """A pupil can take a seat: the lobby, or a running game that admits latecomers."""
        if self.room.status == Room.Status.LOBBY:
            return True
        adapter = registry.get(self.room.game, self.room.mode)
        return self.room.status == Room.Status.RUNNING and adapter.admits_latecomers


def live_rooms(
    classroom: Classroom,
    players: list[int] | None = None,
    roster_names: dict[int, str] | None = None,
) -> list[LiveRoom]:
    """The class's open rooms; ``mine`` marks those where one of ``players`` has a seat.

    Seated players are named by ``roster_names`` (the teacher's view) where given,
    else by their public nickname.
    """
    roster_names = roster_names or {}
    rooms = list(room_selectors.live_rooms_for_classroom(classroom).prefetch_related("seats"))
    mine = set()
    if players:
        mine = set(
            Seat.objects.filter(
                room__in=rooms, player_id__in=players, status=Seat.Status.JOINED
            ).values_list("room_id", flat=True)
        )
    seated: dict[int, list[str]] = {}
    for seat in Seat.objects.filter(room__in=rooms, status=Seat.Status.JOINED).select_related(
        "player"
    ):
        name = roster_names.get(seat.player_id) or seat.player.display_name
        seated.setdefault(seat.room_id, []).append(name)
    return [
        LiveRoom(room=room, players=seated.get(room.pk, []), mine=room.pk in mine) for room in rooms
    ]


def live_room_ids(classroom: Classroom) -> str:
    """The class's open rooms in one cheap query (for the pages' change fingerprint)."""
    ids = room_selectors.live_rooms_for_classroom(classroom).values_list("pk", flat=True)
    return ",".join(str(pk) for pk in ids)


def split_into_tables(players: list, size: int, rng: random.Random) -> list[list]:
    """Shuffle and split into ceil(n/size) tables whose sizes differ by at most one."""
    if not players:
        return []
    shuffled = list(players)
    rng.shuffle(shuffled)
    count = math.ceil(len(shuffled) / size)
    return [shuffled[index::count] for index in range(count)]


def _game(game: str) -> ClassGame:
    chosen = {item.info.slug: item for item in class_games()}.get(game)
    if chosen is None:
        raise ClassroomError("unknown_game", _("This game cannot be started for a class."))
    if not chosen.playable:
        raise ClassroomError("game_not_ready", _("Not playable on the site yet."))
    return chosen


def _check_class(classroom: Classroom) -> None:
    if classroom.archived_at is not None:
        raise ClassroomError("class_archived", _("An archived class cannot start games."))


@transaction.atomic
def start_group_game(
    *,
    classroom: Classroom,
    user: User,
    game: str,
    settings: dict | None = None,
) -> Room:
    """A host-controlled game for the whole class, hosted by the teacher's own
    profile. That profile is known from the teacher's session (the rooms ask
    ``accounts.selectors.account_player``), never put into the browser's identity
    cookie, so host rights end when the teacher logs out.
    ``settings`` go to the game's adapter, which refuses bad ones (nothing is created).
    """
    trust.require_verified(user, ClassroomError)
    chosen = _game(game)
    if not chosen.is_group:
        raise ClassroomError("unknown_game", _("This game cannot be started for a class."))
    _check_class(classroom)
    host = services.ensure_teacher_player(user=user)
    room = room_services.create_room(
        game=game, mode=chosen.mode, host=host, settings=settings or {}, classroom=classroom
    )
    # One open game per class launch: an older lobby of this game that never
    # started closes, and its pupils are seated here (their pages follow).
    room_services.hand_over_lobbies(successor=room, actor=host)
    return room


@transaction.atomic
def start_tables(
    *,
    classroom: Classroom,
    game: str,
    size: int,
    settings: dict | None = None,
    rng: random.Random | None = None,
) -> list[Room]:
    """Split the approved students who have joined into tables of ``size``, seat them.

    Every table gets the same ``settings``; the adapter refuses bad ones, and then
    no table is created.
    """
    chosen = _game(game)
    if chosen.is_group or chosen.max_table is None:
        raise ClassroomError("unknown_game", _("This game cannot be started for a class."))
    _check_class(classroom)
    if not 1 <= size <= chosen.max_table:
        raise ClassroomError(
            "bad_table_size",
            ngettext(
                "A table of this game seats %(count)s player.",
                "A table of this game seats 1 to %(count)s players.",
                chosen.max_table,
            )
            % {"count": chosen.max_table},
        )
    players = list(
        PlayerProfile.objects.filter(
            memberships__classroom=classroom,
            memberships__status=Membership.Status.APPROVED,
            is_active=True,
        ).order_by("pk")
    )
    if not players:
        raise ClassroomError(
            "no_students", _("No student has joined the class yet, so there is nobody to seat.")
        )
    rooms = []
    for table in split_into_tables(players, size, rng or random.SystemRandom()):
        room = room_services.create_room(
            game=game,
            mode=chosen.mode,
            host=table[0],
            settings=chosen.launch.settings_for_table(settings or {}, table),
            classroom=classroom,
        )
        for player in table[1:]:
            room_services.join_room(room=room, player=player)
        rooms.append(room)
    return rooms
