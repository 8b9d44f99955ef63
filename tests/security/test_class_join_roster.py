"""Class join without exposing children (issue 16, section 4): "Anyone with a
class code sees every unclaimed roster name in full (real names as teachers
paste them) and can claim one; it is approved at once. Required: show pupils
only what identifies their own entry [...] and claims of a roster name by a new
device need the teacher's approval or the pupil's code." Replayed through HTTP."""

import secrets

import pytest
from django.test import Client

from classrooms.models import Membership
from tests.classrooms import factories

pytestmark = pytest.mark.django_db

ROSTER = "Adam Kováč\nBára Nová\nCyril Pekný"


@pytest.fixture(autouse=True)
def real_rates(settings):
    settings.MATIKA_LIMITS = {}


@pytest.fixture
def classroom():
    return factories.make_class(roster=ROSTER)


def _pupil() -> Client:
    # 172.16/12: apart from the 10/8 addresses of tests/security/conftest.py
    address = (
        f"172.{16 + secrets.randbelow(16)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"
    )
    return Client(headers={"accept-language": "en"}, REMOTE_ADDR=address)


def _join(client, classroom, member, nickname, claim_code=""):
    return client.post(
        f"/classes/join/{classroom.join_code}/",
        {"member": member.pk, "nickname": nickname, "claim_code": claim_code},
    )


def _entry(classroom, name) -> Membership:
    return classroom.members.get(roster_name=name)


def test_the_join_page_shows_first_names_and_initials_only(classroom):
    page = _pupil().get(f"/classes/join/{classroom.join_code}/").content.decode()
    for short in ("Adam K.", "Bára N.", "Cyril P."):
        assert short in page
    for surname in ("Kováč", "Nová", "Pekný"):
        assert surname not in page
    # nor in the answer to a refused join
    response = _join(_pupil(), classroom, _entry(classroom, "Adam Kováč"), "Sokol", "WRONG1")
    assert "Kováč" not in response.content.decode()


def test_a_claim_without_the_code_waits_for_the_teacher(classroom):
    adam = _entry(classroom, "Adam Kováč")
    pupil = _pupil()
    assert _join(pupil, classroom, adam, "Rychly Sokol").status_code == 302
    adam.refresh_from_db()
    assert adam.player_id is None  # the roster name is not taken yet
    claim = classroom.members.get(claim_of=adam)
    assert claim.is_pending
    # the waiting pupil sees neither the full name nor the class's games
    page = pupil.get(f"/classes/{classroom.pk}/").content.decode()
    assert "Kováč" not in page
    # the teacher approves: the claim becomes the roster entry
    teacher = Client(headers={"accept-language": "en"})
    teacher.force_login(classroom.teacher)
    members_page = teacher.get(f"/classes/{classroom.pk}/members/").content.decode()
    assert "claims Adam Kováč" in members_page
    teacher.post(f"/classes/{classroom.pk}/members/{claim.pk}/approve/")
    adam.refresh_from_db()
    assert adam.player is not None and adam.player.nickname == "Rychly Sokol"
    assert not adam.is_pending
    assert not classroom.members.filter(claim_of=adam).exists()


def test_a_claim_with_the_pupils_claim_code_is_in_at_once(classroom):
    adam = _entry(classroom, "Adam Kováč")
    assert len(adam.claim_code) == 6
    pupil = _pupil()
    response = _join(pupil, classroom, adam, "Rychly Sokol", adam.claim_code.lower())
    assert response.status_code == 302
    adam.refresh_from_db()
    assert adam.player is not None and not adam.is_pending
    assert "You are Adam Kováč" in pupil.get(f"/classes/{classroom.pk}/").content.decode()


def test_a_wrong_claim_code_claims_nothing_and_guessing_is_limited(classroom, settings):
    # a wrong claim code is a code miss (accounts.limits); a client without
    # cookies shares its address's bucket, here set low to keep the test short
    settings.MATIKA_LIMITS = {"code_misses_address": "10/15m"}
    adam = _entry(classroom, "Adam Kováč")
    attacker = _pupil()
    for attempt in range(12):
        response = _join(attacker, classroom, adam, f"Tipér {attempt}", f"ZZZZ{attempt:02d}")
        assert response.status_code in {400, 429}  # 429: the class page itself, past the limit
    adam.refresh_from_db()
    assert adam.player_id is None
    # past the miss limit even the right code is refused to this client
    assert _join(attacker, classroom, adam, "Tipér x", adam.claim_code).status_code in {400, 429}
    adam.refresh_from_db()
    assert adam.player_id is None
    # while the real pupil, elsewhere in the class, is not affected
    assert _join(_pupil(), classroom, adam, "Adam real", adam.claim_code).status_code == 302


def test_the_teacher_prints_the_claim_codes(classroom):
    teacher = Client(headers={"accept-language": "en"})
    teacher.force_login(classroom.teacher)
    sheet = teacher.get(f"/classes/{classroom.pk}/members/claim-codes/")
    assert sheet.status_code == 200
    for member in classroom.members.all():
        assert member.roster_name in sheet.content.decode()
        assert member.claim_code in sheet.content.decode()
    assert _pupil().get(f"/classes/{classroom.pk}/members/claim-codes/").status_code == 302
    other = Client()
    other.force_login(factories.make_teacher())
    assert other.get(f"/classes/{classroom.pk}/members/claim-codes/").status_code == 404


def test_look_alike_short_names_get_one_more_letter_but_never_the_surname():
    classroom = factories.make_class(roster="Adam Kováč\nAdam Kubík\nEma Nová")
    page = _pupil().get(f"/classes/join/{classroom.join_code}/").content.decode()
    assert "Adam Ko." in page and "Adam Ku." in page and "Ema N." in page
    assert "Kováč" not in page and "Kubík" not in page
