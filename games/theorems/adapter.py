"""Matematici tables in the rooms runtime: a turn-based table (``games.rooms.turntable``).

Life of a table (``state["phase"]``):

- ``setup``: the host started the room; every human seat picks a deck (a starter
  deck or one of their saved decks, sent as data and checked by the engine's
  ``validate_deck``). Robots fill the empty seats up to the table size with a
  starter deck. When the last human is ready the engine deals (``playing``).
- ``playing``: a human sends ``action`` messages; the input is routed by the
  engine's ``to_act`` (an effect may ask someone other than the player on turn).
  The table paces the robots (``robot_due``, one robot action per tick).
- ``finished`` (the engine declared winners or a draw) or ``ended`` (the host
  ended the room early).

A human who leaves or is removed: before the deal their seat goes to a robot with
a starter deck; once dealt they are out of the game as if they had lost, the turn
passes on at once, and the last player in wins. A table where only robots are
still in is over (the table does that, ``TurnTable.player_removed``).

No database here: saved decks reach the adapter as data in the ``deck`` message.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games.rooms.errors import RoomError
from games.rooms.registry import Limits, Outcome, SeatInfo
from games.rooms.turntable import ENDED, SETUP, Action, Event, Seat, TurnTable

from . import events
from .engine import TheoremsEngine
from .errors import refusal
from .rules import STARTER_DECKS, GameState, IllegalMove, validate_deck

DEFAULT_TABLE_SIZE = 2
DEFAULT_ROBOT_DELAY_MS = 700
MAX_ROBOT_DELAY_MS = 5000
MAX_DECK_NAME = 60


class TheoremsTable(TurnTable):
    engine = TheoremsEngine()
    limits = Limits(max_players=4, min_players=1, spectators=False, host_plays=True)
    rematch = True  # "Play again" after the game (games.rooms.lifecycle.rematch)
    messages = events.MESSAGES
    message_types = frozenset(messages)
    view_model = events.TheoremsView
    events = events.EVENTS
    template_name = "theorems/_table.html"
    script = "theorems/table.js"
    min_seats = 2  # a lone human without robots cannot play: give them one
    table_event = "table"
    dealt_event = "dealt"
    leave_event = "seat_left"
    setup_types = frozenset({"deck"})

    # --- settings and seats ---------------------------------------------------

    def clean_settings(self, settings: dict) -> dict:
        """Table size 2–4 (robots fill what humans leave empty), burning on/off, robot pace."""
        size = settings.get("table_size", DEFAULT_TABLE_SIZE)
        if not isinstance(size, int) or isinstance(size, bool) or not 2 <= size <= 4:
            raise RoomError("bad_table_size", _("A table has 2 to 4 seats."))
        burn = settings.get("burn", True)
        if not isinstance(burn, bool):
            raise RoomError("bad_settings", _("These table settings are not valid."))
        delay = settings.get("robot_delay_ms", DEFAULT_ROBOT_DELAY_MS)
        if (
            not isinstance(delay, int)
            or isinstance(delay, bool)
            or not 0 <= delay <= MAX_ROBOT_DELAY_MS
        ):
            raise RoomError("bad_settings", _("These table settings are not valid."))
        return {"table_size": size, "burn": burn, "robot_delay_ms": delay}

    def table_seats(self, settings: dict) -> int:
        """The seats the host chose (2-4): "Players 1/2" at a two-seat table."""
        size = settings.get("table_size", DEFAULT_TABLE_SIZE)
        return size if isinstance(size, int) and 2 <= size <= 4 else self.limits.max_players

    def human_seat(self, seat: SeatInfo) -> dict:
        return {
            "player_id": seat.player_id,
            "nickname": seat.nickname,
            "robot": False,
            "deck_name": None,
            "mathematician": None,
            "deck": None,
        }

    def robot_seat(self, number: int, settings: dict, rng: random.Random) -> dict:
        """Robot ``number`` with a random starter deck."""
        starter = rng.choice(STARTER_DECKS)
        return {
            "player_id": None,
            "nickname": None,
            "robot": number,
            "deck_name": starter.id,
            "mathematician": starter.mathematician,
            "deck": list(starter.deck),
        }

    def initial_state(self, settings: dict, seed: int) -> dict:
        return {
            "burn": settings["burn"],
            "robot_delay_ms": settings["robot_delay_ms"],
            "engine_seed": seed,
            "log_sent": 0,
        }

    def engine_settings(self, state: dict) -> dict:
        return {"burn": state["burn"]}

    def robot_delay_ms(self, state: dict) -> int:
        return state["robot_delay_ms"]

    def ready(self, state: dict) -> bool:
        return all(s["deck"] is not None for s in state["seats"])

    # --- setup: choosing decks, leaving before the deal ---------------------------

    def setup_message(self, state: dict, seat: Seat, message: dict, now: datetime) -> Outcome:
        if state["phase"] != SETUP:
            raise RoomError("not_in_setup", _("Decks are chosen before the cards are dealt."))
        mathematician, deck, name = (
            message.get("mathematician"),
            message.get("cards"),
            message.get("name"),
        )
        if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_DECK_NAME:
            raise RoomError("bad_deck_name", _("Give the deck a name (at most 60 characters)."))
        try:
            validate_deck(mathematician, deck)
        except IllegalMove as error:
            raise refusal(error) from error
        state = {**state, "seats": [dict(s) for s in state["seats"]]}
        state["seats"][seat].update(
            deck_name=name.strip(), mathematician=mathematician, deck=list(deck or ())
        )
        public = [{"type": "deck_chosen", "seat": seat}]
        self.deal_if_ready(state, public, now)
        return self.outcome(state, public, now)

    def left_in_setup(
        self, state: dict, seat: Seat, rng: random.Random, now: datetime
    ) -> Outcome | None:
        """Before the deal a seat nobody sits at goes to a robot, as at the start;
        with no human left the table closes."""
        if all(s["robot"] or i == seat for i, s in enumerate(state["seats"])):
            state = {**state, "phase": ENDED, "finished_at": now.isoformat()}
            outcome = self.outcome(state, [{"type": "seat_left", "seat": seat}], now)
            outcome.finished = True
            return outcome
        number = 1 + max((s["robot"] or 0 for s in state["seats"]), default=0)
        state["seats"][seat] = self.robot_seat(number, {}, rng)
        public: list[dict[str, Any]] = [
            {"type": "seat_left", "seat": seat},
            {"type": "table", "seats": self.public_seats(state)},
        ]
        self.deal_if_ready(state, public, now)
        return self.outcome(state, public, now)

    # --- playing ---------------------------------------------------------------------

    def not_playing(self, state: dict) -> Exception:
        return RoomError("not_playing", _("The cards have not been dealt yet."))

    def action(self, state: dict, seat: Seat, message: dict, now: datetime) -> Action:
        action = message.get("action")
        if not isinstance(action, dict):
            raise refusal(IllegalMove("malformed_action"))
        return {**action, "player": seat}

    # --- what people see ---------------------------------------------------------------

    def public_events(self, state: dict, events: list[Event]) -> list[Event]:
        """The table's events, then the game log's entries nobody has heard yet."""
        if state["game"] is not None:
            log = state["game"]["log"]
            new = log[state.get("log_sent", 0) :]
            state["log_sent"] = len(log)
            if new:
                events.append({"type": "log", "entries": new})
        return events

    def seat_details(self, state: dict, seat: dict) -> dict:
        """Never a deck's contents (with the public piles they would tell which
        cards are in a hand); the mathematician once the cards are dealt."""
        return {
            "ready": seat["deck"] is not None,
            "deck_name": seat["deck_name"],
            "mathematician": seat["mathematician"] if state["phase"] != SETUP else None,
            **({"left": True} if seat.get("left") else {}),  # only for a player who left
        }

    def table_view(self, state: dict, seat: Seat | None, *, full: bool) -> dict:
        """The table and the own deck; the whole game log only in a full snapshot."""
        data: dict[str, Any] = {
            "phase": state["phase"],
            "you": seat,
            "seats": self.public_seats(state),
            "burn": state["burn"],
            "robot_delay_ms": state["robot_delay_ms"],
            "game": None,
        }
        if seat is not None:
            mine = state["seats"][seat]
            data["my_deck"] = (
                None
                if mine["deck"] is None
                else {
                    "name": mine["deck_name"],
                    "mathematician": mine["mathematician"],
                    "cards": list(mine["deck"]),
                }
            )
        if state["game"] is not None:
            game_view = self.engine.view(self.engine.load(state["game"]), seat)
            if not full:
                game_view.pop("log")
            data["game"] = game_view
        return data

    def result_details(
        self, state: dict, game: GameState, seat: Seat, completed: bool
    ) -> dict[str, Any]:
        """Score = proven theorems; win / loss / draw as duels record it (None for a
        game the host ended)."""
        player = game.players[seat]
        outcome = None
        if completed:
            outcome = "win" if seat in game.winners else "loss" if game.winners else "draw"
        return {
            "won": seat in game.winners,
            "outcome": outcome,
            "lost": player.lost,
            "mathematician": player.mathematician,
            "deck": state["seats"][seat]["deck_name"],
            "proven": list(player.proven),
            "boredom": player.boredom,
            "turns": game.turn_number,
        }
