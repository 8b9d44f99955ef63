"""Read operations on classes and their results.

Every teacher-facing read starts from :func:`classes_for_teacher`, used by
both the pages and the API, so a teacher only ever reaches their own classes
and the classes they co-teach: another teacher's IDs simply do not exist.

Reports tell what was played (issue 31). A session is *unfinished* only when
the host stopped it early: a game that says so in its results
(``details["stopped_early"]``, e.g. a group game the host ended before its
last number) or, for a game that does not say, one without an end or
without a single completed result. A session that ran to its end counts for
every class member who played in it, incomplete boards included (marked with
the cells filled and numbers missed, ``details["filled"]``/``["forfeited"]``).
Players who are not members of the class (guests who joined by the room's QR)
are listed apart and never enter a class statistic: not the player count, the
average, the best, the participation. Results of players who left or were
removed before the end are listed, marked, and not counted. ``include_unfinished``
(the teacher's "show them") counts both; they are always listed, marked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from math import isqrt
from typing import TYPE_CHECKING, TypedDict

from django.contrib.auth.models import AnonymousUser
from django.db.models import Avg, BooleanField, Case, Count, Max, Q, QuerySet, Value, When
from django.http import Http404

from accounts.models import PlayerProfile, User
from classrooms import collation
from classrooms.models import Classroom, Membership
from games.models import GameRecord, GameResult
from games.rooms.models import Seat

if TYPE_CHECKING:
    from typing import TypeAlias

    from django_stubs_ext import WithAnnotations  # the dev lock's django-stubs


class SessionColumns(TypedDict):
    """The columns :func:`class_sessions` adds to each session."""

    player_count: int
    guest_count: int
    completed_count: int
    stopped_count: int
    said_count: int
    average_score: float | None
    best_score: int | None
    unfinished: bool


if TYPE_CHECKING:
    #: a session as :func:`class_sessions` reads it
    Session: TypeAlias = WithAnnotations[GameRecord, SessionColumns]


def classes_for_teacher(user: User | AnonymousUser) -> QuerySet[Classroom]:
    if not user.is_authenticated:
        return Classroom.objects.none()
    # Only accepted invitations count: an invitation is accepted through the
    # signed link mailed to its address (classrooms.invitation_services.accept_invitation).
    return (
        Classroom.objects.filter(
            Q(teacher=user) | Q(co_teachers__user=user, co_teachers__accepted_at__isnull=False)
        )
        .distinct()
        .select_related("teacher")
    )


def teaches(classroom_id: int, player: PlayerProfile) -> bool:
    """Whether the teacher whose own profile is ``player`` owns the class or is
    one of its accepted co-teachers now (the rooms ask it of class rooms)."""
    return Classroom.objects.filter(
        Q(teacher__player_id=player.pk)
        | Q(co_teachers__user__player_id=player.pk, co_teachers__accepted_at__isnull=False),
        pk=classroom_id,
    ).exists()


def teacher_classroom(user: User | AnonymousUser, pk: int | str) -> Classroom:
    """The class if this teacher may manage it, else 404 (never 403: IDs must not leak)."""
    classroom = classes_for_teacher(user).filter(pk=pk).first()
    if classroom is None:
        raise Http404("No such class.")
    return classroom


def memberships_for_player(player: PlayerProfile | None) -> QuerySet[Membership]:
    if player is None:
        return Membership.objects.none()
    return (
        Membership.objects.filter(Q(player=player) | Q(other_players=player))
        .distinct()
        .select_related("classroom", "classroom__teacher")
        .order_by("classroom__name")
    )


def student_membership(player: PlayerProfile | None, pk: int | str) -> Membership:
    membership = memberships_for_player(player).filter(classroom_id=pk).first()
    if membership is None:
        raise Http404("No such class.")
    return membership


def unclaimed_roster(classroom: Classroom) -> QuerySet[Membership]:
    """Roster names nobody claimed yet (the join page shows only their short form)."""
    return classroom.members.filter(player__isnull=True, status=Membership.Status.APPROVED)


def roster(classroom: Classroom) -> QuerySet[Membership]:
    return classroom.members.select_related("player").prefetch_related("other_players")


def in_roster_order(members: Iterable[Membership]) -> list[Membership]:
    """Roster entries in Czech (Slovak on Slovak pages) alphabetical order: Č after
    C, Ch after H, Ř, Š, Ž after R, S, Z (``classrooms.collation``); the database
    orders by code point. Every list of roster names a person reads goes through here."""
    return collation.sort_by_name(members, lambda member: member.roster_name)


def player_names(classroom: Classroom) -> dict[int, Membership]:
    """Each player profile of the class (merged ones included) -> its member."""
    return names_of(roster(classroom))


def names_of(members: Iterable[Membership]) -> dict[int, Membership]:
    """``player_names`` of a roster the caller read already (``roster``)."""
    names: dict[int, Membership] = {}
    for member in members:
        for player in member.other_players.all():
            names[player.pk] = member
        if member.player_id:
            names[member.player_id] = member
    return names


def roster_names_by_player(classroom_id: int) -> dict[int, str]:
    """Player id -> roster name for the class (merged profiles included)."""
    classroom = Classroom.objects.filter(pk=classroom_id).first()
    if classroom is None:
        return {}
    return {pid: member.roster_name for pid, member in player_names(classroom).items()}


def member_player_ids(member: Membership) -> list[int]:
    ids = [player.pk for player in member.other_players.all()]
    if member.player_id:
        ids.append(member.player_id)
    return ids


def class_sessions(
    classroom: Classroom,
    *,
    include_unfinished: bool = False,
    names: Mapping[int, Membership] | None = None,
) -> QuerySet[Session]:
    """The class's sessions, newest first, each with ``player_count`` (class
    members), ``guest_count`` (the others), ``completed_count``, ``unfinished``
    and the ``average_score`` and ``best_score`` of its members' results.
    Unfinished sessions (stopped early) are left out unless ``include_unfinished``.
    ``names``: the class's ``player_names`` when the caller built it already
    (the class page did it twice, issue 28)."""
    if names is None:
        names = player_names(classroom)
    members = Q(results__player_id__in=list(names))
    counted = members
    if not include_unfinished:
        counted &= ~Q(results__pk__in=departed_results(classroom))
    sessions = (
        GameRecord.objects.filter(classroom=classroom)
        .annotate(
            player_count=Count("results", filter=members),
            guest_count=Count("results", filter=~members),
            completed_count=Count("results", filter=Q(results__completed=True)),
            stopped_count=Count("results", filter=Q(results__details__stopped_early=True)),
            said_count=Count("results", filter=Q(results__details__has_key="stopped_early")),
            average_score=Avg("results__score", filter=counted),
            best_score=Max("results__score", filter=counted),
        )
        .annotate(
            unfinished=Case(
                When(
                    Q(finished_at__isnull=True)
                    | Q(stopped_count__gt=0)
                    | Q(said_count=0, completed_count=0),
                    then=Value(True),
                ),
                default=Value(False),
                output_field=BooleanField(),
            )
        )
        .order_by("-started_at", "-pk")
    )
    if not include_unfinished:
        sessions = sessions.filter(unfinished=False)
    return sessions


def unfinished_count(classroom: Classroom) -> int:
    """How many of the class's sessions did not finish (the reports leave them out)."""
    return class_sessions(classroom, include_unfinished=True).filter(unfinished=True).count()


def class_session(classroom: Classroom, pk: int | str) -> Session:
    """One session, finished or not (a link to it always works)."""
    record = class_sessions(classroom, include_unfinished=True).filter(pk=pk).first()
    if record is None:
        raise Http404("No such game.")
    return record


def departures(
    record_ids: Iterable[int], player_ids: Iterable[int] | None = None
) -> dict[tuple[int, int | None], str]:
    """(record id, player id) -> "left" or "kicked" for players whose seat in the
    room that wrote the record was given up before the game ended (a result whose
    player is gone, ``player_id`` None, finds nothing)."""
    seats = Seat.objects.filter(
        room__record_id__in=list(record_ids),
        status__in=[Seat.Status.LEFT, Seat.Status.KICKED],
        left_at__isnull=False,
    ).values("room__record_id", "room__record__finished_at", "player_id", "status", "left_at")
    if player_ids is not None:
        seats = seats.filter(player_id__in=list(player_ids))
    found: dict[tuple[int, int | None], str] = {}
    for seat in seats:
        left, ended = seat["left_at"], seat["room__record__finished_at"]
        if left is not None and (ended is None or left < ended):
            found[(seat["room__record_id"], seat["player_id"])] = seat["status"]
    return found


def departed_results(classroom: Classroom) -> list[int]:
    """Results of the class's games whose player left or was removed before the
    end: listed, marked, but not counted (they did not play the game out)."""
    results = GameResult.objects.filter(record__classroom=classroom).values_list(
        "pk", "record_id", "player_id"
    )
    gone = departures(GameRecord.objects.filter(classroom=classroom).values_list("pk", flat=True))
    if not gone:
        return []
    return [pk for pk, record_id, player_id in results if (record_id, player_id) in gone]


@dataclass(frozen=True)
class Progress:
    """How far an incomplete board got: cells filled and numbers missed."""

    filled: int
    missed: int


def progress(result: GameResult) -> Progress | None:
    """For an incomplete result whose game says how far it got (``details.filled``,
    ``details.forfeited``), that; else None."""
    details = result.details if isinstance(result.details, dict) else {}
    filled, missed = details.get("filled"), details.get("forfeited", 0)
    if result.completed or type(filled) is not int or type(missed) is not int:
        return None
    return Progress(filled=filled, missed=missed)


@dataclass
class RankingRow:
    rank: int
    result: GameResult
    member: Membership | None
    board: list[list] | None = None
    jokers: set[int] | None = None  # board cells filled by a joker, by flat index
    departure: str = ""  # "left" or "kicked" when the seat was given up early

    @property
    def cells(self) -> list[list[tuple]]:
        """The board as (value, is_joker) pairs, for marking joker cells."""
        width = len(self.board[0]) if self.board and self.board[0] else 0
        jokers = self.jokers or set()
        return [
            [(cell, row * width + col in jokers) for col, cell in enumerate(line)]
            for row, line in enumerate(self.board or [])
        ]

    @property
    def roster_name(self) -> str:
        return self.member.roster_name if self.member else ""

    @property
    def nickname(self) -> str:
        return self.result.player.display_name if self.result.player else "—"

    @property
    def progress(self) -> Progress | None:
        return progress(self.result)


def _plain(value: object) -> bool:
    return value is None or isinstance(value, str | int | float)


def _grid(value: object) -> list[list] | None:
    """A list of equal rows of plain values, or a flat square list (e.g. a 5×5 board)."""
    if not isinstance(value, list) or not value:
        return None
    if all(isinstance(row, list) and all(_plain(cell) for cell in row) for row in value):
        return value
    side = isqrt(len(value))
    if side >= 2 and side * side == len(value) and all(_plain(cell) for cell in value):
        return [value[row * side : (row + 1) * side] for row in range(side)]
    return None


def _board(details: dict) -> list[list] | None:
    """The board if ``details`` holds one (``board`` first, else the first
    grid-shaped value). Other details are game-specific words that the API
    passes on; the page shows only what it can show in any language."""
    details = details if isinstance(details, dict) else {}
    board = _grid(details.get("board"))
    if board is None:
        board = next((_grid(v) for v in details.values() if _grid(v) is not None), None)
    return board


def _jokers(details: dict) -> set[int]:
    """Joker cells as flat board indexes (a game's ``details.joker_cells``)."""
    details = details if isinstance(details, dict) else {}
    cells = details.get("joker_cells")
    if not isinstance(cells, list):
        return set()
    return {cell for cell in cells if isinstance(cell, int) and not isinstance(cell, bool)}


def session_ranking(classroom: Classroom, record: GameRecord) -> list[RankingRow]:
    """Everyone with a result, in the game's order; guests (``member`` None) are
    among them here, the pages and exports list them apart."""
    names = player_names(classroom)
    results = sorted(
        record.results.select_related("player"),
        key=lambda result: (
            result.rank if result.rank is not None else 10**6,
            -result.score,
            result.pk,
        ),
    )
    gone = departures([record.pk])
    rows: list[RankingRow] = []
    for position, result in enumerate(results, start=1):
        if result.rank is not None:
            rank = result.rank
        elif rows and rows[-1].result.rank is None and rows[-1].result.score == result.score:
            rank = rows[-1].rank  # a tie shares the rank
        else:
            rank = position
        rows.append(
            RankingRow(
                rank=rank,
                result=result,
                member=names.get(result.player_id) if result.player_id else None,
                board=_board(result.details),
                jokers=_jokers(result.details),
                departure=gone.get((record.pk, result.player_id), ""),
            )
        )
    return rows


def class_ranking(rows: list[RankingRow]) -> list[RankingRow]:
    """The class members of a ``session_ranking``, ranked among themselves: a
    guest's place leaves no gap (1, 2, 3, not 1, 3, 4 around a guest in second
    place); members with equal game ranks still share one."""
    members = [row for row in rows if row.member]
    ranked: list[RankingRow] = []
    for position, row in enumerate(members, start=1):
        shared = ranked and members[position - 2].rank == row.rank
        ranked.append(replace(row, rank=ranked[-1].rank if shared else position))
    return ranked


@dataclass
class HistoryRow:
    record: GameRecord
    result: GameResult
    player_count: int
    session_finished: bool = True
    departure: str = ""

    @property
    def counted(self) -> bool:
        """Whether this game counts in averages and trends by default: it ran to
        its end and the player stayed in it (an incomplete board counts, marked)."""
        return self.session_finished and not self.departure

    @property
    def progress(self) -> Progress | None:
        return progress(self.result)


@dataclass
class History:
    rows: list[HistoryRow]  # every game, oldest first
    include_unfinished: bool = False

    @property
    def shown(self) -> list[HistoryRow]:
        """The games the page lists, counts and draws."""
        if self.include_unfinished:
            return self.rows
        return [row for row in self.rows if row.counted]

    @property
    def hidden(self) -> int:
        return len(self.rows) - len(self.shown)

    @property
    def games(self) -> int:
        return len(self.shown)

    @property
    def average(self) -> float | None:
        shown = self.shown
        if not shown:
            return None
        return round(sum(row.result.score for row in shown) / len(shown), 1)

    @property
    def best(self) -> int | None:
        return max((row.result.score for row in self.shown), default=None)


def member_history(member: Membership, *, include_unfinished: bool = False) -> History:
    """The member's results in this class's games, oldest first (as the trend reads)."""
    player_ids = member_player_ids(member)
    results = list(
        GameResult.objects.filter(record__classroom=member.classroom, player_id__in=player_ids)
        .select_related("record")
        .order_by("record__started_at", "record__pk")
    )
    sessions = {
        record.pk: record
        for record in class_sessions(member.classroom, include_unfinished=True).filter(
            pk__in={result.record_id for result in results}
        )
    }
    gone = departures({result.record_id for result in results}, player_ids)
    return History(
        rows=[
            HistoryRow(
                record=result.record,
                result=result,
                player_count=sessions[result.record_id].player_count,
                session_finished=not sessions[result.record_id].unfinished,
                departure=gone.get((result.record_id, result.player_id), ""),
            )
            for result in results
        ],
        include_unfinished=include_unfinished,
    )


@dataclass
class ParticipationRow:
    member: Membership
    games: int
    average: float | None
    best: int | None
    last_played: datetime | None

    def share(self, total: int) -> int:
        return round(100 * self.games / total) if total else 0


def participation(
    classroom: Classroom, *, include_unfinished: bool = False
) -> list[ParticipationRow]:
    """Per approved member: counted games, average, best and the last game."""
    names = player_names(classroom)
    stats: dict[int, dict] = {}
    results = GameResult.objects.filter(record__classroom=classroom, player_id__in=list(names))
    if not include_unfinished:
        counted = list(class_sessions(classroom).values_list("pk", flat=True))
        results = results.filter(record__in=counted).exclude(pk__in=departed_results(classroom))
    for row in results.values("player_id", "record_id", "score", "finished_at"):
        member = names[row["player_id"]]
        entry = stats.setdefault(member.pk, {"records": set(), "scores": [], "last": None})
        entry["records"].add(row["record_id"])
        entry["scores"].append(row["score"])
        if entry["last"] is None or row["finished_at"] > entry["last"]:
            entry["last"] = row["finished_at"]
    rows = []
    for member in in_roster_order(roster(classroom).filter(status=Membership.Status.APPROVED)):
        found = stats.get(member.pk)
        scores = found["scores"] if found else []
        rows.append(
            ParticipationRow(
                member=member,
                games=len(found["records"]) if found else 0,
                average=round(sum(scores) / len(scores), 1) if scores else None,
                best=max(scores) if scores else None,
                last_played=found["last"] if found else None,
            )
        )
    return rows


def player_history_in_class(classroom: Classroom, player: PlayerProfile) -> History:
    membership = (
        Membership.objects.filter(classroom=classroom)
        .filter(Q(player=player) | Q(other_players=player))
        .first()
    )
    if membership is None:
        return History(rows=[])
    return member_history(membership)
