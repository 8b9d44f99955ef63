"""Erasing a player profile: no trace of its nickname or id stays in any table,
and nothing else changes.

``erase_profile`` is the one path every deletion takes (the player's "delete
profile", retention of unused profiles, a teacher deleting their account). In
one transaction it

- tells the games to withdraw public entries (leaderboards, daily tables);
- asks every app that registered privacy hooks (``accounts.privacy``) to
  erase the player from its own tables: the rooms runtime removes the player
  from running rooms through the room's own removal path (the game goes on
  for the others) and rewrites the JSON of every room the player was in; the
  classes delete the player's memberships; and so on;
- then asks the hooks' ``erase_player_last``: the shared results (``games``)
  rewrite the details of every game result the player took part in and
  detach the player's own results (``GameResult.player = NULL``): class
  reports keep the score, not the person;
- deletes the admin log lines about the profile and the profile itself (seats,
  consents, solo games, saved decks, browser links go by cascade).

Rewriting replaces exact values at known places only (``accounts.privacy.
Places``: the keys a game declared to hold a nickname or a player id): the
nickname becomes ``DELETED_NAME``, the id a random negative pseudonym. Never a
substring, never a dict key other than the player's id in a dict keyed by
player ids -- a player called ``De`` or ``Oa`` changes no ``dealt_at`` and no
``board``.

``tests/privacy/test_erasure.py`` creates everything a player can create and
then searches every text and JSON column of every table for the nickname and
the id; ``tests/privacy/test_erasure_exact.py`` checks that nothing else changed.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import translation

from accounts import privacy
from accounts.models import PlayerProfile
from accounts.privacy import DELETED_NAME, Erasure
from core import registry as game_registry

__all__ = ["DELETED_NAME", "erase_profile", "scrub_rows"]


def _names(player: PlayerProfile) -> frozenset[str]:
    """The nickname and the hidden name in every language of the site: the exact
    strings a game may have stored as the player's name."""
    names = {player.nickname}
    hidden = player.nickname_hidden
    try:
        player.nickname_hidden = True
        for language, _name in settings.LANGUAGES:
            with translation.override(language):
                names.add(player.display_name)
    finally:
        player.nickname_hidden = hidden
    return frozenset(name for name in names if name)


def scrub_rows(
    queryset: Any,
    fields: list[str],
    erasure: Erasure,
    where_of: Callable[[Any], Any],
    *,
    keyed_by_id: Collection[str] = (),
) -> None:
    """Rewrite ``fields`` of every row with ``erasure.scrub``; ``where_of(row)`` gives
    the row's :class:`~accounts.privacy.Places`; ``keyed_by_id`` names fields whose
    top-level keys are player ids. Rows that do not change are not written."""
    for row in queryset.iterator(chunk_size=500):
        where = where_of(row)
        changed = []
        for name in fields:
            before = getattr(row, name)
            after = erasure.scrub(before, where, keyed_by_id=name in keyed_by_id)
            if after != before:
                setattr(row, name, after)
                changed.append(name)
        if changed:
            row.save(update_fields=changed)


def _delete_admin_log(player: PlayerProfile) -> None:
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(PlayerProfile),
        object_id=str(player.pk),
    ).delete()


@transaction.atomic
def erase_profile(player: PlayerProfile | int) -> bool:
    """Erase one profile and every trace of it; False when it was already gone."""
    player_id = player.pk if isinstance(player, PlayerProfile) else int(player)
    profile: PlayerProfile | None = (
        PlayerProfile.objects.select_for_update().filter(pk=player_id).first()
    )
    if profile is None:
        return False
    erasure = Erasure(player_id=profile.pk, nickname=profile.nickname, names=_names(profile))
    game_registry.withdraw_public_data([profile.pk])
    for hooks in privacy.registered():
        if hooks.erase_player is not None:
            hooks.erase_player(erasure)
    for hooks in privacy.registered():
        if hooks.erase_player_last is not None:
            hooks.erase_player_last(erasure)
    _delete_admin_log(profile)
    profile.delete()
    return True
