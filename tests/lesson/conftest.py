from tests.poker_web.conftest import artifacts, player_page  # noqa: F401
