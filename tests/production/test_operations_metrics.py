"""Operations that tell the truth (issue 43): the open-socket gauge forgets a
dead worker's sockets, the dashboard counts the Celery figures once although
every web process reports them, and the shipped alert rules are valid and fire
on the situations they name -- evaluated by promtool (Debian's prometheus
package), on the expressions as they ship."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import yaml
from prometheus_client import generate_latest

from config import metrics
from tests.production import shipped

RULES = shipped.PLATFORM / "prometheus-alerts.yml"
DASHBOARD = shipped.PLATFORM / "grafana-dashboard.json"
TOKEN = "operations-metrics-token-0123456789"

# --- the open-socket gauge across worker processes -------------------------------------

WORKER = textwrap.dedent(
    """
    import sys
    from prometheus_client import Gauge
    gauge = Gauge("matika_room_sockets_open", "Room WebSockets open now.", multiprocess_mode="livesum")
    gauge.inc(int(sys.argv[1]))
    print("opened", flush=True)
    if sys.argv[2] == "stay":
        sys.stdin.read()  # alive until the test closes stdin
    """
)


def _sockets_open(monkeypatch, directory) -> float:
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(directory))
    text = generate_latest(metrics._registry()).decode()
    values = [
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("matika_room_sockets_open ")
    ]
    return sum(values)


def _worker(directory, sockets: int, stay: bool) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(sockets), "stay" if stay else "exit"],
        env={"PROMETHEUS_MULTIPROC_DIR": str(directory), "PATH": "/usr/bin:/bin"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline().strip() == "opened"
    return process


def test_a_dead_workers_sockets_are_dropped_at_the_next_scrape(monkeypatch, tmp_path):
    alive = _worker(tmp_path, 2, stay=True)
    try:
        killed = _worker(tmp_path, 5, stay=True)
        assert _sockets_open(monkeypatch, tmp_path) == 7
        killed.kill()  # SIGKILL: no chance to decrement anything
        killed.wait(timeout=30)
        assert _sockets_open(monkeypatch, tmp_path) == 2
        ended = _worker(tmp_path, 3, stay=False)  # exits by itself after opening 3
        ended.wait(timeout=30)
        assert _sockets_open(monkeypatch, tmp_path) == 2
    finally:
        alive.stdin.close()
        alive.wait(timeout=30)
    assert _sockets_open(monkeypatch, tmp_path) == 0


# --- the figures behind the alerts -----------------------------------------------------


@pytest.mark.django_db
def test_metrics_report_readiness_and_postgresql_connections(client, settings):
    settings.METRICS_TOKEN = TOKEN
    response = client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200
    text = response.content.decode()
    assert 'matika_ready{check="database"} 1.0' in text
    assert 'matika_ready{check="redis"} 1.0' in text
    assert 'matika_ready{check="celery"}' in text
    limit = [line for line in text.splitlines() if line.startswith("matika_postgres_max_conn")]
    used = [line for line in text.splitlines() if line.startswith("matika_postgres_connections ")]
    assert limit and float(limit[0].split()[1]) >= 1
    assert used and float(used[0].split()[1]) >= 1


@pytest.mark.django_db
def test_the_redis_master_the_sentinels_name_is_reported(client, settings, monkeypatch):
    from redis.sentinel import Sentinel

    from config import health

    settings.METRICS_TOKEN = TOKEN
    monkeypatch.setattr(
        health, "redis_urls", lambda: {"heartbeats": "redis-sentinel://s1:26379+s2:26379/matika/0"}
    )
    monkeypatch.setattr(Sentinel, "discover_master", lambda self, name: ("10.0.0.7", 6379))
    text = client.get("/metrics", headers={"authorization": f"Bearer {TOKEN}"}).content.decode()
    assert 'matika_redis_master{address="10.0.0.7:6379",master="matika"} 1.0' in text


# --- promtool: the rules file and the dashboard's expressions --------------------------


@pytest.fixture(scope="module")
def promtool() -> str:
    found = shutil.which("promtool")
    if not found:
        message = "NO PROMTOOL: apt-get install prometheus (tests/tools/ensure_promtool.sh)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


def _alerts() -> dict[str, str]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return {rule["alert"]: rule["expr"] for group in groups for rule in group["rules"]}


def _run_promtool_tests(promtool, tmp_path, tests: list[dict]) -> None:
    path = tmp_path / "tests.yml"
    path.write_text(yaml.safe_dump({"evaluation_interval": "1m", "tests": tests}))
    result = subprocess.run(
        [promtool, "test", "rules", str(path)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_promtool_accepts_the_rules_and_prometheus_loads_them(promtool, tmp_path):
    result = subprocess.run(
        [promtool, "check", "rules", str(RULES)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS: 7 rules found" in result.stdout
    config = yaml.safe_load((shipped.PLATFORM / "prometheus.yml").read_text())
    assert config["rule_files"] == [RULES.name]
    k8s = yaml.safe_load((shipped.PLATFORM / "prometheus-k8s.yml").read_text())
    assert k8s["rule_files"] == [RULES.name]
    # The compose configuration as it ships, with only the token file's place moved.
    for job in config["scrape_configs"]:
        job["authorization"]["credentials_file"] = str(tmp_path / "token")
    (tmp_path / "token").write_text(TOKEN)
    shutil.copy(RULES, tmp_path / RULES.name)
    (tmp_path / "prometheus.yml").write_text(yaml.safe_dump(config))
    result = subprocess.run(
        [promtool, "check", "config", str(tmp_path / "prometheus.yml")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    mounts = yaml.safe_load((shipped.PLATFORM / "compose.scale.yaml").read_text())["services"][
        "prometheus"
    ]["volumes"]
    assert f"./{RULES.name}:/etc/prometheus/{RULES.name}:ro" in mounts


def _web(name: str, instance: str, labels: str = "") -> str:
    return f'{name}{{job="matika-web",instance="{instance}:8000"{labels}}}'


# Each alert: series where it must fire, series where it must stay silent.
SITUATIONS = {
    "MatikaWebTargetDown": (
        [(_web("up", "web-1"), "1 1 0 0 0 0 0 0"), (_web("up", "web-2"), "1x8")],
        [(_web("up", "web-1"), "1x8"), (_web("up", "web-2"), "1x8")],
    ),
    "MatikaNotReady": (
        [
            (_web("matika_ready", "web-1", ',check="celery"'), "1 1 0 0 0 0 0 0"),
            (_web("matika_ready", "web-2", ',check="celery"'), "1 1 0 0 0 0 0 0"),
        ],
        [(_web("matika_ready", "web-1", ',check="celery"'), "1x8")],
    ),  # fmt: skip
    "MatikaServerErrors": (
        [
            (
                _web(
                    "django_http_responses_total_by_status_view_method_total",
                    "web-1",
                    ',status="200",view="v",method="GET"',
                ),
                "0+600x8",
            ),
            (
                _web(
                    "django_http_responses_total_by_status_view_method_total",
                    "web-1",
                    ',status="500",view="v",method="GET"',
                ),
                "0+60x8",
            ),
        ],
        [
            (
                _web(
                    "django_http_responses_total_by_status_view_method_total",
                    "web-1",
                    ',status="200",view="v",method="GET"',
                ),
                "0+600x8",
            ),
            (
                _web(
                    "django_http_responses_total_by_status_view_method_total",
                    "web-1",
                    ',status="500",view="v",method="GET"',
                ),
                "0+1x8",
            ),
        ],
    ),  # fmt: skip
    "MatikaSocketsDroppedSharply": (
        [
            (_web("matika_room_sockets_open", "web-1"), "30 30 30 30 30 30 30 30"),
            (_web("matika_room_sockets_open", "web-2"), "30 30 30 30 30 30 stale stale"),
        ],
        [
            (_web("matika_room_sockets_open", "web-1"), "30 30 30 30 30 30 30 25"),
            (_web("matika_room_sockets_open", "web-2"), "30 30 30 30 30 30 30 25"),
        ],
    ),  # fmt: skip
    "MatikaCeleryQueueGrowing": (
        [
            (_web("matika_celery_queue_length", "web-1", ',queue="celery"'), "40+10x8"),
            (_web("matika_celery_queue_length", "web-2", ',queue="celery"'), "40+10x8"),
        ],
        [(_web("matika_celery_queue_length", "web-1", ',queue="celery"'), "120-10x8")],
    ),  # fmt: skip
    "MatikaRedisFailover": (
        [
            (
                _web("matika_redis_master", "web-1", ',master="matika",address="10.0.0.7:6379"'),
                "1 1 1 1 _ _ _ _",
            ),
            (
                _web("matika_redis_master", "web-1", ',master="matika",address="10.0.0.8:6379"'),
                "_ _ _ _ 1 1 1 1",
            ),
        ],
        [
            (
                _web("matika_redis_master", "web-1", ',master="matika",address="10.0.0.7:6379"'),
                "1x8",
            ),
            (
                _web("matika_redis_master", "web-2", ',master="matika",address="10.0.0.7:6379"'),
                "1x8",
            ),
        ],
    ),  # fmt: skip
    "MatikaPostgresConnectionsNearLimit": (
        [
            (_web("matika_postgres_connections", "web-1"), "90x8"),
            (_web("matika_postgres_max_connections", "web-1"), "100x8"),
            (_web("matika_postgres_connections", "web-2"), "90x8"),
            (_web("matika_postgres_max_connections", "web-2"), "100x8"),
        ],
        [
            (_web("matika_postgres_connections", "web-1"), "40x8"),
            (_web("matika_postgres_max_connections", "web-1"), "100x8"),
            (_web("matika_postgres_connections", "web-2"), "40x8"),
            (_web("matika_postgres_max_connections", "web-2"), "100x8"),
        ],
    ),  # fmt: skip
}


def test_every_alert_fires_on_its_situation_and_only_then(promtool, tmp_path):
    alerts = _alerts()
    assert set(alerts) == set(SITUATIONS)
    tests = []
    for name, (firing, quiet) in SITUATIONS.items():
        for series, expected in ((firing, [{"labels": "{}", "value": 1}]), (quiet, [])):
            tests.append(
                {
                    "interval": "1m",
                    "input_series": [{"series": s, "values": v} for s, v in series],
                    "promql_expr_test": [
                        {
                            "expr": f"count({alerts[name]})",
                            "eval_time": "7m",
                            "exp_samples": expected,
                        }  # fmt: skip
                    ],
                }
            )
    _run_promtool_tests(promtool, tmp_path, tests)


def test_the_dashboards_celery_panels_count_every_task_once(promtool, tmp_path):
    """Each web process reports the same Celery figures (read from Redis): two
    web targets must not show twice the tasks."""
    panels = {
        panel["title"]: [target["expr"] for target in panel.get("targets", [])]
        for panel in json.loads(DASHBOARD.read_text())["panels"]
    }
    celery = {t: e for t, exprs in panels.items() for e in exprs if "matika_celery_" in e}
    assert len(celery) == 3
    series = []
    for web in ("web-1", "web-2"):  # 60 tasks a minute, 4 a minute failed, 70 waiting
        series += [
            {"series": _web("matika_celery_tasks_total", web, ',task="t",state="succeeded"'),
             "values": "0+15x300"},
            {"series": _web("matika_celery_tasks_total", web, ',task="t",state="failed"'),
             "values": "0+1x300"},
            {"series": _web("matika_celery_queue_length", web, ',queue="celery"'),
             "values": "70x300"},
        ]  # fmt: skip
    expected = {
        "Celery tasks per minute by state": [
            {"labels": '{state="failed"}', "value": 4},
            {"labels": '{state="succeeded"}', "value": 60},
        ],
        "Celery queue length": [{"labels": '{queue="celery"}', "value": 70}],
        "Failed Celery tasks by task (last hour)": [{"labels": '{task="t"}', "value": 240}],
    }
    tests = [
        {
            "interval": "15s",
            "input_series": series,
            "promql_expr_test": [
                {"expr": expr, "eval_time": "70m", "exp_samples": expected[title]}
                for title, expr in celery.items()
            ],
        }
    ]
    _run_promtool_tests(promtool, tmp_path, tests)
