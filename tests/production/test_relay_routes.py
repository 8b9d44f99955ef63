"""No open relay under production settings (issue 27 §4).

"`/ws/echo/<group>/` is live under production settings: anonymous, no socket
cap, no rate limit; 20 frames became 12,000 deliveries; pupils can use it as a
hidden chat during class games. Required: routed only under DEBUG and tests."
The routes are read from the ASGI application exactly as production builds it.
"""

import json
import os
import subprocess
import sys

import pytest

from tests.production import shipped

PROD_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.prod",
    "SECRET_KEY": "relay-routes-test-" + "k" * 40,
    "ALLOWED_HOSTS": "matika.example.org",
    "DATABASE_URL": "postgres://matika@db.invalid:5432/matika",
    "REDIS_URL": "redis://redis.invalid:6379/0",
}
LIST_ROUTES = (
    "import json, config.asgi; from config.routing import websocket_urlpatterns as p; "
    "print(json.dumps([str(r.pattern) for r in p]))"
)


# Every settings variant the tests read, each in its own process. They are
# started at once (each imports Django and the ASGI app, ~4 s of CPU): two
# cores run two at a time instead of four in a row.
VARIANTS = {
    "prod": ("config.settings.prod", {}),
    "prod with DEBUG": ("config.settings.prod", {"DEBUG": "true"}),
    "test": ("config.settings.test", {}),
    "dev": ("config.settings.dev", {}),
}


def _start(settings_module: str, **env: str) -> subprocess.Popen:
    full = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "DEBUG"}}
    full.update(PROD_ENV, DJANGO_SETTINGS_MODULE=settings_module, **env)
    return subprocess.Popen(
        [sys.executable, "-c", LIST_ROUTES],
        cwd=shipped.BASE_DIR,
        env=full,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture(scope="module")
def listed() -> dict[str, tuple[int, str, str]]:
    """(return code, stdout, stderr) of each variant's route listing."""
    running = {name: _start(module, **env) for name, (module, env) in VARIANTS.items()}
    results = {}
    for name, process in running.items():
        stdout, stderr = process.communicate(timeout=240)  # patience on a busy machine
        results[name] = (process.returncode, stdout, stderr)
    return results


def websocket_routes(listed, variant: str) -> list[str]:
    returncode, stdout, stderr = listed[variant]
    assert returncode == 0, stderr
    return json.loads(stdout.strip().splitlines()[-1])


def test_production_routes_no_echo_socket(listed):
    routes = websocket_routes(listed, "prod")
    assert not [route for route in routes if "echo" in route]
    assert any("ws/rooms/" in route for route in routes)


def test_production_routes_no_echo_socket_even_with_debug_in_the_environment(listed):
    routes = websocket_routes(listed, "prod with DEBUG")
    assert not [route for route in routes if "echo" in route]


def test_test_and_development_settings_route_the_echo_socket(listed):
    assert "ws/echo/<slug:group>/" in websocket_routes(listed, "test")
    assert "ws/echo/<slug:group>/" in websocket_routes(listed, "dev")
