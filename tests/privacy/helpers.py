"""Everything a player can leave in the database, and a search of every table for it."""

from __future__ import annotations

import json
import time

from django.apps import apps
from django.db import connection, models

from accounts import privacy
from accounts import services as accounts_services
from accounts.models import PlayerProfile, User
from classrooms.models import Classroom, Membership

#: Where the rooms tests' counter game (tests/rooms/testgame.py) keeps players.
privacy.register_places("testgame", privacy.places(ids={"host"}, keyed_by_id={"scores", "secrets"}))

#: A profile id no score, card or counter of the fixtures can equal by chance.
PLAYER_ID = 987_654_321
NICKNAME = "Zrzavá Veverka"


def make_player(nickname: str = NICKNAME, *, pk: int = PLAYER_ID) -> tuple[PlayerProfile, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(pg_get_serial_sequence(%s, 'id'), %s, false)",
            [PlayerProfile._meta.db_table, pk],
        )
    return accounts_services.create_profile(browser_token=None, nickname=nickname)


def login_as(client, token: str) -> None:
    """Give the test client the browser cookie that holds the profile."""
    from django.conf import settings
    from django.core import signing

    from accounts import identity

    client.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(token, salt=identity.SALT)


def leave_every_trace(player: PlayerProfile) -> dict:
    """Solo, ranked and daily poker; every room game hosted and joined; class
    membership (also merged into another member); consent; a saved deck."""
    from games.poker.services import solo
    from games.rooms import registry as room_registry
    from games.rooms import services as rooms
    from games.theorems.models import SavedDeck
    from games.theorems.rules import STARTER_DECKS
    from tests.leaderboards import helpers as poker

    accounts_services.record_consent(player=player, granted=True, language="cs", age_confirmed=True)
    other, _token = accounts_services.create_profile(browser_token=None, nickname="Modrý Jezevec")
    teacher = User.objects.create_user("ucitel@skola.cz", "Heslo-ucitele-1", name="Jan Učitel")
    classroom = Classroom.objects.create(
        name="6.C", teacher=teacher, join_code="PRV234", public_publication=True
    )
    Membership.objects.create(classroom=classroom, player=player, roster_name="Eva Zrzavá")
    merged = Membership.objects.create(classroom=classroom, player=other, roster_name="Jiný Žák")
    merged.other_players.add(player)
    starter = STARTER_DECKS[0]
    SavedDeck.objects.create(
        player=player, name="Moje", mathematician=starter.mathematician, cards=list(starter.deck)
    )
    start = time.time() - 3600
    solo.start_solo_game(player=player, storage_enabled=True, mode="easy", now=start)
    poker.play_ranked(player, start=start)
    poker.play_daily(player, start=start)
    rooms_made = []
    for game, mode in room_registry.registered():
        limits = room_registry.get(game, mode).limits
        for host, guest in ((player, other), (other, player)):
            # (RoomError is a frozen dataclass: provoking one inside the test's
            # transaction is avoided rather than caught.)
            room = rooms.create_room(game=game, mode=mode, host=host, settings={})
            host_counts = 1 if limits.host_plays else 0
            guest_plays = limits.max_players > host_counts
            if guest_plays:
                rooms.join_room(room=room, player=guest)
            elif limits.spectators:
                rooms.join_room(room=room, player=guest, role="spectator")
            playing = host_counts + guest_plays
            room.refresh_from_db()
            if playing >= limits.min_players and room.status == "lobby":
                rooms.start_room(room=room, actor=host)
            rooms_made.append(room)
    # A lobby the player locks: a remembered answer (idempotency row).
    game, mode = room_registry.registered()[0]
    lobby = rooms.create_room(game=game, mode=mode, host=player, settings={})
    rooms.submit(room_id=lobby.pk, player=player, client_id="lock-1", message={"type": "lock"})
    rooms_made.append(lobby)
    # Some rooms end (results, a finished log), some stay running.
    for room in rooms_made[::2]:
        room.refresh_from_db()
        if room.is_live:
            rooms.end_room(room=room, actor=room.host)
    return {"other": other, "classroom": classroom, "rooms": rooms_made, "merged": merged}


def _contains_id(value, player_id: int) -> bool:
    if isinstance(value, dict):
        return any(
            str(key) == str(player_id) or _contains_id(item, player_id)
            for key, item in value.items()
        )
    if isinstance(value, list):
        return any(_contains_id(item, player_id) for item in value)
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return value == player_id
    if isinstance(value, str):
        return value == str(player_id)
    return False


TEXT_FIELDS = (models.CharField, models.TextField, models.JSONField)


def traces(*, nickname: str, player_id: int) -> list[str]:
    """Every column of every table (all models of all apps) holding the nickname,
    or the id as a JSON value; also any foreign key to a profile with that id."""
    found = []
    needle = nickname.casefold()
    for model in apps.get_models(include_auto_created=True):
        if model._meta.proxy or not model._meta.managed:
            continue
        table = connection.ops.quote_name(model._meta.db_table)
        for field in model._meta.concrete_fields:
            column = connection.ops.quote_name(field.column)
            where = f"{model._meta.label}.{field.name}"
            with connection.cursor() as cursor:
                if isinstance(field, TEXT_FIELDS):
                    cursor.execute(f"SELECT {column}::text FROM {table} WHERE {column} IS NOT NULL")
                    for (text,) in cursor.fetchall():
                        if needle in text.casefold():
                            found.append(f"{where}: {text[:4000]}")
                        elif isinstance(field, models.JSONField) and _contains_id(
                            json.loads(text), player_id
                        ):
                            found.append(f"{where} (id): {text[:4000]}")
                elif field.is_relation and field.related_model is PlayerProfile:
                    cursor.execute(f"SELECT count(*) FROM {table} WHERE {column} = %s", [player_id])
                    if cursor.fetchone()[0]:
                        found.append(f"{where} = {player_id}")
    return found
