"""Multi-character look-alikes (issue 27 §5): "Multi-character look-alikes pass
the nickname skeleton (`Derno Teacher`, `Hltler`): add TR39 multi-character
prototypes." Replayed through HTTP, as a pupil creating a profile would."""

import pytest

from accounts import nicknames
from accounts.models import PlayerProfile

pytestmark = pytest.mark.django_db


def _create(client, nickname):
    return client.post("/accounts/player/new/", {"nickname": nickname})


@pytest.mark.parametrize(
    ("taken", "look_alike"),
    [
        ("Demo Teacher", "Derno Teacher"),
        ("Demo Teacher", "DERNO TEACHER"),
        ("Demo Teacher", "Clerno Teacher"),
        ("Wanda", "VVanda"),
        ("Adam", "Aclarn"),
    ],
)
def test_multi_character_look_alike_of_a_taken_nickname_is_refused(browser, taken, look_alike):
    assert _create(browser(), taken).status_code == 302
    response = _create(browser(), look_alike)
    assert response.status_code == 400
    assert not PlayerProfile.objects.filter(nickname=look_alike).exists()


@pytest.mark.parametrize("spelling", ["Hltler", "HItler", "H1tler", "Hltler 88"])
def test_blocked_word_spelled_with_l_for_i_is_refused(browser, spelling):
    response = _create(browser(), spelling)
    assert response.status_code == 400
    assert not PlayerProfile.objects.exists()


@pytest.mark.parametrize(
    ("first", "second"),
    [("Martin", "Marian"), ("Emil", "Email"), ("Ilona", "Klara"), ("Wiki", "Vicky")],
)
def test_different_names_keep_different_skeletons(first, second):
    assert nicknames.skeleton(first) != nicknames.skeleton(second)


@pytest.mark.parametrize("name", ["Lilian", "Ilona", "Emil", "Milan", "Lucie", "Clara"])
def test_ordinary_names_with_i_and_l_pass_the_word_filter(name):
    nicknames.check_characters(name)
