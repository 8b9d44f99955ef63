"""Homework in the privacy jobs (accounts.privacy hooks): a profile's download
lists its homework attempts; erasing the profile removes them; deleting the
class removes the homework and its attempts."""

import pytest

from accounts import export
from accounts import services as account_services
from homework.models import Assignment, Attempt
from tests.homework.conftest import play_to_end, start

pytestmark = pytest.mark.django_db


def test_the_profile_download_lists_homework_and_erasure_removes_it(make_assignment, pupils):
    assignment = make_assignment(title="Poker na doma")
    client, profile, _member = pupils[0]
    game = play_to_end(client, start(client, assignment["id"]).json()["game"])
    start(pupils[1][0], assignment["id"])
    data = export.export_profile(profile)
    assert [row["homework"] for row in data["homework"]] == ["Poker na doma"]
    assert data["homework"][0]["score"] == game["score"]
    assert data["homework"][0]["class"] == "7.B"
    account_services.delete_profile(player=profile)
    assert list(Attempt.objects.values_list("player_id", flat=True)) == [pupils[1][1].pk]


def test_deleting_the_class_deletes_its_homework(make_assignment, pupils, classroom):
    assignment = make_assignment()
    start(pupils[0][0], assignment["id"])
    classroom.delete()
    assert not Assignment.objects.exists() and not Attempt.objects.exists()
