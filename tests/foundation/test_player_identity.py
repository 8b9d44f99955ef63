import hashlib

import pytest
from django.conf import settings
from django.core import signing

from accounts import identity
from accounts.models import Browser, PlayerProfile

pytestmark = pytest.mark.django_db


def _create(client, nickname="Rychlá Sova"):
    return client.post("/accounts/player/new/", {"nickname": nickname})


def test_creating_a_profile_sets_a_signed_httponly_cookie_and_stores_only_its_hash(client):
    response = _create(client)
    assert response.status_code == 302
    cookie = response.cookies[settings.PLAYER_COOKIE_NAME]
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    token = signing.loads(cookie.value, salt=identity.SALT)
    browser = Browser.objects.get()
    assert browser.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(list(Browser.objects.values()))
    assert browser.selected.nickname == "Rychlá Sova"
    assert client.get("/accounts/player/").context["player"] == browser.selected


def test_a_forged_cookie_is_ignored(client):
    _create(client)
    client.cookies[settings.PLAYER_COOKIE_NAME] = "forged-value"
    assert client.get("/accounts/player/").context["player"] is None


def test_several_profiles_in_one_browser_with_a_switcher(client):
    _create(client, "Prvý")
    _create(client, "Druhý")
    assert Browser.objects.count() == 1
    browser = Browser.objects.get()
    assert browser.profiles.count() == 2
    assert browser.selected.nickname == "Druhý"
    first = PlayerProfile.objects.get(nickname="Prvý")
    client.post("/accounts/player/switch/", {"profile": first.pk})
    assert client.get("/accounts/player/").context["player"] == first


def test_switching_to_a_profile_of_another_browser_is_refused(client, django_user_model):
    from django.test import Client

    other = Client(headers={"accept-language": "en"})
    _create(other, "Cudzí")
    _create(client, "Môj")
    foreign = PlayerProfile.objects.get(nickname="Cudzí")
    client.post("/accounts/player/switch/", {"profile": foreign.pk})
    assert client.get("/accounts/player/").context["player"].nickname == "Môj"


def test_profile_code_continues_on_another_device(client):
    from django.test import Client

    _create(client, "Cestovateľ")
    code = client.get("/accounts/player/").context["profile_code"]
    phone = Client(headers={"accept-language": "en"})
    response = phone.post("/accounts/player/continue/", {"code": code.lower()})
    assert response.status_code == 302
    assert phone.get("/accounts/player/").context["player"].nickname == "Cestovateľ"
    assert Browser.objects.count() == 2


def test_wrong_profile_codes_are_refused_and_rate_limited(client, settings):
    from django.core.cache import cache

    from accounts import limits

    cache.clear()
    settings.MATIKA_LIMITS = {}  # the real rates (tests/security/ covers them in depth)
    assert limits.code_misses().address_rate == "100/15m"
    # A browser without identity shares its address's ceiling of misses (100; 5
    # here, the same rule in 7 requests instead of 102).
    settings.MATIKA_LIMITS = {"code_misses_address": "5/15m"}
    statuses = [
        client.post("/accounts/player/continue/", {"code": f"WRONG{i:05d}"}).status_code
        for i in range(7)
    ]
    assert statuses[:5] == [400] * 5
    assert statuses[5:] == [429, 429]
    assert not Browser.objects.exists()


def test_storage_off_keeps_no_identity_and_explains(client):
    _create(client)
    response = client.post("/accounts/player/storage/", {"storage": "off"})
    assert response.cookies[settings.STORAGE_COOKIE_NAME].value == "off"
    assert response.cookies[settings.PLAYER_COOKIE_NAME].value == ""
    page = client.get("/accounts/player/")
    assert page.context["player"] is None
    assert "Saving is off" in page.content.decode()
    refused = _create(client, "Iný Hráč")
    assert refused.status_code == 302
    assert not PlayerProfile.objects.filter(nickname="Iný Hráč").exists()
    client.post("/accounts/player/storage/", {"storage": "on"})
    assert client.cookies[settings.STORAGE_COOKIE_NAME].value == ""


def test_taken_nickname_is_refused_case_insensitively(client):
    from django.test import Client

    _create(Client(headers={"accept-language": "en"}), "Sova")
    response = _create(client, "sOVA")
    assert response.status_code == 400
    assert "already taken" in response.content.decode()
    assert PlayerProfile.objects.count() == 1


def test_rename_checks_the_same_rules(client):
    _create(client, "Stará Sova")
    bad = client.post("/accounts/player/rename/", {"nickname": "x"})
    assert bad.status_code == 400
    good = client.post("/accounts/player/rename/", {"nickname": "Nová Sova"})
    assert good.status_code == 302
    assert PlayerProfile.objects.get().nickname == "Nová Sova"


def test_forgetting_a_profile_removes_it_from_this_browser_only(client):
    _create(client, "Zabudnutý")
    profile = PlayerProfile.objects.get()
    client.post("/accounts/player/forget/", {"profile": profile.pk})
    assert client.get("/accounts/player/").context["player"] is None
    assert PlayerProfile.objects.filter(pk=profile.pk, is_active=True).exists()


def test_redirect_after_creating_stays_on_this_site(client):
    response = client.post(
        "/accounts/player/new/", {"nickname": "Bezpečný", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/accounts/player/"


def test_nickname_suggestion_is_a_valid_free_nickname(client):
    from accounts.services import validate_nickname

    nickname = client.get("/accounts/player/suggest/").json()["nickname"]
    assert validate_nickname(nickname) == nickname
