"""Abaku in the rooms runtime: a turn-based table (``games.rooms.turntable``).

Two modes are registered (``game.py``):

- ``table``: 2-4 seats played in real time (code/link/QR or a class); humans take
  seats, robots fill the seats nobody took, spectators may watch. An optional turn
  time limit; a turn that runs out counts as an empty turn (``timeout``).
- ``solo``: a one-human room started at once: practice alone (``table_size`` 1) or
  a game against one robot (``table_size`` 2); no time limit.

The table owns phases, seats, robot pacing, the turn clock, removal and ranking;
the engine (``engine.py``) is the rules behind the table's contract. The state
holds the engine's ``GameState.to_dict()`` (the bag order and the seed included)
and, for the after-game review (``review.py``), the first state and every action:
it never leaves the server. People see ``rules.view`` only, where every rack but
their own is a count.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games.rooms.errors import RoomError
from games.rooms.registry import Limits, Outcome, SeatInfo
from games.rooms.turntable import PLAYING_ROLES, Action, Event, Seat, TurnTable, stamp

from . import events
from .engine import AbakuEngine, refusal
from .review import hints_used
from .rules import DEFAULT_LEVEL, LAYOUTS, LEVELS, GameState, IllegalMove, current_level

DEFAULT_TABLE_SIZE = 2
DEFAULT_ROBOT_DELAY_MS = 700
MAX_ROBOT_DELAY_MS = 5000
TURN_SECONDS_CHOICES = (None, 30, 60, 120, 180, 300)
DEFAULT_TURN_SECONDS = 120
SETTINGS = ("table_size", "robot_level", "turn_seconds", "layout", "robot_delay_ms")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def clean_settings(settings: dict, *, solo: bool = False) -> dict:
    """Table size (humans + robots), robot level, turn time limit, board layout."""
    if not isinstance(settings, dict):
        raise RoomError("bad_settings", _("These table settings are not valid."))
    size = settings.get("table_size", 1 if solo else DEFAULT_TABLE_SIZE)
    low, high = (1, 2) if solo else (2, 4)
    if not _whole(size) or not low <= size <= high:
        if solo:
            raise RoomError("bad_table_size", _("Practise alone or against one robot."))
        raise RoomError("bad_table_size", _("A table has 2 to 4 seats."))
    # the robot levels and their order live in the rules (robot.py); ids stored
    # before (``OLD_LEVELS``) map to the level they play now
    level = current_level(settings.get("robot_level", DEFAULT_LEVEL))
    if level not in LEVELS:
        raise RoomError("bad_robot_level", _("Choose one of the robot levels."))
    turn_seconds = settings.get("turn_seconds", None if solo else DEFAULT_TURN_SECONDS)
    if solo:
        turn_seconds = None  # no clock in practice (spec 3)
    if turn_seconds not in TURN_SECONDS_CHOICES or isinstance(turn_seconds, bool):
        raise RoomError("bad_turn_seconds", _("Choose one of the time limits."))
    layout = settings.get("layout", "standard")
    if layout not in LAYOUTS:
        raise RoomError("bad_layout", _("Choose one of the boards."))
    delay = settings.get("robot_delay_ms", DEFAULT_ROBOT_DELAY_MS)
    if not _whole(delay) or not 0 <= delay <= MAX_ROBOT_DELAY_MS:
        raise RoomError("bad_settings", _("These table settings are not valid."))
    return {
        "table_size": size,
        "robot_level": level,
        "turn_seconds": turn_seconds,
        "layout": layout,
        "robot_delay_ms": delay,
    }


def loaded(state: dict[str, Any]) -> dict[str, Any]:
    """A stored room state as this code reads it: a room started before a
    deploy that dropped its robot level id (``OLD_LEVELS``) keeps that id in its
    settings and robot seats, and here -- once, as the table takes the state in
    from the runtime -- each becomes the level it plays now. The robots' moves,
    every view and the results then see only current ids, and the next stored
    state holds them. A state with nothing to map is returned as it is."""
    settings = state.get("settings") if state else None
    seats = state.get("seats") if state else None
    if not isinstance(settings, dict) or not isinstance(seats, list):
        return state
    level = settings.get("robot_level")
    if current_level(level) == level and all(
        current_level(seat.get("robot")) == seat.get("robot") for seat in seats
    ):
        return state
    return {
        **state,
        "settings": {**settings, "robot_level": current_level(level)},
        "seats": [{**seat, "robot": current_level(seat.get("robot"))} for seat in seats],
    }


class AbakuTable(TurnTable):
    """A table of 2-4 seats; robots take the seats nobody took before the start."""

    engine = AbakuEngine()
    limits = Limits(max_players=4, min_players=1, spectators=True)
    messages = events.MESSAGES
    message_types = frozenset(messages)
    view_model = events.AbakuView
    events = events.EVENTS
    template_name = "abaku/_table.html"
    script = "abaku/table.js"
    table_event = "started"
    record_actions = True
    solo = False
    rematch = True

    def clean_settings(self, settings: dict) -> dict:
        return clean_settings(settings, solo=self.solo)

    def start(
        self, *, settings: dict, seats: list[SeatInfo], rng: random.Random, now: datetime
    ) -> Outcome:
        if not 1 <= sum(1 for s in seats if s.role in PLAYING_ROLES) <= 4:
            raise RoomError("bad_table", _("An Abaku table seats 1 to 4 players."))
        return super().start(settings=settings, seats=seats, rng=rng, now=now)

    def robot_seat(self, number: int, settings: dict, rng: random.Random) -> dict:
        return {"player_id": None, "nickname": None, "robot": settings["robot_level"]}

    def stored(self, state: dict[str, Any]) -> dict[str, Any]:
        return loaded(state)

    def action(self, state: dict, seat: Seat, message: dict, now: datetime) -> Action:
        kind = message["type"]
        action: Action = {"type": kind, "player": seat, "now": stamp(now)}
        if kind == "place":
            action["placements"] = message.get("placements")
            if not isinstance(action["placements"], list) or not action["placements"]:
                raise refusal(IllegalMove("no_stones"))
        elif kind == "exchange":
            action["stones"] = message.get("stones")
            if not isinstance(action["stones"], list):
                raise refusal(IllegalMove("bad_exchange"))
        return action

    def public_events(self, state: dict, events: list[Event]) -> list[Event]:
        """The engine's public events, and a public view for spectators."""
        return [*events, {"type": "view", "view": self.table_view(state, None, full=False)}]

    def table_view(self, state: dict, seat: Seat | None, *, full: bool) -> dict:
        """The board and the own rack; the move history only in a full snapshot."""
        game = self.engine.view(self.engine.load(state["game"]), seat)
        if not full:
            game.pop("history")
        return {
            "phase": state["phase"],
            "you": seat,
            "seats": self.public_seats(state),
            "settings": {key: state["settings"][key] for key in SETTINGS},
            "robot_due": state.get("robot_due"),
            "game": game,
        }

    def result_details(
        self, state: dict, game: GameState, seat: Seat, completed: bool
    ) -> dict[str, Any]:
        """Score = points after the end adjustment; the outcome as duels record it."""
        winners = set(game.result["winners"]) if game.result else set()
        if not completed:
            outcome = None
        elif seat in winners:
            outcome = "draw" if len(winners) > 1 else "win"
        else:
            outcome = "loss"
        # Hints (practice and robot games only) are counted on the game: a win
        # with hints is recorded as such and never counts as beating the level.
        hints = hints_used(state, seat)
        return {
            "outcome": outcome,
            "hints": hints,
            "assisted": hints > 0,
            "reason": game.result["reason"] if game.result else None,
            "forfeited": game.players[seat].status != "active",
            "robot_level": state["settings"]["robot_level"],
            "moves": game.move_number,
            "scores": [p.score for p in game.players],
        }


class AbakuSolo(AbakuTable):
    """Practice alone or against one robot: one human seat, started at once, no clock."""

    limits = Limits(max_players=1, min_players=1, spectators=False)
    solo = True
