"""Pages and API of ranked and daily games (server-side rendering, no browser)."""

import json
from datetime import date

import pytest
from django.conf import settings
from django.utils import timezone

from accounts import consent
from games.poker import selectors
from games.poker.models import DailyAttempt
from games.poker.rules import daily_date
from tests.leaderboards.helpers import finish, play_ranked, player
from tests.poker_web.helpers import login_client

pytestmark = pytest.mark.django_db
API = "/poker/api/games/"


def post(client, data):
    return client.post(API, json.dumps(data), content_type="application/json")


def test_ranked_page_asks_for_consent_with_the_exact_text(client):
    login_client(client)
    html = client.get("/poker/ranked/").content.decode()
    assert 'data-kind="ranked"' in html and 'data-consent="unknown"' in html
    assert consent.question() in html
    client.post("/accounts/player/consent/", {"consent": "no"})
    assert 'data-consent="no"' in client.get("/poker/ranked/").content.decode()


def test_ranked_and_daily_explain_that_they_need_saving(client):
    login_client(client)
    client.cookies[settings.STORAGE_COOKIE_NAME] = "off"
    for url in ("/poker/ranked/", "/poker/daily/"):
        html = client.get(url).content.decode()
        assert 'data-testid="needs-saving"' in html
        assert 'id="poker-start"' not in html and 'id="poker-start-daily"' not in html
    assert post(client, {"mode": "daily"}).json()["code"] == "storage_off"


def test_the_api_starts_a_ranked_game_without_preview_data(client):
    login_client(client)
    response = post(client, {"mode": "ranked", "difficulty": "hard", "seconds_per_card": 20})
    assert response.status_code == 201
    game = response.json()["game"]
    assert game["kind"] == "ranked" and game["mode"] == "hard" and game["preview"] is False
    assert "deck" not in game


def test_the_api_refuses_a_second_daily_attempt_and_tells_the_share_data(client):
    profile = login_client(client)
    client.post("/accounts/player/consent/", {"consent": "yes", "age": "yes"})
    first = post(client, {"mode": "daily"})
    assert first.status_code == 201
    game = first.json()["game"]
    assert game["kind"] == "daily" and game["day_record"] is None
    second = post(client, {"mode": "daily"})
    assert second.status_code == 409
    assert second.json() == {
        "code": "daily_used",
        "message": second.json()["message"],
        "game_id": game["id"],
    }
    stored = selectors.solo_game(game_id=game["id"], player=profile)
    finish(stored, now=timezone.now().timestamp())
    read = client.get(f"{API}{game['id']}/").json()
    assert read["daily"]["rank"] == 1 and read["daily"]["streak"] == 1
    assert read["game"]["published"] is True
    html = client.get("/poker/daily/").content.decode()
    assert 'data-testid="daily-done"' in html and 'id="poker-replay"' in html
    assert "Record of the day" in html
    replay = post(client, {"mode": "daily", "replay": True})
    assert replay.status_code == 201 and replay.json()["game"]["recorded"] is False
    assert DailyAttempt.objects.count() == 1


def test_leaderboard_and_daily_table_pages_show_only_public_fields(client):
    ada = player("Ada")
    play_ranked(ada, start=timezone.now().timestamp() - 100)
    html = client.get("/poker/leaderboard/?period=day").content.decode()
    assert "Ada" in html and ada.code not in html
    assert client.get("/poker/leaderboard/?period=nonsense").status_code == 200
    today = daily_date(timezone.now())
    assert client.get(f"/poker/daily/table/?day={today.isoformat()}").status_code == 200
    assert client.get("/poker/daily/table/?day=2999-01-01").status_code == 404
    assert client.get("/poker/daily/table/?day=bad").status_code == 404
    assert client.get(f"/poker/daily/table/?day={date(2026, 1, 1).isoformat()}").status_code == 200
