"""The staff dashboard: numbers for staff only, with links into the admin."""

import pytest

from accounts.models import PublicationConsent
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


def _consent(player, granted):
    PublicationConsent.objects.create(
        player=player, granted=granted, text_version="1", language="cs", text="?"
    )


def test_dashboard_counts_games_players_classes_and_consent(client, classroom):
    staff = factories.make_teacher("admin@skola.sk", is_staff=True)
    first, second = factories.make_player(), factories.make_player()
    factories.play(classroom, {first: 3, second: 5}, game="poker")
    factories.play(None, {first: 7}, game="abaku", days_ago=2)
    _consent(first, True)
    _consent(second, True)
    _consent(second, False)  # the newest answer counts
    client.force_login(staff)
    response = client.get("/staff/")
    assert response.status_code == 200
    context = response.context
    assert context["players_total"] == 2
    assert context["classes_active"] == 1
    assert (context["consent_granted"], context["consent_answered"]) == (1, 2)
    assert context["consent_percent"] == 50
    rows = dict(context["per_game_rows"])
    assert sum(sum(counts) for counts in rows.values()) == 2
    html = response.content.decode()
    assert '<svg class="chart"' in html
    assert "/admin/classrooms/classroom/" in html


@pytest.mark.parametrize("who", ["anonymous", "teacher"])
def test_dashboard_is_for_staff_only(client, who):
    if who == "teacher":
        client.force_login(factories.make_teacher())
    response = client.get("/staff/")
    assert response.status_code == 302
    assert "/login/" in response["Location"]
