"""Browser fixtures for poker: a page whose browser holds a player profile."""

from pathlib import Path

import pytest
from django.conf import settings

from tests.poker_web.helpers import player_cookie

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-results" / "poker"


@pytest.fixture
def player_page(transactional_db, page, asgi_server):
    """The Playwright page of a browser with a nickname (so the server leads games)."""
    profile, cookie = player_cookie()
    page.context.add_cookies(
        [{"name": settings.PLAYER_COOKIE_NAME, "value": cookie, "url": asgi_server}]
    )
    page.profile = profile
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda message: errors.append(message.text) if message.type == "error" else None,
    )
    yield page
    unexpected = [e for e in errors if "net::ERR_FAILED" not in e and "Failed to load" not in e]
    assert not unexpected, f"JavaScript errors on the page: {unexpected}"


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
