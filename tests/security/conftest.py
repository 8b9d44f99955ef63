"""Fixtures for the abuse and privacy tests: the real limits, one school address.

The suite's settings make the limits generous (every test runs from 127.0.0.1
against one Redis); here every test gets the real rates and an address of its
own, so counters of one test never reach another. django-ratelimit's clock stands
still during each test, so a test that counts up to a limit stays in one window.
"""

from __future__ import annotations

import itertools
import random
import time
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.test import Client

_hosts = itertools.count(1)
_network = random.Random().randrange(1, 250)


@pytest.fixture(autouse=True)
def real_limits(settings):
    settings.MATIKA_LIMITS = {}


#: The address's ceiling of code misses in the tests that use it up: the real one
#: is 100 (accounts.limits.code_misses(), asserted in test_code_limits.py); the same
#: rule at 5 takes 6 requests instead of 101.
SMALL_ADDRESS_CEILING = 5


@pytest.fixture
def small_address_ceiling(settings) -> int:
    settings.MATIKA_LIMITS = {
        **settings.MATIKA_LIMITS,
        "code_misses_address": f"{SMALL_ADDRESS_CEILING}/15m",
    }
    return SMALL_ADDRESS_CEILING


@pytest.fixture(autouse=True)
def one_window(monkeypatch):
    """django-ratelimit counts in fixed windows (a minute, 15 minutes, an hour): a
    test that counts up to a limit must not straddle two of them, or its count
    starts over and the test fails by the clock. The library's clock (and nothing
    else's) stands still in this process; a live server process keeps its own."""
    now = time.time()
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


@pytest.fixture
def address() -> str:
    """A fresh IPv4 address (as the trusted proxy would hand it to Django)."""
    number = next(_hosts)
    return f"10.{_network}.{number // 250}.{number % 250 + 1}"


@pytest.fixture
def browser(address):
    """A new browser (no cookies yet) behind ``address``."""

    def make(at: str | None = None) -> Client:
        return Client(REMOTE_ADDR=at or address, headers={"accept-language": "en"})

    return make
