import pytest


@pytest.fixture
def admin_client(db, django_user_model):
    from django.test import Client

    client = Client(headers={"accept-language": "en"})
    client.force_login(django_user_model.objects.create_superuser("admin@skola.cz", "Adm-1234"))
    return client


@pytest.fixture
def player_page(transactional_db, page, asgi_server):
    """A Chromium page whose browser holds a nickname; JavaScript errors fail the test."""
    from django.conf import settings

    from tests.poker_web.helpers import player_cookie

    profile, cookie = player_cookie("Denná Sova")
    page.context.add_cookies(
        [{"name": settings.PLAYER_COOKIE_NAME, "value": cookie, "url": asgi_server}]
    )
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
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


@pytest.fixture(autouse=True)
def fresh_rank_cache():
    """Ranks below the top reuse a cached count (selectors.AHEAD_CACHE_SECONDS);
    each test starts without one (the test Redis is this session's own)."""
    from django.core.cache import cache

    cache.clear()
    yield
