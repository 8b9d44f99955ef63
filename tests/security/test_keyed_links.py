"""Keyed class and room links: an attacker burning a school's address cannot stop
a class following the teacher's link or QR code (issue 16, section 2).

"A valid code is never refused" meets "the refusal tells nothing": past its
miss limit a bucket is refused every *typed* code it is not a member of, valid
ones too. The teacher's class link and QR, and a room's share link and QR,
carry a key (an HMAC over the object and its code), and a visit by a correctly
keyed link is never counted and never refused; a wrong key is a miss.
Everything goes through HTTP from one school address.
"""

from __future__ import annotations

import html
import io
import re
from urllib.parse import urlsplit

import pytest
import segno

from classrooms.models import Membership
from games.rooms import services as room_services
from games.rooms.models import Room, Seat
from tests.classrooms import factories
from tests.security.conftest import SMALL_ADDRESS_CEILING

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("small_address_ceiling")]

MISSES_PER_IDENTITY = 10  # accounts.limits.code_misses() defaults
# The address's ceiling at 5, not the real 100 (tests/security/conftest.py).
MISSES_PER_ADDRESS = SMALL_ADDRESS_CEILING


def _burn_address(browser) -> None:
    """An attacker at the school drops cookies and guesses until the address's
    ceiling (shared by every browser there without identity) is used up."""
    attacker = browser()
    for guess in range(MISSES_PER_ADDRESS):
        assert attacker.post("/classes/join/", {"code": f"ZZZ{guess:03d}"}).status_code == 400
    assert attacker.post("/classes/join/", {"code": "ZZZ999"}).status_code == 429


def _local(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.path}?{parts.query}" if parts.query else parts.path


def _altered(link: str) -> str:
    path, key = link.split("?k=")
    return f"{path}?k={('A' if key[0] != 'A' else 'B') + key[1:]}"


# --- the class link ----------------------------------------------------------------


def _class_link(browser, classroom) -> str:
    teacher = browser()
    teacher.force_login(classroom.teacher)
    page = teacher.get(f"/classes/{classroom.pk}/").content.decode()
    links = re.findall(r'<p class="join-link"><a href="([^"]+)"', page)
    assert links, page[:500]
    link = html.unescape(links[0])
    assert f"/classes/join/{classroom.join_code}/?k=" in link
    # The projector's big QR page shows the same keyed link.
    projector = teacher.get(f"/classes/{classroom.pk}/qr/").content.decode()
    assert html.escape(link) in projector or link in projector
    return _local(link)


def test_30_pupils_follow_the_class_link_while_the_address_is_burnt(browser):
    classroom = factories.make_class(roster="")
    link = _class_link(browser, classroom)
    _burn_address(browser)
    # The typed code (and the old plain link) is refused now, right or wrong:
    # otherwise the refusal would tell the guesser which codes are valid.
    assert browser().get(f"/classes/join/{classroom.join_code}/").status_code == 429
    for number in range(30):
        pupil = browser()  # a fresh classroom computer, no cookies, same address
        page = pupil.get(link)
        assert page.status_code == 200, (number, page.content[:300])
        joined = pupil.post(
            link, {"typed_name": f"Pupil {number}", "nickname": f"Link Kid {number}"}
        )
        assert joined.status_code == 302, (number, joined.content[:300])
        assert joined["Location"] == f"/classes/{classroom.pk}/"
    assert classroom.members.filter(status=Membership.Status.PENDING).count() == 30
    # The attacker's address is still over its ceiling for typed codes.
    assert browser().post("/classes/join/", {"code": classroom.join_code}).status_code == 429


def test_a_forged_class_link_key_is_counted_as_a_miss(browser):
    classroom = factories.make_class(roster="")
    other = factories.make_class(roster="")
    link = _class_link(browser, classroom)
    other_link = _class_link(browser, other)
    forger = browser()
    assert forger.post("/accounts/player/new/", {"nickname": "Key Forger"}).status_code == 302
    forged = [
        _altered(link),  # one character changed
        f"/classes/join/{classroom.join_code}/?k=" + other_link.split("?k=")[1],  # another's key
        f"/classes/join/{classroom.join_code}/?k=x",
    ]
    for attempt in range(MISSES_PER_IDENTITY):
        # Answered like the typed code (the class is there), yet counted.
        assert forger.get(forged[attempt % len(forged)]).status_code == 200, attempt
    assert forger.get(forged[0]).status_code == 429
    assert forger.get(f"/classes/join/{classroom.join_code}/").status_code == 429
    # The right key still is never refused, even for this forger.
    assert forger.get(link).status_code == 200


def test_a_new_class_code_invalidates_the_old_link(browser):
    classroom = factories.make_class(roster="")
    link = _class_link(browser, classroom)
    teacher = browser()
    teacher.force_login(classroom.teacher)
    assert teacher.post(f"/classes/{classroom.pk}/code/regenerate/").status_code == 302
    assert browser().get(link).status_code == 404
    classroom.refresh_from_db()
    assert browser().get(_class_link(browser, classroom)).status_code == 200


# --- the room's share link ----------------------------------------------------------


def _room_and_link(browser):
    host = factories.make_player()
    room = room_services.create_room(game="poker", mode="group", host=host, settings={})
    host_browser = browser()
    assert host_browser.post("/accounts/player/continue/", {"code": host.code}).status_code == 302
    page = host_browser.get(f"/rooms/{room.code}/").content.decode()
    links = re.findall(r'<p class="room-link"><a href="([^"]+)"', page)
    assert links, page[:500]
    link = html.unescape(links[0])
    assert f"/rooms/{room.code}/?k=" in link
    # The QR code on the host's screen carries the same keyed link.
    buffer = io.BytesIO()
    segno.make(link, error="m").save(
        buffer, kind="svg", scale=8, border=2, dark="#000", light="#fff"
    )
    assert host_browser.get(f"/rooms/{room.code}/qr.svg").content == buffer.getvalue()
    return room, _local(link)


def test_30_pupils_follow_the_room_link_while_the_address_is_burnt(browser):
    room, link = _room_and_link(browser)
    _burn_address(browser)
    assert browser().get(f"/rooms/{room.code}/").status_code == 429
    key = link.split("?k=")[1]
    for number in range(30):
        pupil = browser()
        page = pupil.get(link)
        assert page.status_code == 200, (number, page.content[:300])
        # The join form carries the key on, so taking the seat is not refused.
        assert f'name="k" value="{key}"' in page.content.decode()
        joined = pupil.post(
            f"/rooms/{room.code}/join/", {"nickname": f"Room Kid {number}", "k": key}
        )
        assert joined.status_code == 302, (number, joined.content[:300])
        # Seated now: the room page is theirs without the key.
        assert pupil.get(f"/rooms/{room.code}/").status_code == 200
    assert room.seats.filter(status=Seat.Status.JOINED, role=Seat.Role.PLAYER).count() == 30
    assert browser().get(f"/rooms/{room.code}/").status_code == 429


def test_a_forged_room_link_key_is_counted_as_a_miss(browser):
    room, link = _room_and_link(browser)
    other, other_link = _room_and_link(browser)
    forger = browser()
    assert forger.post("/accounts/player/new/", {"nickname": "Room Forger"}).status_code == 302
    forged = [
        _altered(link),
        f"/rooms/{room.code}/?k=" + other_link.split("?k=")[1],
        f"/rooms/{room.code}/qr.svg?k=nope",
    ]
    for attempt in range(MISSES_PER_IDENTITY):
        assert forger.get(forged[attempt % len(forged)]).status_code == 200, attempt
    assert forger.get(forged[0]).status_code == 429
    assert forger.get(f"/rooms/{room.code}/").status_code == 429
    assert (
        forger.post(f"/rooms/{room.code}/join/", {"k": _altered(link).split("?k=")[1]}).status_code
        == 429
    )
    # A forged key on the join form gives no seat.
    assert not room.seats.filter(player__nickname="Room Forger").exists()
    assert forger.get(link).status_code == 200


def test_the_qr_code_gives_the_key_only_to_whoever_may_hand_it_out(browser):
    """Someone who merely knows the code gets the QR of the plain link, so
    fetching ``qr.svg`` is no way to collect keys."""
    room, _link = _room_and_link(browser)
    stranger = browser()
    plain = io.BytesIO()
    segno.make(f"http://testserver/rooms/{room.code}/", error="m").save(
        plain, kind="svg", scale=8, border=2, dark="#000", light="#fff"
    )
    assert stranger.get(f"/rooms/{room.code}/qr.svg").content == plain.getvalue()


def test_a_keyed_link_of_a_finished_room_answers_like_an_unknown_code(browser):
    room, link = _room_and_link(browser)
    Room.objects.filter(pk=room.pk).update(status=Room.Status.FINISHED)
    visitor = browser()
    assert visitor.get(link).status_code == 404
    assert visitor.get("/rooms/ZZZZZ2/").status_code == 404
