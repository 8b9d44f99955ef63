"""A tiny game used only by the tests to drive the rooms runtime.

Players add small numbers to a shared total; each player holds a secret number
(private data that must never reach anyone else); the host can set a deadline
(time-based rule); in the "group" mode players place numbers on their own
seat (per-seat moves, no room-wide lock).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from pydantic import StrictInt

from games.rooms import registry
from games.rooms.errors import RoomError
from games.rooms.registry import Limits, Outcome, PlayerResult, RoomGame, SeatOutcome
from games.rooms.schemas import Event, Message, by_type

GAME = "testgame"


class IllegalMove(Exception):
    """Shaped like the rules engines' exceptions: the runtime must keep code and message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class AddMessage(Message):
    """Add n to the shared total."""

    type: Literal["add"]
    n: StrictInt


class WhisperMessage(Message):
    """Ask for your secret again."""

    type: Literal["whisper"]


class DealMessage(Message):
    """Host: start a deadline."""

    type: Literal["deal"]


class PlaceMessage(Message):
    """Group: place n on your own board."""

    type: Literal["place"]
    n: StrictInt


class PeekMessage(Message):
    """Group: see your own board (private only)."""

    type: Literal["peek"]


class TotalEvent(Event):
    """The shared total."""

    type: Literal["total"]
    total: int


class SecretEvent(Event):
    """Private: your secret number."""

    type: Literal["secret"]
    value: int


class DealtEvent(Event):
    """A deadline runs."""

    type: Literal["dealt"]
    deadline: str


class AddedEvent(Event):
    """Somebody added."""

    type: Literal["added"]
    player_id: int
    n: int
    total: int


class TimeoutEvent(Event):
    """A deadline passed."""

    type: Literal["timeout"]
    timeouts: int


class ProgressEvent(Event):
    """Group: how many one player placed."""

    type: Literal["progress"]
    player_id: int
    count: int


class PlacedEvent(Event):
    """Group, private: what you placed."""

    type: Literal["placed"]
    n: int


class BoardEvent(Event):
    """Group, private: your board."""

    type: Literal["board"]
    placed: list[int]


MESSAGES = by_type(AddMessage, WhisperMessage, DealMessage)
SEAT_MESSAGES = by_type(PlaceMessage, PeekMessage)
EVENTS = by_type(
    TotalEvent,
    SecretEvent,
    DealtEvent,
    AddedEvent,
    TimeoutEvent,
    ProgressEvent,
    PlacedEvent,
    BoardEvent,
)


class CounterGame(RoomGame):
    limits = Limits(max_players=2, spectators=True)
    messages = MESSAGES
    message_types = frozenset(MESSAGES)
    events = EVENTS

    def clean_settings(self, settings: dict) -> dict:
        target = settings.get("target", 100)
        if not isinstance(target, int) or not 1 <= target <= 1000:
            raise RoomError("bad_settings", "target must be 1..1000")
        return {"target": target, "seconds": int(settings.get("seconds", 30))}

    def start(self, *, settings, seats, rng, now) -> Outcome:
        players = [
            s.player_id
            for s in seats
            if s.role == "player" or (s.role == "host" and self.limits.host_plays)
        ]
        host = next(s.player_id for s in seats if s.role == "host")
        secrets = {str(pid): rng.randint(1, 10**9) for pid in players}
        state = {
            "host": host,
            "target": settings["target"],
            "seconds": settings["seconds"],
            "total": 0,
            "scores": {str(pid): 0 for pid in players},
            "secrets": secrets,
            "deadline": None,
            "timeouts": 0,
        }
        private = {pid: [{"type": "secret", "value": secrets[str(pid)]}] for pid in players}
        return Outcome(state=state, public=[{"type": "total", "total": 0}], private=private)

    def apply(self, state, *, player_id, role, message, now, rng) -> Outcome:
        state = {**state, "scores": dict(state["scores"])}
        kind = message["type"]
        if kind == "deal":
            if player_id != state["host"]:
                raise RoomError("not_host", "Only the host deals.")
            deadline = now + timedelta(seconds=state["seconds"])
            state["deadline"] = deadline.isoformat()
            return Outcome(state, public=[{"type": "dealt", "deadline": state["deadline"]}])
        if kind == "whisper":
            secret = state["secrets"].get(str(player_id))
            return Outcome(state, private={player_id: [{"type": "secret", "value": secret}]})
        n = message.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 9:
            raise IllegalMove("bad_number", "Add a whole number from 1 to 9.")
        state["total"] += n
        state["scores"][str(player_id)] = state["scores"].get(str(player_id), 0) + n
        public = [{"type": "added", "player_id": player_id, "n": n, "total": state["total"]}]
        return Outcome(state, public=public, finished=state["total"] >= state["target"])

    def tick(self, state, *, now, rng) -> Outcome | None:
        deadline = self.next_deadline(state)
        if deadline is None or now < deadline:
            return None
        state = {**state, "deadline": None, "timeouts": state["timeouts"] + 1}
        return Outcome(state, public=[{"type": "timeout", "timeouts": state["timeouts"]}])

    def next_deadline(self, state) -> datetime | None:
        return datetime.fromisoformat(state["deadline"]) if state.get("deadline") else None

    def view(self, state, *, player_id, role, seat_state, now) -> dict:
        return {
            "total": state["total"],
            "timeouts": state["timeouts"],
            "deadline": state["deadline"],
            "my_secret": state["secrets"].get(str(player_id)),
            "placed": seat_state.get("placed", []),
        }

    def results(self, state, seat_states) -> list[PlayerResult]:
        ordered = sorted(state["scores"].items(), key=lambda item: -item[1])
        return [
            PlayerResult(player_id=int(pid), score=score, rank=rank)
            for rank, (pid, score) in enumerate(ordered, start=1)
        ]


class GroupCounterGame(CounterGame):
    """Fifty players, the host only deals; ``place`` is a per-seat move."""

    limits = Limits(max_players=50, spectators=False, host_plays=False)
    messages = {**MESSAGES, **SEAT_MESSAGES}
    seat_message_types = frozenset(SEAT_MESSAGES)

    def initial_seat_state(self, state, player_id) -> dict:
        return {"placed": []}

    def apply_seat(self, state, seat_state, *, player_id, message, now) -> SeatOutcome:
        if message["type"] == "peek":  # private only: no room-wide seq
            return SeatOutcome(seat_state, private=[{"type": "board", **seat_state}])
        n = message.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 9:
            raise RoomError("bad_number", "Place a whole number from 1 to 9.")
        placed = [*seat_state.get("placed", []), n]
        return SeatOutcome(
            seat_state={"placed": placed},
            public=[{"type": "progress", "player_id": player_id, "count": len(placed)}],
            private=[{"type": "placed", "n": n}],
        )


def register() -> None:
    registry.register(GAME, "duel", CounterGame())
    registry.register(GAME, "group", GroupCounterGame())


register()
