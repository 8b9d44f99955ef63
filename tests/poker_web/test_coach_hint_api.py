"""The coach's hint API: allowed in easy games and on the scoresheet, refused by
the server in ranked and daily games (docs/poker-api.md, "Hints")."""

import json

import pytest

from games.poker.models import SoloGame
from games.poker.rules import JOKER
from tests.poker_web.helpers import login_client

pytestmark = pytest.mark.django_db

API = "/poker/api/games/"
BOARD_HINT = "/poker/api/hint/"


def post(client, url, data=None):
    return client.post(url, json.dumps(data or {}), content_type="application/json")


def start(client, **data):
    response = post(client, API, data)
    assert response.status_code == 201, response.content
    return response.json()["game"]


def play_number(client, game):
    """Place whatever number is in hand (keep jokers) until a number is in hand."""
    while game["hand"] == JOKER:
        game = post(client, f"{API}{game['id']}/actions/", {"type": "keep_joker"}).json()["game"]
    return game


def test_an_easy_game_gets_an_empty_cell_and_a_sentence_naming_the_line(client):
    login_client(client)
    game = play_number(client, start(client, mode="easy"))
    response = post(client, f"{API}{game['id']}/hint/")
    assert response.status_code == 200, response.content
    hint = response.json()["hint"]
    assert hint["action"] == "place"
    assert game["cells"][hint["cell"]] is None
    assert hint["value"] == game["hand"]
    assert hint["line_label"] in hint["reason"]
    assert str(game["hand"]) in hint["reason"]
    assert SoloGame.objects.get(pk=game["id"]).hints == 1
    # Following the hint is an ordinary legal move.
    placed = post(client, f"{API}{game['id']}/actions/", {"type": "place", "cell": hint["cell"]})
    assert placed.status_code == 200
    assert placed.json()["game"]["cells"][hint["cell"]] == game["hand"]


@pytest.mark.parametrize(
    "data",
    [
        {"mode": "ranked", "difficulty": "easy"},
        {"mode": "daily"},
        {"mode": "hard", "seconds_per_card": 30},
    ],
)
def test_the_server_refuses_hints_outside_easy_games(client, data):
    login_client(client)
    game = start(client, **data)
    response = post(client, f"{API}{game['id']}/hint/")
    assert response.status_code == 403
    assert response.json()["code"] == "hint_not_allowed"
    assert SoloGame.objects.get(pk=game["id"]).hints == 0


def test_another_players_game_gets_no_hint(client):
    login_client(client)
    game = start(client, mode="easy")
    login_client(client, nickname="Iný Hráč")
    response = post(client, f"{API}{game['id']}/hint/")
    assert response.status_code == 404


def test_the_scoresheet_hint_works_on_a_sent_board(client):
    cells = [None] * 25
    cells[0], cells[1], cells[2] = 7, 7, 7
    response = post(
        client,
        BOARD_HINT,
        {"context": "scoresheet", "table": "matematico", "cells": cells, "card": 7},
    )
    assert response.status_code == 200, response.content
    hint = response.json()["hint"]
    assert cells[hint["cell"]] is None
    assert 1 <= hint["value"] <= 13


@pytest.mark.parametrize("context", ["ranked", "daily", "group", "duel", None])
def test_the_board_hint_is_refused_for_every_other_context(client, context):
    response = post(
        client,
        BOARD_HINT,
        {"context": context, "table": "matematico", "cells": [None] * 25, "card": 5},
    )
    assert response.status_code == 403
    assert response.json()["code"] == "hint_not_allowed"


@pytest.mark.parametrize(
    ("cells", "card", "code"),
    [
        ([None] * 24, 5, "bad_board"),
        ([14] + [None] * 24, 5, "bad_board"),
        ([None] * 25, 14, "bad_card"),
        ([1] * 25, 5, "board_full"),
    ],
)
def test_bad_boards_are_refused_with_a_stable_code(client, cells, card, code):
    response = post(
        client, BOARD_HINT, {"context": "easy", "table": "matematico", "cells": cells, "card": card}
    )
    assert response.json()["code"] == code
