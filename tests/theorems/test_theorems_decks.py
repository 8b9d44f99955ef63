"""The deck builder: saving through the engine's validation, statistics, starter decks, pages."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.core import signing
from django.utils.html import escape

from accounts import identity
from accounts import services as accounts_services
from games.rooms.models import Room, Seat
from games.theorems import presentation, selectors, services
from games.theorems.errors import TheoremsError
from games.theorems.models import SavedDeck
from games.theorems.rules import CATALOGUE, STARTER_DECKS, new_game

GEOMETERS, NUMBER_THEORISTS = STARTER_DECKS
pytestmark = pytest.mark.django_db


@pytest.fixture
def player():
    profile, _token = accounts_services.create_profile(browser_token=None, nickname="Hypatia")
    return profile


@pytest.fixture
def player_client(client):
    profile, token = accounts_services.create_profile(browser_token=None, nickname="Noether")
    client.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(token, salt=identity.SALT)
    client.profile = profile
    return client


def test_a_valid_deck_is_saved_for_its_player(player):
    deck = services.save_deck(
        player=player, name="  My   geometry ", mathematician="euclid", cards=list(GEOMETERS.deck)
    )
    assert deck.name == "My geometry"
    assert list(selectors.decks_for(player)) == [deck]
    assert deck.cards == list(GEOMETERS.deck)


@pytest.mark.parametrize(
    ("mathematician", "cards", "code"),
    [
        ("euclid", list(GEOMETERS.deck[:9]), "deck_too_small"),
        (
            "euclid",
            [c.id for c in CATALOGUE.values() if c.kind == "theorem"][:21],
            "deck_too_large",
        ),
        ("euclid", [*GEOMETERS.deck[:10], GEOMETERS.deck[0]], "duplicate_card"),
        ("euclid", [*GEOMETERS.deck, "nonsense"], "unknown_card"),
        ("euclid", [*GEOMETERS.deck, "gauss"], "mathematician_in_deck"),
        ("pythagoras", list(GEOMETERS.deck), "not_a_mathematician"),
        ("", list(GEOMETERS.deck), "not_a_mathematician"),
    ],
)
def test_an_invalid_deck_is_refused_with_a_code_and_nothing_is_saved(
    player, mathematician, cards, code
):
    with pytest.raises(TheoremsError) as refused:
        services.save_deck(player=player, name="Bad", mathematician=mathematician, cards=cards)
    assert refused.value.code == code
    assert refused.value.message
    assert not SavedDeck.objects.exists()


def test_a_deck_needs_a_name(player):
    with pytest.raises(TheoremsError) as refused:
        services.save_deck(player=player, name="  ", mathematician="euclid", cards=GEOMETERS.deck)
    assert refused.value.code == "bad_deck_name"


def test_a_player_can_edit_and_delete_only_their_own_decks(player):
    other, _token = accounts_services.create_profile(browser_token=None, nickname="Germain")
    deck = services.save_deck(
        player=player, name="Mine", mathematician="euclid", cards=list(GEOMETERS.deck)
    )
    with pytest.raises(TheoremsError) as refused:
        services.save_deck(
            player=other,
            name="Hijack",
            mathematician="gauss",
            cards=NUMBER_THEORISTS.deck,
            deck_id=deck.pk,
        )
    assert refused.value.code == "unknown_deck"
    with pytest.raises(TheoremsError):
        services.delete_deck(player=other, deck_id=deck.pk)
    edited = services.save_deck(
        player=player,
        name="Numbers",
        mathematician="gauss",
        cards=list(NUMBER_THEORISTS.deck),
        deck_id=deck.pk,
    )
    assert (edited.pk, edited.mathematician) == (deck.pk, "gauss")
    services.delete_deck(player=player, deck_id=deck.pk)
    assert not SavedDeck.objects.exists()


def test_statistics_count_kinds_fields_and_the_difficulty_curve():
    cards = ["pythagoras", "ceva", "euler_polyhedron", "riemann_hypothesis", "coffee", "computer"]
    stats = selectors.deck_statistics("euclid", cards)
    assert stats["count"] == 6
    assert stats["kinds"] == {"theorem": 4, "event": 1, "tool": 1, "definition": 0}
    assert stats["fields"] == {
        "algebra": 0,
        "number_theory": 1,
        "geometry": 3,
        "analysis": 1,
        "combinatorics": 1,
    }
    printed = {row["difficulty"]: row["count"] for row in stats["difficulty_curve"]}
    assert printed == {1: 0, 2: 1, 3: 1, 4: 1, 5: 0, 6: 1}
    # Eukleidés (geometry): each geometry theorem is one easier for him, the rest not
    effective = {row["difficulty"]: row["count"] for row in stats["effective_curve"]}
    assert effective == {1: 1, 2: 1, 3: 1, 4: 0, 5: 0, 6: 1}
    assert stats["average_difficulty"] == 3.75


def test_statistics_of_an_empty_deck_are_zero():
    stats = selectors.deck_statistics(None, [])
    assert stats["count"] == 0 and stats["theorems"] == 0 and stats["average_difficulty"] is None


def test_the_two_starter_decks_are_valid_and_ready_to_play(player):
    assert len(STARTER_DECKS) == 2
    for deck in STARTER_DECKS:
        services.save_deck(
            player=player, name=deck.id, mathematician=deck.mathematician, cards=deck.deck
        )
    game = new_game([d.player() for d in STARTER_DECKS], seed=7)
    assert game.status == "running"
    assert {d["id"] for d in presentation.starter_decks("en")} == {"geometers", "number_theorists"}


def test_every_card_has_a_name_and_words_for_its_effects_in_every_language():
    from django.utils import translation

    for lang in ("cs", "sk", "en"):
        with translation.override(lang):
            cards = presentation.catalogue_cards()
        assert len(cards) == len(CATALOGUE) == 68
        for card in cards:
            assert card["name"]
            if CATALOGUE[card["id"]].effects:
                assert card["text"] and all(line for line in card["text"])


def test_the_builder_page_saves_a_deck_from_the_form(player_client):
    page = player_client.get("/theorems/decks/new/?from=geometers")
    assert page.status_code == 200
    assert b'value="pythagoras" checked' in page.content
    response = player_client.post(
        "/theorems/decks/new/",
        {"name": "Circles", "mathematician": "hypatia", "cards": list(GEOMETERS.deck)},
    )
    assert response.status_code == 302
    deck = SavedDeck.objects.get()
    assert (deck.player, deck.name, deck.mathematician) == (
        player_client.profile,
        "Circles",
        "hypatia",
    )
    assert player_client.get(f"/theorems/decks/{deck.pk}/").status_code == 200


def test_the_builder_page_refuses_an_invalid_deck_and_keeps_the_choice(player_client):
    response = player_client.post(
        "/theorems/decks/new/",
        {"name": "Tiny", "mathematician": "hypatia", "cards": ["pythagoras", "thales"]},
    )
    assert response.status_code == 400
    assert b'data-error-code="deck_too_small"' in response.content
    assert b'value="thales" checked' in response.content
    assert not SavedDeck.objects.exists()


def test_another_players_deck_page_is_not_found(player_client, player):
    deck = services.save_deck(
        player=player, name="Secret", mathematician="euclid", cards=list(GEOMETERS.deck)
    )
    assert player_client.get(f"/theorems/decks/{deck.pk}/").status_code == 404
    player_client.post(f"/theorems/decks/{deck.pk}/delete/")
    assert SavedDeck.objects.filter(pk=deck.pk).exists()


def test_the_check_endpoint_gives_statistics_and_the_rules_verdict(client):
    answer = client.post(
        "/theorems/decks/check/",
        json.dumps({"mathematician": "euclid", "cards": ["pythagoras", "ceva"]}),
        content_type="application/json",
    ).json()
    assert answer["ok"] is False
    assert answer["error"]["code"] == "deck_too_small"
    assert "data-deck-stats" in answer["html"]
    answer = client.post(
        "/theorems/decks/check/",
        json.dumps({"mathematician": "euclid", "cards": list(GEOMETERS.deck)}),
        content_type="application/json",
    ).json()
    assert answer == {"ok": True, "error": None, "html": answer["html"]}
    assert (
        client.post("/theorems/decks/check/", "[", content_type="application/json").status_code
        == 400
    )


def test_opening_a_table_creates_a_room_with_the_host_seated(player_client):
    response = player_client.post("/theorems/tables/new/", {"table_size": "3"})
    room = Room.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/rooms/{room.code}/"
    assert (room.game, room.mode, room.settings["table_size"]) == ("theorems", "table", 3)
    assert Seat.objects.get(room=room).player == player_client.profile
    page = player_client.get(f"/rooms/{room.code}/")
    assert b"theorems-data" in page.content and b"theorems/table.js" in page.content


def test_a_bad_table_size_opens_nothing(player_client):
    player_client.post("/theorems/tables/new/", {"table_size": "9"})
    assert not Room.objects.exists()


def test_a_newcomer_opens_a_table_with_a_nickname(client):
    response = client.post("/theorems/tables/new/", {"table_size": "2", "nickname": "Ada"})
    assert response.status_code == 302
    assert Room.objects.get().host.nickname == "Ada"


@pytest.mark.parametrize("lang", ["cs", "sk", "en"])
def test_the_hub_and_the_rules_page_with_every_card_render_in_each_language(client, lang):
    from games.theorems.rules import CATALOGUE as cards

    client.cookies["matika_lang"] = lang
    assert client.get("/theorems/", headers={"accept-language": lang}).status_code == 200
    page = client.get("/theorems/rules/", headers={"accept-language": lang})
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count('class="th-gallery-item"') == 68
    assert escape(cards["lagrange_theorem"].name(lang)) in text


def test_a_newcomer_with_an_invalid_deck_or_table_gets_no_profile(client):
    from accounts.models import PlayerProfile

    client.post(
        "/theorems/decks/new/",
        {"name": "Tiny", "mathematician": "euclid", "cards": ["pythagoras"], "nickname": "Eve"},
    )
    client.post("/theorems/tables/new/", {"table_size": "7", "nickname": "Eve"})
    assert not PlayerProfile.objects.filter(nickname="Eve").exists()


def test_a_newcomer_saves_a_deck_with_a_nickname(client):
    response = client.post(
        "/theorems/decks/new/",
        {
            "name": "First",
            "mathematician": "gauss",
            "cards": list(NUMBER_THEORISTS.deck),
            "nickname": "Emmy N",
        },
    )
    assert response.status_code == 302
    assert SavedDeck.objects.get().player.nickname == "Emmy N"
    assert settings.PLAYER_COOKIE_NAME in response.cookies
