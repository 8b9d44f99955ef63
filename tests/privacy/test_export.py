"""The export is everything stored (issue 17 §3), generated from the models.

"The export is generated from the models themselves so a new relation cannot
be forgotten (a test fails when a model references the profile and the export
does not cover it); JSON values as JSON; CSV escaped like the teacher CSVs."
"""

import csv
import io
import json

import pytest
from django.apps import apps

from accounts import export
from accounts.models import PlayerProfile
from games.theorems.models import SavedDeck
from tests.privacy.helpers import NICKNAME, leave_every_trace, login_as, make_player

pytestmark = pytest.mark.django_db

# Relations the fixture does not fill: a player profile of a teacher account, the
# homework app's attempts and the LTI tool's LMS bindings (new; their own tests
# cover their export: tests/homework, tests/lti).
NOT_LEFT_BY_THE_FIXTURE = {
    "accounts.User.player",
    "homework.Attempt.player",
    "lti.Person.player",
}


def _references_to_profiles() -> set[str]:
    """An independent scan: every field of every installed model that points at a profile."""
    found = set()
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if field.concrete and field.is_relation and field.related_model is PlayerProfile:
                found.add(f"{model._meta.label}.{field.name}")
    return found


def test_every_relation_to_a_profile_is_exported():
    walked = {export.relation_key(field) for field in export.profile_relations()}
    assert walked == _references_to_profiles()
    # Including the hidden ones and the merged memberships the old export missed.
    for key in (
        "accounts.Browser.selected",
        "accounts.Browser.profiles",
        "rooms.RoomEvent.actor",
        "rooms.ProcessedMessage.player",
        "classrooms.Membership.other_players",
    ):
        assert key in walked


def test_every_row_that_references_the_player_is_in_the_export(client):
    player, token = make_player()
    leave_every_trace(player)
    data = export.export_profile(player)
    for key in sorted(_references_to_profiles()):
        label, name = key.rsplit(".", 1)
        model = apps.get_model(label)
        stored = model._default_manager.filter(**{name: player}).count()
        shaped = export.shaped()
        if key in shaped:
            exported = len(data[shaped[key]])
        else:
            exported = len(data["other"].get(key, []))
        assert exported == stored, key
        assert stored or key in NOT_LEFT_BY_THE_FIXTURE, f"the fixture leaves no {key}"


def test_json_values_stay_json_and_secrets_and_others_private_data_stay_out(client):
    player, token = make_player()
    made = leave_every_trace(player)
    login_as(client, token)
    response = client.get("/accounts/player/export.json")
    assert response.status_code == 200
    data = json.loads(response.content)
    events = data["other"]["rooms.RoomEvent.actor"]
    assert all(isinstance(event["action"], dict) for event in events)
    assert all(isinstance(event["public"], list) for event in events)
    other_id = str(made["other"].pk)
    assert all(other_id not in event["private"] for event in events)
    dump = json.dumps(data)
    for secret in ("token_hash", '"state"', "rng_seed", '"password"'):
        assert secret not in dump
    assert data["profile"]["nickname"] == NICKNAME
    assert data["merged_classes"] == [
        {
            "class": "6.C",
            "roster_name": "Jiný Žák",
            "status": made["merged"].status,
            "joined_at": made["merged"].joined_at.isoformat(),
        }
    ]


def test_the_csv_is_escaped_like_the_teacher_csvs_and_keeps_json(client):
    player, token = make_player()
    SavedDeck.objects.create(player=player, name="=HYPERLINK(1)", mathematician="x", cards=[1, 2])
    SavedDeck.objects.create(player=player, name="@SUM(A1)", mathematician="-2+3", cards=[3])
    login_as(client, token)
    response = client.get("/accounts/player/export.csv")
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")  # as the teacher CSVs: spreadsheets read č, ř, ľ
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0] == ["section", "time", "field", "value"]
    cells = {(row[0], row[2]): row[3] for row in rows[1:]}
    assert cells[("theorems.SavedDeck.player[0]", "name")] == "'=HYPERLINK(1)"
    assert cells[("theorems.SavedDeck.player[1]", "name")] == "'@SUM(A1)"
    assert cells[("theorems.SavedDeck.player[1]", "mathematician")] == "'-2+3"
    assert json.loads(cells[("theorems.SavedDeck.player[0]", "cards")]) == [1, 2]
    assert ("profile", "nickname") in cells and cells[("profile", "nickname")] == NICKNAME
    assert not any("{'" in row[3] for row in rows)  # no Python repr anywhere


def test_the_filename_keeps_the_diacritics(client):
    _player, token = make_player()
    login_as(client, token)
    for fmt in ("json", "csv"):
        header = client.get(f"/accounts/player/export.{fmt}")["Content-Disposition"]
        assert header.startswith("attachment")
        assert f"filename*=utf-8''matika-Zrzav%C3%A1%20Veverka.{fmt}" in header


def test_private_events_addressed_to_the_player_are_exported_only_their_part():
    from games.rooms import services as rooms
    from tests.rooms import testgame

    testgame.register()
    player, _token = make_player()
    host, _token = make_player("Hostitel Stolu", pk=987_654_400)
    room = rooms.create_room(game=testgame.GAME, mode="duel", host=host, settings={})
    rooms.join_room(room=room, player=player)
    rooms.start_room(room=room, actor=host)  # the host's step deals both secrets
    data = export.export_profile(player)
    addressed = data["other"]["rooms.RoomEvent.private"]
    assert len(addressed) == 1
    assert list(addressed[0]["private"]) == [str(player.pk)]
    assert addressed[0]["private"][str(player.pk)][0]["type"] == "secret"


def test_the_export_lists_the_classes_a_teacher_merged_the_profile_into(client):
    """Issue 27 §5: a teacher merged this profile into a pupil's membership (the
    pupil's other device); the download's classes left that class out."""
    from accounts.models import User
    from classrooms.models import Classroom, Membership

    player, token = make_player()
    other, _token = make_player("Druhé Zařízení", pk=987_654_500)
    teacher = User.objects.create_user("slouceni@skola.cz", "Heslo-ucitele-1", name="T")
    classroom = Classroom.objects.create(name="8.B", teacher=teacher, join_code="MRG234")
    membership = Membership.objects.create(
        classroom=classroom, player=other, roster_name="Eva Zrzavá"
    )
    membership.other_players.add(player)
    login_as(client, token)
    data = json.loads(client.get("/accounts/player/export.json").content)
    assert data["classes"] == []
    assert [(c["class"], c["roster_name"]) for c in data["merged_classes"]] == [
        ("8.B", "Eva Zrzavá")
    ]
    text = client.get("/accounts/player/export.csv").content.decode("utf-8")
    assert "merged_classes[0]" in text and "8.B" in text
