"""A new game is one folder and one registration: the tiny test game plugs in
through ``core.registry`` alone and is played in a room and from a class.

Nothing outside ``tests/plugin/tinygame/`` names it: the home page, the URL
tree, the class page, starting tables, the rooms runtime, results, profile
statistics and the staff dashboard all find it in the registry.
"""

from __future__ import annotations

import importlib

import pytest
from django.urls import clear_url_caches

from core import registry as game_registry
from games.models import GameRecord, GameResult
from games.rooms import registry as rooms_registry
from games.rooms import services as room_services
from games.rooms.models import Room
from tests.classrooms import factories
from tests.plugin.tinygame import game as tinygame

pytestmark = pytest.mark.django_db


def _reload_urls() -> None:
    import config.urls

    importlib.reload(config.urls)
    clear_url_caches()


@pytest.fixture
def tiny():
    game_registry.register(tinygame.SPEC)
    _reload_urls()
    yield tinygame.SPEC
    game_registry.unregister(tinygame.SLUG)
    _reload_urls()


@pytest.fixture
def teacher_client(client):
    teacher = factories.make_teacher("plugin@skola.sk", is_staff=True)
    client.force_login(teacher)
    client.teacher = teacher
    return client


def test_registering_adds_the_game_everywhere_and_unregistering_removes_it(client, tiny):
    assert ("tinygame", "table") in rooms_registry.registered()
    home = client.get("/").content.decode()
    assert "Tiny game" in home and 'href="/tinygame/"' in home
    assert client.get("/tinygame/").status_code == 200
    assert ".game-tinygame" in client.get("/games.css").content.decode()
    game_registry.unregister("tinygame")
    assert ("tinygame", "table") not in rooms_registry.registered()
    assert "Tiny game" not in client.get("/").content.decode()
    game_registry.register(tiny)  # the fixture unregisters it again


def test_the_stored_slug_is_validated_against_the_registry(tiny):
    from django.core.exceptions import ValidationError

    GameRecord(game="tinygame", mode="table").full_clean()
    with pytest.raises(ValidationError):
        GameRecord(game="nosuchgame", mode="table").full_clean()


def test_a_class_starts_tables_of_the_tiny_game_and_plays_them_to_results(teacher_client, tiny):
    classroom = factories.make_class(teacher_client.teacher)
    students = [factories.add_member(classroom).player for _ in range(4)]

    page = teacher_client.get(f"/classes/{classroom.pk}/").content.decode()
    assert 'data-game="tinygame"' in page and 'name="tinygame-goal"' in page

    response = teacher_client.post(
        f"/classes/{classroom.pk}/games/start/",
        {"game": "tinygame", "mode": "table", "table_size": "2", "tinygame-goal": "2"},
    )
    assert response.status_code == 302
    rooms = list(Room.objects.filter(game="tinygame", classroom=classroom).order_by("pk"))
    assert len(rooms) == 2 and all(room.settings == {"goal": 2} for room in rooms)
    seated = {seat.player_id for room in rooms for seat in room.seats.all()}
    assert seated == {student.pk for student in students}

    room = rooms[0]
    host = room.host
    room_services.start_room(room=room, actor=host)
    for number in range(2):
        answer = room_services.submit(
            room_id=room.pk, player=host, client_id=f"s{number}", message={"type": "step"}
        )
        assert answer["type"] == "ack", answer
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED

    record = GameRecord.objects.get(game="tinygame", classroom=classroom)
    assert record.game_name == "Tiny game"
    winner = GameResult.objects.get(record=record, rank=1)
    assert winner.player_id == host.pk and winner.score == 2

    results = teacher_client.get(f"/classes/{classroom.pk}/results/").content.decode()
    assert "Tiny game" in results
    staff = teacher_client.get("/staff/").content.decode()
    assert "Tiny game" in staff


def test_the_profile_shows_the_games_own_statistics(client, tiny):
    from accounts import selectors

    player = factories.make_player()
    factories.play(None, {player: 5}, game="tinygame", mode="table")
    stats = selectors.player_stats(player)
    assert stats["tinygame"] == {"steps_total": 5}
    sections = selectors.profile_stats_sections(stats)
    assert [name for name, _template, _stats in sections][-1] == "Tiny game"
