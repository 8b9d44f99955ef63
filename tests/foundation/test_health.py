import json
import urllib.request

import pytest
from django.test import override_settings


@pytest.mark.live
def test_healthz_is_green_with_database_redis_and_a_worker(
    transactional_db, asgi_server, celery_worker_process
):
    with urllib.request.urlopen(asgi_server + "/healthz", timeout=10) as response:
        body = json.loads(response.read())
        assert response.status == 200
    assert body["status"] == "ok"
    assert body["checks"]["database"] == {"ok": True}
    assert body["checks"]["redis"] == {"ok": True}
    assert body["checks"]["celery"]["ok"] is True
    assert body["checks"]["celery"]["workers"] >= 1


@pytest.mark.django_db
def test_healthz_reports_503_when_redis_is_unreachable(client):
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["redis"]["ok"] is False
    assert body["checks"]["celery"] == {"ok": False, "error": "redis_down"}
