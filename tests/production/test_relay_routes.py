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


def websocket_routes(settings_module: str, **env: str) -> list[str]:
    full = {k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "DEBUG"}}
    full.update(PROD_ENV, DJANGO_SETTINGS_MODULE=settings_module, **env)
    result = subprocess.run(
        [sys.executable, "-c", LIST_ROUTES],
        cwd=shipped.BASE_DIR,
        env=full,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_routes_no_echo_socket():
    routes = websocket_routes("config.settings.prod")
    assert not [route for route in routes if "echo" in route]
    assert any("ws/rooms/" in route for route in routes)


def test_production_routes_no_echo_socket_even_with_debug_in_the_environment():
    routes = websocket_routes("config.settings.prod", DEBUG="true")
    assert not [route for route in routes if "echo" in route]


def test_test_and_development_settings_route_the_echo_socket():
    assert "ws/echo/<slug:group>/" in websocket_routes("config.settings.test")
    assert "ws/echo/<slug:group>/" in websocket_routes("config.settings.dev")
