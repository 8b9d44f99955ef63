"""The home page's code box obeys the code-guessing limits (issue 31).

It has no lookup of its own: a miss typed there is one miss against the browser
and the address's ceiling, shared with the class and room join pages, and past
the limit it refuses valid codes too (the refusal tells nothing).
"""

from __future__ import annotations

import itertools
import random
import time
from types import SimpleNamespace

import django_ratelimit.core
import pytest
from django.test import Client

from classrooms import launch
from games.rooms import services as rooms
from tests.classrooms import factories

pytestmark = pytest.mark.django_db

_hosts = itertools.count(1)
_network = random.Random().randrange(1, 250)
PER_BROWSER = 3
PER_ADDRESS = 5
CEILING = 7


@pytest.fixture(autouse=True)
def small_limits(settings, monkeypatch):
    settings.MATIKA_LIMITS = {
        "code_misses_identity": f"{PER_BROWSER}/15m",
        "code_misses_address": f"{PER_ADDRESS}/15m",
        "code_misses_address_all": f"{CEILING}/15m",
    }
    now = time.time()  # one rate-limit window for the whole test
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))


@pytest.fixture
def address() -> str:
    number = next(_hosts)
    return f"10.{_network}.{200 + number // 250}.{number % 250 + 1}"


def _client(address: str) -> Client:
    return Client(REMOTE_ADDR=address, headers={"accept-language": "en"})


def _home(client: Client, code: str):
    return client.get("/classes/code/", {"code": code})


def test_right_codes_land_in_the_right_place_and_are_not_counted(address):
    teacher = factories.make_teacher("kod@skola.cz")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    pupil = _client(address)
    for _ in range(PER_ADDRESS + 2):  # valid codes never count
        answer = _home(pupil, classroom.join_code.lower())
        assert answer.status_code == 302
        assert answer["Location"] == f"/classes/join/{classroom.join_code}/"
        answer = _home(pupil, f" {room.code[:3]}-{room.code[3:]} ")
        assert answer.status_code == 302
        assert answer["Location"] == f"/rooms/{room.code}/"
    assert _home(pupil, "").status_code == 400


def test_a_finished_game_looks_like_an_unknown_code(address):
    teacher = factories.make_teacher("konec@skola.cz")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    rooms.end_room(room=room, actor=room.host)
    finished = _home(_client(address), room.code)
    unknown = _home(_client(address), "ZZZZZZ")
    assert finished.status_code == unknown.status_code == 404
    message = b"No class or game has this code. Check it and try again."
    assert message in finished.content and message in unknown.content
    assert b"Traceback" not in finished.content


def test_misses_on_the_home_page_count_with_the_join_pages(address):
    classroom = factories.make_class(factories.make_teacher("hadac@skola.cz"))
    guesser = _client(address)  # no cookies: the address's bucket
    for guess in range(PER_ADDRESS - 1):
        assert _home(guesser, f"ZZZ{guess:03d}").status_code == 404
    # The last miss allowed, on the class join page: the budget is one.
    assert guesser.post("/classes/join/", {"code": "ZZZ999"}).status_code == 400
    refused = _home(guesser, classroom.join_code)
    assert refused.status_code == 429
    assert b"Too many wrong codes" in refused.content
    # ...and the join pages refuse it too, the room page as well.
    assert guesser.post("/classes/join/", {"code": classroom.join_code}).status_code == 429
    assert guesser.get("/rooms/", {"code": "ZZZ998"}).status_code == 429


def test_misses_typed_at_the_room_box_count_on_the_home_page(address):
    guesser = _client(address)
    for guess in range(PER_ADDRESS):
        assert guesser.get("/rooms/", {"code": f"YYY{guess:03d}"}).status_code == 404
    assert _home(guesser, "YYY999").status_code == 429


def test_new_browsers_at_one_address_meet_the_ceiling(address):
    """Browsers with a profile each have a bucket of their own, but every miss
    counts once more against the address's ceiling over all misses."""
    misses = 0
    for number in range(CEILING):
        pupil = _client(address)
        made = pupil.post("/accounts/player/new/", {"nickname": f"Guesser Nick {number}"})
        assert made.status_code == 302
        for _ in range(PER_BROWSER - 1):
            if misses == CEILING:
                break
            assert _home(pupil, f"X{misses:05d}").status_code == 404
            misses += 1
        if misses == CEILING:
            break
    assert _home(_client(address), "XXXXXX").status_code == 429
    fresh = _client(address)
    fresh.post("/accounts/player/new/", {"nickname": "Late Guesser"})
    assert _home(fresh, "XXXXXY").status_code == 429
