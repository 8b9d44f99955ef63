"""Helpers for the live poker room tests: HTTP with a player's cookie, rigging, time travel."""

from __future__ import annotations

import json
import urllib.request

from django.db import transaction

from games.rooms.models import Room, Seat


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
