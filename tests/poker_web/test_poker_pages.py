"""Poker pages render, speak the chosen language, and the PWA files are served."""

import pytest

from games.models import GameRecord, GameResult
from games.poker import selectors
from games.poker.presentation import LABELS
from games.poker.rules import TABLES
from tests.poker_web.helpers import login_client

pytestmark = pytest.mark.django_db

PAGES = [
    "/poker/",
    "/poker/play/",
    "/poker/scoresheet/",
    "/poker/picker/",
    "/poker/rules/",
    "/poker/rules/print/",
    "/poker/offline/",
]


@pytest.mark.parametrize("url", PAGES)
def test_every_poker_page_renders_without_inline_script_or_style(client, url):
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<script>" not in html and "style=" not in html and "onclick" not in html


def test_rules_page_shows_the_three_tables_side_by_side(client):
    html = client.get("/poker/rules/").content.decode()
    assert html.count('class="poker-score-table"') == 3
    for points in ("125", "75", "200", "+10"):
        assert points in html


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("cs", "Pravidla matematického pokeru"),
        ("sk", "Pravidlá matematického pokru"),
        ("en", "Rules of mathematical poker"),
    ],
)
def test_rules_text_comes_in_czech_slovak_and_english(client, language, heading):
    client.cookies["matika_lang"] = language
    assert heading in client.get("/poker/rules/").content.decode()


def test_printable_board_shows_the_chosen_table_only(client):
    html = client.get("/poker/rules/print/?table=school").content.decode()
    assert html.count('class="poker-score-table"') == 1
    assert 'data-table="school"' in html
    assert html.count('class="poker-cell"') == 25


def test_every_table_label_is_translatable():
    for table in TABLES.values():
        assert table.label in LABELS
        for row in table.rows:
            assert row.label in LABELS


def test_manifest_and_service_worker_are_served_under_poker(client):
    manifest = client.get("/poker/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["scope"] == "/poker/" and data["start_url"] == "/poker/"
    assert {icon["sizes"] for icon in data["icons"]} >= {"192x192", "512x512"}
    worker = client.get("/poker/sw.js")
    assert worker.status_code == 200
    assert worker["Content-Type"].startswith("text/javascript")
    body = worker.content.decode()
    for url in (
        "/poker/play/",
        "/poker/scoresheet/",
        "/poker/picker/",
        "/poker/rules/",
        "/static/poker/game.js",
        "/static/poker/poker.css",
    ):
        assert f'"{url}"' in body
    assert "/api/" in body  # the API is explicitly left to the network


def test_every_file_the_service_worker_caches_exists(client):
    import json
    import re

    from django.contrib.staticfiles import finders

    body = client.get("/poker/sw.js").content.decode()
    assets = re.search(r"const ASSETS = (\[.*?\]);", body).group(1)
    static_paths = [a for a in json.loads(assets) if a.startswith("/static/")]
    assert static_paths
    for path in static_paths:
        assert finders.find(path.removeprefix("/static/")), path


def test_stats_count_incomplete_hard_boards_for_best_score_only():
    from django.test import Client

    profile = login_client(Client())

    def result(mode, score, completed, duration):
        record = GameRecord.objects.create(game="poker", mode=mode)
        GameResult.objects.create(
            record=record,
            player=profile,
            score=score,
            completed=completed,
            details={"duration_s": duration},
        )

    result("easy", 120, True, 300.5)
    result("hard", 200, False, 50.0)
    result("hard", 90, True, 120.0)
    stats = selectors.player_stats(player=profile)
    assert stats["best"] == 200
    assert stats["easy_record"] == 120
    assert stats["hard_record"] == 200
    assert stats["completed"] == 2
    assert stats["fastest_s"] == 120.0


def test_the_hub_shows_the_players_records(client):
    login_client(client)
    html = client.get("/poker/").content.decode()
    assert 'data-testid="poker-stats"' in html


def test_home_page_links_to_poker(client):
    html = client.get("/").content.decode()
    assert 'href="/poker/"' in html


def test_manifest_answers_head_requests_for_the_connection_probe(client):
    assert client.head("/poker/manifest.webmanifest").status_code == 200
