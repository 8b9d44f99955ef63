"""A teacher's own data: the export of the account and its deletion.

``export_account`` walks every relation that points at the ``User`` row (as
``accounts.export`` does for profiles), adds what the apps' privacy hooks say
belongs to the account (``accounts.privacy``: the classes the teacher owns
with their rosters, invitations to the address) and the teacher's own player
profile through the player export. Secrets stay out: the password hash,
one-time-password keys, session keys.

``delete_account`` is one transaction: each app's hook deletes or passes on
what the account owns (a class goes to the co-teacher who accepted an
invitation first, or -- without one -- is deleted with its members, rooms,
played games and results); the teacher's sessions and login-attempt records
go; the teacher's own player profile is erased (``accounts.erasure``); the
account last. ``deletion_plan`` says beforehand which class goes where, for
the warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.sessions.models import Session
from django.db import models, transaction
from django.utils import timezone

from accounts import erasure, export, privacy
from accounts.models import User

SECRET_FIELDS = export.SECRET_FIELDS | {"key", "session_key", "session_data", "bin_key"}


def user_relations() -> list[models.Field[Any, Any]]:
    return export.relations_to(User)


def row_without_secrets(instance: Any) -> dict[str, Any]:
    return {
        field.attname: export.plain(getattr(instance, field.attname))
        for field in instance._meta.concrete_fields
        if field.name not in SECRET_FIELDS
    }


def export_account(user: User) -> dict:
    other = {}
    covered = {key for hooks in privacy.registered() for key in hooks.exported_account_relations}
    for field in user_relations():
        if export.relation_key(field) in covered:
            continue
        rows = [
            row_without_secrets(instance)
            for instance in field.model._default_manager.filter(**{field.name: user}).order_by("pk")
        ]
        if rows:
            other[export.relation_key(field)] = rows
    for group in user.groups.all():
        other.setdefault("auth.Group", []).append({"name": group.name})
    data: dict[str, Any] = {"account": row_without_secrets(user)}
    for hooks in privacy.registered():
        if hooks.export_account is not None:
            data.update(hooks.export_account(user))
    player = user.player  # None without a query when there is none
    data["own_player_profile"] = export.export_profile(player) if player is not None else None
    data["other"] = other
    return data


@dataclass(frozen=True)
class ClassFate:
    classroom_id: int
    name: str
    members: int
    games: int
    successor: User | None  # None: the class is deleted with its data


def deletion_plan(user: User) -> list[ClassFate]:
    return [
        fate
        for hooks in privacy.registered()
        if hooks.account_fates is not None
        for fate in hooks.account_fates(user)
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
    user = User.objects.select_for_update().get(pk=user.pk)
    plan = deletion_plan(user)
    for hooks in privacy.registered():
        if hooks.delete_account is not None:
            hooks.delete_account(user)
    if user.player_id:
        erasure.erase_profile(user.player_id)
    _delete_sessions(user)
    _delete_login_records(user)
    user.delete()
    return plan
