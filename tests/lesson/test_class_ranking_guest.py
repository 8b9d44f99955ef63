"""A guest's place leaves no gap in the class's ranking of a game (issue 40 §3).

Seen: a guest (not in the class) came second in a class game, and the class's
ranking read 1., 3., 4. -- the guest is listed apart, so the class members are
ranked among themselves (1., 2., 3.), on the page and in the export; the guest
keeps their place in the game.
"""

import csv
import io

import pytest

from tests.classrooms import factories

pytestmark = pytest.mark.django_db


def test_the_class_ranking_has_no_gap_where_a_guest_placed(client):
    teacher = factories.make_teacher("mezera@skola.sk")
    classroom = factories.make_class(teacher)
    adam, bara, cyril = (
        factories.add_member(classroom, roster_name=name).player
        for name in ("Adam Kováč", "Bára Nová", "Cyril Malý")
    )
    guest = factories.make_player("Host z chodby")
    record = factories.play(classroom, {adam: 90, guest: 80, bara: 70, cyril: 70})
    record.results.filter(player__in=[bara, cyril]).update(rank=3)  # a shared place
    client.force_login(teacher)

    page = client.get(f"/classes/{classroom.pk}/sessions/{record.pk}/")
    ranking = [(row.rank, row.roster_name) for row in page.context["ranking"]]
    assert ranking == [(1, "Adam Kováč"), (2, "Bára Nová"), (2, "Cyril Malý")]
    assert [(row.rank, row.nickname) for row in page.context["guests"]] == [(2, "Host z chodby")]

    export = client.get(f"/classes/{classroom.pk}/sessions/{record.pk}/results.csv")
    rows = list(csv.reader(io.StringIO(export.content.decode("utf-8")[1:])))
    assert [(row[0], row[4]) for row in rows[1:]] == [
        ("1", adam.nickname),
        ("2", bara.nickname),
        ("2", cyril.nickname),
        ("2", "Host z chodby"),
    ]
