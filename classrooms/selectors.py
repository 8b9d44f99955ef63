"""Read operations on classes and their results.

Every teacher-facing read starts from :func:`classes_for_teacher`, used by
both the pages and the API, so a teacher only ever reaches their own classes
and the classes they co-teach: another teacher's IDs simply do not exist.
"""

from dataclasses import dataclass
from datetime import datetime
from math import isqrt

from django.db.models import Avg, Count, Max, Q, QuerySet
from django.http import Http404

from accounts.models import PlayerProfile, User
from classrooms.models import Classroom, Membership
from games.models import GameRecord, GameResult


def classes_for_teacher(user: User) -> QuerySet[Classroom]:
    if not user.is_authenticated:
        return Classroom.objects.none()
    return (
        Classroom.objects.filter(Q(teacher=user) | Q(co_teachers__email=user.email.lower()))
        .distinct()
        .select_related("teacher")
    )


def teacher_classroom(user: User, pk: int | str) -> Classroom:
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
    return classroom.members.filter(player__isnull=True, status=Membership.Status.APPROVED)


def roster(classroom: Classroom) -> QuerySet[Membership]:
    return classroom.members.select_related("player").prefetch_related("other_players")


def player_names(classroom: Classroom) -> dict[int, Membership]:
    """Each player profile of the class (merged ones included) -> its member."""
    names: dict[int, Membership] = {}
    for member in roster(classroom):
        for player in member.other_players.all():
            names[player.pk] = member
        if member.player_id:
            names[member.player_id] = member
    return names


def member_player_ids(member: Membership) -> list[int]:
    ids = [player.pk for player in member.other_players.all()]
    if member.player_id:
        ids.append(member.player_id)
    return ids


def class_sessions(classroom: Classroom) -> QuerySet[GameRecord]:
    return (
        GameRecord.objects.filter(classroom=classroom)
        .annotate(
            player_count=Count("results"),
            average_score=Avg("results__score"),
            best_score=Max("results__score"),
        )
        .order_by("-started_at", "-pk")
    )


def class_session(classroom: Classroom, pk: int | str) -> GameRecord:
    record = class_sessions(classroom).filter(pk=pk).first()
    if record is None:
        raise Http404("No such game.")
    return record


@dataclass
class RankingRow:
    rank: int
    result: GameResult
    member: Membership | None
    board: list[list] | None = None

    @property
    def roster_name(self) -> str:
        return self.member.roster_name if self.member else ""

    @property
    def nickname(self) -> str:
        return self.result.player.display_name if self.result.player else "—"


def _plain(value) -> bool:
    return value is None or isinstance(value, str | int | float)


def _grid(value) -> list[list] | None:
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


def session_ranking(classroom: Classroom, record: GameRecord) -> list[RankingRow]:
    names = player_names(classroom)
    results = sorted(
        record.results.select_related("player"),
        key=lambda result: (
            result.rank if result.rank is not None else 10**6,
            -result.score,
            result.pk,
        ),
    )
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
            )
        )
    return rows


@dataclass
class HistoryRow:
    record: GameRecord
    result: GameResult
    player_count: int


@dataclass
class History:
    rows: list[HistoryRow]

    @property
    def games(self) -> int:
        return len(self.rows)

    @property
    def average(self) -> float | None:
        if not self.rows:
            return None
        return round(sum(row.result.score for row in self.rows) / len(self.rows), 1)

    @property
    def best(self) -> int | None:
        return max((row.result.score for row in self.rows), default=None)


def member_history(member: Membership) -> History:
    """The member's results in this class's games, oldest first (as the trend reads)."""
    results = (
        GameResult.objects.filter(
            record__classroom=member.classroom, player_id__in=member_player_ids(member)
        )
        .select_related("record")
        .annotate(player_count=Count("record__results"))
        .order_by("record__started_at", "record__pk")
    )
    return History(
        rows=[
            HistoryRow(record=result.record, result=result, player_count=result.player_count)
            for result in results
        ]
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


def participation(classroom: Classroom) -> list[ParticipationRow]:
    names = player_names(classroom)
    stats: dict[int, dict] = {}
    results = GameResult.objects.filter(
        record__classroom=classroom, player_id__in=list(names)
    ).values("player_id", "record_id", "score", "finished_at")
    for row in results:
        member = names[row["player_id"]]
        entry = stats.setdefault(member.pk, {"records": set(), "scores": [], "last": None})
        entry["records"].add(row["record_id"])
        entry["scores"].append(row["score"])
        if entry["last"] is None or row["finished_at"] > entry["last"]:
            entry["last"] = row["finished_at"]
    rows = []
    for member in roster(classroom).filter(status=Membership.Status.APPROVED):
        entry = stats.get(member.pk)
        scores = entry["scores"] if entry else []
        rows.append(
            ParticipationRow(
                member=member,
                games=len(entry["records"]) if entry else 0,
                average=round(sum(scores) / len(scores), 1) if scores else None,
                best=max(scores) if scores else None,
                last_played=entry["last"] if entry else None,
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
