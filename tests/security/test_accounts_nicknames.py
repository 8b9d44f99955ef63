"""Look-alike nicknames (issue 16, section 4): "Nicknames: homoglyphs pass
uniqueness and the word filter (`Dеmo Tеаcher` with Cyrillic letters
impersonates the teacher; `Kurvа` passes)". Replayed through HTTP."""

import pytest

from accounts.models import PlayerProfile

pytestmark = pytest.mark.django_db

CYRILLIC_DEMO_TEACHER = "D\u0435mo T\u0435\u0430cher"  # е, е, а are Cyrillic
CYRILLIC_KURVA = "Kurv\u0430"


def _create(client, nickname):
    return client.post("/accounts/player/new/", {"nickname": nickname})


def test_cyrillic_look_alike_of_the_teachers_nickname_is_refused(client, django_user_model):
    assert _create(client, "Demo Teacher").status_code == 302
    from django.test import Client

    attacker = Client(headers={"accept-language": "en"})
    response = _create(attacker, CYRILLIC_DEMO_TEACHER)
    assert response.status_code == 400
    assert PlayerProfile.objects.filter(nickname=CYRILLIC_DEMO_TEACHER).count() == 0
    assert PlayerProfile.objects.count() == 1


@pytest.mark.parametrize(
    "look_alike",
    [CYRILLIC_DEMO_TEACHER.replace("\u0435", "e"), "Dem0 Teacher", "Demo_Teacher", "DEMO  teacher"],
)
def test_other_look_alikes_of_a_taken_nickname_are_refused(client, look_alike):
    PlayerProfile.objects.create(nickname="Demo Teacher", code="AAAA2222")
    response = _create(client, look_alike)
    assert response.status_code == 400
    assert PlayerProfile.objects.count() == 1


def test_a_taken_nickname_offers_free_variants(client):
    PlayerProfile.objects.create(nickname="Ema", code="AAAA2222")
    response = _create(client, "Ema")
    assert response.status_code == 400
    errors = response.context["nickname_form"].errors["nickname"]
    assert len(errors) == 1
    offered = errors[0].split(":", 1)[1].strip(" .").split(", ")
    assert 2 <= len(offered) <= 3
    for nickname in offered:
        assert nickname.startswith("Ema ")
    # every variant offered is really free
    assert _create(client, offered[0]).status_code == 302


def test_homoglyph_spelling_of_a_blocked_word_is_refused(client):
    response = _create(client, CYRILLIC_KURVA)
    assert response.status_code == 400
    assert not PlayerProfile.objects.exists()
    assert _create(client, "Kurva").status_code == 400


def test_mixed_scripts_are_refused_but_one_script_is_fine(client):
    assert _create(client, "Pe\u0442r").status_code == 400  # Cyrillic т inside Latin
    assert _create(client, "Фёдор").status_code == 302
    assert _create(client, "Žluťoučký kůň").status_code == 302


def test_a_database_level_look_alike_race_is_still_refused():
    from django.db import IntegrityError, transaction

    PlayerProfile.objects.create(nickname="Demo Teacher", code="AAAA2222")
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerProfile.objects.create(nickname=CYRILLIC_DEMO_TEACHER, code="BBBB3333")
