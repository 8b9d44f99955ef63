"""The class side of an LMS launch (``lti.services``): the class a course opens,
the course's other instructors as co-teachers and each learner's roster entry.

The classes app writes its own tables (``tests/foundation/
test_cross_app_writes.py``); the LTI tool decides who launched and calls these.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from accounts.models import PlayerProfile, User
from classrooms.models import Classroom, CoTeacher, Membership
from classrooms.services import new_class_code


def open_class(*, teacher: User, name: str) -> Classroom:
    """The class of a course its first instructor opens; pupils come through the
    LMS, so joining by class code is off (a code would let anyone in)."""
    return Classroom.objects.create(
        name=name, teacher=teacher, join_code=new_class_code(), join_enabled=False
    )


def add_coteacher(*, classroom: Classroom, user: User) -> None:
    """Another instructor of the course teaches the class too (accepted at once)."""
    CoTeacher.objects.get_or_create(
        classroom=classroom,
        email=user.email,
        defaults={"user": user, "invited_by": classroom.teacher, "accepted_at": timezone.now()},
    )


def enter_member(
    *, classroom: Classroom, player: PlayerProfile, source_id: str, name: str
) -> Membership:
    """The learner's approved entry in the class: found by player or by LMS
    identity (``source_id``), else created; one entry per LMS user."""
    # The class row is the lock a roster refresh takes too.
    Classroom.objects.select_for_update().filter(pk=classroom.pk).first()
    member = (
        Membership.objects.select_for_update()
        .filter(Q(player=player) | Q(source_id=source_id), classroom=classroom)
        .order_by("pk")
        .first()
    )
    if member is None:
        return Membership.objects.create(
            classroom=classroom,
            player=player,
            roster_name=name or player.nickname,
            source_id=source_id,
        )
    changed = []
    if member.player_id != player.pk:
        member.player = player
        changed.append("player")
    if member.source_id != source_id:
        member.source_id = source_id
        changed.append("source_id")
    if member.status != Membership.Status.APPROVED:
        member.status = Membership.Status.APPROVED
        changed.append("status")
    if name and member.roster_name != name:
        member.roster_name = name
        changed.append("roster_name")
    if changed:
        member.save(update_fields=changed)
    return member
