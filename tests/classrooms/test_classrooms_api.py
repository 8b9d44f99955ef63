"""The REST API: classes, members, sessions, results; the OpenAPI schema and docs page."""

import pytest
import yaml

from classrooms.models import Classroom, Membership
from tests.classrooms import factories

pytestmark = pytest.mark.django_db


def test_create_list_update_and_delete_a_class(teacher_client, teacher):
    response = teacher_client.post(
        "/api/classes/",
        {"name": "8.C", "school_year": "2026/27", "roster": "Adam\nBára"},
        content_type="application/json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "8.C" and body["is_owner"] is True and body["member_count"] == 2
    assert len(body["join_code"]) == 6
    # the keyed class link (never refused by the code limits)
    assert body["join_url"].startswith(f"http://testserver/classes/join/{body['join_code']}/?k=")
    pk = body["id"]
    assert [c["id"] for c in teacher_client.get("/api/classes/").json()] == [pk]
    response = teacher_client.patch(
        f"/api/classes/{pk}/",
        {"name": "8.C matika", "join_enabled": False, "archived": True},
        content_type="application/json",
    )
    assert response.status_code == 200
    classroom = Classroom.objects.get(pk=pk)
    assert classroom.name == "8.C matika"
    assert classroom.join_enabled is False
    assert classroom.archived_at is not None
    old_code = classroom.join_code
    assert teacher_client.post(f"/api/classes/{pk}/code/").json()["join_code"] != old_code
    assert teacher_client.delete(f"/api/classes/{pk}/").status_code == 204
    assert not Classroom.objects.exists()


def test_refusals_are_stable_codes_and_change_nothing(teacher_client, classroom):
    response = teacher_client.patch(
        f"/api/classes/{classroom.pk}/", {"name": "   "}, content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "name" in response.json()["fields"]
    response = teacher_client.patch(
        f"/api/classes/{classroom.pk}/", {"name": " \t "}, content_type="application/json"
    )
    assert response.status_code == 400
    response = teacher_client.patch(
        f"/api/classes/{classroom.pk}/",
        {"school_year": "2026/2027/28"},
        content_type="application/json",
    )
    assert response.json()["code"] in {"invalid", "school_year_too_long"}
    classroom.refresh_from_db()
    assert classroom.name == "6.A"
    response = teacher_client.post(
        f"/api/classes/{classroom.pk}/members/", {"names": []}, content_type="application/json"
    )
    assert response.status_code == 400
    assert classroom.members.count() == 3
    response = teacher_client.post(
        f"/api/classes/{classroom.pk}/members/", {"names": ["  "]}, content_type="application/json"
    )
    assert response.status_code == 400
    assert classroom.members.count() == 3
    response = teacher_client.get("/api/classes/999999/")
    assert response.status_code == 404
    assert set(response.json()) == {"code", "message"}


def test_members_add_rename_approve_remove(teacher_client, classroom):
    base = f"/api/classes/{classroom.pk}/members/"
    response = teacher_client.post(
        base, {"names": ["Dana", "Adam Kováč"]}, content_type="application/json"
    )
    assert response.status_code == 201
    assert [m["roster_name"] for m in response.json()] == ["Dana"]
    pending = factories.add_member(classroom, status="pending", roster_name="Ema")
    listing = teacher_client.get(base).json()
    assert {m["roster_name"]: m["status"] for m in listing}["Ema"] == "pending"
    response = teacher_client.patch(
        f"{base}{pending.pk}/",
        {"approve": True, "roster_name": "Ema Nová"},
        content_type="application/json",
    )
    assert response.json()["status"] == "approved"
    assert response.json()["roster_name"] == "Ema Nová"
    assert teacher_client.delete(f"{base}{pending.pk}/").status_code == 204
    assert not Membership.objects.filter(pk=pending.pk).exists()


def test_sessions_ranking_history_and_participation(teacher_client, classroom):
    adam = classroom.members.get(roster_name="Adam Kováč")
    adam.player = factories.make_player("Sokol")
    adam.save()
    record = factories.play(classroom, {adam.player: 42}, details={"board": [[1, 2]]})
    sessions = teacher_client.get(f"/api/classes/{classroom.pk}/sessions/").json()
    assert sessions[0]["id"] == record.pk and sessions[0]["best_score"] == 42
    detail = teacher_client.get(f"/api/classes/{classroom.pk}/sessions/{record.pk}/").json()
    assert detail["ranking"][0]["roster_name"] == "Adam Kováč"
    assert detail["ranking"][0]["details"] == {"board": [[1, 2]]}
    history = teacher_client.get(f"/api/classes/{classroom.pk}/members/{adam.pk}/results/").json()
    assert (history["games"], history["best"]) == (1, 42)
    participation = teacher_client.get(f"/api/classes/{classroom.pk}/participation/").json()
    assert {row["roster_name"]: row["games"] for row in participation}["Adam Kováč"] == 1


def test_openapi_schema_documents_every_endpoint(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Matika API"
    paths = set(schema["paths"])
    assert {
        "/api/classes/",
        "/api/classes/{id}/",
        "/api/classes/{id}/code/",
        "/api/classes/{id}/members/",
        "/api/classes/{id}/members/{member_id}/",
        "/api/classes/{id}/members/{member_id}/results/",
        "/api/classes/{id}/participation/",
        "/api/classes/{id}/sessions/",
        "/api/classes/{id}/sessions/{session_id}/",
    } <= paths
    assert "ErrorSerializer" not in str(schema) or "Error" in schema["components"]["schemas"]


def test_schema_is_valid_openapi():
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)


def test_docs_page_uses_no_inline_script(client):
    response = client.get("/api/docs/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<script>" not in html and "<style>" not in html
    assert "swagger-ui" in html
