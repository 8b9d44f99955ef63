"""Test settings for the poker room servers: the project's, plus the poker room URLs
until config/urls.py includes ``games.poker.room_urls`` (see urls.py)."""

from config.settings.test import *  # noqa: F403

ROOT_URLCONF = "tests.poker_room.urls"
