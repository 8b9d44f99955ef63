"""Teachers' own data: export and deletion with confirmation (issue 17 §5).

"A class with co-teachers passes to one of them, otherwise it is deleted with
its data after a clear warning."
"""

import json

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts import services as accounts_services
from accounts.models import PlayerProfile, User
from classrooms.models import Classroom, CoTeacher, Membership
from games.models import GameRecord, GameResult
from tests.privacy.helpers import traces

pytestmark = pytest.mark.django_db
PASSWORD = "Heslo-ucitele-1"


@pytest.fixture
def teacher_world():
    own_profile, _token = accounts_services.create_profile(
        browser_token=None, nickname="Učitelka Hana"
    )
    teacher = User.objects.create_user(
        "hana.ucitelka@skola.cz", PASSWORD, name="Hana Učitelková", player=own_profile
    )
    colleague = User.objects.create_user("kolega@skola.cz", PASSWORD, name="Kolega")
    pupil, _token = accounts_services.create_profile(browser_token=None, nickname="Žák Petr")
    shared = Classroom.objects.create(name="7.A", teacher=teacher, join_code="SHA234")
    alone = Classroom.objects.create(name="8.B", teacher=teacher, join_code="ALO234")
    CoTeacher.objects.create(
        classroom=shared,
        email=colleague.email,
        invited_by=teacher,
        accepted_at=timezone.now(),
        user=colleague,
    )
    CoTeacher.objects.create(classroom=alone, email="neprijal@skola.cz", invited_by=teacher)
    for classroom in (shared, alone):
        Membership.objects.create(classroom=classroom, player=pupil, roster_name="Petr Novák")
        record = GameRecord.objects.create(game="poker", mode="group", classroom=classroom)
        GameResult.objects.create(record=record, player=pupil, score=77)
    client = Client(headers={"accept-language": "en"})
    client.force_login(teacher)
    return {
        "client": client,
        "teacher": teacher,
        "colleague": colleague,
        "shared": shared,
        "alone": alone,
        "own_profile": own_profile,
    }


def test_the_export_holds_the_account_and_classes_but_no_secrets(teacher_world):
    client = teacher_world["client"]
    response = client.get("/accounts/teacher/export.json")
    assert response.status_code == 200
    disposition = response["Content-Disposition"]
    assert disposition == 'attachment; filename="matika-hana.ucitelka@skola.cz.json"'

    data = json.loads(response.content)
    assert data["account"]["email"] == "hana.ucitelka@skola.cz"
    assert data["account"]["name"] == "Hana Učitelková"
    assert [c["name"] for c in data["classes"]] == ["7.A", "8.B"]
    assert data["classes"][0]["members"][0]["roster_name"] == "Petr Novák"
    assert data["classes"][0]["co_teachers"][0]["email"] == "kolega@skola.cz"
    assert data["own_player_profile"]["profile"]["nickname"] == "Učitelka Hana"
    assert "classrooms.Classroom.teacher" in data["other"]
    dump = json.dumps(data)
    assert "pbkdf2" not in dump and '"password"' not in dump
    assert Client().get("/accounts/teacher/export.json").status_code == 302  # login first


def test_the_warning_says_which_class_passes_and_which_is_deleted(teacher_world):
    html = teacher_world["client"].get("/accounts/teacher/delete/").content.decode()
    assert "This cannot be undone." in html
    assert "The class 7.A passes to your co-teacher kolega@skola.cz" in html
    assert "The class 8.B has no co-teacher: it is deleted with its 1 member" in html


def test_deletion_needs_the_tick_and_the_password(teacher_world):
    client = teacher_world["client"]
    assert client.post("/accounts/teacher/delete/", {"password": PASSWORD}).status_code == 400
    wrong = client.post("/accounts/teacher/delete/", {"password": "x", "confirm": "yes"})
    assert wrong.status_code == 400
    assert User.objects.filter(pk=teacher_world["teacher"].pk).exists()
    assert Classroom.objects.count() == 2


def test_deleting_the_account_passes_shared_classes_on_and_deletes_the_rest(teacher_world):
    client, teacher = teacher_world["client"], teacher_world["teacher"]
    response = client.post("/accounts/teacher/delete/", {"password": PASSWORD, "confirm": "yes"})
    assert response.status_code == 302
    assert not User.objects.filter(pk=teacher.pk).exists()
    shared = Classroom.objects.get(pk=teacher_world["shared"].pk)
    assert shared.teacher == teacher_world["colleague"]
    assert not shared.co_teachers.exists()  # the colleague owns it now
    assert shared.members.count() == 1 and shared.game_records.count() == 1
    assert not Classroom.objects.filter(pk=teacher_world["alone"].pk).exists()
    assert not Membership.objects.filter(classroom_id=teacher_world["alone"].pk).exists()
    assert GameResult.objects.count() == 1
    assert not PlayerProfile.objects.filter(pk=teacher_world["own_profile"].pk).exists()
    assert not any(
        str(s.get_decoded().get("_auth_user_id")) == str(teacher.pk) for s in Session.objects.all()
    )
    for text in ("hana.ucitelka@skola.cz", "Hana Učitelková", "Učitelka Hana"):
        assert traces(nickname=text, player_id=teacher_world["own_profile"].pk) == []
    assert client.get("/accounts/teacher/export.json").status_code == 302  # logged out
