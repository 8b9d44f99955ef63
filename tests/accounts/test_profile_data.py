"""Consent, stats, export, reset and delete of a player's profile (spec platform §4–5)."""

import csv
import io
import json
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts import consent, selectors, services
from accounts.models import Browser, PlayerProfile, PublicationConsent
from classrooms.models import Classroom, Membership
from games.models import GameRecord, GameResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def player_client(client):
    client.post("/accounts/player/new/", {"nickname": "Tichá Sova"})
    return client, PlayerProfile.objects.get(nickname="Tichá Sova")


def _result(player, *, mode="easy", score=100, completed=True, classroom=None, **details):
    record = GameRecord.objects.create(game="poker", mode=mode, classroom=classroom)
    return GameResult.objects.create(
        record=record, player=player, score=score, completed=completed, details=details
    )


def test_consent_is_stored_with_text_version_language_and_time(player_client):
    client, player = player_client
    client.post("/accounts/player/consent/", {"consent": "yes", "age": "yes"})
    answer = PublicationConsent.objects.get()
    assert answer.granted is True
    assert answer.text_version == consent.VERSION
    assert answer.language == "en"
    assert answer.text.startswith("May Matika show your nickname")
    assert answer.created_at <= timezone.now()
    assert selectors.has_publication_consent(player)


def test_without_an_answer_nothing_may_be_published(player_client):
    _, player = player_client
    assert selectors.current_consent(player) is None
    assert not selectors.has_publication_consent(player)
    assert not selectors.has_publication_consent(None)


def test_withdrawing_consent_tells_public_tables_at_once(player_client, monkeypatch):
    from core import registry as game_registry

    client, player = player_client
    heard = []
    monkeypatch.setattr(game_registry, "withdraw_public_data", heard.extend)
    client.post("/accounts/player/consent/", {"consent": "yes", "age": "yes"})
    assert heard == []
    client.post("/accounts/player/consent/", {"consent": "no"})
    assert heard == [player.pk]
    assert not selectors.has_publication_consent(player)
    assert PublicationConsent.objects.count() == 2


def test_a_bad_consent_answer_changes_nothing(player_client):
    client, _ = player_client
    client.post("/accounts/player/consent/", {"consent": "maybe"})
    assert not PublicationConsent.objects.exists()


def test_stats_follow_the_spec(player_client):
    _, player = player_client
    today = timezone.localdate()
    _result(player, mode="easy", score=150, duration_s=300)
    _result(player, mode="easy", score=180, duration_s=240)
    _result(player, mode="hard", score=210, completed=False, duration_s=100)
    _result(player, mode="hard", score=120, duration_s=200)
    _result(player, mode="group", score=90, duration_s=50)
    _result(player, mode="duel", score=99, outcome="win")
    _result(player, mode="duel", score=80, outcome="loss")
    for days_ago in (0, 1, 2, 4):
        _result(player, mode="daily", score=100, day=(today - timedelta(days=days_ago)).isoformat())
    stats = selectors.player_stats(player)["poker"]
    assert stats["best"] == 210  # an unfinished board still counts for the best score
    assert stats["easy_record"] == 180
    assert stats["hard_record"] == 210
    assert stats["completed"] == 10  # the unfinished hard board does not count
    assert stats["fastest_s"] == 200  # not the unfinished one, not the group game
    assert stats["daily_streak"] == 3  # broken by the missed day
    assert stats["duel"] == {"win": 1, "loss": 1, "draw": 0}


def test_profile_page_shows_stats(player_client):
    client, player = player_client
    _result(player, score=177)
    html = client.get("/accounts/player/").content.decode()
    assert 'data-testid="best-score">177<' in html


def test_export_contains_everything_stored(player_client):
    client, player = player_client
    teacher = _teacher()
    classroom = Classroom.objects.create(name="7.B", teacher=teacher, join_code="ABC234")
    Membership.objects.create(classroom=classroom, player=player, roster_name="Jana K.")
    client.post("/accounts/player/consent/", {"consent": "yes", "age": "yes"})
    _result(player, score=123, board=[1] * 25, duration_s=99)
    data = json.loads(client.get("/accounts/player/export.json").content)
    assert data["profile"]["nickname"] == "Tichá Sova"
    assert data["profile"]["profile_code"] == player.code
    assert data["consents"][0]["granted"] is True
    assert data["classes"] == [
        {
            "class": "7.B",
            "roster_name": "Jana K.",
            "status": "approved",
            "joined_at": data["classes"][0]["joined_at"],
        }
    ]
    assert data["results"][0]["score"] == 123
    assert data["results"][0]["details"] == {"board": [1] * 25, "duration_s": 99}
    csv_text = client.get("/accounts/player/export.csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(csv_text)))
    assert rows[0] == ["section", "time", "field", "value"]
    assert ["profile", rows[1][1], "nickname", "Tichá Sova"] in rows
    assert any(row[0] == "results[0]" and row[2:] == ["score", "123"] for row in rows)
    assert any(row[0] == "classes[0]" and row[2:] == ["roster_name", "Jana K."] for row in rows)


def test_export_needs_a_profile(client):
    response = client.get("/accounts/player/export.json")
    assert response.status_code == 302
    assert client.get("/accounts/player/export.xml").status_code == 404


def test_reset_detaches_results_but_class_reports_keep_them(player_client):
    client, player = player_client
    _result(player, score=150)
    client.post("/accounts/player/reset/")
    assert selectors.player_stats(player)["games"] == {}
    assert GameResult.objects.filter(player=None, score=150).exists()


def _teacher():
    from accounts.models import User

    return User.objects.create_user("teacher@skola.cz", "Heslo-ucitele-1")


def test_delete_leaves_no_personal_data(player_client):
    client, player = player_client
    classroom = Classroom.objects.create(name="8.A", teacher=_teacher(), join_code="XYZ234")
    Membership.objects.create(classroom=classroom, player=player, roster_name="Petr Novák")
    client.post("/accounts/player/consent/", {"consent": "yes", "age": "yes"})
    _result(player, score=111, classroom=classroom)
    response = client.post("/accounts/player/delete/")
    assert response.status_code == 302
    assert not PlayerProfile.objects.exists()
    assert not PublicationConsent.objects.exists()
    assert not Membership.objects.exists()
    assert Browser.objects.get().selected is None
    kept = GameResult.objects.get()
    assert kept.player is None and kept.score == 111 and kept.record.classroom == classroom
    with connection.cursor() as cursor:
        for table in ("accounts_playerprofile", "classrooms_membership", "games_gameresult"):
            cursor.execute(f"SELECT * FROM {table}")
            dump = json.dumps(cursor.fetchall(), default=str)
            assert "Tichá Sova" not in dump and "Petr Novák" not in dump
            assert player.code not in dump
    assert client.get("/accounts/player/").context["player"] is None


def test_services_refuse_nothing_silently_for_other_players(player_client):
    _, player = player_client
    other, _ = services.create_profile(browser_token=None, nickname="Iný Hráč")
    _result(other, score=50)
    services.reset_stats(player=player)
    assert GameResult.objects.get().player == other


def test_admin_can_hide_and_ban_nicknames(player_client, django_user_model):
    client, player = player_client
    from django.test import Client

    admin_client = Client()
    admin_client.force_login(django_user_model.objects.create_superuser("a@b.cz", "Admin-heslo-1"))
    url = "/admin/accounts/playerprofile/"
    admin_client.post(url, {"action": "hide_nicknames", "_selected_action": [player.pk]})
    player.refresh_from_db()
    assert player.nickname_hidden and player.display_name != "Tichá Sova"
    admin_client.post(url, {"action": "ban_profiles", "_selected_action": [player.pk]})
    player.refresh_from_db()
    assert player.is_active is False
    assert client.get("/accounts/player/").context["player"] is None


def test_consent_answered_from_the_game_dialog_gets_json_and_no_flash_message(player_client):
    client, player = player_client
    response = client.post(
        "/accounts/player/consent/",
        {"consent": "yes", "age": "yes"},
        headers={"accept": "application/json"},
    )
    assert response.json() == {"consent": True}
    assert selectors.has_publication_consent(player)
    page = client.get("/accounts/player/")
    assert "Thank you" not in page.content.decode()
    bad = client.post(
        "/accounts/player/consent/", {"consent": "perhaps"}, headers={"accept": "application/json"}
    )
    assert bad.status_code == 400
    assert bad.json()["code"] == "bad_answer"
    assert PublicationConsent.objects.count() == 1


def test_export_includes_rows_other_apps_keep_but_never_game_secrets(player_client):
    from games.theorems.models import SavedDeck
    from games.theorems.rules import STARTER_DECKS

    client, player = player_client
    starter = STARTER_DECKS[0]
    SavedDeck.objects.create(
        player=player,
        name="Moje geometrie",
        mathematician=starter.mathematician,
        cards=list(starter.deck),
    )
    data = json.loads(client.get("/accounts/player/export.json").content)
    decks = data["other"]["theorems.SavedDeck.player"]
    assert decks[0]["name"] == "Moje geometrie"
    assert "player_id" not in decks[0]
    dump = json.dumps(data)
    for secret in ("token_hash", '"state"', "rng_seed"):
        assert secret not in dump
    csv_text = client.get("/accounts/player/export.csv").content.decode()
    assert "theorems.SavedDeck.player[0]" in csv_text and "Moje geometrie" in csv_text
