"""The shared classroom computer and the class join page (issue 38 §1, the last gap).

Pupil A claimed a roster entry with its code (a profile bound to A). Pupil B then
opens a class link in the same browser. B must never join as A: not A's own class
(where the link used to lead straight to A's class page), not another class
(where B's join used to make A a member). Opening the join page changes nothing:
it asks "Are you A?". "No, I am someone else" ends A's bound profile in this
browser, like "I am not A", and B starts clean; "Yes, continue" goes on as A (A on
their own phone reopening a class link or joining a second class). A plain
nickname profile is shared by design and still joins as itself. Replayed over HTTP."""

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


def _asks_who(response, player) -> None:
    """The question page: "Are you A?", nothing joined, no class page."""
    assert response.status_code == 200, response.get("Location")
    text = response.content.decode()
    assert f"Are you {player.nickname}?" in text
    assert 'name="whoami" value="me"' in text
    assert 'name="whoami" value="someone_else"' in text
    assert 'name="nickname"' not in text  # no join form yet


def _someone_else(shared: Client, classroom, player_a) -> None:
    """B answers "No, I am someone else": A leaves this browser, a clean page."""
    browser = _browser_of(shared)
    answer = shared.post(_join_url(classroom), {"whoami": "someone_else", "as_player": player_a.pk})
    assert answer.status_code == 302
    assert answer["Location"] == _join_url(classroom)
    browser.refresh_from_db()
    assert browser.selected_id is None
    assert not browser.profiles.filter(pk=player_a.pk).exists()
    page = shared.get(_join_url(classroom)).content.decode()
    assert player_a.nickname not in page
    assert "Are you" not in page
    assert 'name="nickname"' in page  # B is asked for a nickname of their own


def test_the_join_link_of_a_class_opened_after_a_claimed_asks_who_and_joins_nothing(shared):
    classroom = factories.make_class(roster="Adam Kovář\nBára Nová")
    entry_a = _a_claims(shared, classroom)
    player_a = entry_a.player
    members = Membership.objects.count()
    # B opens the same class's link: the question, not A's class page as A.
    _asks_who(shared.get(_join_url(classroom)), player_a)
    assert Membership.objects.count() == members
    assert _browser_of(shared).selected_id == player_a.pk  # a GET changes nothing
    # A join form posted without the answer (an old tab) joins nothing either.
    bara = classroom.members.get(roster_name="Bára Nová")
    stale = shared.post(_join_url(classroom), {"member": bara.pk, "nickname": "Modra Velryba"})
    _asks_who(stale, player_a)
    assert not classroom.members.filter(claim_of=bara).exists()
    _someone_else(shared, classroom, player_a)
    # B joins with the name B types: a new profile, A's entry untouched.
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
    _asks_who(shared.get(_join_url(other)), player_a)
    assert not Membership.objects.filter(classroom=other).exclude(player=None).exists()
    _someone_else(shared, other, player_a)
    joined = shared.post(_join_url(other), {"typed_name": "Bára Nová", "nickname": "Zluty Drak"})
    assert joined.status_code == 302
    assert not Membership.objects.filter(classroom=other, player=player_a).exists()
    member_b = Membership.objects.get(classroom=other, roster_name="Bára Nová")
    assert member_b.player.nickname == "Zluty Drak"
    # A's own class still has A; A's profile just left this browser.
    assert Membership.objects.filter(classroom=class_a, player=player_a).exists()


def test_a_on_their_own_phone_answers_yes_and_joins_a_second_class_as_a(shared):
    class_a = factories.make_class(roster="Adam Kovář")
    other = factories.make_class(name="7.B", roster="Cyril Pekný")
    player_a = _a_claims(shared, class_a).player
    # Reopening the own class's link: the question, then "Yes" opens A's class page.
    _asks_who(shared.get(_join_url(class_a)), player_a)
    yes = {"whoami": "me", "as_player": player_a.pk}
    assert shared.post(_join_url(class_a), yes)["Location"] == f"/classes/{class_a.pk}/"
    # A "Yes" for a profile no longer selected (another tab changed it) asks again.
    _asks_who(shared.post(_join_url(other), {"whoami": "me", "as_player": 0}), player_a)
    # A second class by its link: "Yes" shows the join form as A, A joins as A.
    form = shared.post(_join_url(other), yes)
    assert form.status_code == 200
    text = form.content.decode()
    assert "You play as" in text and player_a.nickname in text
    assert f'name="as_player" value="{player_a.pk}"' in text
    assert not Membership.objects.filter(classroom=other, player=player_a).exists()
    joined = shared.post(_join_url(other), {"typed_name": "Adam Kovář", "as_player": player_a.pk})
    assert joined.status_code == 302
    assert Membership.objects.filter(classroom=other, player=player_a).exists()
    assert Membership.objects.filter(classroom=class_a, player=player_a).exists()
    browser = _browser_of(shared)
    assert browser.selected_id == player_a.pk  # A's profile stayed


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
