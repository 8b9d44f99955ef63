"""One counted daily attempt per browser and per profile (issue 27 §2).

The attack: a second profile in the same browser played today's deck first and
saw every number, then the real profile played it for the table of the day.
Now the browser's attempt is used whichever of its profiles played it, and
today's deck is shown again (review, replay) only to the profile that made the
attempt, or to anyone once the day is over. Everything goes through HTTP, as
the browser does.
"""

from __future__ import annotations

import json
from datetime import timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Browser
from games.poker.models import DailyAttempt, SoloGame
from games.poker.rules import JOKER
from tests.poker_web.helpers import player_cookie

pytestmark = pytest.mark.django_db

API = "/poker/api/games/"


def post(client, url, data=None):
    return client.post(url, json.dumps(data or {}), content_type="application/json")


def browser_with(nickname: str) -> Client:
    client = Client(headers={"accept-language": "en"})
    _profile, cookie = player_cookie(nickname)
    client.cookies[settings.PLAYER_COOKIE_NAME] = cookie
    return client


def new_profile(client: Client, nickname: str) -> None:
    """The profile page's "new nickname" form: the new profile is selected."""
    response = client.post(reverse("accounts:create_profile"), {"nickname": nickname})
    assert response.status_code == 302, response.status_code


def play_through(client: Client, game: dict) -> dict:
    """Fill the board in order (a joker is used at once as 13)."""
    while not game["over"]:
        cell = game["cells"].index(None)
        if game["hand"] == JOKER:
            action = {"type": "use_joker", "cell": cell, "value": 13}
        else:
            action = {"type": "place", "cell": cell}
        answer = post(client, f"{API}{game['id']}/actions/", action)
        assert answer.status_code == 200, answer.content
        game = answer.json()["game"]
    return game


def test_a_second_profile_in_the_browser_cannot_play_the_day_after_the_first():
    client = browser_with("Scout")
    scout = post(client, API, {"mode": "daily"})
    assert scout.status_code == 201
    scout_game = play_through(client, scout.json()["game"])
    # The "real" profile is created in the same browser and selected.
    new_profile(client, "Real")
    refused = post(client, API, {"mode": "daily"})
    assert refused.status_code == 409
    assert refused.json()["code"] == "daily_used_in_browser"
    assert refused.json()["message"]
    assert not DailyAttempt.objects.filter(player__nickname="Real").exists()
    assert SoloGame.objects.filter(player__nickname="Real").count() == 0
    # No replay either (it needs the profile's own attempt) ...
    replay = post(client, API, {"mode": "daily", "replay": True})
    assert replay.status_code == 409
    assert replay.json()["code"] == "daily_not_played"
    # ... and the page says why instead of offering a start.
    page = client.get(reverse("poker:daily")).content.decode()
    assert 'data-testid="daily-used-in-browser"' in page
    assert 'data-testid="start-daily"' not in page
    # The scout's game and review stay the scout's while the day lasts.
    assert client.get(f"{API}{scout_game['id']}/").status_code == 404
    review = reverse("poker:review", args=[scout_game["id"]])
    assert client.get(review).status_code == 404
    # Once the day is over the deck is no secret: anyone may see the review.
    tomorrow = timezone.now() + timedelta(days=1)
    with mock.patch("django.utils.timezone.now", return_value=tomorrow):
        assert client.get(review).status_code == 200


def test_the_refusal_holds_while_the_first_attempt_is_unfinished_and_after_switching_back():
    client = browser_with("First")
    first = post(client, API, {"mode": "daily"}).json()["game"]
    browser = Browser.objects.get(selected__nickname="First")
    new_profile(client, "Second")
    assert post(client, API, {"mode": "daily"}).json()["code"] == "daily_used_in_browser"
    # The first profile continues its own attempt as before.
    first_profile = browser.profiles.get(nickname="First")
    client.post(reverse("accounts:switch_profile"), {"profile": first_profile.pk})
    again = post(client, API, {"mode": "daily"})
    assert again.status_code == 409
    assert again.json()["code"] == "daily_used"
    assert again.json()["game_id"] == first["id"]
    assert DailyAttempt.objects.filter(browser=browser).count() == 1


def test_one_attempt_per_profile_also_from_another_browser():
    client = browser_with("Traveller")
    game = play_through(client, post(client, API, {"mode": "daily"}).json()["game"])
    code = SoloGame.objects.get(pk=game["id"]).player.code
    phone = Client(headers={"accept-language": "en"})
    continued = phone.post(reverse("accounts:continue_profile"), {"code": code})
    assert continued.status_code == 302
    refused = post(phone, API, {"mode": "daily"})
    assert refused.status_code == 409
    assert refused.json()["code"] == "daily_used"
    # The profile's own finished attempt may be replayed (not recorded) anywhere.
    replay = post(phone, API, {"mode": "daily", "replay": True})
    assert replay.status_code == 201
    assert replay.json()["game"]["recorded"] is False


def test_another_browser_on_the_same_computer_plays_its_own_attempt():
    first, second = browser_with("Desk1"), browser_with("Desk2")
    assert post(first, API, {"mode": "daily"}).status_code == 201
    assert post(second, API, {"mode": "daily"}).status_code == 201
    assert DailyAttempt.objects.count() == 2
