"""No coach in competitive poker (issue 27 §2).

The attack: ``POST /poker/api/hint/`` answered for any board the browser sent,
so a ranked game was played 25/25 on the coach's moves, and the same worked in
duels and class games. Now the stateless hint refuses a board that is one of
the caller's unfinished ranked, daily, duel or class games -- also mirrored,
also from another profile of the same browser -- with a stable code, and it is
counted per browser so one pupil cannot use up a school address's hints.
Practice hints (the scoresheet, a browser-led easy game) keep working.
"""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from accounts.models import Browser
from classrooms.models import Classroom
from games.poker.models import SoloGame
from games.poker.rules import JOKER
from games.poker.services import daily as poker_daily
from games.rooms import services as rooms
from games.rooms.models import Room, Seat
from tests.leaderboards.helpers import LOW_DECK, dealt
from tests.poker_web.helpers import player_cookie

pytestmark = pytest.mark.django_db

API = "/poker/api/games/"
BOARD_HINT = "/poker/api/hint/"
REFUSED = "hint_not_allowed_in_competition"
#: A fixed deck without jokers for the room games (the test needs numbers in hand).
DECK = [7, 3, 11, 7, 5, 9, 2, 13, 4, 6, 8, 10, 1, 12, 3, 5, 7, 9, 11, 2, 4, 6, 8, 10, 12, 1, 13]


def post(client, url, data=None):
    return client.post(url, json.dumps(data or {}), content_type="application/json")


def sign_in(client, nickname: str):
    profile, cookie = player_cookie(nickname)
    client.cookies[django_settings.PLAYER_COOKIE_NAME] = cookie
    return profile


def ask(client, cells, card, **extra):
    return post(
        client,
        BOARD_HINT,
        {"context": "easy", "table": "contiguous", "cells": cells, "card": card, **extra},
    )


def transposed(cells):
    return [cells[5 * (index % 5) + index // 5] for index in range(25)]


def test_a_ranked_game_can_no_longer_be_played_on_the_coachs_moves(browser):
    client = browser()
    sign_in(client, "Ranker")
    with dealt(LOW_DECK):  # a fixed deck: 25 numbers before any joker
        game = post(client, API, {"mode": "ranked", "difficulty": "easy"}).json()["game"]
    refused = 0
    while not game["over"]:
        if game["hand"] == JOKER:
            game = post(client, f"{API}{game['id']}/actions/", {"type": "keep_joker"}).json()
            game = game["game"]
            continue
        if not any(game["cells"]):
            # The empty board is every practice game's first position: its hint is no secret.
            assert ask(client, game["cells"], game["hand"]).status_code == 200
        for board in (game["cells"], transposed(game["cells"])) if any(game["cells"]) else ():
            answer = ask(client, board, game["hand"], seen=[])
            assert answer.status_code == 403, answer.content
            assert answer.json()["code"] == REFUSED
            assert "hint" not in answer.json()
            refused += 1
        free = game["cells"].index(None)
        game = post(client, f"{API}{game['id']}/actions/", {"type": "place", "cell": free}).json()
        game = game["game"]
    assert refused == 2 * 24  # every position but the empty board, as is and transposed
    # The game is over: the same board is an ordinary board again.
    last = [None, *game["cells"][1:]]
    assert ask(client, last, 5).status_code == 200


def test_the_daily_attempt_gets_no_hint_and_a_changed_number_or_two_does_not_help(browser):
    client = browser()
    sign_in(client, "Daily")
    # A fixed deck, not the day's: 25 numbers before any joker, the same every day.
    with mock.patch.object(poker_daily, "daily_deck", lambda day, secret, table: LOW_DECK):
        game = post(client, API, {"mode": "daily"}).json()["game"]
    for _move in range(6):
        free = game["cells"].index(None)
        game = post(client, f"{API}{game['id']}/actions/", {"type": "place", "cell": free}).json()
        game = game["game"]
    assert game["hand"] != JOKER
    cells = list(game["cells"])
    filled = [index for index, value in enumerate(cells) if value is not None]
    cells[filled[0]] = None  # one number left out
    cells[cells.index(None, filled[-1] + 1)] = 13  # one number added elsewhere
    answer = ask(client, cells, game["hand"])
    assert answer.status_code == 403
    assert answer.json()["code"] == REFUSED


def test_another_profile_of_the_same_browser_cannot_ask_for_the_ranked_board(browser):
    client = browser()
    ranker = sign_in(client, "Ranker")
    with dealt(LOW_DECK):  # a fixed deck: 25 numbers before any joker
        game = post(client, API, {"mode": "ranked", "difficulty": "easy"}).json()["game"]
    for _move in range(2):
        free = game["cells"].index(None)
        game = post(client, f"{API}{game['id']}/actions/", {"type": "place", "cell": free}).json()
        game = game["game"]
    assert game["hand"] != JOKER
    # A second profile created in the same browser is selected now.
    created = client.post(reverse("accounts:create_profile"), {"nickname": "Helper"})
    assert created.status_code in (200, 302), created.status_code
    selected = Browser.objects.get(profiles=ranker).selected
    assert selected is not None and selected.nickname == "Helper"
    answer = ask(client, game["cells"], game["hand"])
    assert answer.status_code == 403
    assert answer.json()["code"] == REFUSED


def test_practice_hints_keep_working_beside_a_competitive_game(browser):
    client = browser()
    sign_in(client, "Practice")
    with dealt(LOW_DECK):  # fixed decks: numbers in hand from the first card
        ranked = post(client, API, {"mode": "ranked", "difficulty": "easy"}).json()["game"]
    assert ranked["over"] is False
    practice = [None] * 25
    practice[:12] = [1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]
    card = 1 if ranked["hand"] != 1 else 2
    answer = ask(client, practice, card)
    assert answer.status_code == 200, answer.content
    assert answer.json()["hint"]["action"] == "place"
    # An easy solo game served by the server still has its own hint.
    with dealt(LOW_DECK):
        easy = post(client, API, {"mode": "easy"}).json()["game"]
    assert easy["hand"] != JOKER
    assert post(client, f"{API}{easy['id']}/hint/").status_code == 200
    assert ask(client, easy["cells"], easy["hand"]).status_code in (200, 403)
    # The scoresheet without any identity works as before.
    assert ask(browser(), practice, card).status_code == 200


def _fixed_deck(room: Room) -> None:
    """Replace the started room's deck so the first card in hand is 7 (no joker)."""
    state = dict(room.state)
    dealt = len(state["sequence"])
    state["sequence"] = DECK[:dealt]
    state["deck"] = DECK[dealt:]
    state["numbers"] = dealt
    for board in (state.get("boards") or {}).values():
        board["sequence"] = DECK[:dealt]
    Room.objects.filter(pk=room.pk).update(state=state)


def test_a_duel_gets_no_coach(browser):
    client = browser()
    me = sign_in(client, "Dueller")
    other, _cookie = player_cookie("Opponent")
    room = rooms.create_room(game="poker", mode="duel", host=other, settings={})
    rooms.join_room(room=room, player=me)
    room.refresh_from_db()
    assert room.status == Room.Status.RUNNING
    _fixed_deck(room)
    cells = [None] * 25
    rooms.submit(room_id=room.pk, player=me, client_id="m1", message={"type": "place", "cell": 6})
    rooms.submit(
        room_id=room.pk, player=other, client_id="o1", message={"type": "place", "cell": 0}
    )
    cells[6] = 7
    answer = ask(client, cells, 3)  # the auto-drawn second number
    assert answer.status_code == 403 and answer.json()["code"] == REFUSED
    assert ask(client, transposed(cells), 3).json()["code"] == REFUSED
    # The opponent's browser is refused for its own board too.
    other_client = browser()
    other_client.cookies[django_settings.PLAYER_COOKIE_NAME] = _cookie
    mine = [7, *([None] * 24)]
    assert ask(other_client, mine, 3).json()["code"] == REFUSED


def test_a_class_game_gets_no_coach(browser):
    from accounts.models import User

    client = browser()
    pupil = sign_in(client, "Pupil")
    teacher = User.objects.create_user("ucitel@skola.cz", "Heslo-1234")
    classroom = Classroom.objects.create(name="7.B", teacher=teacher, join_code="HINT01")
    host, host_cookie = player_cookie("Host")
    room = rooms.create_room(
        game="poker", mode="group", host=host, settings={}, classroom=classroom
    )
    rooms.join_room(room=room, player=pupil)
    rooms.start_room(room=room, actor=host)
    room.refresh_from_db()
    _fixed_deck(room)
    rooms.submit(room_id=room.pk, player=host, client_id="d1", message={"type": "draw"})
    assert Seat.objects.get(room=room, player=pupil).status == Seat.Status.JOINED
    rooms.submit(
        room_id=room.pk, player=pupil, client_id="p1", message={"type": "place", "cell": 12}
    )
    rooms.submit(room_id=room.pk, player=host, client_id="d2", message={"type": "draw"})
    cells = [None] * 25
    cells[12] = 7
    answer = ask(client, cells, 3)
    assert answer.status_code == 403
    assert answer.json()["code"] == REFUSED
    # The teacher who only deals has no board: nothing of theirs to protect.
    teacher_browser = browser()
    teacher_browser.cookies[django_settings.PLAYER_COOKIE_NAME] = host_cookie
    assert ask(teacher_browser, cells, 3).status_code == 200
    # When the room is over, the board is an ordinary board again.
    rooms.end_room(room=room, actor=host)
    assert ask(client, cells, 3).status_code == 200


def test_hints_are_counted_per_browser_not_per_school_address(browser, settings, address):
    settings.MATIKA_LIMITS = {"poker_board_hints_browser": "3/10m"}
    board = [None] * 25
    first, second = browser(address), browser(address)
    sign_in(first, "Eager")
    sign_in(second, "Calm")
    for _ask in range(3):
        assert ask(first, board, 5).status_code == 200
    refused = ask(first, board, 5)
    assert refused.status_code == 429
    assert refused.json()["code"] == "hint_rate_limited"
    assert refused.json()["message"]
    # A classmate's browser at the same school address is not touched.
    assert ask(second, board, 5).status_code == 200
    assert not SoloGame.objects.exists()
