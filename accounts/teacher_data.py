"""A teacher's own data: the export of the account and its deletion.

``export_account`` walks every relation that points at the ``User`` row (as
``accounts.export`` does for profiles), adds the classes the teacher owns with
their rosters, and the teacher's own player profile through the player export.
Secrets stay out: the password hash, one-time-password keys, session keys.

``delete_account`` is one transaction: each class the teacher owns passes to
the co-teacher who accepted an invitation first, or -- without one -- is
deleted with its members, rooms, played games and results; invitations to the
teacher's address, the teacher's sessions and login-attempt records go; the
teacher's own player profile is erased (``accounts.erasure``); the account last.
``deletion_plan`` says beforehand which class goes where, for the warning.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.apps import apps
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone

from accounts import erasure, export
from accounts.models import User

SECRET_FIELDS = export.SECRET_FIELDS | {"key", "session_key", "session_data", "bin_key"}


def user_relations() -> list:
    found = []
    for rel in User._meta.get_fields(include_hidden=True):
        if not (rel.is_relation and rel.auto_created and not rel.concrete):
            continue
        field = rel.remote_field
        if field.model._meta.auto_created:
            continue
        found.append(field)
    return sorted(found, key=export.relation_key)


def _row(instance) -> dict:
    return {
        field.attname: export._plain(getattr(instance, field.attname))
        for field in instance._meta.concrete_fields
        if field.name not in SECRET_FIELDS
    }


def export_account(user: User) -> dict:
    from classrooms.models import Classroom, CoTeacher

    other = {}
    for field in user_relations():
        rows = [
            _row(instance)
            for instance in field.model._default_manager.filter(**{field.name: user}).order_by("pk")
        ]
        if rows:
            other[export.relation_key(field)] = rows
    for group in user.groups.all():
        other.setdefault("auth.Group", []).append({"name": group.name})
    classes = []
    for classroom in Classroom.objects.filter(teacher=user).order_by("pk"):
        classes.append(
            {
                **_row(classroom),
                "members": [
                    {
                        "roster_name": m.roster_name,
                        "status": m.status,
                        "joined_at": m.joined_at.isoformat(),
                    }
                    for m in classroom.members.order_by("roster_name", "pk")
                ],
                "co_teachers": [_row(c) for c in classroom.co_teachers.order_by("pk")],
                "games_played": classroom.game_records.count(),
            }
        )
    return {
        "account": _row(user),
        "classes": classes,
        "invitations_to_this_address": [
            _row(invite) for invite in CoTeacher.objects.filter(email__iexact=user.email)
        ],
        "own_player_profile": export.export_profile(user.player) if user.player_id else None,
        "other": other,
    }


@dataclass(frozen=True)
class ClassFate:
    classroom_id: int
    name: str
    members: int
    games: int
    successor: User | None  # None: the class is deleted with its data


def _successor(classroom) -> User | None:
    accepted = (
        classroom.co_teachers.filter(accepted_at__isnull=False, user__isnull=False)
        .exclude(user=classroom.teacher_id)
        .select_related("user")
        .order_by("accepted_at", "pk")
        .first()
    )
    return accepted.user if accepted else None


def deletion_plan(user: User) -> list[ClassFate]:
    from classrooms.models import Classroom

    return [
        ClassFate(
            classroom_id=classroom.pk,
            name=classroom.name,
            members=classroom.members.count(),
            games=classroom.game_records.count(),
            successor=_successor(classroom),
        )
        for classroom in Classroom.objects.filter(teacher=user).order_by("name", "pk")
    ]


def _delete_sessions(user: User) -> None:
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            session.delete()


def _delete_login_records(user: User) -> None:
    """django-axes keeps failed and successful logins by username (the e-mail)."""
    for label in ("axes.AccessAttempt", "axes.AccessLog", "axes.AccessFailureLog"):
        try:
            model = apps.get_model(label)
        except LookupError:
            continue
        model._default_manager.filter(username__iexact=user.email).delete()


@transaction.atomic
def delete_account(user: User) -> list[ClassFate]:
    """Delete the teacher's account as ``deletion_plan`` describes; returns the plan applied."""
    from classrooms.models import Classroom, CoTeacher

    user = User.objects.select_for_update().get(pk=user.pk)
    plan = deletion_plan(user)
    for fate in plan:
        classroom = Classroom.objects.select_for_update().get(pk=fate.classroom_id)
        if fate.successor is not None:
            classroom.teacher = fate.successor
            classroom.save(update_fields=["teacher"])
            classroom.co_teachers.filter(user=fate.successor).delete()
        else:
            classroom.delete()  # members, rooms, played games and their results go with it
    CoTeacher.objects.filter(email__iexact=user.email).delete()
    if user.player_id:
        erasure.erase_profile(user.player_id)
    _delete_sessions(user)
    _delete_login_records(user)
    user.delete()
    return plan
