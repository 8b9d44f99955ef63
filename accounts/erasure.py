"""Erasing a player profile: no trace of its nickname or id stays in any table.

``erase_profile`` is the one path every deletion takes (the player's "delete
profile", retention of unused profiles, a teacher deleting their account). In
one transaction it

- tells the games to withdraw public entries (leaderboards, daily tables);
- detaches results (``GameResult.player = NULL``): class reports keep the
  score, not the person;
- rewrites the JSON the rooms keep -- the game state, seat states, every
  logged step (``RoomEvent.action/public/private``), remembered answers --
  replacing the nickname by ``DELETED_NAME`` and the player id by a random
  negative pseudonym (the same one within one erasure, so a replay of the log
  still tells the seats apart);
- deletes the class memberships (roster names are personal), the admin log
  lines about the profile, and the profile itself (seats, consents, solo
  games, saved decks, browser links and processed messages go by cascade).

``tests/privacy/test_erasure.py`` creates everything a player can create and
then searches every text and JSON column of every table for the nickname and
the id.
"""

from __future__ import annotations

import re
import secrets

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction

from accounts.models import PlayerProfile
from games import registry as game_registry
from games.models import GameRecord, GameResult

DELETED_NAME = "—"

# Keys under which a game or the runtime keeps a player id (or a list of them).
_ID_KEY = re.compile(
    r"(^|_)(id|ids|player|players|actor|host|winner|winners|loser|target|turn|"
    r"current|owner|opponent|leader|dealer|starter|by|order|seat|seats)$"
)


class _Scrubber:
    def __init__(self, player_id: int, nickname: str) -> None:
        self.player_id = player_id
        self.nickname = nickname
        self.pseudonym = -secrets.randbelow(2**31 - 2) - 1

    def _is_id(self, value) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and value == self.player_id

    def _text(self, value: str) -> str:
        if value == str(self.player_id):
            return str(self.pseudonym)
        if self.nickname and self.nickname.casefold() in value.casefold():
            return re.sub(re.escape(self.nickname), DELETED_NAME, value, flags=re.IGNORECASE)
        return value

    def scrub(self, value, *, id_context: bool = False):
        """The value with the player's nickname and id replaced (lists and dicts walked)."""
        if isinstance(value, dict):
            return {
                self._text(str(key)): self.scrub(item, id_context=bool(_ID_KEY.search(str(key))))
                for key, item in value.items()
            }
        if isinstance(value, list):
            # ``[player_id, nickname, role]`` and the like: an id beside the name.
            beside_name = any(
                isinstance(item, str) and item.casefold() == self.nickname.casefold()
                for item in value
            )
            return [self.scrub(item, id_context=id_context or beside_name) for item in value]
        if isinstance(value, str):
            return self._text(value)
        if id_context and self._is_id(value):
            return self.pseudonym
        return value


def _scrub_rows(queryset, fields: list[str], scrubber: _Scrubber) -> None:
    for row in queryset.only("pk", *fields).iterator(chunk_size=500):
        changed = []
        for field in fields:
            before = getattr(row, field)
            after = scrubber.scrub(before)
            if after != before:
                setattr(row, field, after)
                changed.append(field)
        if changed:
            row.save(update_fields=changed)


def _scrub_rooms(player: PlayerProfile, scrubber: _Scrubber) -> None:
    from games.rooms.models import ProcessedMessage, Room, RoomEvent, Seat

    room_ids = set(Seat.objects.filter(player=player).values_list("room_id", flat=True))
    room_ids |= set(Room.objects.filter(host=player).values_list("pk", flat=True))
    room_ids |= set(RoomEvent.objects.filter(actor=player).values_list("room_id", flat=True))
    room_ids |= set(
        ProcessedMessage.objects.filter(player=player).values_list("room_id", flat=True)
    )
    if not room_ids:
        return
    # The same lock order as every room write: room rows first, by id.
    rooms = Room.objects.select_for_update().filter(pk__in=room_ids).order_by("pk")
    list(rooms.values_list("pk", flat=True))
    _scrub_rows(Room.objects.filter(pk__in=room_ids), ["state", "settings"], scrubber)
    _scrub_rows(Seat.objects.filter(room_id__in=room_ids), ["state"], scrubber)
    _scrub_rows(
        RoomEvent.objects.filter(room_id__in=room_ids), ["action", "public", "private"], scrubber
    )
    _scrub_rows(ProcessedMessage.objects.filter(room_id__in=room_ids), ["response"], scrubber)
    ProcessedMessage.objects.filter(player=player).delete()


def _scrub_results(player: PlayerProfile, scrubber: _Scrubber) -> None:
    record_ids = set(GameResult.objects.filter(player=player).values_list("record_id", flat=True))
    _scrub_rows(GameResult.objects.filter(record_id__in=record_ids), ["details"], scrubber)
    _scrub_rows(GameRecord.objects.filter(pk__in=record_ids), ["settings"], scrubber)
    GameResult.objects.filter(player=player).update(player=None)


def _delete_admin_log(player: PlayerProfile, membership_ids: list[int]) -> None:
    from classrooms.models import Membership

    for model, ids in ((PlayerProfile, [player.pk]), (Membership, membership_ids)):
        if ids:
            LogEntry.objects.filter(
                content_type=ContentType.objects.get_for_model(model),
                object_id__in=[str(pk) for pk in ids],
            ).delete()


@transaction.atomic
def erase_profile(player: PlayerProfile | int) -> bool:
    """Erase one profile and every trace of it; False when it was already gone."""
    player_id = player.pk if isinstance(player, PlayerProfile) else int(player)
    player = PlayerProfile.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        return False
    scrubber = _Scrubber(player.pk, player.nickname)
    game_registry.withdraw_public_data([player.pk])
    _scrub_rooms(player, scrubber)
    _scrub_results(player, scrubber)
    membership_ids = list(player.memberships.values_list("pk", flat=True))
    _delete_admin_log(player, membership_ids)
    player.memberships.all().delete()
    player.merged_memberships.clear()
    player.delete()
    return True
