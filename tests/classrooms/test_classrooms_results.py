"""Results per session, per student over time, per class; CSV exports; SVG charts."""

import csv
import io

import pytest

from classrooms.charts import Series, line_chart
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(classroom):
    adam = classroom.members.get(roster_name="Adam Kováč")
    bara = classroom.members.get(roster_name="Bára Nová")
    adam.player, bara.player = factories.make_player("Sokol"), factories.make_player("=Liška")
    adam.save()
    bara.save()
    guest = factories.make_player("Hosť")
    board = {"board": [[1, 2, 3], [4, 5, None]], "pairs": 2, "secret": {"nested": True}}
    first = factories.play(
        classroom, {adam.player: 50, bara.player: 70, guest: 20}, days_ago=2, details=board
    )
    second = factories.play(classroom, {adam.player: 80}, days_ago=1)
    return {"adam": adam, "bara": bara, "guest": guest, "first": first, "second": second}


def _csv(response) -> list[list[str]]:
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_session_ranking_with_roster_names_and_boards(teacher_client, classroom, played):
    response = teacher_client.get(f"/classes/{classroom.pk}/sessions/{played['first'].pk}/")
    ranking = response.context["ranking"]
    assert [(row.rank, row.roster_name, row.result.score) for row in ranking] == [
        (1, "Bára Nová", 70),
        (2, "Adam Kováč", 50),
    ]
    # A guest (not a member) is listed apart, never in the class's ranking.
    assert [(row.rank, row.nickname) for row in response.context["guests"]] == [(3, "Hosť")]
    assert ranking[0].board == [[1, 2, 3], [4, 5, None]]
    html = response.content.decode()
    assert 'class="board"' in html
    assert 'data-testid="guests"' in html


def test_session_csv_matches_the_ranking_and_defuses_formulas(teacher_client, classroom, played):
    rows = _csv(
        teacher_client.get(f"/classes/{classroom.pk}/sessions/{played['first'].pk}/results.csv")
    )
    assert rows[0] == [
        "Rank",
        "Surname",
        "First name",
        "ID in the school system",
        "Nickname",
        "Score",
        "Board completed",
        "Ended at",
        "Note",
    ]
    assert [row[:6] + row[-1:] for row in rows[1:]] == [
        ["1", "Nová", "Bára", "", "'=Liška", "70", ""],
        ["2", "Kováč", "Adam", "", "Sokol", "50", ""],
        ["3", "", "", "", "Hosť", "20", "guest, not in the class"],
    ]


def test_ties_share_a_rank_when_the_game_gave_none(teacher_client, classroom, played):
    record = factories.play(classroom, {played["adam"].player: 5, played["bara"].player: 5})
    record.results.update(rank=None)
    ranking = teacher_client.get(f"/classes/{classroom.pk}/sessions/{record.pk}/").context[
        "ranking"
    ]
    assert [row.rank for row in ranking] == [1, 1]


def test_student_history_with_average_best_and_trend_chart(teacher_client, classroom, played):
    response = teacher_client.get(f"/classes/{classroom.pk}/members/{played['adam'].pk}/")
    history = response.context["history"]
    assert (history.games, history.average, history.best) == (2, 65.0, 80)
    html = response.content.decode()
    assert '<svg class="chart"' in html
    assert "<polyline" in html
    rows = _csv(
        teacher_client.get(f"/classes/{classroom.pk}/members/{played['adam'].pk}/results.csv")
    )
    assert [row[-1] for row in rows[1:]] == ["50", "80"]


def test_class_results_participation_and_sessions(teacher_client, classroom, played):
    response = teacher_client.get(f"/classes/{classroom.pk}/results/")
    participation = {
        row.member.roster_name: (row.games, share)
        for row, share in response.context["participation"]
    }
    assert participation == {
        "Adam Kováč": (2, 100),
        "Bára Nová": (1, 50),
        "Cyril Pekný": (0, 0),
    }
    assert "<polyline" in response.content.decode()
    sessions = _csv(teacher_client.get(f"/classes/{classroom.pk}/results/sessions.csv"))
    assert len(sessions) == 3
    # Players, guests, average and best: the guest is counted apart, never in the average.
    assert sessions[0][3:5] == ["Players", "Guests"]
    assert sessions[2][3:] == ["2", "1", "60.0", "70"]
    people = _csv(teacher_client.get(f"/classes/{classroom.pk}/results/participation.csv"))
    assert people[1][:6] == ["Kováč", "Adam", "", "Sokol", "2", "100"]


def test_student_sees_only_their_own_results(classroom, played):
    from django.conf import settings
    from django.core import signing
    from django.test import Client

    from accounts import identity
    from accounts.models import Browser

    token = identity.new_token()
    browser = Browser.objects.create(token_hash=identity.hash_token(token))
    browser.profiles.add(played["adam"].player)
    browser.selected = played["adam"].player
    browser.save()
    client = Client(headers={"accept-language": "en"})
    client.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(token, salt=identity.SALT)
    response = client.get(f"/classes/{classroom.pk}/")
    assert response.context["history"].games == 2
    html = response.content.decode()
    assert "Bára Nová" not in html and "Liška" not in html
    rows = _csv(client.get(f"/classes/{classroom.pk}/my-results.csv"))
    assert [row[-1] for row in rows[1:]] == ["50", "80"]


def test_results_of_another_class_are_not_reachable(teacher_client, classroom, played):
    other = factories.make_class(teacher=classroom.teacher, name="Iná")
    assert (
        teacher_client.get(f"/classes/{other.pk}/sessions/{played['first'].pk}/").status_code == 404
    )
    assert (
        teacher_client.get(f"/classes/{other.pk}/members/{played['adam'].pk}/").status_code == 404
    )


def test_chart_escapes_labels_and_handles_no_data():
    empty = line_chart(title="t", x_labels=[], series=[], empty_text="Nothing <yet>")
    assert "&lt;yet&gt;" in empty and "<svg" not in empty
    chart = line_chart(
        title="<b>", x_labels=["1.", "2."], series=[Series("<s>", [3, None]), Series("b", [1, 2])]
    )
    assert "<b>" not in chart and "&lt;s&gt;" in chart
    assert chart.count("<polyline") == 1  # a series with one point draws a marker, no line


def test_a_flat_square_board_is_shown_as_a_grid(teacher_client, classroom, played):
    cells = list(range(1, 26))
    record = factories.play(
        classroom,
        {played["adam"].player: 90},
        details={"board": cells, "joker_cells": [3], "filled": 25, "table": "basic"},
    )
    row = teacher_client.get(f"/classes/{classroom.pk}/sessions/{record.pk}/").context["ranking"][0]
    assert len(row.board) == 5 and row.board[4] == [21, 22, 23, 24, 25]


def test_a_game_without_boards_shows_no_boards_section(teacher_client, classroom, played):
    html = teacher_client.get(
        f"/classes/{classroom.pk}/sessions/{played['second'].pk}/"
    ).content.decode()
    assert "Ranking" in html and "Boards" not in html


def test_demo_class_comes_with_played_games(settings, client):
    from django.core.management import call_command

    from accounts.models import User
    from classrooms.models import Classroom

    settings.DEBUG = True
    call_command("load_demo", stdout=io.StringIO())
    call_command("load_demo", stdout=io.StringIO())
    classroom = Classroom.objects.get()
    assert classroom.game_records.count() == 3
    client.force_login(User.objects.get())
    response = client.get(f"/classes/{classroom.pk}/results/")
    assert all(row.games == 3 for row, _share in response.context["participation"])
