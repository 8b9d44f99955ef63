"""A teacher picks a game's settings on the class page: the poker group game offers
the same choices as /poker/room/new/group/, tables offer their game's main settings;
the games' adapters judge them, and bad ones start nothing."""

import pytest
from django.test import Client

from accounts.models import PlayerProfile
from games.rooms import registry
from games.rooms.models import Room, Seat
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def teacher_en(teacher):
    client = Client(headers={"accept-language": "en"})
    client.force_login(teacher)
    return client


@pytest.fixture
def students(classroom):
    players = []
    for member in classroom.members.all():
        member.player = factories.make_player()
        member.save()
        players.append(member.player)
    players.append(factories.add_member(classroom).player)
    return players  # four joined students


def start(client, classroom, follow=False, **post):
    return client.post(f"/classes/{classroom.pk}/games/start/", post, follow=follow)


def test_class_page_offers_the_poker_page_settings_and_table_settings(teacher_en, classroom):
    page = teacher_en.get(f"/classes/{classroom.pk}/").content.decode()
    poker_page = teacher_en.get("/poker/room/new/group/").content.decode()
    for field in (
        'name="difficulty" value="easy" checked',
        'name="difficulty" value="hard"',
        'id="pr-seconds" name="seconds"',
        '<option value="contiguous" selected>',
        '<option value="school">',
        'name="host_plays"',
    ):
        assert field in page and field in poker_page
    assert 'data-testid="settings-poker"' in page
    assert 'name="mathesso-variant"' in page and 'value="pico" selected' in page
    assert 'name="mathesso-extensions"' in page and 'name="mathesso-points"' in page
    assert 'name="abaku-turn_seconds"' in page and '<option value="120" selected>' in page
    assert 'name="abaku-robot_level"' in page and 'name="abaku-plain"' in page
    assert 'name="theorems-no_burn"' in page
    assert "<script>" not in page and "style=" not in page  # CSP: no inline code


def test_group_game_from_the_class_gets_the_chosen_settings(teacher_en, teacher, classroom):
    response = start(
        teacher_en,
        classroom,
        game="poker",
        mode="group",
        difficulty="hard",
        seconds="45",
        table="school",
        host_plays="on",
    )
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/rooms/{room.code}/"
    teacher.refresh_from_db()
    assert (room.classroom, room.host) == (classroom, teacher.player)
    assert room.settings == {
        "table": "school",
        "difficulty": "hard",
        "seconds": 45,
        "host_plays": True,
    }


def test_group_game_with_the_preselected_settings_is_the_default_game(teacher_en, classroom):
    # What the browser posts untouched: easy (the seconds field is disabled then).
    start(teacher_en, classroom, game="poker", mode="group", difficulty="easy", table="contiguous")
    room = Room.objects.get()
    adapter = registry.get("poker", "group")
    assert room.settings == adapter.clean_settings({})


@pytest.mark.parametrize(
    ("post", "message"),
    [
        (
            {"difficulty": "hard", "seconds": "2"},
            "Seconds per number must be a whole number from 3 to 300.",
        ),
        ({"difficulty": "hard", "seconds": "soon"}, "Seconds per number must be a whole number"),
        ({"table": "roulette"}, "Choose one of the scoring tables."),
        ({"difficulty": "insane"}, "Choose easy or hard."),
    ],
)
def test_bad_group_settings_are_refused_on_the_class_page(teacher_en, classroom, post, message):
    profiles = PlayerProfile.objects.count()
    response = start(teacher_en, classroom, follow=True, game="poker", mode="group", **post)
    assert response.redirect_chain == [(f"/classes/{classroom.pk}/", 302)]
    assert message in response.content.decode()
    assert not Room.objects.exists()
    assert PlayerProfile.objects.count() == profiles  # not even the teacher's profile


def test_abaku_tables_get_the_chosen_settings(teacher_en, classroom, students):
    start(
        teacher_en,
        classroom,
        game="abaku",
        mode="table",
        table_size="2",
        **{"abaku-turn_seconds": "60", "abaku-robot_level": "strong", "abaku-plain": "on"},
    )
    rooms = list(Room.objects.filter(classroom=classroom))
    assert len(rooms) == 2
    for room in rooms:
        assert room.settings["turn_seconds"] == 60
        assert room.settings["robot_level"] == "strong"
        assert room.settings["layout"] == "plain"


def test_abaku_tables_without_a_time_limit(teacher_en, classroom, students):
    start(
        teacher_en,
        classroom,
        game="abaku",
        mode="table",
        table_size="4",
        **{"abaku-turn_seconds": "", "abaku-robot_level": "greedy"},
    )
    room = Room.objects.get(classroom=classroom)
    assert room.settings["turn_seconds"] is None and room.settings["layout"] == "standard"


def test_mathesso_tables_get_the_chosen_settings(teacher_en, classroom, students):
    start(
        teacher_en,
        classroom,
        game="mathesso",
        mode="table",
        table_size="2",
        **{
            "mathesso-variant": "nano",
            "mathesso-extensions": ["factorial", "cjv"],
            "mathesso-points": "off",
        },
    )
    rooms = list(Room.objects.filter(classroom=classroom))
    assert len(rooms) == 2
    assert all(
        room.settings == {"variant": "nano", "extensions": ["factorial", "cjv"], "points": False}
        for room in rooms
    )


def test_theorems_tables_get_the_chosen_settings(teacher_en, classroom, students):
    start(
        teacher_en,
        classroom,
        game="theorems",
        mode="table",
        table_size="3",
        **{"theorems-no_burn": "on"},
    )
    rooms = list(Room.objects.filter(classroom=classroom))
    assert sorted(room.settings["table_size"] for room in rooms) == [2, 2]
    assert all(room.settings["burn"] is False for room in rooms)


@pytest.mark.parametrize(
    ("game", "post", "message"),
    [
        ("abaku", {"abaku-turn_seconds": "45"}, "Choose one of the time limits."),
        ("abaku", {"abaku-robot_level": "genius"}, "Choose one of the robot levels."),
        (
            "mathesso",
            {"mathesso-variant": "atto", "mathesso-extensions": "factorial"},
            "This extension cannot be played with this variant.",
        ),
        ("mathesso", {"mathesso-variant": "giga"}, "Select a valid choice."),
    ],
)
def test_bad_table_settings_start_no_table(teacher_en, classroom, students, game, post, message):
    response = start(
        teacher_en, classroom, follow=True, game=game, mode="table", table_size="2", **post
    )
    assert message in response.content.decode()
    assert not Room.objects.exists() and not Seat.objects.exists()


@pytest.mark.parametrize("actor", ["other_teacher", "anonymous"])
def test_only_the_class_teachers_start_games_with_settings(classroom, students, actor):
    client = Client(headers={"accept-language": "en"})
    if actor == "other_teacher":
        client.force_login(factories.make_teacher("cudzi@skola.sk"))
    for post in (
        {"game": "poker", "mode": "group", "difficulty": "hard", "seconds": "30"},
        {"game": "abaku", "mode": "table", "table_size": "2", "abaku-turn_seconds": "60"},
    ):
        response = start(client, classroom, **post)
        assert response.status_code == (404 if actor == "other_teacher" else 302)
        if actor == "anonymous":
            assert response["Location"].startswith("/accounts/login/")
    assert not Room.objects.exists()
