"""Every Redis connection of the site is built here: from a URL, or through Sentinel.

Two ways to name Redis (docs/operations.md):

- ``REDIS_URL`` (and optionally one URL per role: ``CHANNELS_REDIS_URL``,
  ``CACHE_REDIS_URL``, ``CELERY_BROKER_URL``, ``HEALTH_REDIS_URL``);
- ``REDIS_SENTINELS="host:port,host:port,host:port"`` with
  ``REDIS_SENTINEL_MASTER=<name>``: every use -- the channel layer, the cache
  (so the rate limits and the socket counters), the Celery broker and results,
  the health checks and heartbeats -- asks the Sentinels for the current
  master and follows a failover. The Redis URLs are ignored then, even when set.

Inside the settings a Sentinel-managed Redis is written as a URL of its own,
``redis-sentinel://host:port+host:port/<master>/<db>`` (no commas: Django's cache
splits its LOCATION on them), so code that keys
things by "the URL of this role" (the health checks) works alike for both;
``client()`` turns either kind into a ``redis.Redis``. Celery has its own
spelling (``sentinel://host:port;sentinel://...`` plus ``master_name`` in the
transport options): ``celery_settings()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

SCHEME = "redis-sentinel"


class RedisConfigError(ValueError):
    """REDIS_SENTINELS or REDIS_SENTINEL_MASTER cannot be used as written."""


def parse_sentinels(value: str) -> list[tuple[str, int]]:
    """``"h1:26379, h2:26379"`` -> ``[("h1", 26379), ("h2", 26379)]``; empty -> []."""
    found = []
    for item in value.split(","):
        item = item.strip()
        if not item:
            continue
        host, sep, port = item.rpartition(":")
        host = host.strip("[]")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise RedisConfigError(f"REDIS_SENTINELS: {item!r} is not host:port")
        found.append((host, int(port)))
    return found


def sentinel_url(sentinels: list[tuple[str, int]], master: str, db: int = 0) -> str:
    if not sentinels:
        raise RedisConfigError("REDIS_SENTINELS names no Sentinel")
    if not master or "/" in master:
        raise RedisConfigError("REDIS_SENTINEL_MASTER must name the master (no '/')")
    hosts = "+".join(f"{host}:{port}" for host, port in sentinels)
    return f"{SCHEME}://{hosts}/{master}/{db}"


def is_sentinel(url: str | None) -> bool:
    return url is not None and url.startswith(SCHEME + "://")


def parse_sentinel_url(url: str) -> tuple[list[tuple[str, int]], str, int]:
    """(sentinels, master name, db) of a ``redis-sentinel://`` URL."""
    parts = urlsplit(url)
    if parts.scheme != SCHEME:
        raise RedisConfigError(f"not a {SCHEME}:// URL")
    path = [piece for piece in parts.path.split("/") if piece]
    if not path:
        raise RedisConfigError("the Sentinel URL names no master")
    db = int(path[1]) if len(path) > 1 and path[1].isdigit() else 0
    return parse_sentinels(parts.netloc.replace("+", ",")), path[0], db


def from_environment(environ: Mapping[str, str]) -> dict:
    """The Redis settings for ``config/settings/base.py``.

    Keys: ``REDIS_SENTINELS``, ``REDIS_SENTINEL_MASTER`` and, for each role, its
    URL: ``REDIS_URL``, ``CHANNELS_REDIS_URL``, ``CACHE_REDIS_URL``,
    ``HEALTH_REDIS_URL`` (the Celery ones come from ``celery_settings``).
    """
    sentinels = parse_sentinels(environ.get("REDIS_SENTINELS", ""))
    master = environ.get("REDIS_SENTINEL_MASTER", "").strip()
    if sentinels:
        if not master:
            raise RedisConfigError("REDIS_SENTINELS is set: REDIS_SENTINEL_MASTER must be set too")
        url = sentinel_url(sentinels, master)
        return {
            "REDIS_SENTINELS": sentinels,
            "REDIS_SENTINEL_MASTER": master,
            "REDIS_URL": url,
            "CHANNELS_REDIS_URL": url,
            "CACHE_REDIS_URL": url,
            "HEALTH_REDIS_URL": url,
        }
    url = environ.get("REDIS_URL", "redis://127.0.0.1:56379/0")
    return {
        "REDIS_SENTINELS": [],
        "REDIS_SENTINEL_MASTER": master,
        "REDIS_URL": url,
        "CHANNELS_REDIS_URL": environ.get("CHANNELS_REDIS_URL") or url,
        "CACHE_REDIS_URL": environ.get("CACHE_REDIS_URL") or url,
        "HEALTH_REDIS_URL": environ.get("HEALTH_REDIS_URL") or "",
    }


def celery_settings(environ: Mapping[str, str], redis_url: str) -> dict:
    """``CELERY_BROKER_URL``, ``CELERY_RESULT_BACKEND`` and, with Sentinel, their
    transport options naming the master."""
    if is_sentinel(redis_url):
        sentinels, master, db = parse_sentinel_url(redis_url)
        url = ";".join(f"sentinel://{host}:{port}/{db}" for host, port in sentinels)
        # A killed master's container may vanish without closing the TCP
        # connections: without a socket timeout a synchronous command (a
        # publish, kombu's restore of unacknowledged messages) then waits
        # forever on the dead connection, and the worker's loop -- its
        # heartbeat with it -- stalls after a failover (tests/containers/).
        options = {
            "master_name": master,
            "socket_timeout": 10,
            "socket_connect_timeout": 5,
            "socket_keepalive": True,
        }
        return {
            "CELERY_BROKER_URL": url,
            "CELERY_RESULT_BACKEND": url,
            "CELERY_BROKER_TRANSPORT_OPTIONS": options,
            "CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS": dict(options),
        }
    broker = environ.get("CELERY_BROKER_URL") or redis_url
    return {
        "CELERY_BROKER_URL": broker,
        "CELERY_RESULT_BACKEND": environ.get("CELERY_RESULT_BACKEND") or broker,
    }


def channel_layer_host(url: str, **options: Any) -> dict:
    """One ``hosts`` entry for channels_redis (``address`` or Sentinel)."""
    if is_sentinel(url):
        sentinels, master, db = parse_sentinel_url(url)
        return {"sentinels": sentinels, "master_name": master, "db": db, **options}
    return {"address": url, **options}


def cache_settings(url: str, **extra: Any) -> dict:
    """A ``CACHES`` entry for Django's Redis cache, through Sentinel when ``url`` says so."""
    entry = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url, **extra}
    if is_sentinel(url):
        entry["OPTIONS"] = {
            **entry.get("OPTIONS", {}),
            "pool_class": "config.redisconf.SentinelPool",
        }
    return entry


class SentinelPool:
    """``pool_class`` for Django's Redis cache: ``from_url`` of a ``redis-sentinel://``
    URL gives a connection pool that always talks to the current master."""

    @classmethod
    def from_url(cls, url: str, **options: Any) -> Any:
        from redis.sentinel import Sentinel, SentinelConnectionPool

        sentinels, master, db = parse_sentinel_url(url)
        timeouts = {
            k: options[k] for k in ("socket_timeout", "socket_connect_timeout") if k in options
        }
        return SentinelConnectionPool(master, Sentinel(sentinels, **timeouts), db=db, **options)


def client(url: str, *, timeout: float = 2.0) -> Any:
    """A ``redis.Redis`` for ``url`` (``redis://``, ``rediss://`` or ``redis-sentinel://``),
    with ``timeout`` seconds to connect and per command."""
    import redis

    if is_sentinel(url):
        from redis.sentinel import Sentinel

        sentinels, master, db = parse_sentinel_url(url)
        times = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
        return Sentinel(sentinels, sentinel_kwargs=dict(times), **times).master_for(
            master, db=db, **times
        )
    return redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
