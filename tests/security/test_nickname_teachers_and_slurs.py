"""Nicknames that pass for a teacher, and Czech/Slovak/Polish slurs (issue 38 §4):
"Nicknames "DemoTeacher", "Demo Teacner" (confusable with a teacher's display
name) and common Czech/Slovak/Polish slurs ("Kurwa") are refused." Replayed
through HTTP, as a pupil creating or renaming a profile would."""

import pytest
from django.utils import timezone

from accounts import nicknames
from accounts.models import PlayerProfile
from classrooms.services import ensure_teacher_player
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


def _create(client, nickname):
    return client.post("/accounts/player/new/", {"nickname": nickname})


@pytest.fixture
def demo_teacher():
    teacher = factories.make_teacher(name="Demo Teacher", email_verified_at=timezone.now())
    ensure_teacher_player(user=teacher)
    return teacher


@pytest.mark.parametrize(
    "nickname",
    ["DemoTeacher", "Demo Teacner", "demo_teacher", "Demo-Teahcer", "DEMOTEACHER", "Dem0Teacher"],
)
def test_a_nickname_that_passes_for_a_teacher_is_refused(browser, demo_teacher, nickname):
    response = _create(browser(), nickname)
    assert response.status_code == 400
    page = response.content.decode()
    # "demo_teacher" has the teacher's own nickname's skeleton: "taken" already.
    assert "looks like a teacher" in page or "already taken" in page
    assert not PlayerProfile.objects.filter(nickname=nickname).exists()


def test_renaming_to_a_teachers_name_is_refused(browser, demo_teacher):
    pupil = browser()
    assert _create(pupil, "Ema").status_code == 302
    response = pupil.post("/accounts/player/rename/", {"nickname": "Demo Teacner"})
    assert response.status_code == 400
    assert PlayerProfile.objects.filter(nickname="Ema").exists()


@pytest.mark.parametrize("nickname", ["Demo Teacher 7", "Demo", "Teacher Ema", "Jana", "Dana"])
def test_names_that_do_not_pass_for_the_teacher_stay_free(browser, demo_teacher, nickname):
    factories.make_teacher(name="Jan", email="jan@example.org")
    assert _create(browser(), nickname).status_code == 302


@pytest.mark.parametrize(
    "slur", ["Kurwa", "KURWA", "kurvva", "Kurwo 12", "Skurwysyn", "Spierdalaj", "Pizda", "Jebac"]
)
def test_czech_slovak_and_polish_slurs_are_refused(browser, slur):
    response = _create(browser(), slur)
    assert response.status_code == 400
    assert not PlayerProfile.objects.exists()


def test_the_generator_never_makes_a_refused_nickname():
    import random

    rng = random.Random(38)
    for language in ("cs", "sk", "en"):
        for _ in range(200):
            nicknames.check_characters(nicknames.generate(rng, language))
