"""Reports teachers can trust (issue 21): unfinished sessions and pupils who left
are marked and left out of averages and trends; chart labels tell same-day games
apart; joker cells are marked; CSV follows the page language; .xlsx beside CSV."""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from openpyxl import load_workbook

from classrooms.reports import x_labels
from games.models import GameRecord
from games.rooms.models import Room, Seat
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def adam(classroom):
    member = classroom.members.get(roster_name="Adam Kováč")
    member.player = factories.make_player("Sokol")
    member.save()
    return member


def _short_room(classroom, player, score, *, minutes_ago):
    """A room the host ended early: nobody's board is complete."""
    record = factories.play(classroom, {player: score})
    started = timezone.now() - timedelta(minutes=minutes_ago)
    GameRecord.objects.filter(pk=record.pk).update(
        started_at=started, finished_at=started + timedelta(minutes=2)
    )
    record.results.update(completed=False)
    return record


@pytest.fixture
def three_short_rooms(classroom, adam):
    full = factories.play(classroom, {adam.player: 160}, days_ago=1)
    short = [
        _short_room(classroom, adam.player, score, minutes_ago=minutes)
        for score, minutes in ((0, 50), (0, 40), (25, 30))
    ]
    return full, short


def _csv(response, separator=","):
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:]), delimiter=separator))


def _xlsx(response):
    assert response["Content-Type"].startswith(
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert ".xlsx" in response["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(response.content)).active
    return [[cell.value for cell in row] for row in sheet.iter_rows()], sheet


def test_three_short_rooms_no_longer_pull_the_average_down(
    teacher_client, classroom, adam, three_short_rooms
):
    """'three short rooms made a pupil's average 46.2 = (160+0+0+25)/4'"""
    response = teacher_client.get(f"/classes/{classroom.pk}/members/{adam.pk}/")
    history = response.context["history"]
    assert (history.games, history.average, history.best) == (1, 160.0, 160)
    assert history.hidden == 3
    html = response.content.decode()
    assert 'data-testid="unfinished-toggle"' in html and "?all=1" in html

    shown = teacher_client.get(f"/classes/{classroom.pk}/members/{adam.pk}/?all=1")
    history = shown.context["history"]
    assert (history.games, history.average) == (4, 46.2)
    assert shown.content.decode().count('data-testid="unfinished"') == 3


def test_class_results_count_only_finished_sessions(
    teacher_client, classroom, adam, three_short_rooms
):
    response = teacher_client.get(f"/classes/{classroom.pk}/results/")
    assert [s.best_score for s in response.context["sessions"]] == [160]
    assert response.context["unfinished"] == 3
    participation = {
        row.member.roster_name: (row.games, row.average, share)
        for row, share in response.context["participation"]
    }
    assert participation["Adam Kováč"] == (1, 160.0, 100)

    everything = teacher_client.get(f"/classes/{classroom.pk}/results/?all=1")
    sessions = everything.context["sessions"]
    assert len(sessions) == 4 and sum(s.unfinished for s in sessions) == 3
    assert 'data-testid="unfinished"' in everything.content.decode()
    row, share = everything.context["participation"][0]
    assert (row.games, row.average, share) == (4, 46.2, 100)

    rows = _csv(teacher_client.get(f"/classes/{classroom.pk}/results/sessions.csv"))
    assert len(rows) == 2 and rows[0][-1] == "Best"
    rows = _csv(teacher_client.get(f"/classes/{classroom.pk}/results/sessions.csv?all=1"))
    assert rows[0][-1] == "Note" and [r[-1] for r in rows[1:]].count("not finished") == 3


def test_an_unfinished_session_page_says_so(teacher_client, classroom, three_short_rooms):
    _full, short = three_short_rooms
    html = teacher_client.get(f"/classes/{classroom.pk}/sessions/{short[0].pk}/").content.decode()
    assert 'data-testid="unfinished"' in html
    assert "not counted in averages" in html


def test_a_pupil_who_was_kicked_or_left_is_marked(teacher_client, classroom, adam):
    bara = classroom.members.get(roster_name="Bára Nová")
    bara.player = factories.make_player("Liška")
    bara.save()
    cyril = factories.make_player("Cyril")
    record = factories.play(classroom, {adam.player: 90, bara.player: 10, cyril: 5})
    record.results.exclude(player=adam.player).update(completed=False)
    room = Room.objects.create(
        code="ABC123",
        game="poker",
        mode="group",
        host=adam.player,
        classroom=classroom,
        status=Room.Status.FINISHED,
        rng_seed=1,
        record=record,
        expires_at=timezone.now() + timedelta(hours=1),
    )
    during = record.finished_at - timedelta(minutes=5)
    Seat.objects.create(room=room, player=adam.player)
    Seat.objects.create(room=room, player=bara.player, status=Seat.Status.KICKED, left_at=during)
    Seat.objects.create(room=room, player=cyril, status=Seat.Status.LEFT, left_at=during)

    response = teacher_client.get(f"/classes/{classroom.pk}/sessions/{record.pk}/")
    assert [row.departure for row in response.context["ranking"]] == ["", "kicked"]
    assert [row.departure for row in response.context["guests"]] == ["left"]  # not a member
    html = response.content.decode()
    assert "removed by the host" in html and "left the game" in html
    rows = _csv(teacher_client.get(f"/classes/{classroom.pk}/sessions/{record.pk}/results.csv"))
    assert [row[-1] for row in rows] == [
        "Note",
        "",
        "removed by the host",
        "guest, not in the class; left the game",
    ]

    member = teacher_client.get(f"/classes/{classroom.pk}/members/{bara.pk}/?all=1")
    assert member.context["history"].rows[0].departure == "kicked"
    assert (
        teacher_client.get(f"/classes/{classroom.pk}/members/{bara.pk}/").context["history"].games
        == 0
    )


def test_same_day_games_get_a_time_and_same_minute_an_index():
    day = timezone.make_aware(timezone.datetime(2026, 12, 1, 10, 5))
    labels = x_labels([day - timedelta(days=1), day, day, day + timedelta(minutes=40)])
    assert labels[0] == "30. 11."
    assert labels[1:] == ["1. 12. 10:05 (1)", "1. 12. 10:05 (2)", "1. 12. 10:45"]


def test_the_chart_does_not_repeat_one_date(teacher_client, classroom, adam):
    for score in (10, 20, 30):
        factories.play(classroom, {adam.player: score})
    html = teacher_client.get(f"/classes/{classroom.pk}/members/{adam.pk}/").content.decode()
    chart = html[html.index('<svg class="chart"') : html.index("</svg>")]
    axis = re.findall(r'class="chart-axis chart-x"[^>]*>([^<]*)<', chart)
    assert len(axis) == 3 and len(set(axis)) == 3


def test_joker_cells_are_marked_on_report_boards(teacher_client, classroom, adam):
    cells = list(range(1, 26))
    record = factories.play(
        classroom, {adam.player: 90}, details={"board": cells, "joker_cells": [3, 24]}
    )
    html = teacher_client.get(f"/classes/{classroom.pk}/sessions/{record.pk}/").content.decode()
    assert html.count('data-testid="joker-cell"') == 2
    assert 'data-testid="joker-cell">4<' in html and 'data-testid="joker-cell">25<' in html


def test_csv_follows_the_page_language(classroom, adam, teacher):
    from django.test import Client

    bara = classroom.members.get(roster_name="Bára Nová")
    bara.player = factories.make_player("=Liška")
    bara.save()
    factories.play(classroom, {adam.player: 50, bara.player: 75})
    factories.play(classroom, {adam.player: 80})
    for language, separator, average in (
        ("cs", ";", "62,5"),
        ("sk", ";", "62,5"),
        ("en", ",", "62.5"),
    ):
        client = Client(headers={"accept-language": language})
        client.force_login(teacher)
        rows = _csv(client.get(f"/classes/{classroom.pk}/results/sessions.csv"), separator)
        assert len(rows[0]) == 6, (language, rows[0])
        assert rows[2][4] == average
        people = _csv(client.get(f"/classes/{classroom.pk}/results/participation.csv"), separator)
        assert people[2][3] == "'=Liška"  # formula-injection escaping stays


def test_every_csv_has_an_xlsx_twin_with_real_numbers(
    teacher_client, classroom, adam, player_client
):
    bara = classroom.members.get(roster_name="Bára Nová")
    bara.player = factories.make_player("=Liška")
    bara.save()
    record = factories.play(classroom, {adam.player: 50, bara.player: 75})
    base = f"/classes/{classroom.pk}"
    html = teacher_client.get(f"{base}/results/").content.decode()
    assert "sessions.xlsx" in html and "participation.xlsx" in html
    rows, sheet = _xlsx(teacher_client.get(f"{base}/results/sessions.xlsx"))
    assert rows[0][:6] == ["Started", "Game", "Mode", "Players", "Average", "Best"]
    assert rows[1][3:6] == [2, 62.5, 75]
    assert sheet.cell(row=2, column=1).is_date
    rows, sheet = _xlsx(teacher_client.get(f"{base}/results/participation.xlsx"))
    liska = next(r for r in rows if r[:2] == ["Nová", "Bára"])
    assert liska[3] == "=Liška" and liska[4:8] == [1, 100, 75, 75]
    cell = next(c for c in sheet["D"] if c.value == "=Liška")
    assert cell.data_type == "s"  # a string, never a formula
    rows, _sheet = _xlsx(teacher_client.get(f"{base}/sessions/{record.pk}/results.xlsx"))
    assert [r[5] for r in rows[1:]] == [75, 50]
    assert "results.xlsx" in teacher_client.get(f"{base}/sessions/{record.pk}/").content.decode()
    rows, _sheet = _xlsx(teacher_client.get(f"{base}/members/{adam.pk}/results.xlsx"))
    assert rows[1][-1] == 50

    client, player = player_client("Žiak")
    factories.add_member(classroom, player, roster_name="Dana")
    factories.play(classroom, {player: 33})
    rows, _sheet = _xlsx(client.get(f"{base}/my-results.xlsx"))
    assert rows[1][-1] == 33
