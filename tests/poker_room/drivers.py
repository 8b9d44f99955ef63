"""Pure drivers that play the poker room adapters the way the rooms runtime does.

Every state passes through JSON between steps, as it does through PostgreSQL,
so a test also proves nothing depends on process memory (a restart).
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta

from games.poker.room_games import DuelGame, GroupGame
from games.rooms.registry import SeatInfo

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def roundtrip(value):
    return json.loads(json.dumps(value))


class GroupDriver:
    def __init__(self, players: int = 3, *, seed: int = 1, host_plays=False, **settings):
        self.adapter = GroupGame()
        self.settings = self.adapter.clean_settings({"host_plays": host_plays, **settings})
        self.host = 100
        self.players = [101 + i for i in range(players)]
        seats = [SeatInfo(self.host, "Host", "host")] + [
            SeatInfo(pid, f"P{pid}", "player") for pid in self.players
        ]
        outcome = self.adapter.start(
            settings=self.settings, seats=seats, rng=random.Random(seed), now=at(0)
        )
        self.state = roundtrip(outcome.state)
        self.started = outcome
        self.seats = {
            s.player_id: roundtrip(self.adapter.initial_seat_state(self.state, s.player_id))
            for s in seats
        }

    def draw(self, t: float, who: int | None = None):
        outcome = self.adapter.apply(
            self.state,
            player_id=self.host if who is None else who,
            role="host" if who in (None, self.host) else "player",
            message={"type": "draw"},
            now=at(t),
            rng=random.Random(0),
        )
        self.state = roundtrip(outcome.state)
        return outcome.public[0]

    def act(self, pid: int, message: dict, t: float):
        outcome = self.adapter.apply_seat(
            self.state, self.seats[pid], player_id=pid, message=message, now=at(t)
        )
        self.seats[pid] = roundtrip(outcome.seat_state)
        assert outcome.public == []  # per-seat moves never take the room's seq
        return outcome.private

    def place(self, pid: int, cell: int, t: float):
        return self.act(pid, {"type": "place", "cell": cell}, t)

    def view(self, pid: int, role: str = "player"):
        return self.adapter.view(self.state, player_id=pid, role=role, seat_state=self.seats[pid])

    def end(self, t: float):
        self.state = roundtrip(self.adapter.end(self.state, now=at(t)))
        return self.adapter.results(self.state, self.seats)


class DuelDriver:
    def __init__(self, *, seed: int = 1, **settings):
        self.adapter = DuelGame()
        self.settings = self.adapter.clean_settings(settings)
        self.a, self.b = 201, 202
        seats = [SeatInfo(self.a, "Anna", "host"), SeatInfo(self.b, "Boris", "player")]
        outcome = self.adapter.start(
            settings=self.settings, seats=seats, rng=random.Random(seed), now=at(0)
        )
        self.state = roundtrip(outcome.state)
        self.last = outcome

    def act(self, pid: int, message: dict, t: float):
        outcome = self.adapter.apply(
            self.state,
            player_id=pid,
            role="host" if pid == self.a else "player",
            message=message,
            now=at(t),
            rng=random.Random(0),
        )
        self.state = roundtrip(outcome.state)
        self.last = outcome
        return outcome

    def hand(self, pid: int):
        board = self.state["boards"][str(pid)]
        return (
            board["sequence"][board["handled"]]
            if board["handled"] < len(board["sequence"])
            else None
        )

    def free_cell(self, pid: int) -> int:
        return self.state["boards"][str(pid)]["cells"].index(None)

    def handle(self, pid: int, t: float, *, joker_value: int = 1):
        """Handle the card in hand: place a number in the first free cell, use a joker."""
        cell = self.free_cell(pid)
        if self.hand(pid) == 0:
            return self.act(pid, {"type": "use_joker", "cell": cell, "value": joker_value}, t)
        return self.act(pid, {"type": "place", "cell": cell}, t)

    def results(self):
        return self.adapter.results(self.state, {})
