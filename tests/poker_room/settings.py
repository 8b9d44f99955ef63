"""Test settings for the poker room servers: the project's, plus the poker room URLs
until config/urls.py includes ``games.poker.room_urls`` (see urls.py)."""

from config.settings.test import *  # noqa: F403

ROOT_URLCONF = "tests.poker_room.urls"

# redis-py 8 reads with a 5 s socket timeout by default, shorter than the channel
# layer's blocking BZPOPMIN (5 s): every consumer idle for five seconds crashes and
# its WebSocket drops (django/channels_redis#422). Its asyncio pool also refuses
# (MaxConnectionsError) beyond 100 connections instead of waiting, which a
# process with hundreds of sockets reaches (bench/RESULTS-poker-group.md).
# Reported to the lead for config/settings/base.py; the test server runs with these fixes.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {"address": REDIS_URL, "socket_timeout": 30, "max_connections": 2000}  # noqa: F405
            ],
            "prefix": "matika",
            # All sockets of a process share one Redis queue in channels_redis; its
            # default capacity (100) drops events once a busy process lags behind.
            "capacity": 5000,
        },
    }
}
