"""The coach's game review (docs/poker-api.md, "Game review"): computed once and
stored, shareable, a day's daily numbers hidden from others until the day ends."""

import json

import pytest
from django.core.cache import cache
from django.utils import timezone

from games.poker import coach_review
from games.poker.models import SoloGame
from games.poker.rules import JOKER, daily_date, score_board, seeded_deck
from tests.poker_web.helpers import login_client

pytestmark = pytest.mark.django_db

API = "/poker/api/games/"


def post(client, url, data=None):
    return client.post(url, json.dumps(data or {}), content_type="application/json")


def play_to_end(client, **data):
    """Fill the first free cell with whatever comes (jokers as 7)."""
    game = post(client, API, {"mode": "easy", **data}).json()["game"]
    for _ in range(60):
        if game["over"]:
            return game
        free = game["cells"].index(None)
        if game["hand"] == JOKER:
            action = {"type": "use_joker", "cell": free, "value": 7}
        else:
            action = {"type": "place", "cell": free}
        response = post(client, f"{API}{game['id']}/actions/", action)
        assert response.status_code == 200, response.content
        game = response.json()["game"]
    raise AssertionError("the game did not end")


def test_the_review_replays_every_move_beside_the_coach_and_is_stored(client):
    login_client(client)
    game = play_to_end(client)
    stored = SoloGame.objects.get(pk=game["id"])
    assert len(stored.moves) == 25
    assert stored.review is None
    response = client.get(f"/poker/review/{game['id']}/")
    assert response.status_code == 200
    stored.refresh_from_db()
    review = stored.review
    assert review["score"] == game["score"]
    assert len(review["steps"]) == 25
    # The last step's board is the player's final board.
    assert review["steps"][-1]["cells"] == game["cells"]
    for step in review["steps"]:
        assert step["cost"] is None or step["cost"] >= 0
        if step["type"] == "place":
            before = (
                review["steps"][step["number"] - 2]["cells"] if step["number"] > 1 else [None] * 25
            )
            assert before[step["coach_cell"]] is None
    # "Your three costliest moves": the highest costs, in that order.
    costs = sorted((s["cost"] for s in review["steps"] if s["cost"]), reverse=True)[:3]
    assert [review["steps"][n - 1]["cost"] for n in review["costliest"]] == costs
    # The coach played the same numbers: a full board whose score is its own.
    assert None not in review["coach_cells"]
    assert review["coach_score"] == score_board(review["coach_cells"], game["table"]).total
    content = response.content.decode()
    assert str(review["coach_score"]) in content
    # Filling the first free cell is weak: the coach does better on the same numbers.
    assert review["coach_score"] > review["score"]


def test_the_review_link_is_shareable_but_only_for_finished_games(client):
    login_client(client)
    running = post(client, API, {"mode": "easy"}).json()["game"]
    assert client.get(f"/poker/review/{running['id']}/").status_code == 404
    finished = play_to_end(client)
    client.cookies.clear()
    assert client.get(f"/poker/review/{finished['id']}/").status_code == 200
    assert client.get("/poker/review/not-a-game/").status_code == 404


def test_todays_daily_review_is_the_players_only_and_the_coach_score_shows(client):
    cache.clear()
    login_client(client)
    game = play_to_end(client, mode="daily")
    assert client.get(f"/poker/review/{game['id']}/").status_code == 200
    page = client.get("/poker/daily/").content.decode()
    assert 'data-testid="coach-daily"' in page
    assert f"/poker/review/{game['id']}/" in page
    login_client(client, nickname="Iný Hráč")
    assert client.get(f"/poker/review/{game['id']}/").status_code == 404
    # After the day: everybody with the link.
    SoloGame.objects.filter(pk=game["id"]).update(day=daily_date(timezone.now()).replace(year=2020))
    assert client.get(f"/poker/review/{game['id']}/").status_code == 200


def test_the_coach_game_fills_the_board_with_the_decks_own_cards():
    deck = seeded_deck(20261201, "matematico")
    result = coach_review.coach_game(deck, "matematico")
    assert None not in result["cells"]
    placed = sorted(v for v in result["cells"])
    assert all(1 <= v <= 13 for v in placed)
    # Deterministic: the same deck, the same game.
    assert coach_review.coach_game(deck, "matematico") == result


def test_the_table_of_the_day_shows_the_coach_only_after_the_attempt(client):
    cache.clear()
    login_client(client)
    assert 'data-testid="coach-daily"' not in client.get("/poker/daily/table/").content.decode()
    game = play_to_end(client, mode="daily")
    # The finishing answer carried it too (the end dialog shows it).
    finished = client.get(f"{API}{game['id']}/").json()
    assert "daily" in finished
    page = client.get("/poker/daily/table/").content.decode()
    assert 'data-testid="coach-daily"' in page
    login_client(client, nickname="Iný Hráč")
    assert 'data-testid="coach-daily"' not in client.get("/poker/daily/table/").content.decode()
