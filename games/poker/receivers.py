"""Public tables react at once when a player may no longer appear on them.

Connected in ``PokerConfig.ready``: consent withdrawn / stats reset / profile
deleted / nickname hidden or banned (``accounts.signals.public_data_withdrawn``),
and a class that forbids publication gaining a member or switching it off.
"""

from typing import Any

from django.db.models.signals import m2m_changed, post_save

from accounts.signals import public_data_withdrawn

from . import services


def on_public_data_withdrawn(sender: Any, player: Any, **kwargs: Any) -> None:
    services.withdraw_public_data(player=player)


def on_membership_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    if instance.player_id is not None and not instance.classroom.public_publication:
        services.withdraw_public_data(player=instance.player)


def on_members_merged(
    sender: Any, instance: Any, action: str, pk_set: Any, reverse: bool, **kwargs: Any
) -> None:
    """A profile merged into a member of a forbidding class (from either side)."""
    if action != "post_add":
        return
    from classrooms.models import Membership

    if reverse:  # profile.merged_memberships.add(membership, ...)
        forbids = Membership.objects.filter(
            pk__in=pk_set or (), classroom__public_publication=False
        ).exists()
        if forbids:
            services.withdraw_public_data(player=instance)
    elif not instance.classroom.public_publication:
        services.withdraw_class_members(classroom_id=instance.classroom_id)


def on_classroom_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    if not instance.public_publication:
        services.withdraw_class_members(classroom_id=instance.pk)


def connect() -> None:
    from classrooms.models import Classroom, Membership

    public_data_withdrawn.connect(on_public_data_withdrawn, dispatch_uid="poker-withdrawn")
    post_save.connect(on_membership_saved, sender=Membership, dispatch_uid="poker-membership")
    m2m_changed.connect(
        on_members_merged, sender=Membership.other_players.through, dispatch_uid="poker-merged"
    )
    post_save.connect(on_classroom_saved, sender=Classroom, dispatch_uid="poker-classroom")
