"""The shared classroom computer and the class join page (issue 38 §1, the last gap).

Pupil A claimed a roster entry with its code (a profile bound to A). Pupil B then
opens a class link in the same browser. B must never join as A: not A's own class
(where the link used to lead straight to A's class page), not another class
(where B's join used to make A a member). The join page ends A's bound profile in
this browser, like "I am not A", and B starts clean. A plain nickname profile is
shared by design and still joins as itself. Replayed over HTTP."""

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client

from accounts import identity
from accounts.models import Browser
from classrooms.models import Membership
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


def _browser_of(client: Client) -> Browser:
    token = signing.loads(client.cookies[settings.PLAYER_COOKIE_NAME].value, salt=identity.SALT)
    return Browser.objects.get(token_hash=identity.hash_token(token))


def _join_url(classroom) -> str:
    return f"/classes/join/{classroom.join_code}/"


def _a_claims(shared: Client, classroom) -> Membership:
    """Pupil A takes their roster entry with the printed claim code: bound to A."""
    entry = classroom.members.get(roster_name="Adam Kovář")
    response = shared.post(
        _join_url(classroom),
        {"member": entry.pk, "claim_code": entry.claim_code, "nickname": "Rychly Sokol"},
    )
    assert response.status_code == 302, response.content.decode()[:400]
    entry.refresh_from_db()
    assert entry.player is not None and not entry.is_pending
    assert identity.is_bound(entry.player)
    return entry


@pytest.fixture
def shared(browser) -> Client:
    return browser()  # one classroom computer: one cookie jar for both pupils


def test_the_join_link_of_a_class_opened_after_a_claimed_does_not_continue_as_a(shared):
    classroom = factories.make_class(roster="Adam Kovář\nBára Nová")
    entry_a = _a_claims(shared, classroom)
    player_a = entry_a.player
    # B opens the same class's link: the join form, not A's class page as A.
    page = shared.get(_join_url(classroom))
    assert page.status_code == 200
    text = page.content.decode()
    assert player_a.nickname not in text
    assert 'name="nickname"' in text  # B is asked for a nickname of their own
    browser = _browser_of(shared)
    assert browser.selected_id is None
    assert not browser.profiles.filter(pk=player_a.pk).exists()
    # B joins with the name B types: a new profile, A's entry untouched.
    bara = classroom.members.get(roster_name="Bára Nová")
    joined = shared.post(_join_url(classroom), {"member": bara.pk, "nickname": "Modra Velryba"})
    assert joined.status_code == 302
    claim = classroom.members.get(claim_of=bara)
    assert claim.player_id not in (None, player_a.pk)
    assert claim.player.nickname == "Modra Velryba"
    entry_a.refresh_from_db()
    assert entry_a.player_id == player_a.pk
    assert _browser_of(shared).selected_id == claim.player_id


def test_b_joining_another_class_never_makes_a_a_member(shared):
    class_a = factories.make_class(roster="Adam Kovář")
    other = factories.make_class(name="7.B", roster="Cyril Pekný")
    player_a = _a_claims(shared, class_a).player
    page = shared.get(_join_url(other)).content.decode()
    assert player_a.nickname not in page
    joined = shared.post(_join_url(other), {"typed_name": "Bára Nová", "nickname": "Zluty Drak"})
    assert joined.status_code == 302
    assert not Membership.objects.filter(classroom=other, player=player_a).exists()
    member_b = Membership.objects.get(classroom=other, roster_name="Bára Nová")
    assert member_b.player.nickname == "Zluty Drak"
    # A's own class still has A; A's profile just left this browser.
    assert Membership.objects.filter(classroom=class_a, player=player_a).exists()
    assert not _browser_of(shared).profiles.filter(pk=player_a.pk).exists()


def test_a_shared_nickname_profile_still_joins_as_itself(shared):
    """Not bound to a person: the join page keeps it (as before)."""
    made = shared.post("/accounts/player/new/", {"nickname": "Kometa Rychla"})
    assert made.status_code == 302
    classroom = factories.make_class(roster="Adam Kovář")
    page = shared.get(_join_url(classroom)).content.decode()
    assert "Kometa Rychla" in page
    joined = shared.post(_join_url(classroom), {"typed_name": "Bára Nová"})
    assert joined.status_code == 302
    member = classroom.members.get(roster_name="Bára Nová")
    assert member.player.nickname == "Kometa Rychla"
