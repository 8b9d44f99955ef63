"""The project's ASGI application with the test-only game registered (tests, bench)."""

from config.asgi import application  # noqa: F401  (sets Django up first)
from core import registry as game_registry  # noqa: E402
from tests.plugin.tinygame.game import SPEC as TINY_GAME  # noqa: E402
from tests.rooms import testgame  # noqa: F401,E402  (registers the test game)

# The plug-in test game, through the registry alone (tests/plugin/).
game_registry.register(TINY_GAME)
