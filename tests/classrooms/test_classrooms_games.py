"""Starting games for a class through the rooms runtime (fake adapters stand in for games)."""

import random

import pytest

from classrooms import launch
from games.rooms import registry
from games.rooms.models import Room, Seat
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


class FakeGroup(registry.RoomGame):
    limits = registry.Limits(max_players=50, host_plays=False)


class FakeTable(registry.RoomGame):
    limits = registry.Limits(max_players=4)


@pytest.fixture
def games_registered():
    before = set(registry.registered())
    added = [("poker", "group", FakeGroup()), ("abaku", "table", FakeTable())]
    for game, mode, adapter in added:
        if (game, mode) not in before:
            registry.register(game, mode, adapter)
    yield
    for game, mode, _adapter in added:
        if (game, mode) not in before:
            registry.unregister(game, mode)


@pytest.fixture
def joined(classroom):
    players = []
    for member in classroom.members.all():
        member.player = factories.make_player()
        member.save()
        players.append(member.player)
    pending = factories.add_member(classroom, status="pending")
    return players, pending


def test_unregistered_games_are_disabled_with_a_note():
    before = set(registry.registered())
    for game in launch.class_games():
        assert game.playable == ((game.info.slug, game.mode) in before)
        if not game.playable:
            assert game.note


def test_splitting_makes_even_tables_no_larger_than_asked():
    rng = random.Random(7)
    sizes = [len(t) for t in launch.split_into_tables(list(range(10)), 4, rng)]
    assert sorted(sizes) == [3, 3, 4]
    sizes = [len(t) for t in launch.split_into_tables(list(range(5)), 4, rng)]
    assert sorted(sizes) == [2, 3]
    assert launch.split_into_tables([], 4, rng) == []
    tables = launch.split_into_tables(list(range(9)), 2, rng)
    assert sorted(x for table in tables for x in table) == list(range(9))


def test_teacher_starts_a_poker_group_game_hosting_with_their_own_profile(
    games_registered, teacher_client, teacher, classroom
):
    response = teacher_client.post(
        f"/classes/{classroom.pk}/games/start/", {"game": "poker", "mode": "group"}
    )
    room = Room.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/rooms/{room.code}/"
    teacher.refresh_from_db()
    assert room.classroom == classroom
    assert (room.game, room.mode, room.host) == ("poker", "group", teacher.player)
    # the teacher hosts by the session: the browser's identity cookie stays as it was
    assert teacher_client.get("/classes/").context["player"] is None
    assert teacher_client.get(f"/rooms/{room.code}/").context["is_host"]
    page = teacher_client.get(f"/classes/{classroom.pk}/")
    assert [live.room for live in page.context["live_rooms"]] == [room]


def test_split_into_tables_seats_every_approved_student(
    games_registered, teacher_client, classroom, joined
):
    players, pending = joined
    extra = [factories.add_member(classroom).player for _ in range(3)]
    teacher_client.post(
        f"/classes/{classroom.pk}/games/start/",
        {"game": "abaku", "mode": "table", "table_size": "4"},
    )
    rooms = list(Room.objects.filter(classroom=classroom))
    assert len(rooms) == 2
    seated = list(Seat.objects.filter(room__in=rooms).values_list("player_id", flat=True))
    assert sorted(seated) == sorted(p.pk for p in players + extra)
    assert pending.player_id not in seated
    assert all(1 <= room.seats.count() <= 4 for room in rooms)


def test_student_sees_their_table_on_the_class_page(games_registered, classroom, joined):
    players, _pending = joined
    rooms = launch.start_tables(classroom=classroom, game="abaku", size=2, rng=random.Random(1))
    member = classroom.members.get(player=players[0])
    from classrooms import selectors

    lives = launch.live_rooms(classroom, selectors.member_player_ids(member))
    mine = [live.room for live in lives if live.mine]
    assert len(mine) == 1 and mine[0] in rooms


@pytest.mark.parametrize(
    "post",
    [
        {"game": "abaku", "mode": "table", "table_size": "9"},
        {"game": "abaku", "mode": "table", "table_size": "x"},
        {"game": "chess", "mode": "group"},
        {"game": "abaku", "mode": "group"},
    ],
)
def test_bad_start_requests_create_no_room(
    games_registered, teacher_client, classroom, joined, post
):
    response = teacher_client.post(f"/classes/{classroom.pk}/games/start/", post)
    assert response.status_code == 302
    assert not Room.objects.exists()


def test_tables_need_joined_students(games_registered, teacher_client, classroom):
    teacher_client.post(
        f"/classes/{classroom.pk}/games/start/",
        {"game": "abaku", "mode": "table", "table_size": "4"},
    )
    assert not Room.objects.exists()


def test_archived_class_starts_no_games(games_registered, teacher_client, classroom, joined):
    from classrooms import services

    services.set_archived(classroom=classroom, archived=True)
    teacher_client.post(f"/classes/{classroom.pk}/games/start/", {"game": "poker", "mode": "group"})
    assert not Room.objects.exists()


def test_students_join_a_running_class_game_in_one_click(
    games_registered, teacher, classroom, joined, player_client
):
    from classrooms import services

    host = services.ensure_teacher_player(user=teacher)
    from games.rooms import services as rooms

    room = rooms.create_room(
        game="poker", mode="group", host=host, settings={}, classroom=classroom
    )
    student, player = player_client("Bystrá Sova")
    classroom.members.create(player=player, roster_name="Dana")
    page = student.get(f"/classes/{classroom.pk}/").content.decode()
    assert f'action="/rooms/{room.code}/join/"' in page
    response = student.post(f"/rooms/{room.code}/join/", {"role": "player"})
    assert response.status_code == 302
    assert Seat.objects.filter(room=room, player=player).exists()
    page = student.get(f"/classes/{classroom.pk}/").content.decode()
    assert "you are in this game" in page and f'href="/rooms/{room.code}/"' in page


@pytest.mark.parametrize("game", ["mathesso", "abaku", "theorems"])
def test_real_table_games_accept_a_split_class(classroom, joined, game):
    if (game, "table") not in registry.registered() or isinstance(
        registry.get(game, "table"), FakeTable
    ):
        pytest.skip(f"{game} tables are not registered yet")
    factories.add_member(classroom)
    factories.add_member(classroom)
    rooms = launch.start_tables(classroom=classroom, game=game, size=3, rng=random.Random(3))
    assert sorted(room.seats.count() for room in rooms) == [2, 3]
    assert all(room.status == Room.Status.LOBBY for room in rooms)
    if game == "theorems":
        assert sorted(room.settings["table_size"] for room in rooms) == [2, 3]
