"""The solo-game JSON API: start, act, refusals, records (docs/poker-api.md)."""

import json

import pytest
from django.conf import settings

from games.models import GameRecord, GameResult
from games.poker.models import SoloGame
from games.poker.rules import JOKER, PokerGame
from tests.poker_web.helpers import login_client

pytestmark = pytest.mark.django_db

API = "/poker/api/games/"


def post(client, url, data):
    return client.post(url, json.dumps(data), content_type="application/json")


def start(client, **data):
    response = post(client, API, {"mode": "easy", **data})
    assert response.status_code == 201, response.content
    return response.json()["game"]


def test_starting_a_game_deals_one_card_and_never_sends_the_deck(client):
    login_client(client)
    game = start(client)
    assert game["hand"] is not None
    assert game["dealt"] == 1
    assert game["recorded"] is True
    assert "deck" not in game and "sequence" not in game
    stored = SoloGame.objects.get(pk=game["id"])
    assert len(stored.state["deck"]) == 53


def test_the_server_refuses_to_lead_without_saving_or_without_a_nickname(client):
    response = post(client, API, {"mode": "easy"})
    assert response.status_code == 403
    assert response.json()["code"] == "no_profile"
    login_client(client)
    client.cookies[settings.STORAGE_COOKIE_NAME] = "off"
    response = post(client, API, {"mode": "easy"})
    assert response.json()["code"] == "storage_off"
    assert SoloGame.objects.count() == 0


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"mode": "rated"}, "bad_mode"),
        ({"mode": "ranked"}, "bad_difficulty"),
        ({"mode": "hard", "seconds_per_card": 2}, "bad_seconds"),
        ({"mode": "hard", "seconds_per_card": 301}, "bad_seconds"),
        ({"mode": "hard"}, "bad_seconds"),
        ({"mode": "easy", "table": "vegas"}, "bad_table"),
    ],
)
def test_bad_settings_are_refused_with_a_stable_code(client, data, code):
    login_client(client)
    response = post(client, API, data)
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert response.json()["message"]
    assert SoloGame.objects.count() == 0


def test_malformed_json_is_refused(client):
    login_client(client)
    response = client.post(API, "{nope", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_json"


def _set_deck(game_id, deck, *, mode="easy", seconds=None, now=1000.0):
    """Replace a stored game by one with a known deck (tests only)."""
    engine = PokerGame.new(mode=mode, seconds_per_card=seconds, deck=deck, now=now)
    SoloGame.objects.filter(pk=game_id).update(state=engine.to_dict())


def test_a_full_easy_game_is_recorded_with_its_score(client):
    profile = login_client(client)
    game = start(client)
    _set_deck(game["id"], [JOKER, *([1, 2, 3, 4, 5] * 5), JOKER], now=10**9)
    url = f"{API}{game['id']}/actions/"
    response = post(client, url, {"type": "keep_joker"})
    assert response.json()["game"]["kept_jokers"] == 1
    for cell in range(24):
        response = post(client, url, {"type": "place", "cell": cell})
        assert response.status_code == 200, response.content
    assert not response.json()["game"]["over"]
    response = post(client, url, {"type": "place_kept_joker", "cell": 24, "value": 5})
    view = response.json()["game"]
    assert view["over"] and view["completed"]
    assert view["joker_cells"] == [24]
    result = GameResult.objects.get()
    assert result.player == profile
    assert result.score == view["score"]
    assert result.completed is True
    assert result.record.game == "poker" and result.record.mode == "easy"
    assert result.details["table"] == "contiguous"
    assert SoloGame.objects.get().record == result.record


def test_an_illegal_move_changes_nothing_and_returns_the_game(client):
    login_client(client)
    game = start(client)
    url = f"{API}{game['id']}/actions/"

    def move(view: dict, cell: int) -> dict:  # a joker in hand is placed as a 1
        if view["hand"] == JOKER:
            return {"type": "use_joker", "cell": cell, "value": 1}
        return {"type": "place", "cell": cell}

    placed = post(client, url, move(game, 3)).json()["game"]
    assert placed["cells"][3] is not None
    before = SoloGame.objects.get().state
    response = post(client, url, move(placed, 3))
    assert response.status_code == 409
    assert response.json()["code"] == "cell_taken"
    assert response.json()["game"]["cells"][3] == placed["cells"][3]
    assert SoloGame.objects.get().state == before
    response = post(client, url, {"type": "fly"})
    assert response.json()["code"] == "unknown_action"


def test_another_players_game_looks_absent(client):
    login_client(client)
    game = start(client)
    other = client.__class__()
    login_client(other, "Iný Hráč")
    response = post(other, f"{API}{game['id']}/actions/", {"type": "place", "cell": 0})
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert other.get(f"{API}{game['id']}/").status_code == 404
    assert other.get(f"{API}not-a-uuid/").status_code == 404


def test_hard_mode_forfeits_are_decided_by_the_server_clock(client):
    login_client(client)
    game = start(client, mode="hard", seconds_per_card=3)
    assert game["deadline"] is not None
    # The game was dealt long ago: every deadline has passed.
    _set_deck(game["id"], [5] * 30, mode="hard", seconds=3, now=1000.0)
    response = post(client, f"{API}{game['id']}/actions/", {"type": "advance"})
    view = response.json()["game"]
    assert view["over"] and not view["completed"]
    assert view["forfeited"] == 25
    result = GameResult.objects.get()
    assert result.completed is False and result.score == 0
    assert GameRecord.objects.get().mode == "hard"


def test_a_refused_action_still_keeps_what_time_decided(client):
    login_client(client)
    game = start(client, mode="hard", seconds_per_card=3)
    _set_deck(game["id"], [5] * 30, mode="hard", seconds=3, now=1000.0)
    response = post(client, f"{API}{game['id']}/actions/", {"type": "place", "cell": 0})
    assert response.status_code == 409
    assert response.json()["code"] == "game_over"
    assert SoloGame.objects.get().finished_at is not None
    assert GameResult.objects.count() == 1


def test_reading_a_game_shows_it_with_time_applied(client):
    login_client(client)
    game = start(client)
    response = client.get(f"{API}{game['id']}/")
    assert response.status_code == 200
    assert response.json()["game"]["cells"] == [None] * 25
    assert isinstance(response.json()["now"], float)
