"""Abaku hints and the after-game review (issue 19, item 5: "A hint button in solo
and vs-robot games (not in tables with humans); after a game, a review: per turn
the best move available and the points it would have scored, shown on the board")."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client

from accounts import identity
from accounts import services as accounts_services
from games.abaku import review as abaku_review
from games.abaku.adapter import AbakuSolo, AbakuTable
from games.abaku.rules import GameState, all_moves
from games.rooms import services
from games.rooms.models import Room
from games.rooms.registry import SeatInfo

_names = itertools.count(1)
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def browser(nickname: str | None = None):
    profile, token = accounts_services.create_profile(
        browser_token=None, nickname=nickname or f"Hinter {next(_names)}"
    )
    client = Client(headers={"accept-language": "en"})
    client.cookies[settings.PLAYER_COOKIE_NAME] = signing.dumps(token, salt=identity.SALT)
    return profile, client


def best_score(state: dict) -> int:
    game = GameState.from_dict(state["game"])
    return max((m.score for m in all_moves(game.board, game.players[game.turn].rack)), default=0)


@pytest.mark.django_db
def test_a_hint_in_practice_is_the_best_scoring_legal_move(client):
    # a first rack with no possible move (random, rare) has no hint to preview:
    # take a table whose first rack has a move
    for _attempt in range(20):
        profile, player = browser()
        room = services.create_and_start(
            game="abaku", mode="solo", host=profile, settings={"table_size": 1}
        )
        best = best_score(room.state)
        if best > 0:
            break
    answer = player.post(f"/abaku/rooms/{room.code}/hint/").json()
    assert answer["ok"] and answer["score"] == best
    preview = player.post(
        f"/abaku/rooms/{room.code}/preview/",
        {"placements": answer["placements"]},
        content_type="application/json",
    ).json()
    assert preview["ok"] and preview["score"] == answer["score"]
    room.refresh_from_db()
    assert room.state["actions"] == []  # a hint changes nothing


@pytest.mark.django_db
def test_a_table_with_other_people_refuses_hints_with_a_stable_code():
    host, host_browser = browser()
    guest, guest_browser = browser()
    room = services.create_room(game="abaku", mode="table", host=host, settings={"table_size": 2})
    services.join_room(room=room, player=guest)
    services.start_room(room=room, actor=host)
    for client in (host_browser, guest_browser):
        response = client.post(f"/abaku/rooms/{room.code}/hint/")
        assert response.status_code == 409
        assert response.json()["code"] == "hint_not_allowed"
    _stranger, stranger_browser = browser()
    assert stranger_browser.post(f"/abaku/rooms/{room.code}/hint/").status_code == 404


@pytest.mark.django_db
def test_a_hint_against_a_robot_waits_for_your_turn():
    profile, player = browser()
    room = services.create_and_start(
        game="abaku", mode="solo", host=profile, settings={"table_size": 2}
    )
    state = dict(room.state)
    state["game"] = {**state["game"], "turn": 1}  # the robot on turn
    Room.objects.filter(pk=room.pk).update(state=state)
    answer = player.post(f"/abaku/rooms/{room.code}/hint/").json()
    assert answer["code"] == "not_your_turn"


def _play_to_the_end(table, state, *, human: int, rng: random.Random):
    """The human takes the weakest legal move (or skips); robots play; returns the end state."""
    now = NOW
    for _step in range(400):
        if state["phase"] != "playing":
            return state
        now += timedelta(seconds=1)
        game = GameState.from_dict(state["game"])
        if state["seats"][game.turn]["robot"]:
            outcome = table.tick(state, now=now + timedelta(seconds=5), rng=rng)
        else:
            moves = all_moves(game.board, game.players[game.turn].rack)
            if moves:
                worst = min(moves, key=lambda m: m.score)
                message = {"type": "place", "placements": [list(p) for p in worst.placements]}
            else:
                message = {"type": "skip"}
            outcome = table.apply(
                state, player_id=human, role="host", message=message, now=now, rng=rng
            )
        state = outcome.state
    raise AssertionError("the game did not end")


def test_the_review_shows_per_turn_the_best_move_and_what_it_would_have_scored(monkeypatch):
    from tests.abaku_web.moves_once import list_moves_once

    list_moves_once(monkeypatch)  # the game's and the review's positions listed once
    table = AbakuSolo()
    rng = random.Random(7)
    seats = [SeatInfo(player_id=5, nickname="Ada", role="host")]
    outcome = table.start(
        settings={"table_size": 2, "robot_level": "greedy"}, seats=seats, rng=rng, now=NOW
    )
    end = _play_to_the_end(table, outcome.state, human=5, rng=rng)
    with pytest.raises(Exception) as early:
        abaku_review.game_review(outcome.state, player_id=5)
    assert early.value.code == "not_finished"
    turns = abaku_review.game_review(end, player_id=5)
    assert len(turns) == len(end["actions"])
    played = [t for t in turns if t["action"] == "place"]
    assert sum(t["score"] for t in turns if t["player"] == 0) == sum(
        e["score"] for e in end["game"]["history"] if e["type"] == "placed" and e["player"] == 0
    )
    for turn in turns:
        assert turn["best_score"] >= turn["score"] and turn["missed"] >= 0
    # the weakest move each time: somewhere a better one was missed, and the
    # review names it on the board (placements) with its points
    missed = [t for t in played if t["player"] == 0 and t["missed"] > 0]
    assert missed and all(t["best"] for t in missed)


def test_the_review_hides_other_peoples_best_moves():
    table = AbakuTable()
    rng = random.Random(3)
    seats = [
        SeatInfo(player_id=1, nickname="A", role="host"),
        SeatInfo(player_id=2, nickname="B", role="player"),
    ]
    state = table.start(settings={"table_size": 2}, seats=seats, rng=rng, now=NOW).state
    state = table.end(
        table.apply(
            state, player_id=1, role="host", message={"type": "skip"}, now=NOW, rng=rng
        ).state,
        now=NOW,
    )
    turns = abaku_review.game_review(state, player_id=2)
    assert turns[0]["player"] == 0
    assert turns[0]["best"] is None and turns[0]["best_score"] is None
    own = abaku_review.game_review(state, player_id=1)[0]
    assert own["best_score"] == best_score({"game": state["initial"]})


def test_the_review_replays_a_game_in_which_a_player_left():
    table = AbakuTable()
    rng = random.Random(11)
    seats = [
        SeatInfo(player_id=1, nickname="A", role="host"),
        SeatInfo(player_id=2, nickname="B", role="player"),
    ]
    state = table.start(settings={"table_size": 3}, seats=seats, rng=rng, now=NOW).state
    state = table.apply(
        state, player_id=1, role="host", message={"type": "skip"}, now=NOW, rng=rng
    ).state
    state = table.player_removed(state, player_id=2, now=NOW, rng=rng).state
    assert state["actions"][-1]["type"] == "removed"
    state = table.tick(state, now=NOW + timedelta(seconds=5), rng=rng).state  # the robot
    state = table.end(state, now=NOW)
    turns = abaku_review.game_review(state, player_id=1)
    assert [t["player"] for t in turns] == [0, 2]
    assert turns[1]["best_score"] >= turns[1]["score"]  # a robot's turn is shown
