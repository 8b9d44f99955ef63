"""Teachers manage their classes: create with a roster, code/QR, archive, delete, co-teachers."""

import re

import pytest
from django.core import mail
from django.utils import timezone

from classrooms.models import Classroom, CoTeacher, Membership
from games.models import GameRecord, GameResult
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


def test_teacher_creates_a_class_with_a_pasted_roster(teacher_client, teacher):
    response = teacher_client.post(
        "/classes/new/",
        {
            "name": "  7.B  ",
            "school_year": "2026/27",
            "subject": "Matematika",
            "roster": "Adam Kováč\n\n  Bára   Nová \nadam kováč\nCyril\tPekný\t12",
        },
    )
    classroom = Classroom.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/classes/{classroom.pk}/"
    assert classroom.name == "7.B"
    assert classroom.teacher == teacher
    assert sorted(classroom.members.values_list("roster_name", flat=True)) == [
        "Adam Kováč",
        "Bára Nová",
        "Cyril",
    ]
    assert len(classroom.join_code) == 6


def test_creating_a_class_without_a_name_changes_nothing(teacher_client):
    response = teacher_client.post("/classes/new/", {"name": "", "roster": "Adam"})
    assert response.status_code == 200
    assert response.context["form"].errors
    assert not Classroom.objects.exists()


def test_class_page_shows_code_link_and_qr_as_inline_svg(teacher_client, classroom):
    response = teacher_client.get(f"/classes/{classroom.pk}/")
    html = response.content.decode()
    assert response.status_code == 200
    assert classroom.join_code in html
    assert f"/classes/join/{classroom.join_code}/" in html
    assert "<svg" in html and 'class="segno"' in html
    assert "style=" not in html  # the CSP forbids inline styles


def test_projector_qr_page_shows_code_and_who_has_joined(teacher_client, classroom):
    factories.add_member(classroom, status="pending")
    response = teacher_client.get(f"/classes/{classroom.pk}/qr/")
    html = response.content.decode()
    assert response.status_code == 200
    assert classroom.join_code in html and "<svg" in html
    assert "Joined: 0 of 3 students" in html and "Waiting for approval: 1" in html


def test_regenerating_the_code_invalidates_the_old_link(teacher_client, client, classroom):
    old = classroom.join_code
    teacher_client.post(f"/classes/{classroom.pk}/code/regenerate/")
    classroom.refresh_from_db()
    assert classroom.join_code != old
    assert client.get(f"/classes/join/{old}/").status_code == 404
    assert client.get(f"/classes/join/{classroom.join_code}/").status_code == 200


def test_switching_joining_off_closes_the_join_page(teacher_client, client, classroom):
    teacher_client.post(f"/classes/{classroom.pk}/code/joining/", {"enabled": "0"})
    classroom.refresh_from_db()
    assert classroom.join_enabled is False
    response = client.get(f"/classes/join/{classroom.join_code}/")
    assert "not accepting new students" in response.content.decode()
    teacher_client.post(f"/classes/{classroom.pk}/code/joining/", {"enabled": "1"})
    classroom.refresh_from_db()
    assert classroom.join_enabled is True


def test_archiving_and_reactivating_a_class(teacher_client, classroom):
    teacher_client.post(f"/classes/{classroom.pk}/archive/", {"archived": "1"})
    classroom.refresh_from_db()
    assert classroom.archived_at is not None
    listing = teacher_client.get("/classes/")
    assert classroom in listing.context["archived_classes"]
    assert classroom not in listing.context["teacher_classes"]
    teacher_client.post(f"/classes/{classroom.pk}/archive/", {"archived": "0"})
    classroom.refresh_from_db()
    assert classroom.archived_at is None


def test_deleting_a_class_removes_members_games_and_results(teacher_client, classroom):
    student = factories.make_player()
    factories.add_member(classroom, student)
    factories.play(classroom, {student: 40})
    elsewhere = factories.play(None, {student: 12})
    response = teacher_client.post(f"/classes/{classroom.pk}/delete/")
    assert response.status_code == 302
    assert not Classroom.objects.exists()
    assert not Membership.objects.exists()
    assert list(GameRecord.objects.all()) == [elsewhere]
    assert GameResult.objects.count() == 1


def test_edit_class_settings(teacher_client, classroom):
    response = teacher_client.post(
        f"/classes/{classroom.pk}/edit/",
        {"name": "6.A matika", "school_year": "2027/28", "subject": "", "public_publication": "on"},
    )
    assert response.status_code == 302
    classroom.refresh_from_db()
    assert (classroom.name, classroom.school_year, classroom.public_publication) == (
        "6.A matika",
        "2027/28",
        True,
    )


def test_invited_co_teacher_sees_the_class_and_gets_an_email(
    teacher_client, classroom, client, django_capture_on_commit_callbacks, tasks_inline
):
    with django_capture_on_commit_callbacks(execute=True):
        teacher_client.post(f"/classes/{classroom.pk}/co-teachers/", {"email": "Kolega@Skola.sk"})
    assert CoTeacher.objects.get().email == "kolega@skola.sk"
    assert mail.outbox[0].to == ["kolega@skola.sk"]
    colleague = factories.make_teacher("kolega@skola.sk", email_verified_at=timezone.now())
    client.force_login(colleague)
    # nothing before the mailed link is accepted
    assert client.get(f"/classes/{classroom.pk}/").status_code == 404
    link = re.search(r"https?://[^/]+(/classes/invitations/\S+/)", mail.outbox[0].body).group(1)
    assert client.post(link).status_code == 302
    assert client.get(f"/classes/{classroom.pk}/").status_code == 200
    assert classroom in client.get("/classes/").context["teacher_classes"]
    # a co-teacher may not delete the class
    client.post(f"/classes/{classroom.pk}/delete/")
    assert Classroom.objects.filter(pk=classroom.pk).exists()


def test_inviting_a_bad_or_duplicate_email_changes_nothing(teacher_client, classroom, teacher):
    teacher_client.post(f"/classes/{classroom.pk}/co-teachers/", {"email": "not-an-email"})
    teacher_client.post(f"/classes/{classroom.pk}/co-teachers/", {"email": teacher.email})
    assert not CoTeacher.objects.exists()


def test_roster_add_rename_remove_and_merge(teacher_client, classroom):
    base = f"/classes/{classroom.pk}/members"
    teacher_client.post(f"{base}/add/", {"names": "Dana Malá\nAdam Kováč"})
    names = set(classroom.members.values_list("roster_name", flat=True))
    assert names == {"Adam Kováč", "Bára Nová", "Cyril Pekný", "Dana Malá"}
    dana = classroom.members.get(roster_name="Dana Malá")
    teacher_client.post(f"{base}/{dana.pk}/rename/", {"roster_name": "Dana Malá-Veľká"})
    dana.refresh_from_db()
    assert dana.roster_name == "Dana Malá-Veľká"
    teacher_client.post(f"{base}/{dana.pk}/rename/", {"roster_name": "   "})
    dana.refresh_from_db()
    assert dana.roster_name == "Dana Malá-Veľká"

    first_profile, second_profile = factories.make_player(), factories.make_player()
    adam = classroom.members.get(roster_name="Adam Kováč")
    adam.player = first_profile
    adam.save()
    duplicate = factories.add_member(classroom, second_profile, "Adam K.", status="pending")
    factories.play(classroom, {first_profile: 10})
    factories.play(classroom, {second_profile: 30})
    teacher_client.post(f"{base}/{duplicate.pk}/merge/", {"target": adam.pk})
    assert not Membership.objects.filter(pk=duplicate.pk).exists()
    adam.refresh_from_db()
    assert list(adam.other_players.all()) == [second_profile]
    history = teacher_client.get(f"{base}/{adam.pk}/").context["history"]
    assert [row.result.score for row in history.rows] == [10, 30]

    teacher_client.post(f"{base}/{dana.pk}/remove/")
    assert not Membership.objects.filter(pk=dana.pk).exists()


def test_merging_a_member_into_itself_is_refused(teacher_client, classroom):
    adam = classroom.members.get(roster_name="Adam Kováč")
    teacher_client.post(f"/classes/{classroom.pk}/members/{adam.pk}/merge/", {"target": adam.pk})
    assert Membership.objects.filter(pk=adam.pk).exists()


def test_games_not_playable_yet_are_disabled_with_a_note(teacher_client, classroom):
    from core import registry as game_registry

    # Every game plugs in today; a game whose class mode has no room adapter yet
    # shows how an unplayable game looks.
    soon = game_registry.GameSpec(
        slug="soon",
        name="Coming soon",
        tagline="",
        players="",
        colour="#000",
        index_url="home",
        class_launch=game_registry.ClassLaunch(mode="table", kind="tables"),
        order=35,
    )
    game_registry.register(soon)
    try:
        response = teacher_client.get(f"/classes/{classroom.pk}/")
    finally:
        game_registry.unregister("soon")
    games = response.context["games"]
    assert [game.info.slug for game in games] == [
        "poker",
        "mathesso",
        "abaku",
        "soon",
        "theorems",
    ]
    unplayable = [game for game in games if not game.playable]
    assert [game.info.slug for game in unplayable] == ["soon"]
    assert all(game.note for game in unplayable)
    assert "disabled" in response.content.decode()
