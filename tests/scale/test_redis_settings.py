"""REDIS_SENTINELS + REDIS_SENTINEL_MASTER replace REDIS_URL for every Redis use (issue 30)."""

import json
import os
import subprocess
import sys

import pytest

from config import redisconf
from tests.conftest import BASE_DIR

SENTINEL_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.prod",
    "SECRET_KEY": "sentinel-settings-test-" + "k" * 40,
    "ALLOWED_HOSTS": "matika.example.org",
    "DATABASE_URL": "postgres://matika@db.invalid:5432/matika",
    # ignored once the Sentinels are named, even when set
    "REDIS_URL": "redis://redis.invalid:6379/0",
    "CHANNELS_REDIS_URL": "redis://channels.invalid:6379/0",
    "REDIS_SENTINELS": "s1.invalid:26379, s2.invalid:26379,s3.invalid:26380",
    "REDIS_SENTINEL_MASTER": "matika",
}


def settings_of(env: dict) -> dict:
    drop = {"DJANGO_ALLOW_ASYNC_UNSAFE", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"}
    drop |= {"CACHE_REDIS_URL", "HEALTH_REDIS_URL"}
    full = {k: v for k, v in os.environ.items() if k not in drop}
    full.update(env)
    code = (
        # Settings and config.health need no app (no django.setup(): seconds of CPU).
        "import json; from django.conf import settings as s; "
        "from config import health; "
        "print(json.dumps({'layer': s.CHANNEL_LAYERS['default'], 'cache': s.CACHES['default'], "
        "'broker': s.CELERY_BROKER_URL, 'results': s.CELERY_RESULT_BACKEND, "
        "'broker_options': s.CELERY_BROKER_TRANSPORT_OPTIONS, "
        "'result_options': s.CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS, "
        "'health': health.redis_urls()}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=full, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_every_redis_use_goes_through_the_sentinels():
    s = settings_of(SENTINEL_ENV)
    sentinels = [["s1.invalid", 26379], ["s2.invalid", 26379], ["s3.invalid", 26380]]
    (host,) = s["layer"]["CONFIG"]["hosts"]
    assert host["sentinels"] == sentinels and host["master_name"] == "matika"
    assert "address" not in host
    assert s["cache"]["OPTIONS"]["pool_class"] == "config.redisconf.SentinelPool"
    assert s["cache"]["LOCATION"].startswith("redis-sentinel://")
    expected = "sentinel://s1.invalid:26379/0;sentinel://s2.invalid:26379/0;"
    assert s["broker"] == s["results"] == expected + "sentinel://s3.invalid:26380/0"
    assert s["broker_options"] == s["result_options"]
    assert s["broker_options"]["master_name"] == "matika"
    # a master that vanishes without closing its connections never stalls a worker
    assert s["broker_options"]["socket_timeout"] and s["broker_options"]["socket_connect_timeout"]
    # health checks and heartbeats: one Sentinel-managed master for every role
    assert set(s["health"].values()) == {s["cache"]["LOCATION"]}
    assert "invalid:6379" not in json.dumps(s)


def test_sentinel_clients_and_pools_follow_the_named_master():
    url = redisconf.sentinel_url([("127.0.0.1", 26379)], "matika", 3)
    client = redisconf.client(url, timeout=1)
    pool = client.connection_pool
    assert pool.service_name == "matika"
    assert pool.connection_kwargs["db"] == 3
    cache_pool = redisconf.SentinelPool.from_url(url, socket_timeout=1)
    assert cache_pool.service_name == "matika"


@pytest.mark.parametrize(
    "value", ["s1", "s1:port", ":26379", "s1:70000", "s1:26379,s2"], ids=lambda v: v or "empty"
)
def test_bad_sentinel_lists_are_refused_with_a_clear_error(value):
    with pytest.raises(redisconf.RedisConfigError, match="REDIS_SENTINELS"):
        redisconf.from_environment({"REDIS_SENTINELS": value, "REDIS_SENTINEL_MASTER": "m"})


def test_sentinels_without_a_master_name_are_refused():
    with pytest.raises(redisconf.RedisConfigError, match="REDIS_SENTINEL_MASTER"):
        redisconf.from_environment({"REDIS_SENTINELS": "s1:26379"})


def test_without_sentinels_the_urls_stay_as_they_were():
    found = redisconf.from_environment({"REDIS_URL": "redis://r:6379/1"})
    assert found["CHANNELS_REDIS_URL"] == found["CACHE_REDIS_URL"] == "redis://r:6379/1"
    assert redisconf.celery_settings({}, "redis://r:6379/1") == {
        "CELERY_BROKER_URL": "redis://r:6379/1",
        "CELERY_RESULT_BACKEND": "redis://r:6379/1",
    }
