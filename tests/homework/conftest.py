"""Fixtures of the homework tests: a class with three pupils (each a browser
with a player profile), its teacher, and helpers to play a homework game."""

import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from games.poker.rules import JOKER
from tests.classrooms import factories
from tests.poker_web.helpers import player_cookie

GAMES = "/poker/api/games/"
SETTINGS = {"table": "matematico", "difficulty": "easy"}


def post(client, url, data=None):
    return client.post(url, json.dumps(data or {}), content_type="application/json")


def patch(client, url, data):
    return client.patch(url, json.dumps(data), content_type="application/json")


def pupil_client(nickname: str):
    client = Client(headers={"accept-language": "en"})
    profile, cookie = player_cookie(nickname)
    client.cookies[settings.PLAYER_COOKIE_NAME] = cookie
    return client, profile


def start(client, assignment_id):
    return post(client, GAMES, {"mode": "assignment", "assignment": assignment_id})


def play_to_end(client, game, *, first_free: bool = True):
    """Fill free cells in order (or from the end) with whatever comes; jokers as 7."""
    for _ in range(60):
        if game["over"]:
            return game
        free = [i for i, cell in enumerate(game["cells"]) if cell is None]
        cell = free[0] if first_free else free[-1]
        if game["hand"] == JOKER:
            action = {"type": "use_joker", "cell": cell, "value": 7}
        else:
            action = {"type": "place", "cell": cell}
        response = post(client, f"{GAMES}{game['id']}/actions/", action)
        assert response.status_code == 200, response.content
        game = response.json()["game"]
    raise AssertionError("the game did not end")


@pytest.fixture
def teacher(db):
    return factories.make_teacher("ucitelka@skola.cz")


@pytest.fixture
def classroom(teacher):
    return factories.make_class(teacher, name="7.B")


@pytest.fixture
def teacher_client(teacher):
    client = Client(headers={"accept-language": "en"})
    client.force_login(teacher)
    return client


@pytest.fixture
def pupils(classroom):
    """Three pupils of the class: (client, profile, membership) each."""
    made = []
    for name in ("Adam Kovář", "Bára Nová", "Cyril Malý"):
        client, profile = pupil_client(name.split()[0])
        member = factories.add_member(classroom, profile, roster_name=name)
        made.append((client, profile, member))
    return made


@pytest.fixture
def make_assignment(teacher_client, classroom):
    def make(**extra):
        body = {
            "game": "poker",
            "title": "Poker do pátku",
            "settings": SETTINGS,
            "due_at": (timezone.now() + timedelta(days=3)).isoformat(),
            **extra,
        }
        response = post(teacher_client, f"/api/classes/{classroom.pk}/assignments/", body)
        assert response.status_code == 201, response.content
        return response.json()

    return make
