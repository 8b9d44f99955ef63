"""Production logging: JSON lines with timestamp, level and request id; a quiet beat.

Issue 22 §4: "Logging: timestamps, levels, request ids, JSON lines in prod;
optional Sentry (sentry-sdk) from an environment variable; the beat's per-5 s
INFO lines silenced." (The smoke test checks a real request's error line
carries its request id.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from tests.conftest import BASE_DIR, _test_database_url

PROD_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.prod",
    "SECRET_KEY": "logging-test-only-" + "k" * 40,
    "ALLOWED_HOSTS": "matika.example.org",
    "DATABASE_URL": "postgres://matika@db.invalid:5432/matika",
    "REDIS_URL": "redis://redis.invalid:6379/0",
}


def _env(**extra) -> dict:
    drop = {"DJANGO_ALLOW_ASYNC_UNSAFE", "LOG_FORMAT", "SENTRY_DSN", "LOG_LEVEL"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(PROD_ENV, **extra)
    return env


JSON_LINE = (
    "import django, logging; django.setup()\n"
    "from django_guid import set_guid\n"
    "set_guid('0123456789abcdef0123456789abcdef')\n"
    "logging.getLogger('matika.test').error('mail to %s failed', 'someone')\n"
)
TEXT_LINE = "import django, logging; django.setup(); logging.getLogger('x').warning('hello')"
# SENTRY_ENABLED is computed when the settings module is imported (no django.setup()).
SENTRY = "from django.conf import settings; print(settings.SENTRY_ENABLED)"
# Each run is its own process; all are started at once (two of them import
# Django, ~4 s of CPU each), so two cores run them side by side.
RUNS = {
    "json": (JSON_LINE, {}),
    "text": (TEXT_LINE, {"LOG_FORMAT": "text"}),
    "sentry off": (SENTRY, {}),
    # A DSN of a server that does not exist: init only, nothing is sent here.
    "sentry on": (SENTRY, {"SENTRY_DSN": "https://public@sentry.invalid/1"}),
}


@pytest.fixture(scope="module")
def ran() -> dict[str, subprocess.CompletedProcess]:
    running = {
        name: subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=BASE_DIR,
            env=_env(**extra),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, (code, extra) in RUNS.items()
    }
    done = {}
    for name, process in running.items():
        # patience: at load 20 a django.setup() took over 60 s
        stdout, stderr = process.communicate(timeout=240)
        done[name] = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    return done


def test_production_writes_one_json_object_a_line_with_the_request_id(ran):
    result = ran["json"]
    assert result.returncode == 0, result.stderr
    line = json.loads(result.stderr.strip().splitlines()[-1])
    assert line["level"] == "ERROR" and line["logger"] == "matika.test"
    assert line["message"] == "mail to someone failed"
    assert line["request_id"] == "0123456789abcdef0123456789abcdef"
    assert line["timestamp"].endswith("+00:00")


def test_text_lines_for_people_still_carry_time_level_and_request_id(ran):
    result = ran["text"]
    assert result.returncode == 0, result.stderr
    line = result.stderr.strip().splitlines()[-1]
    assert " WARNING [None] x: hello" in line
    assert line[:4].isdigit()  # starts with the date


def test_sentry_is_off_without_a_dsn_and_on_with_one(ran):
    assert ran["sentry off"].stdout.strip() == "False"
    with_dsn = ran["sentry on"]
    assert with_dsn.returncode == 0, with_dsn.stderr
    assert with_dsn.stdout.strip().splitlines()[-1] == "True"


def test_the_uvicorn_parent_uses_the_same_json_format():
    from config import logging_setup

    shipped = json.loads((BASE_DIR / "platform" / "uvicorn-logging.json").read_text())
    ours = logging_setup.build_logging(json_lines=True)
    assert shipped["formatters"]["json"] == ours["formatters"]["default"]
    assert shipped["filters"] == ours["filters"]


@pytest.mark.live
def test_beat_sends_due_tasks_without_an_info_line_each_time(transactional_db):
    """A task due every second, beat running for a few seconds: it is sent
    (the broker queue grows) and beat prints no line for it."""
    import redis
    from django.conf import settings
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    every, _ = IntervalSchedule.objects.get_or_create(every=1, period="seconds")
    # A queue of its own: a test worker that may run in this session must not drain it.
    queue_name = "matika-logging-test"
    PeriodicTask.objects.create(
        name="logging test tick", task="health.add", interval=every, args="[1, 2]", queue=queue_name
    )
    queue = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    queue.delete(queue_name)
    env = _env(DATABASE_URL=_test_database_url(), REDIS_URL=settings.REDIS_URL)
    env.pop("CELERY_BROKER_URL", None)
    beat = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "--loglevel",
            "info",
            "--scheduler",
            "django_celery_beat.schedulers:DatabaseScheduler",
            "--pidfile",
            "",
        ],
        cwd=BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        # Patience for a busy machine (beat imports Django first): it ends as soon
        # as three ticks are queued.
        deadline = time.monotonic() + 150
        while queue.llen(queue_name) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        beat.terminate()
        try:
            output, _ = beat.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            # A beat that ignores SIGTERM (seen once in a clean-clone run at load 10)
            # must not outlive the test: left running it keeps sending the project's
            # periodic tasks into the rest of the suite's database.
            beat.kill()
            output, _ = beat.communicate()
    assert queue.llen(queue_name) >= 3, output  # the task really was sent, repeatedly
    queue.delete(queue_name)
    assert "Sending due task" not in output
    for line in filter(None, output.splitlines()):
        if line.startswith("{"):
            assert json.loads(line)["level"] != "DEBUG"
