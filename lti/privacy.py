"""The LTI tool answers for its tables (``accounts.privacy`` hooks).

Personal data here: the binding of an LMS user id (iss, sub) to a player
profile or a teacher account (``Person``), and whether a pupil's score reached
the LMS (``GradeSend``). Roster names from the LMS are ``classrooms`` roster
entries (teacher-only) and follow that app's rules.

- Erasure of a player: their binding and its grade records go (nothing else).
- Export: the binding (which LMS, which user id) and the grade records.
- A teacher's account: its binding is in its export and goes with it.
- Retention: launch states, spent nonces and unused deep-link choices are
  kept one day; used or expired registration links 30 days; frame grants (a
  launch inside the LMS's frame: which person, where to) 14 days.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from accounts.models import PlayerProfile, User
from accounts.privacy import Erasure, PrivacyHooks

from .models import (
    DeepLinkRequest,
    FrameGrant,
    GradeSend,
    LaunchState,
    Person,
    RegistrationLink,
    SeenNonce,
)

#: How long the technical traces of a launch are kept.
LAUNCH_TRACE_DAYS = 1
REGISTRATION_LINK_DAYS = 30
#: = ``framing.GRANT_DAYS``: a grant is dead after that anyway.
FRAME_GRANT_DAYS = 14


def erase_player(erasure: Erasure) -> None:
    Person.objects.filter(player_id=erasure.player_id, user__isnull=True).delete()
    Person.objects.filter(player_id=erasure.player_id).update(player=None)


def _binding(person: Person) -> dict:
    return {
        "lms": person.platform.issuer,
        "lms_user_id": person.sub,
        "since": person.created_at.isoformat(),
    }


def export_player(player: PlayerProfile) -> dict[str, list]:
    people = list(Person.objects.filter(player=player).select_related("platform"))
    grades = GradeSend.objects.filter(person__in=people).select_related("link__assignment")
    return {
        "lms": [_binding(person) for person in people],
        "lms_grades": [
            {
                "homework": grade.link.assignment.title,
                "status": grade.status,
                "score": grade.score,
                "sent_at": grade.sent_at.isoformat() if grade.sent_at else None,
            }
            for grade in grades
        ],
    }


def export_account(user: User) -> dict:
    return {
        "lms": [
            _binding(person)
            for person in Person.objects.filter(user=user).select_related("platform")
        ]
    }


def delete_account(user: User) -> None:
    Person.objects.filter(user=user, player__isnull=True).delete()
    Person.objects.filter(user=user).update(user=None)


def apply_retention(now: datetime) -> dict[str, int]:
    day = now - timedelta(days=LAUNCH_TRACE_DAYS)
    counts = {
        "lti_launch_states": LaunchState.objects.filter(created_at__lt=day).delete()[0],
        "lti_nonces": SeenNonce.objects.filter(seen_at__lt=day).delete()[0],
        "lti_deep_link_choices": DeepLinkRequest.objects.filter(created_at__lt=day).delete()[0],
        # A frame grant (which LMS user launched inside the LMS's frame) lives as
        # long as its marker cookie may; it goes with the person's binding too.
        "lti_frame_grants": FrameGrant.objects.filter(
            created_at__lt=now - timedelta(days=FRAME_GRANT_DAYS)
        ).delete()[0],
        "lti_registration_links": RegistrationLink.objects.filter(
            expires_at__lt=now - timedelta(days=REGISTRATION_LINK_DAYS)
        ).delete()[0],
    }
    return counts


HOOKS = PrivacyHooks(
    app="lti",
    erase_player=erase_player,
    export_player=export_player,
    exported_relations={"lti.Person.player": "lms"},
    apply_retention=apply_retention,
    retention_kinds=(
        "lti_launch_states",
        "lti_nonces",
        "lti_deep_link_choices",
        "lti_frame_grants",
        "lti_registration_links",
    ),
    export_account=export_account,
    delete_account=delete_account,
)
