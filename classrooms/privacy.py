"""The classes answer for their tables (``accounts.privacy`` hooks).

- Erasure of a player: a membership of theirs is deleted with its roster
  name and the admin log lines about it -- unless a teacher merged another
  profile of the same pupil into it: then that profile takes the player's
  place, so the pupil stays in the class and nobody else's link changes.
- Export of a player: the classes they belong to and the classes whose
  membership a teacher merged them into.
- Publication: a class whose owner keeps its members off public tables
  blocks every public place of its members and of profiles merged into them.
- A teacher's account: the owned classes with rosters in its export; at its
  deletion each class passes to the co-teacher who accepted first, or is
  deleted with its members, rooms, played games and results; invitations to
  the teacher's address go.
"""

from __future__ import annotations

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db.models import Q, QuerySet

from accounts.models import PlayerProfile, User
from accounts.privacy import Erasure, PrivacyHooks
from accounts.teacher_data import ClassFate, row_without_secrets
from classrooms.models import Classroom, CoTeacher, Membership


def erase_player(erasure: Erasure) -> None:
    memberships = Membership.objects.select_for_update().filter(player_id=erasure.player_id)
    gone = []
    for membership in memberships.order_by("pk"):
        heir = membership.other_players.order_by("pk").first()
        if heir is None:
            gone.append(membership.pk)
            continue
        membership.player = heir
        membership.save(update_fields=["player"])
        membership.other_players.remove(heir)
    if gone:
        LogEntry.objects.filter(
            content_type=ContentType.objects.get_for_model(Membership),
            object_id__in=[str(pk) for pk in gone],
        ).delete()
        Membership.objects.filter(pk__in=gone).delete()


def _class_row(membership: Membership) -> dict:
    return {
        "class": membership.classroom.name,
        "roster_name": membership.roster_name,
        "status": membership.status,
        "joined_at": membership.joined_at.isoformat(),
        # the pupil's ID in the school's system, when an imported class list gave one
        **({"source_id": membership.source_id} if membership.source_id else {}),
    }


def export_player(player: PlayerProfile) -> dict[str, list]:
    own = player.memberships.select_related("classroom").order_by("pk")
    merged = player.merged_memberships.select_related("classroom").order_by("pk")
    return {
        "classes": [_class_row(membership) for membership in own],
        # A teacher merged this profile into the pupil's membership (another device).
        "merged_classes": [_class_row(membership) for membership in merged],
    }


def publication_blocked(player: PlayerProfile) -> bool:
    """True when any class the player belongs to (as its member or a profile
    merged into a member, pending or approved, archived or not) keeps its
    members off public tables -- the teacher's choice covers every class game
    and every game outside the class alike (docs/leaderboards.md)."""
    return (
        Membership.objects.filter(Q(player=player) | Q(other_players=player))
        .filter(classroom__public_publication=False)
        .exists()
    )


# --- a teacher's account ------------------------------------------------------------


def export_account(user: User) -> dict:
    classes = []
    for classroom in Classroom.objects.filter(teacher=user).order_by("pk"):
        classes.append(
            {
                **row_without_secrets(classroom),
                "members": [
                    {
                        "roster_name": m.roster_name,
                        "status": m.status,
                        "joined_at": m.joined_at.isoformat(),
                        **({"source_id": m.source_id} if m.source_id else {}),
                    }
                    for m in classroom.members.order_by("roster_name", "pk")
                ],
                "co_teachers": [
                    row_without_secrets(c) for c in classroom.co_teachers.order_by("pk")
                ],
                "games_played": classroom.game_records.count(),
            }
        )
    return {
        "classes": classes,
        "invitations_to_this_address": [
            row_without_secrets(invite) for invite in _own_invitations(user).order_by("pk")
        ],
    }


def _own_invitations(user: User) -> QuerySet:
    """Invitations that are this account's: those addressed to its e-mail only when
    it proved the address; an unverified account (perhaps someone who signed up
    with a colleague's address) has only what it accepted (issue 38 §4)."""
    if user.email_verified:
        return CoTeacher.objects.filter(email__iexact=user.email)
    return CoTeacher.objects.filter(user=user)


def _successor(classroom: Classroom) -> User | None:
    accepted = (
        classroom.co_teachers.filter(accepted_at__isnull=False, user__isnull=False)
        .exclude(user=classroom.teacher_id)
        .select_related("user")
        .order_by("accepted_at", "pk")
        .first()
    )
    return accepted.user if accepted else None


def account_fates(user: User) -> list[ClassFate]:
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


def delete_account(user: User) -> None:
    for fate in account_fates(user):
        classroom = Classroom.objects.select_for_update().get(pk=fate.classroom_id)
        if fate.successor is not None:
            classroom.teacher = fate.successor
            classroom.save(update_fields=["teacher"])
            classroom.co_teachers.filter(user=fate.successor).delete()
        else:
            classroom.delete()  # members, rooms, played games and their results go with it
    # Deleting an unverified account never deletes an invitation meant for the
    # address's real owner.
    _own_invitations(user).delete()


HOOKS = PrivacyHooks(
    app="classrooms",
    erase_player=erase_player,
    export_player=export_player,
    exported_relations={
        "classrooms.Membership.player": "classes",
        "classrooms.Membership.other_players": "merged_classes",
    },
    export_account=export_account,
    account_fates=account_fates,
    delete_account=delete_account,
    publication_blocked=publication_blocked,
)
