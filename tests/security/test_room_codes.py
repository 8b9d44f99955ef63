"""Room codes: every lookup path counts misses and answers the same for unknown,
finished and expired codes to someone who is not in the room (issue 16, section 2).

Today the room page, join, ``qr.svg``, ``left/`` and ``standings.json`` tell a
finished or expired room from an unknown code, and ``qr.svg``, ``left/`` and
``standings.json`` answer while the address is limited.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.rooms import services as room_services
from games.rooms.models import Room
from tests.classrooms import factories
from tests.security.conftest import SMALL_ADDRESS_CEILING

pytestmark = pytest.mark.django_db

# The address's ceiling at 5, not the real 100, in the tests that use it up
# (``small_address_ceiling``, tests/security/conftest.py).
MISSES_PER_ADDRESS = SMALL_ADDRESS_CEILING


def _room(status: str | None = None, *, expired_clock: bool = False) -> Room:
    host = factories.make_player()
    room = room_services.create_room(game="poker", mode="group", host=host, settings={})
    if status is not None:
        Room.objects.filter(pk=room.pk).update(status=status)
    if expired_clock:  # past its expiry, before the task marked it
        Room.objects.filter(pk=room.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    room.refresh_from_db()
    return room


def _paths(code: str) -> list[tuple[str, str]]:
    return [
        ("get", f"/rooms/{code}/"),
        ("post", f"/rooms/{code}/join/"),
        ("get", f"/rooms/{code}/qr.svg"),
        ("get", f"/rooms/{code}/left/"),
        ("get", f"/poker/room/{code}/standings.json"),
        ("get", f"/poker/room/{code}/projector/"),
    ]


def _answer(client, method: str, path: str) -> tuple[int, bytes]:
    response = getattr(client, method)(
        path, {"nickname": "Curious Nick"} if method == "post" else None
    )
    # The masked CSRF token differs on every page; everything else must not.
    return response.status_code, re.sub(rb'value="[A-Za-z0-9]{64}"', b"", response.content)


@pytest.mark.parametrize("anonymous", [True, False])
def test_unknown_finished_and_expired_codes_answer_alike(browser, anonymous):
    finished = _room(Room.Status.FINISHED)
    expired = _room(Room.Status.EXPIRED)
    overdue = _room(expired_clock=True)
    unknown = "ZZZZZ2"
    for index, (method, path) in enumerate(_paths(unknown)):
        # A visitor per path: four misses each stay far below any limit.
        visitor = browser()
        if not anonymous:
            created = visitor.post("/accounts/player/new/", {"nickname": f"Visitor {index}"})
            assert created.status_code == 302
            visitor.get("/accounts/player/")  # shows (and so uses up) the greeting
        answers = set()
        for code in (unknown, finished.code, expired.code, overdue.code):
            status, body = _answer(visitor, method, _paths(code)[index][1])
            answers.add((status, body.replace(code.encode(), b"CODE")))
        assert len(answers) == 1, (path, answers)
        ((status, _body),) = answers
        assert status == 404, path


def test_a_member_still_reaches_their_finished_room(browser):
    pupil = browser()
    room = _room()
    assert pupil.post(f"/rooms/{room.code}/join/", {"nickname": "Member Nick"}).status_code == 302
    Room.objects.filter(pk=room.pk).update(status=Room.Status.FINISHED)
    assert pupil.get(f"/rooms/{room.code}/").status_code == 200


@pytest.mark.parametrize(
    "path",
    [
        "/rooms/{code}/",
        "/rooms/{code}/qr.svg",
        "/rooms/{code}/left/",
        "/poker/room/{code}/standings.json",
    ],
)
@pytest.mark.usefixtures("small_address_ceiling")
def test_a_guesser_is_stopped_on_every_lookup_path(browser, path):
    live = _room()
    guesser = browser()
    for guess in range(MISSES_PER_ADDRESS):
        assert guesser.get(f"/rooms/ZZ{guess:04d}/").status_code == 404
    limited = guesser.get(path.format(code=live.code))
    assert limited.status_code in (404, 429)
    assert guesser.get(f"/rooms/{live.code}/").status_code == 429
    # Another pupil at the school, with a profile of their own, is not refused.
    pupil = browser()
    assert pupil.post("/accounts/player/new/", {"nickname": "Other Pupil"}).status_code == 302
    assert pupil.get(f"/rooms/{live.code}/").status_code == 200


@pytest.mark.usefixtures("small_address_ceiling")
def test_a_right_room_code_is_never_counted(browser):
    live = _room()
    visitor = browser()
    for _attempt in range(MISSES_PER_ADDRESS + 5):
        assert visitor.get(f"/rooms/{live.code}/").status_code == 200


@pytest.mark.usefixtures("small_address_ceiling")
def test_the_enter_box_counts_misses_like_the_room_page(browser):
    live = _room()
    guesser = browser()
    for guess in range(MISSES_PER_ADDRESS):
        assert guesser.get("/rooms/", {"code": f"ZY{guess:04d}"}).status_code == 404
    assert guesser.get("/rooms/", {"code": live.code}).status_code == 429
