"""The teachers' REST API of homework (issue 28 contract): create, list, read,
change, close, delete, results and their CSV/.xlsx twins; refusals as
``{"code", "message"}`` with nothing created or changed."""

import io
from datetime import timedelta

import pytest
import yaml
from django.utils import timezone

from homework.models import Assignment
from tests.classrooms import factories
from tests.homework.conftest import patch, play_to_end, post, start

pytestmark = pytest.mark.django_db


def test_a_teacher_creates_lists_reads_and_deletes_an_assignment(
    teacher_client, classroom, teacher
):
    due = timezone.now() + timedelta(days=2)
    response = post(
        teacher_client,
        f"/api/classes/{classroom.pk}/assignments/",
        {
            "game": "poker",
            "title": "  Poker  do pátku ",
            "settings": {"table": "matematico", "difficulty": "hard", "seconds_per_card": 20},
            "opens_at": None,
            "due_at": due.isoformat(),
            "attempts": "best",
            "late": True,
        },
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["title"] == "Poker do pátku"
    assert body["settings"] == {"table": "matematico", "difficulty": "hard", "seconds_per_card": 20}
    assert body["attempts"] == "best" and body["late"] is True and body["state"] == "open"
    assert body["class_id"] == classroom.pk
    stored = Assignment.objects.get(pk=body["id"])
    assert stored.created_by == teacher and stored.opens_at <= timezone.now()
    listed = teacher_client.get(f"/api/classes/{classroom.pk}/assignments/").json()
    assert [item["id"] for item in listed] == [body["id"]]
    assert teacher_client.get(f"/api/assignments/{body['id']}/").json()["title"] == body["title"]
    assert teacher_client.delete(f"/api/assignments/{body['id']}/").status_code == 204
    assert not Assignment.objects.exists()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"game": "chess"}, "bad_game"),
        ({"game": "nope"}, "bad_game"),
        ({"game": "abaku", "settings": {"table": "matematico"}}, "bad_settings"),
        ({"title": "   "}, "bad_title"),
        ({"settings": {"table": "nope"}}, "bad_table"),
        ({"settings": {"difficulty": "medium"}}, "bad_difficulty"),
        ({"settings": {"difficulty": "hard", "seconds_per_card": 1}}, "bad_seconds"),
        ({"settings": {"difficulty": "hard", "seconds_per_card": "20"}}, "bad_seconds"),
        ({"settings": {"table": "matematico", "deck": [1, 2, 3]}}, "bad_settings"),
        ({"settings": [1, 2]}, "bad_settings"),
        ({"due_at": "2020-01-01T10:00:00Z"}, "bad_due_at"),
        ({"due_at": "tomorrow"}, "invalid"),
        ({"attempts": "all"}, "invalid"),
        ({"opens_at": "2030-01-02T10:00:00Z", "due_at": "2030-01-01T10:00:00Z"}, "bad_due_at"),
        ({"mark_thresholds": [10, 20, 30, 40]}, "bad_marks"),
        ({"full_marks": 0}, "bad_full_marks"),
    ],
)
def test_bad_input_is_a_stable_code_and_creates_nothing(teacher_client, classroom, change, code):
    body = {
        "game": "poker",
        "title": "Úkol",
        "settings": {"table": "matematico", "difficulty": "easy"},
        "due_at": (timezone.now() + timedelta(days=1)).isoformat(),
        **change,
    }
    response = post(teacher_client, f"/api/classes/{classroom.pk}/assignments/", body)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert response.json()["message"]
    assert not Assignment.objects.exists()


def test_before_it_opens_everything_may_change_after_only_what_pupils_see(
    teacher_client, make_assignment
):
    later = make_assignment(
        opens_at=(timezone.now() + timedelta(days=1)).isoformat(),
        due_at=(timezone.now() + timedelta(days=4)).isoformat(),
    )
    response = patch(
        teacher_client,
        f"/api/assignments/{later['id']}/",
        {"settings": {"table": "school", "difficulty": "easy"}, "attempts": "last"},
    )
    assert response.status_code == 200, response.content
    assert response.json()["settings"]["table"] == "school"
    assert response.json()["attempts"] == "last"
    now_open = make_assignment()
    response = patch(teacher_client, f"/api/assignments/{now_open['id']}/", {"attempts": "best"})
    assert response.status_code == 409 and response.json()["code"] == "already_open"
    assert Assignment.objects.get(pk=now_open["id"]).attempts == "first"
    response = patch(
        teacher_client,
        f"/api/assignments/{now_open['id']}/",
        {"late": True, "title": "Poker, delší termín"},
    )
    assert response.status_code == 200 and response.json()["late"] is True
    response = patch(teacher_client, f"/api/assignments/{now_open['id']}/", {"title": ""})
    assert response.status_code == 400 and response.json()["code"] == "bad_title"


def test_closing_early_stops_play(teacher_client, make_assignment, pupils):
    assignment = make_assignment()
    response = post(teacher_client, f"/api/assignments/{assignment['id']}/close/")
    assert response.status_code == 200 and response.json()["state"] == "closed"
    refused = start(pupils[0][0], assignment["id"])
    assert refused.status_code == 409 and refused.json()["code"] == "assignment_closed"


def test_results_rows_and_downloads_carry_the_same_numbers(
    teacher_client, make_assignment, pupils, classroom
):
    assignment = make_assignment(mark_thresholds=[200, 150, 100, 50])
    (adam, _p, adam_member), (bara, _q, _m), (_cyril, _r, _n) = pupils
    finished = play_to_end(adam, start(adam, assignment["id"]).json()["game"])
    start(bara, assignment["id"])  # Bára starts and stops
    results = teacher_client.get(f"/api/assignments/{assignment['id']}/results/").json()
    assert results["assignment"]["id"] == assignment["id"]
    rows = {row["roster_name"]: row for row in results["rows"]}
    assert list(rows) == ["Adam Kovář", "Bára Nová", "Cyril Malý"]
    adam_row = rows["Adam Kovář"]
    assert adam_row["status"] == "done" and adam_row["score"] == finished["score"]
    assert adam_row["attempts"] == 1 and adam_row["member"] == adam_member.pk
    assert adam_row["finished_at"] is not None
    assert adam_row["review_url"].startswith(f"/classes/{classroom.pk}/homework/")
    assert rows["Bára Nová"]["status"] == "in_progress" and rows["Bára Nová"]["score"] is None
    assert rows["Cyril Malý"]["status"] == "not_started" and rows["Cyril Malý"]["attempts"] == 0
    expected_mark = next(
        (mark for mark, low in enumerate([200, 150, 100, 50], 1) if finished["score"] >= low), 5
    )
    assert adam_row["mark"] == expected_mark

    csv_en = teacher_client.get(f"/api/assignments/{assignment['id']}/results.csv")
    assert csv_en.status_code == 200
    lines = csv_en.content.decode("utf-8-sig").splitlines()
    # surname and first name apart, the school system's ID, by surname (issue 37 §4)
    assert lines[0].split(",")[:5] == [
        "Surname",
        "First name",
        "ID in the school system",
        "Status",
        "Score",
    ]
    assert lines[1].split(",")[:6] == ["Kovář", "Adam", "", "done", str(finished["score"]), "1"]
    assert lines[1].split(",")[-1] == str(expected_mark)

    teacher_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "cs"
    csv_cs = teacher_client.get(
        f"/api/assignments/{assignment['id']}/results.csv", HTTP_ACCEPT_LANGUAGE="cs"
    )
    first = csv_cs.content.decode("utf-8-sig").splitlines()[1].split(";")
    assert first[:2] == ["Kovář", "Adam"] and first[4] == str(finished["score"])
    if "." in str(adam_row["time_spent_s"]):
        assert "," in first[6] and "." not in first[6]

    from openpyxl import load_workbook

    xlsx = teacher_client.get(f"/api/assignments/{assignment['id']}/results.xlsx")
    assert xlsx.status_code == 200
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[1][:2] == ("Kovář", "Adam") and values[1][4] == finished["score"]
    assert values[1][5] == 1 and values[1][-1] == expected_mark
    assert values[2][:2] == ("Malý", "Cyril") and values[2][4] in (None, "")


def test_the_schema_documents_the_homework_endpoints(teacher_client):
    schema = yaml.safe_load(teacher_client.get("/api/schema/").content)
    paths = schema["paths"]
    assert "post" in paths["/api/classes/{id}/assignments/"]
    assert {"get", "patch", "delete"} <= set(paths["/api/assignments/{id}/"])
    assert "/api/assignments/{id}/results/" in paths
    assert "/api/assignments/{id}/results.xlsx" in paths


def test_co_teachers_may_use_it_too(classroom, make_assignment):
    from django.test import Client

    colleague = factories.make_teacher("kolega@skola.cz")
    factories.add_co_teacher(classroom, colleague)
    client = Client()
    client.force_login(colleague)
    assignment = make_assignment()
    assert client.get(f"/api/assignments/{assignment['id']}/results/").status_code == 200
    created = post(
        client,
        f"/api/classes/{classroom.pk}/assignments/",
        {
            "game": "poker",
            "title": "Od kolegy",
            "due_at": (timezone.now() + timedelta(days=1)).isoformat(),
        },
    )
    assert created.status_code == 201
