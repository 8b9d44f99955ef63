"""Shared helpers of the poker web tests: a player with a nickname, as a browser has."""

from django.conf import settings
from django.core import signing

from accounts import identity, services


def player_cookie(nickname: str = "Rýchly Sokol"):
    """Create a profile the way the profile page does; returns it and the signed cookie value."""
    profile, token = services.create_profile(browser_token=None, nickname=nickname)
    return profile, signing.dumps(token, salt=identity.SALT)


def login_client(client, nickname: str = "Rýchly Sokol"):
    profile, cookie = player_cookie(nickname)
    client.cookies[settings.PLAYER_COOKIE_NAME] = cookie
    return profile
