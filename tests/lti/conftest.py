"""Fixtures of the LTI tests: a local LTI 1.3 platform (tests/lti/lms.py) per test.

Each test gets its own platform (its own server, port, issuer and state); only the
RSA keys are reused from earlier tests (``lms.KEYS``), never by two platforms alive
at the same time: generating them was most of the cost of a platform."""

from collections.abc import Callable, Iterator

import pytest

from tests.lti.lms import LMS


@pytest.fixture
def lms() -> Iterator[LMS]:
    """A fresh local LMS (Moodle-like) on 127.0.0.1, stopped after the test."""
    platform = LMS()
    yield platform
    platform.stop()
    platform.release_keys()


@pytest.fixture
def make_lms() -> Iterator[Callable[..., LMS]]:
    """Start more platforms in one test: ``make_lms(host="localhost")`` (a launch that is
    cross-site for a browser when the tool is on 127.0.0.1), ``make_lms(product_family_code="canvas")``."""
    started: list[LMS] = []

    def make(**kwargs) -> LMS:
        platform = LMS(**kwargs)
        started.append(platform)
        return platform

    yield make
    for platform in started:
        platform.stop()
    for platform in started:
        platform.release_keys()
