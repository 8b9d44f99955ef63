"""Abaku pages: the hub opens games, the preview asks the engine, the rules draw the seed."""

from __future__ import annotations

import json
import random

import pytest

from core import registry as game_registry
from games.abaku.rules import GameState, all_moves
from games.rooms.models import Room

pytestmark = pytest.mark.django_db


def open_game(client, **data):
    return client.post("/abaku/new/", {"nickname": "Ada", **data})


def test_the_catalogue_links_abaku_as_ready():
    (abaku,) = [g for g in game_registry.games() if g.slug == "abaku"]
    assert abaku.ready and str(abaku.url) == "/abaku/"


def test_the_hub_offers_robot_practice_and_a_table(client):
    page = client.get("/abaku/").content.decode()
    for testid in ("play-robot", "play-practice", "open-table"):
        assert f'data-testid="{testid}"' in page


def test_a_game_against_the_robot_starts_at_once_in_a_solo_room(client):
    response = open_game(client, kind="robot", table_size="2", robot_level="strong")
    room = Room.objects.get(game="abaku")
    assert response.status_code == 302 and response["Location"] == f"/rooms/{room.code}/"
    assert room.mode == "solo" and room.status == "running"
    assert [s["robot"] for s in room.state["seats"]] == [None, "strong"]
    assert room.state["game"]["turn_seconds"] is None
    page = client.get(f"/rooms/{room.code}/").content.decode()
    assert "data-abaku-table" in page and "abaku/table.js" in page
    assert 'style="' not in page.split("data-abaku-table")[1].split("</section>")[0]


def test_practice_alone_has_one_seat_and_may_use_the_plain_board(client):
    open_game(client, kind="practice", plain="on")
    room = Room.objects.get(game="abaku")
    assert len(room.state["seats"]) == 1
    assert room.state["game"]["board"]["layout"] == "plain"


def test_a_table_waits_in_the_lobby_with_its_settings(client):
    open_game(client, kind="table", table_size="4", robot_level="beginner", turn_seconds="60")
    room = Room.objects.get(game="abaku")
    assert room.mode == "table" and room.status == "lobby"
    assert room.settings["table_size"] == 4 and room.settings["turn_seconds"] == 60


def test_bad_settings_open_nothing_and_say_why(client):
    response = open_game(client, kind="table", table_size="9")
    assert response.status_code == 302 and response["Location"] == "/abaku/"
    assert not Room.objects.exists()
    page = client.get("/abaku/").content.decode()
    assert "A table has 2 to 4 seats." in page


def _room(client) -> Room:
    open_game(client, kind="robot")
    return Room.objects.get(game="abaku")


def preview(client, room, body):
    response = client.post(
        f"/abaku/rooms/{room.code}/preview/", json.dumps(body), content_type="application/json"
    )
    return response.status_code, response.json()


def test_the_preview_scores_a_legal_move_as_the_engine_does(client):
    for _attempt in range(20):
        room = _room(client)
        game = GameState.from_dict(room.state["game"])
        moves = all_moves(game.board, game.players[0].rack)
        if moves:
            break
        Room.objects.all().delete()
    move = random.Random(1).choice(moves)
    status, answer = preview(client, room, {"placements": [list(p) for p in move.placements]})
    assert status == 200 and answer["ok"] is True
    assert answer["score"] == move.score
    assert answer["examples"] and all("text" in e and "points" in e for e in answer["examples"])
    room.refresh_from_db()
    assert room.state["game"]["move_number"] == 0  # the preview changes nothing


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"placements": [[0, 0, 1], [0, 1, 1]]}, "off_centre"),
        ({"placements": []}, "no_stones"),
        ({}, "no_stones"),
        ({"placements": [[7, 7, 12]]}, "bad_digit"),
        ({"placements": [["a", 7, 1]]}, "bad_placement"),
    ],
)
def test_the_preview_refuses_illegal_moves_with_a_code_and_a_message(client, body, code):
    room = _room(client)
    status, answer = preview(client, room, body)
    assert status == 200 and answer["ok"] is False
    assert answer["code"] == code and answer["message"]


def test_the_preview_is_only_for_people_in_the_room(client):
    from django.test import Client

    room = _room(client)
    stranger = Client(headers={"accept-language": "en"})
    response = stranger.post(
        f"/abaku/rooms/{room.code}/preview/", "{}", content_type="application/json"
    )
    assert response.status_code == 404


def test_the_preview_of_an_unknown_room_is_404(client):
    response = client.post("/abaku/rooms/ZZZZZZ/preview/", "{}", content_type="application/json")
    assert response.status_code == 404


def test_the_rules_page_draws_the_seed_example_with_its_scores(client):
    page = client.get("/abaku/rules/").content.decode()
    for score in (6, 10, 18, 42, 22, 66):
        assert f"{score} points" in page
    assert "12:4=3" in page and "6+42=48" in page
