"""Helpers for the live poker room tests: HTTP with a player's cookie, rigging, time travel."""

from __future__ import annotations

import itertools
import json
import urllib.request

from django.db import transaction
from django.utils import timezone

from games.rooms import registry
from games.rooms.models import Room, Seat
from games.rooms.registry import SeatInfo
from games.rooms.steps import rng


def get_json(server: str, path: str, player) -> dict:
    request = urllib.request.Request(server + path, headers={"Cookie": player.cookie})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def standings(server: str, room: Room, player) -> dict:
    return get_json(server, f"/poker/room/{room.code}/standings.json", player)


def rig_deck(room: Room, cards: list[int]) -> None:
    """Put known cards on top of a started room's secret deck (tests only)."""
    with transaction.atomic():
        locked = Room.objects.select_for_update().get(pk=room.pk)
        rest = list(locked.state["deck"])
        for card in cards:
            rest.remove(card)
        locked.state = {**locked.state, "deck": list(cards) + rest}
        locked.save(update_fields=["state"])


def seed_dealing_first(mode: str, first: int, *, settings: dict | None = None) -> int:
    """A room seed whose start deals ``first`` as the first card (tests only).

    A duel deals its first card the moment the second player joins, before a
    test could rig the deck: set ``Room.rng_seed`` to this while the room is a
    lobby. Searched from 1 with the game's own start, so it is the same seed on
    every run and follows the game's shuffle if that ever changes.
    """
    adapter = registry.get("poker", mode)
    seats = [SeatInfo(1, "A", "host"), SeatInfo(2, "B", "player")]
    for seed in itertools.count(1):
        outcome = adapter.start(
            settings=settings or {},
            seats=seats,
            rng=rng(Room(rng_seed=seed), "start"),
            now=timezone.now(),
        )
        if outcome.state["sequence"][:1] == [first]:
            return seed
    raise AssertionError("unreachable")  # pragma: no cover


def set_seed(room: Room, seed: int) -> None:
    """Give a lobby the seed its start will shuffle with."""
    assert Room.objects.filter(pk=room.pk, status=Room.Status.LOBBY).update(rng_seed=seed) == 1


def _shift(value, by):
    return None if value is None else value - by


def travel(room: Room, seconds: float) -> None:
    """Move every stored time of a group game ``seconds`` into the past: to the
    server it is as if that much time went by with nobody acting."""
    with transaction.atomic():
        locked = Room.objects.select_for_update().get(pk=room.pk)
        state = dict(locked.state)
        state["dealt_at"] = [t - seconds for t in state["dealt_at"]]
        state["closed_at"] = _shift(state["closed_at"], seconds)
        state["started_at"] = _shift(state["started_at"], seconds)
        locked.state = state
        locked.save(update_fields=["state"])
        for seat in Seat.objects.select_for_update().filter(room=locked):
            if not seat.state:
                continue
            board = dict(seat.state)
            board["dealt_at"] = [t - seconds for t in board["dealt_at"]]
            for key in ("handled_at", "started_at", "finished_at"):
                board[key] = _shift(board[key], seconds)
            seat.state = board
            seat.save(update_fields=["state"])
