"""The "looks like a teacher" nickname check reads only the teachers it may
concern (issue 38: it read every active teacher for each new pupil, O(teachers)).

The teachers' look-alike keys are stored in an indexed column (``User.name_keys``);
a new or renamed profile reads the few accounts sharing a key. The refusals stay
those of ``accounts.nicknames.looks_like`` and follow a teacher's new name and a
renamed own profile. Replayed over HTTP as a pupil creating a profile."""

import pytest

from accounts import nicknames
from accounts import services as account_services
from accounts.models import User
from classrooms.services import ensure_teacher_player
from tests.classrooms import factories

pytestmark = pytest.mark.django_db

SURNAMES = ["Novák", "Svoboda", "Dvořák", "Černý", "Procházka", "Kučera", "Veselý", "Horák"]


@pytest.fixture
def many_teachers():
    """200 active teachers, and Demo Teacher with an own profile."""
    for number in range(200):
        name = f"Učitel{number} {SURNAMES[number % len(SURNAMES)]}"
        User.objects.create_user(f"t{number}@skola.cz", None, name=name)
    teacher = factories.make_teacher(name="Demo Teacher")
    ensure_teacher_player(user=teacher)
    return teacher


@pytest.fixture
def names_read(monkeypatch):
    """How many teachers' names each check was given to compare."""
    counts: list[int] = []
    check = nicknames.check_not_like_a_teacher

    def counting(nickname, teacher_names):
        names = list(teacher_names)
        counts.append(len(names))
        return check(nickname, names)

    monkeypatch.setattr(nicknames, "check_not_like_a_teacher", counting)
    return counts


def test_a_new_pupil_reads_only_the_teachers_it_may_look_like(browser, many_teachers, names_read):
    assert browser().post("/accounts/player/new/", {"nickname": "Modra Velryba"}).status_code == 302
    refused = browser().post("/accounts/player/new/", {"nickname": "Demo Teacner"})
    assert refused.status_code == 400
    assert "looks like a teacher" in refused.content.decode()
    # Before: 201 names and 201 own nicknames for each check.
    assert names_read == [0, 2]


def test_a_teachers_new_name_and_renamed_profile_are_checked_and_the_old_freed(browser):
    teacher = factories.make_teacher(name="Jana Kovářová")
    own = ensure_teacher_player(user=teacher)
    teacher.refresh_from_db()
    teacher.name = "Eva Malinová"
    teacher.save()
    assert browser().post("/accounts/player/new/", {"nickname": "Eva Malinova"}).status_code == 400
    account_services.rename_profile(profile=own, nickname="Kapitan Nemo")
    assert browser().post("/accounts/player/new/", {"nickname": "Kaptian Nemo"}).status_code == 400
    # The old name and the old own nickname are free again.
    assert browser().post("/accounts/player/new/", {"nickname": "Jana Kovarova"}).status_code == 302
    teacher.refresh_from_db()
    assert "janakovarova" not in teacher.name_keys


@pytest.mark.parametrize(
    ("nickname", "name"),
    [
        ("DemoTeacher", "Demo Teacher"),
        ("Demo-Teahcer", "Demo Teacher"),
        ("Dem0 Teacner", "Demo Teacher"),
        ("Demo Teacher 7", "Demo Teacher"),
        ("Jna", "Jan"),
        ("Jan", "Jan"),
        ("Petr Svobado", "Petr Svoboda"),
    ],
)
def test_the_keys_share_a_key_exactly_when_the_names_look_alike(nickname, name):
    shared = set(nicknames.look_alike_keys(nickname)) & set(nicknames.look_alike_keys(name))
    assert bool(shared) == nicknames.looks_like(nickname, name)
