"""Matematici as homework (issue 37 §5): assignable like the other three games
(``"game": "theorems"``, ``POST /theorems/api/games/`` ``{"mode": "assignment"}``
-> 201 new / 200 continued with the same refusals), every pupil on the same
starter deck against the same robots with the same shuffles (the same first
hand), the score the theorems proven, and the LTI deep-linking picker lists it."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.rooms import services as rooms
from games.rooms.models import Room
from games.theorems.rules import GameState
from homework.models import Attempt

from .conftest import post, pupil_client

pytestmark = pytest.mark.django_db

START = "/theorems/api/games/"


@pytest.fixture
def theorems_homework(teacher_client, classroom):
    def make(**extra):
        body = {
            "game": "theorems",
            "title": "Matematici do pátku",
            "settings": {"deck": "geometers", "robots": 1},
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


def test_bad_theorems_settings_are_refused_with_a_stable_code(teacher_client, classroom):
    url = f"/api/classes/{classroom.pk}/assignments/"
    due = (timezone.now() + timedelta(days=1)).isoformat()
    for settings, code in (
        ({"deck": "nope"}, "bad_deck"),
        ({"robots": 7}, "bad_robots"),
        ({"seed": 1}, "bad_settings"),
    ):
        response = post(
            teacher_client,
            url,
            {"game": "theorems", "title": "x", "settings": settings, "due_at": due},
        )
        assert response.status_code == 400 and response.json()["code"] == code, response.content
    assert not Room.objects.exists()


def test_every_pupil_gets_the_same_deck_and_first_hand_and_a_second_start_continues(
    theorems_homework, pupils
):
    homework = theorems_homework()
    assert homework["full_marks_default"] >= 1
    (adam, _ap, _m), (bara, _bp, _n), _c = pupils
    first, second = start(adam, homework["id"]), start(bara, homework["id"])
    assert first.status_code == 201 and second.status_code == 201, first.content
    a, b = room_of(first), room_of(second)
    assert a.pk != b.pk and a.mode == b.mode == "homework"
    # dealt at once: the pupil plays the teacher's deck, nothing to choose
    assert a.state["phase"] == b.state["phase"] == "playing"
    ga, gb = GameState.from_dict(a.state["game"]), GameState.from_dict(b.state["game"])
    assert ga.players[0].hand == gb.players[0].hand and ga.players[0].hand
    assert [p.mathematician for p in ga.players] == [p.mathematician for p in gb.players]
    assert a.state["seats"][0]["deck_name"] == "geometers"
    again = start(adam, homework["id"])
    assert again.status_code == 200 and again.json()["room"] == first.json()["room"]
    assert again.json()["resumed"] is True


def test_who_may_not_start_gets_the_same_refusals(theorems_homework, pupils):
    homework = theorems_homework()
    stranger, _p = pupil_client("Cizí")
    refused = start(stranger, homework["id"])
    assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    anonymous = Client(headers={"accept-language": "en"})
    assert start(anonymous, homework["id"]).status_code in (403, 404)
    assert post(pupils[0][0], START, {"mode": "table"}).json()["code"] == "bad_mode"
    later = theorems_homework(
        opens_at=(timezone.now() + timedelta(days=1)).isoformat(),
        due_at=(timezone.now() + timedelta(days=2)).isoformat(),
    )
    closed = start(pupils[0][0], later["id"])
    assert closed.status_code == 409 and closed.json()["code"] == "assignment_closed"
    assert not Room.objects.exists() and not Attempt.objects.exists()


def test_the_end_of_the_game_is_the_attempt_scored_by_theorems_proven(
    theorems_homework, pupils, teacher_client
):
    homework = theorems_homework()
    adam, profile, member = pupils[0]
    room = room_of(start(adam, homework["id"]))
    rooms.end_room(room=room, actor=profile)
    room.refresh_from_db()
    attempt = Attempt.objects.get(player=profile)
    result = room.record.results.get(player=profile)
    proven = len(GameState.from_dict(room.state["game"]).players[0].proven)
    assert attempt.finished_at is not None and attempt.score == result.score == proven
    rows = teacher_client.get(f"/api/assignments/{homework['id']}/results/").json()["rows"]
    row = next(r for r in rows if r["member"] == member.pk)
    assert row["status"] == "done" and row["score"] == proven
    page = adam.get(f"/theorems/homework/{homework['id']}/").content.decode()
    assert 'data-testid="theorems-homework-start"' in page
