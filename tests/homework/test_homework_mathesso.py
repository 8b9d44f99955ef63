"""Mathesso solo as homework (issue 28): the same mechanism as Abaku -- the same
tiles in the same places for every pupil from a per-assignment server-side
seed nobody can read, the end recorded through the rooms runtime's finish; the
homework score is pairs found per turn in percent (a finished solo game always
holds every pair, so the game's own score would not tell pupils apart)."""

import json
from datetime import timedelta
from itertools import count

import pytest
from django.utils import timezone

from games.mathesso.rules import GameState, build_tiles, is_pair, legal_actions
from games.rooms import selectors as room_selectors
from games.rooms import services as rooms
from games.rooms.models import Room
from homework.models import Attempt

from .conftest import post, pupil_client

START = "/mathesso/api/games/"
_ids = count(1)


@pytest.fixture
def mathesso_homework(teacher_client, classroom):
    def make(**extra):
        body = {
            "game": "mathesso",
            "title": "Pexeso do pátku",
            "settings": {"variant": "atto"},
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


def play_to_the_end(room: Room, profile, *, wasted: int = 0) -> None:
    """Flip like a pupil with a perfect memory, after ``wasted`` turns that find nothing."""
    me = str(profile.pk)
    for _step in range(400):
        room.refresh_from_db()
        if room.status != Room.Status.RUNNING:
            return
        state = GameState.from_dict(room.state)
        moves = legal_actions(state, me)
        flips = [m["tile"] for m in moves if m["type"] == "flip"]
        if state.flips and len(state.flips) == 1:
            first = state.tiles[state.flips[0]].tile
            partners = [t for t in flips if is_pair(first, state.tiles[t].tile)]
            others = [t for t in flips if t not in partners]
            tile = others[0] if wasted and others else partners[0]
            if wasted and others:
                wasted -= 1
            message = {"type": "flip", "tile": tile}
        elif flips and not state.offer:
            message = {"type": "flip", "tile": flips[0]}
        elif state.offer and flips:
            message = {"type": "flip", "tile": flips[0]}
        else:
            message = {"type": "end_turn"}
        rooms.submit(room_id=room.pk, player=profile, client_id=f"m{next(_ids)}", message=message)
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_bad_settings_are_refused_and_every_pupil_gets_the_same_tiles_unseen(
    mathesso_homework, teacher_client, classroom, pupils
):
    bad = post(
        teacher_client,
        f"/api/classes/{classroom.pk}/assignments/",
        {
            "game": "mathesso",
            "title": "x",
            "settings": {"variant": "yotta", "seed": 1},
            "due_at": (timezone.now() + timedelta(days=1)).isoformat(),
        },
    )
    assert bad.status_code == 400 and bad.json()["code"] == "bad_settings"
    homework = mathesso_homework()
    (adam, adam_profile, _m), (bara, _bp, _m2), _c = pupils
    first, second = start(adam, homework["id"]), start(bara, homework["id"])
    assert first.status_code == 201 and second.status_code == 201
    a, b = GameState.from_dict(room_of(first).state), GameState.from_dict(room_of(second).state)
    assert [p.tile for p in a.tiles] == [p.tile for p in b.tiles]
    assert a.seed == b.seed and a.variant == "atto"
    other = rooms.create_and_start(
        game="mathesso", mode="solo", host=adam_profile, settings={"variant": "atto"}
    )
    assert GameState.from_dict(other.state).seed != a.seed
    snapshot = json.dumps(room_selectors.snapshot(room_id=room_of(first).pk, player=adam_profile))
    for text in (first.content.decode(), snapshot):
        assert str(a.seed) not in text and str(room_of(first).rng_seed) not in text
    again = start(adam, homework["id"])
    assert again.status_code == 200 and again.json()["room"] == first.json()["room"]
    stranger, _p = pupil_client("Cizí")
    assert start(stranger, homework["id"]).status_code == 404


@pytest.mark.django_db
def test_the_end_of_the_game_is_the_attempt_with_pairs_per_turn_as_its_score(
    mathesso_homework, teacher_client, pupils
):
    homework = mathesso_homework()
    (adam, adam_profile, adam_member), (bara, bara_profile, bara_member), _c = pupils
    play_to_the_end(room_of(start(adam, homework["id"])), adam_profile)
    play_to_the_end(room_of(start(bara, homework["id"])), bara_profile, wasted=2)
    pairs = len(build_tiles("atto")) // 2
    adam_attempt = Attempt.objects.get(player=adam_profile)
    bara_attempt = Attempt.objects.get(player=bara_profile)
    assert adam_attempt.finished_at is not None and adam_attempt.score == 100
    assert bara_attempt.score == round(100 * pairs / (pairs + 2))
    table = teacher_client.get(f"/api/assignments/{homework['id']}/results/").json()
    rows = {row["member"]: row for row in table["rows"]}
    assert rows[adam_member.pk]["status"] == "done" and rows[adam_member.pk]["score"] == 100
    assert rows[bara_member.pk]["score"] == bara_attempt.score < 100
    page = adam.get(f"/mathesso/homework/{homework['id']}/").content.decode()
    assert 'data-testid="mathesso-homework-start"' in page
