"""Mathesso pages: the hub, opening a table or solo practice, rules per variant, catalogue."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from core import registry as game_registry
from games.mathesso.rules import VARIANT_NAMES, catalogue
from games.models import GameRecord
from games.rooms import services as room_services
from games.rooms.models import Room

pytestmark = pytest.mark.django_db


def open_form(client, mode: str, **fields):
    prefix = "solo" if mode == "solo" else "table"
    data = {f"{prefix}-{k}": v for k, v in fields.items()}
    url = reverse("mathesso:create_solo" if mode == "solo" else "mathesso:create_table")
    return client.post(url, data)


def test_the_home_page_links_to_mathesso_as_playable(client):
    (info,) = [g for g in game_registry.games() if g.slug == "mathesso"]
    assert info.ready
    assert reverse("mathesso:index") in client.get("/").content.decode()


def test_the_hub_offers_a_table_solo_practice_and_every_rules_page(client):
    page = client.get(reverse("mathesso:index")).content.decode()
    assert 'data-testid="open-table"' in page and 'data-testid="start-solo"' in page
    for variant in VARIANT_NAMES:
        assert reverse("mathesso:rules", args=[variant]) in page


def test_opening_a_table_creates_a_lobby_with_the_settings_and_a_new_profile(client):
    response = open_form(
        client,
        "table",
        variant="mikro",
        extensions=["cjv", "factorial"],
        points="default",
        nickname="Tileseeker",
    )
    assert response.status_code == 302
    room = Room.objects.get()
    assert response["Location"] == reverse("rooms:room", args=[room.code])
    assert (room.game, room.mode, room.status) == ("mathesso", "table", "lobby")
    assert room.settings == {"variant": "mikro", "extensions": ["factorial", "cjv"], "points": True}
    assert room.host.nickname == "Tileseeker"
    page = client.get(response["Location"]).content.decode()
    assert "mathesso/board.js" in page and "data-mathesso" in page


def test_points_can_be_switched_on_for_atto(client):
    open_form(client, "table", variant="atto", points="on", nickname="Small")
    assert Room.objects.get().settings["points"] is True


def test_an_extension_too_big_for_the_variant_is_refused_with_the_form_again(client):
    response = open_form(client, "table", variant="atto", extensions=["cjv"], nickname="X1")
    assert response.status_code == 400
    assert "This extension cannot be played with this variant." in response.content.decode()
    assert not Room.objects.exists()


def test_solo_practice_starts_at_once(client):
    response = open_form(client, "solo", variant="atto", nickname="Alone")
    room = Room.objects.get()
    assert response["Location"] == reverse("rooms:room", args=[room.code])
    assert (room.mode, room.status) == ("solo", "running")
    assert room.state["phase"] == "play"


def test_the_room_page_never_contains_a_face_of_the_running_game(client):
    open_form(client, "table", variant="pico", nickname="Hosting")
    room = Room.objects.get()
    room_services.start_room(room=room, actor=room.host)
    page = client.get(reverse("rooms:room", args=[room.code])).content.decode()
    assert not re.search(r"\b(mult|square|prime|fib|fact|zero|cjv):", page)
    assert "seed" not in page


def test_a_host_ending_a_table_writes_an_unfinished_record(client):
    open_form(client, "table", variant="atto", nickname="Ender")
    room = Room.objects.get()
    room_services.start_room(room=room, actor=room.host)
    room_services.end_room(room=room, actor=room.host)
    record = GameRecord.objects.get()
    (result,) = record.results.all()
    assert (record.game, record.mode) == ("mathesso", "table")
    assert result.completed is False and result.details["variant"] == "atto"


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_each_variant_has_a_rules_page_showing_every_tile(client, variant):
    page = client.get(reverse("mathesso:rules", args=[variant])).content.decode()
    faces = catalogue(variant)["faces"]
    for face_id in faces:
        assert f'data-face="{face_id}"' in page
    assert f"{len(faces)} pairs ({2 * len(faces)} tiles)" in page
    assert "style=" not in page


def test_the_rules_page_draws_the_two_black_twelves_differently(client):
    # Seed 000: „Následující černé kartičky 12 jsou různé, nejedná se tedy o pár".
    page = client.get(reverse("mathesso:rules", args=["pico"])).content.decode()

    def pair_svg(face_id: str) -> str:
        item = re.search(rf'data-face="{face_id}">(.*?)</li>', page, re.S).group(1)
        return re.sub(r'id="[^"]*"|url\(#[^)]*\)|aria-label="[^"]*"', "", item)

    assert pair_svg("zero:12a").count('class="mt-dot"') == 2  # one dot on each tile
    assert pair_svg("zero:12b").count('class="mt-dot"') == 4
    assert pair_svg("zero:12a") != pair_svg("zero:12b")


def test_the_rules_page_computes_the_seeds_scoring_examples(client):
    page = client.get(reverse("mathesso:rules", args=["standart"])).content.decode()
    scores = re.findall(r'data-testid="scoring-example">.*?<strong>(\d+)</strong>', page, re.S)
    assert scores == ["8", "10", "4", "12"]


def test_an_unknown_variant_has_no_rules_page(client):
    assert client.get("/mathesso/rules/giga/").status_code == 404


@pytest.mark.parametrize(("language", "title"), [("cs", "Pravidla"), ("sk", "Pravidlá")])
def test_the_rules_page_speaks_czech_and_slovak(client, language, title):
    client.cookies["matika_lang"] = language
    response = client.get(
        reverse("mathesso:rules", args=["pico"]), headers={"accept-language": language}
    )
    assert response.status_code == 200
    assert response.headers["Content-Language"] == language


def test_the_catalogue_names_groups_and_colours_in_the_page_language(client):
    data = client.get(reverse("mathesso:catalogue")).json()
    assert {g["name"]: g["label"] for g in data["groups"]}["mult"] == ("small multiplication table")
    assert data["ruler"][6]["label"] == "light blue"
    assert "mult:3x7" in data["faces"]


def test_the_host_changes_the_variant_in_the_lobby(client):
    open_form(client, "table", variant="pico", nickname="Changer")
    room = Room.objects.get()
    page = client.get(reverse("rooms:room", args=[room.code])).content.decode()
    assert 'data-testid="change-settings"' in page
    response = client.post(
        reverse("mathesso:change_settings", args=[room.code]),
        {"lobby-variant": "atto", "lobby-points": "default"},
    )
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.settings == {"variant": "atto", "extensions": [], "points": False}


def test_only_the_host_may_change_the_settings_and_only_before_the_start(client):
    from accounts import services as accounts_services
    from games.mathesso import services

    open_form(client, "table", variant="pico", nickname="Owner")
    room = Room.objects.get()
    guest, _token = accounts_services.create_profile(browser_token=None, nickname="Guest")
    with pytest.raises(room_services.RoomError) as caught:
        services.change_settings(room_id=room.pk, actor=guest, settings={"variant": "atto"})
    assert caught.value.code == "not_host"
    with pytest.raises(room_services.RoomError) as caught:
        services.change_settings(room_id=room.pk, actor=room.host, settings={"variant": "x"})
    assert caught.value.code == "bad_variant"
    room_services.start_room(room=room, actor=room.host)
    with pytest.raises(room_services.RoomError) as caught:
        services.change_settings(room_id=room.pk, actor=room.host, settings={"variant": "atto"})
    assert caught.value.code == "already_started"
    assert Room.objects.get().settings["variant"] == "pico"


def test_a_bad_settings_change_is_reported_and_changes_nothing(client):
    open_form(client, "table", variant="pico", nickname="Owner2")
    room = Room.objects.get()
    response = client.post(
        reverse("mathesso:change_settings", args=[room.code]),
        {"lobby-variant": "atto", "lobby-extensions": ["cjv"], "lobby-points": "default"},
        follow=True,
    )
    assert "This extension cannot be played with this variant." in response.content.decode()
    assert Room.objects.get().settings["variant"] == "pico"
