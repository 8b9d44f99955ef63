"""Deleting a profile leaves no trace of its nickname or id in any table (issue 17 §2).

"After 'delete profile' no trace of the nickname or player id in any table:
RoomEvent.public/action, Room.state, Seat, idempotency rows, everything, in one
transaction."
"""

import pytest
from django.db import transaction

from accounts import erasure
from accounts.models import PlayerProfile
from classrooms.models import Membership
from games.models import GameResult
from games.rooms.models import ProcessedMessage, Room, RoomEvent
from tests.privacy.helpers import (
    NICKNAME,
    PLAYER_ID,
    leave_every_trace,
    login_as,
    make_player,
    traces,
)

pytestmark = pytest.mark.django_db


def test_everything_a_player_created_is_found_before_deletion():
    """The search itself works: before deletion it finds the traces the issue measured."""
    player, _token = make_player()
    assert player.pk == PLAYER_ID
    made = leave_every_trace(player)
    assert len(made["rooms"]) >= 8  # every room game and mode, hosted and joined
    found = "\n".join(traces(nickname=NICKNAME, player_id=PLAYER_ID))
    for where in (
        "rooms.RoomEvent.public",
        "rooms.RoomEvent.action",
        "rooms.Seat.player",
        "accounts.PublicationConsent.player",
        "games.GameResult.player",
        "poker.LeaderboardEntry.player",
        "poker.DailyAttempt.player",
        "classrooms.Membership.player",
        "theorems.SavedDeck.player",
    ):
        assert where in found, where


def test_deleting_a_profile_leaves_no_nickname_and_no_id_in_any_table(client):
    player, token = make_player()
    made = leave_every_trace(player)
    results_before = GameResult.objects.count()
    login_as(client, token)
    assert client.post("/accounts/player/delete/").status_code == 302
    assert traces(nickname=NICKNAME, player_id=PLAYER_ID) == []
    assert not PlayerProfile.objects.filter(pk=PLAYER_ID).exists()
    # Class reports keep the results, anonymised (games the player left end and
    # add theirs); the other player's data stays.
    assert GameResult.objects.count() >= results_before
    assert GameResult.objects.filter(player=made["other"]).exists()
    assert Membership.objects.filter(player=made["other"], roster_name="Jiný Žák").exists()
    assert RoomEvent.objects.filter(kind="join").exists()
    assert Room.objects.count() == len(made["rooms"])


def test_erasure_is_one_transaction():
    """A failure half-way leaves everything as it was (nothing half-scrubbed)."""
    player, _token = make_player()
    leave_every_trace(player)
    before = len(traces(nickname=NICKNAME, player_id=PLAYER_ID))

    class Boom(Exception):
        pass

    def fail(*args, **kwargs):
        raise Boom

    original = erasure._delete_admin_log
    erasure._delete_admin_log = fail
    try:
        with pytest.raises(Boom), transaction.atomic():
            erasure.erase_profile(player)
    finally:
        erasure._delete_admin_log = original
    assert len(traces(nickname=NICKNAME, player_id=PLAYER_ID)) == before
    assert erasure.erase_profile(player) is True
    assert erasure.erase_profile(player) is False
    assert not ProcessedMessage.objects.filter(player_id=PLAYER_ID).exists()


def test_stored_moves_keep_only_the_fields_the_protocol_defines():
    """'Accepted client messages are stored whole, with any extra keys the client added.'"""
    from accounts import services as accounts_services
    from games.rooms import services as rooms
    from tests.rooms import testgame

    testgame.register()
    host = accounts_services.create_profile(browser_token=None, nickname="Hostitel")[0]
    guest = accounts_services.create_profile(browser_token=None, nickname="Host")[0]
    room = rooms.create_room(game=testgame.GAME, mode="duel", host=host, settings={})
    rooms.join_room(room=room, player=guest)
    rooms.start_room(room=room, actor=host)
    message = {"type": "add", "n": 2, "nickname": "Hostitel", "junk": ["x" * 1000]}
    rooms.submit(room_id=room.pk, player=host, client_id="c1", message=message)
    assert RoomEvent.objects.get(room=room, kind="move").action == {"type": "add", "n": 2}
