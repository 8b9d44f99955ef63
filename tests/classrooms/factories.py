"""Small factories for classes, members and played games (no factory library needed)."""

import itertools
from datetime import timedelta

from django.utils import timezone

from accounts.identity import new_profile_code
from accounts.models import PlayerProfile, User
from classrooms import services
from classrooms.models import Classroom, CoTeacher, Membership
from games.models import GameRecord, GameResult

_numbers = itertools.count(1)
PASSWORD = "Tajne-heslo-123"


def make_teacher(email: str | None = None, **extra) -> User:
    """A teacher whose address is verified (``email_verified_at=None``: one that is not,
    who creates, hosts and invites nothing: ``accounts.trust``)."""
    email = email or f"teacher{next(_numbers)}@skola.sk"
    extra.setdefault("name", "Pani Učiteľka")
    extra.setdefault("email_verified_at", timezone.now())
    return User.objects.create_user(email, PASSWORD, **extra)


def make_player(nickname: str | None = None) -> PlayerProfile:
    nickname = nickname or f"Hráč {next(_numbers)}"
    return PlayerProfile.objects.create(nickname=nickname, code=new_profile_code())


def make_class(teacher: User | None = None, name: str = "6.A", roster: str = "") -> Classroom:
    return services.create_classroom(
        teacher=teacher or make_teacher(), name=name, school_year="2026/27", roster=roster
    )


def add_co_teacher(classroom: Classroom, colleague: User) -> CoTeacher:
    """``colleague`` as an accepted co-teacher of ``classroom`` (invited by its owner)."""
    return CoTeacher.objects.create(
        classroom=classroom,
        email=colleague.email,
        invited_by=classroom.teacher,
        user=colleague,
        accepted_at=timezone.now(),
    )


def add_member(
    classroom: Classroom,
    player: PlayerProfile | None = None,
    roster_name: str | None = None,
    status: str = Membership.Status.APPROVED,
) -> Membership:
    player = player if player is not None else make_player()
    return Membership.objects.create(
        classroom=classroom,
        player=player,
        roster_name=roster_name or f"Žiak {next(_numbers)}",
        status=status,
    )


def play(
    classroom: Classroom | None,
    scores: dict[PlayerProfile, int],
    *,
    game: str = "poker",
    mode: str = "group",
    days_ago: int = 0,
    details: dict | None = None,
) -> GameRecord:
    """A finished game of the class with one result per player, ranked by score."""
    started = timezone.now() - timedelta(days=days_ago, minutes=30)
    record = GameRecord.objects.create(
        game=game,
        mode=mode,
        classroom=classroom,
        started_at=started,
        finished_at=started + timedelta(minutes=20),
    )
    ordered = sorted(scores.items(), key=lambda item: -item[1])
    for rank, (player, score) in enumerate(ordered, start=1):
        GameResult.objects.create(
            record=record,
            player=player,
            score=score,
            rank=rank,
            details=details or {},
            finished_at=started + timedelta(minutes=20),
        )
    return record
