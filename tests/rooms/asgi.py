"""The project's ASGI application with the test-only game registered (tests, bench)."""

from config.asgi import application  # noqa: F401  (sets Django up first)
from tests.rooms import testgame  # noqa: F401,E402  (registers the test game)
