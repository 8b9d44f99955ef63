"""Abaku solo as homework (issue 28: "Abaku solo and Mathesso solo should follow
on the same mechanism"): ``GameSpec.assignable`` with ``room_mode``, started by
``POST /abaku/api/games/ {"mode": "assignment"}`` (or the pupil's page), every
pupil on the same bag from a per-assignment server-side seed that nothing a
pupil can read carries, and the end recorded through the rooms runtime's usual
finish calling ``homework.services.finish_attempt``."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.abaku.rules import GameState, best_move
from games.rooms import selectors as room_selectors
from games.rooms import services as rooms
from games.rooms.models import Room
from homework.models import Assignment, Attempt

from .conftest import post, pupil_client

START = "/abaku/api/games/"


@pytest.fixture
def abaku_homework(teacher_client, classroom):
    def make(**extra):
        body = {
            "game": "abaku",
            "title": "Abaku do pátku",
            "settings": {"opponent": "none", "layout": "standard"},
            "due_at": (timezone.now() + timedelta(days=3)).isoformat(),
            **extra,
        }
        response = post(teacher_client, f"/api/classes/{classroom.pk}/assignments/", body)
        assert response.status_code == 201, response.content
        return response.json()

    return make


def start(client, assignment_id):
    return post(client, START, {"mode": "assignment", "assignment": assignment_id})


def room_of(response) -> Room:
    return Room.objects.get(code=response.json()["room"]["code"], status="running")


@pytest.mark.django_db
def test_bad_abaku_settings_are_refused_with_a_stable_code_and_nothing_is_made(
    teacher_client, classroom
):
    for settings, code in (
        ({"opponent": "everyone"}, "bad_opponent"),
        ({"opponent": "robot", "robot_level": "godlike"}, "bad_robot_level"),
        ({"layout": "round"}, "bad_layout"),
        ({"table_size": 4}, "bad_settings"),
    ):
        response = post(
            teacher_client,
            f"/api/classes/{classroom.pk}/assignments/",
            {
                "game": "abaku",
                "title": "x",
                "settings": settings,
                "due_at": (timezone.now() + timedelta(days=1)).isoformat(),
            },
        )
        assert response.status_code == 400, settings
        assert response.json()["code"] == code
    assert not Assignment.objects.exists()


@pytest.mark.django_db
def test_every_pupil_gets_the_same_stones_and_no_seed_or_bag_reaches_them(abaku_homework, pupils):
    homework = abaku_homework()
    (adam, adam_profile, _m1), (bara, bara_profile, _m2), _cyril = pupils
    first, second = start(adam, homework["id"]), start(bara, homework["id"])
    assert first.status_code == 201 and second.status_code == 201
    room_a, room_b = room_of(first), room_of(second)
    assert room_a.pk != room_b.pk and room_a.mode == room_b.mode == "solo"
    game_a = GameState.from_dict(room_a.state["game"])
    game_b = GameState.from_dict(room_b.state["game"])
    assert game_a.players[0].rack == game_b.players[0].rack
    assert game_a.bag == game_b.bag and game_a.seed == game_b.seed
    # an ordinary solo game is dealt from a fresh seed
    other = rooms.create_and_start(
        game="abaku", mode="solo", host=adam_profile, settings={"table_size": 1}
    )
    assert GameState.from_dict(other.state["game"]).seed != game_a.seed
    # nothing a pupil reads carries the seed or the bag's order
    secrets = {str(game_a.seed), str(room_a.rng_seed)}
    snapshot = json.dumps(room_selectors.snapshot(room_id=room_a.pk, player=adam_profile))
    page = adam.get(f"/rooms/{room_a.code}/").content.decode()
    for text in (first.content.decode(), snapshot, page):
        assert not any(secret in text for secret in secrets)
        assert '"bag": [' not in text and '"seed"' not in text
    # the start page names no stones either
    start_page = adam.get(f"/abaku/homework/{homework['id']}/").content.decode()
    assert 'data-testid="abaku-homework-start"' in start_page
    assert not any(secret in start_page for secret in secrets)


@pytest.mark.django_db
def test_a_second_start_continues_the_same_game_on_another_device(abaku_homework, pupils):
    homework = abaku_homework()
    adam, profile, _member = pupils[0]
    first = start(adam, homework["id"])
    again = start(adam, homework["id"])
    assert again.status_code == 200 and again.json()["resumed"] is True
    assert again.json()["room"]["code"] == first.json()["room"]["code"]
    assert Attempt.objects.filter(player=profile).count() == 1


@pytest.mark.django_db
def test_who_may_not_start_gets_a_stable_refusal_and_nothing_changes(
    abaku_homework, pupils, classroom
):
    homework = abaku_homework()
    stranger, _p = pupil_client("Cizí")
    assert start(stranger, homework["id"]).status_code == 404
    assert start(stranger, homework["id"]).json()["code"] == "not_found"
    anonymous = Client(headers={"accept-language": "en"})
    refused = start(anonymous, homework["id"])
    assert refused.status_code in (403, 404)
    assert post(pupils[0][0], START, {"mode": "solo"}).json()["code"] == "bad_mode"
    closed = abaku_homework(
        opens_at=(timezone.now() + timedelta(days=1)).isoformat(),
        due_at=(timezone.now() + timedelta(days=2)).isoformat(),
    )
    response = start(pupils[0][0], closed["id"])
    assert response.status_code == 409 and response.json()["code"] == "assignment_closed"
    # a poker homework is not an Abaku one
    assert not Room.objects.exists()
    assert not Attempt.objects.exists()


@pytest.mark.django_db
def test_hints_and_the_review_stay_shut_while_the_homework_runs(abaku_homework, pupils):
    homework = abaku_homework()
    adam = pupils[0][0]
    room = room_of(start(adam, homework["id"]))
    hint = adam.post(f"/abaku/rooms/{room.code}/hint/")
    assert hint.status_code == 409 and hint.json()["code"] == "hint_not_allowed"
    review = adam.get(f"/abaku/rooms/{room.code}/review/")
    assert review.status_code == 409 and review.json()["code"] == "review_not_yet"
    practice = abaku_homework(practice=True)
    room = room_of(start(adam, practice["id"]))
    assert adam.post(f"/abaku/rooms/{room.code}/hint/").json()["ok"] is True


@pytest.mark.django_db
def test_the_end_of_the_game_is_the_attempt_in_the_class_table(
    abaku_homework, pupils, teacher_client
):
    homework = abaku_homework()
    adam, profile, member = pupils[0]
    room = room_of(start(adam, homework["id"]))
    game = GameState.from_dict(room.state["game"])
    move = best_move(game.board, game.players[0].rack)
    assert move is not None
    rooms.submit(
        room_id=room.pk,
        player=profile,
        client_id="hw-1",
        message={"type": "place", "placements": [list(p) for p in move.placements]},
    )
    attempt = Attempt.objects.get(player=profile)
    assert attempt.finished_at is None
    # the pupil ends the solo game: the runtime's finish records the attempt
    room.refresh_from_db()
    rooms.end_room(room=room, actor=profile)
    attempt.refresh_from_db()
    room.refresh_from_db()
    result = room.record.results.get(player=profile)
    assert attempt.finished_at is not None and attempt.score == result.score == move.score > 0
    assert attempt.record_id == room.record_id and attempt.duration_s is not None
    table = teacher_client.get(f"/api/assignments/{homework['id']}/results/").json()
    row = next(r for r in table["rows"] if r["member"] == member.pk)
    assert row["status"] == "done" and row["score"] == move.score
    # the teacher reads the move-by-move review; the pupil's browser cannot
    review_url = row["review_url"]
    assert review_url == (
        f"/classes/{member.classroom_id}/homework/{homework['id']}/review/{attempt.pk}/"
    )
    review = teacher_client.get(review_url)
    assert review.status_code == 200
    text = review.content.decode()
    assert 'data-testid="abaku-homework-review"' in text
    assert f'<td class="num">{move.score}</td>' in text
    detail = teacher_client.get(f"/classes/{member.classroom_id}/homework/{homework['id']}/")
    assert review_url in detail.content.decode()
    assert adam.get(review_url).status_code in (302, 403, 404)
    # an ordinary solo game's end touches no attempt
    other = rooms.create_and_start(
        game="abaku", mode="solo", host=profile, settings={"table_size": 1}
    )
    rooms.end_room(room=other, actor=profile)
    assert Attempt.objects.filter(player=profile).count() == 1


@pytest.mark.django_db
def test_the_pupils_page_starts_the_game_and_goes_to_its_room(abaku_homework, pupils):
    homework = abaku_homework()
    adam = pupils[0][0]
    card = adam.get(f"/classes/{pupils[0][2].classroom_id}/").content.decode()
    assert f"/abaku/homework/{homework['id']}/" in card
    response = adam.post(f"/abaku/homework/{homework['id']}/")
    assert response.status_code == 302
    room = Room.objects.get(status="running", game="abaku")
    assert response["Location"] == f"/rooms/{room.code}/"
