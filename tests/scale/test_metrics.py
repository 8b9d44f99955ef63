"""/metrics: Prometheus' text format behind a bearer token, every worker counted (issue 30)."""

from __future__ import annotations

import re
import tempfile
import urllib.request

import pytest

from config import task_counts
from core import metrics as room_metrics
from tests.conftest import _server_env, _stop, start_uvicorn, wait_up

TOKEN = "metrics-test-token-0123456789"


@pytest.fixture
def with_token(settings):
    settings.METRICS_TOKEN = TOKEN
    return settings


def test_without_the_setting_there_is_no_metrics_page(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"}).status_code == 404


@pytest.mark.parametrize(
    ("header", "status"),
    [(None, 401), ("Basic eDp5", 401), ("Bearer ", 401), ("Bearer wrong-token", 403)],
)
def test_without_the_right_token_nothing_is_shown(client, with_token, header, status):
    headers = {"authorization": header} if header is not None else {}
    response = client.get("/metrics", headers=headers)
    assert response.status_code == status
    assert b"matika_" not in response.content


@pytest.mark.django_db
def test_the_figures_in_prometheus_text_format(client, with_token):
    room_metrics.message_handled("accepted", 0.02)
    task_counts.count_task("health.add", "succeeded")
    task_counts.count_task("health.add", "failed")
    client.get("/privacy/")
    response = client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    text = response.content.decode()
    assert "# TYPE matika_room_sockets_open gauge" in text
    assert re.search(r'^matika_room_messages_total\{outcome="accepted"\} [1-9]', text, re.M)
    assert "# TYPE matika_room_message_seconds histogram" in text
    assert re.search(
        r'^django_http_responses_total_by_status_view_method_total\{.*view="privacy"', text, re.M
    )
    assert re.search(
        r'^matika_celery_tasks_total\{state="failed",task="health.add"\} [1-9]', text, re.M
    )
    assert re.search(r'^matika_celery_queue_length\{queue="celery"\} \d', text, re.M)


def _privacy_count(text: str) -> float:
    total = 0.0
    for line in text.splitlines():
        if line.startswith("django_http_responses_total_by_status_view_method_total{") and (
            'view="privacy"' in line and 'status="200"' in line
        ):
            total += float(line.rsplit(" ", 1)[1])
    return total


@pytest.mark.live
def test_two_workers_answer_with_the_figures_of_both(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        env = _server_env()
    env.update(METRICS_TOKEN=TOKEN, PROMETHEUS_MULTIPROC_DIR=tempfile.mkdtemp(prefix="prom-"))
    process, url = start_uvicorn(env, "config.asgi:application", "--workers", "2")
    try:
        wait_up(process, url)
        for _ in range(30):  # spread over both workers by the kernel
            with urllib.request.urlopen(url + "/privacy/", timeout=10) as response:
                assert response.status == 200
        for _ in range(4):  # whichever worker answers, it counts all 31 page views
            request = urllib.request.Request(
                url + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"}
            )
            with urllib.request.urlopen(request, timeout=10) as response:
                assert _privacy_count(response.read().decode()) >= 31
    finally:
        _stop(process)


@pytest.mark.django_db
def test_prometheus_may_scrape_by_address_not_an_allowed_host(client, with_token):
    headers = {"authorization": f"Bearer {TOKEN}"}
    assert client.get("/metrics", headers=headers, HTTP_HOST="10.42.3.7:8000").status_code == 200
    assert client.get("/metrics", HTTP_HOST="10.42.3.7:8000").status_code == 401
    assert client.get("/privacy/", HTTP_HOST="10.42.3.7:8000").status_code == 400
