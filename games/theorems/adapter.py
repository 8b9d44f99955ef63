"""Matematici tables in the rooms runtime: a thin translator to the pure rules engine.

Life of a table (``state["phase"]``):

- ``setup``: the host started the room; every human seat picks a deck (a starter
  deck or one of their saved decks, sent as data and checked by the engine's
  ``validate_deck``). Robots fill the empty seats up to the table size with a
  starter deck. When the last human is ready the engine deals (``playing``).
- ``playing``: a human sends ``action`` messages; the input is routed by the
  engine's ``to_act`` (an effect may ask someone other than the player on turn).
  When a robot is to act, ``robot_due`` is set a moment ahead; the runtime's tick
  (sent by any client of the room, the Celery safety net, or the next move) then
  plays exactly one robot action, so people can follow what robots do.
- ``finished`` (the engine declared winners or a draw) or ``ended`` (the host
  ended the room early).

A human who leaves or is removed (``player_removed``): before the deal their seat
goes to a robot with a starter deck; once dealt they are out of the game as if
they had lost (``rules.remove_player``), the turn passes on at once, and the last
player in wins. A table where only robots are still in is over.

No database here: saved decks reach the adapter as data in the ``deck`` message.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _

from games.rooms.errors import RoomError
from games.rooms.registry import Limits, Outcome, PlayerResult, RoomGame, SeatInfo, duration_s

from . import events
from .errors import refusal
from .rules import (
    STARTER_DECKS,
    GameState,
    IllegalMove,
    apply,
    end_game,
    new_game,
    remove_player,
    robot_action,
    validate_deck,
    view,
)

SETUP, PLAYING, FINISHED, ENDED = "setup", "playing", "finished", "ended"
DEFAULT_TABLE_SIZE = 2
DEFAULT_ROBOT_DELAY_MS = 700
MAX_ROBOT_DELAY_MS = 5000
MAX_DECK_NAME = 60


class TheoremsTable(RoomGame):
    limits = Limits(max_players=4, min_players=1, spectators=False, host_plays=True)
    rematch = True  # "Play again" after the game (games.rooms.lifecycle.rematch)
    messages = events.MESSAGES
    message_types = frozenset(messages)
    events = events.EVENTS
    template_name = "theorems/_table.html"
    script = "theorems/table.js"

    # --- settings and start ---------------------------------------------------

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

    def start(
        self, *, settings: dict, seats: list[SeatInfo], rng: random.Random, now: datetime
    ) -> Outcome:
        settings = self.clean_settings(settings)
        humans = [s for s in seats if s.role in ("host", "player")]
        table: list[dict[str, Any]] = [
            {
                "player_id": s.player_id,
                "nickname": s.nickname,
                "robot": False,
                "deck_name": None,
                "mathematician": None,
                "deck": None,
            }
            for s in humans
        ]
        for number in range(1, max(0, settings["table_size"] - len(table)) + 1):
            table.append(_robot_seat(number, rng))
        if len(table) < 2:  # a lone human without robots cannot play: give them one
            starter = rng.choice(STARTER_DECKS)
            table.append(
                {
                    "player_id": None,
                    "nickname": None,
                    "robot": 1,
                    "deck_name": starter.id,
                    "mathematician": starter.mathematician,
                    "deck": list(starter.deck),
                }
            )
        state = {
            "phase": SETUP,
            "seats": table,
            "burn": settings["burn"],
            "robot_delay_ms": settings["robot_delay_ms"],
            "engine_seed": rng.randrange(2**62),
            "game": None,
            "robot_due": None,
            "log_sent": 0,
            "started_at": now.isoformat(),
            "finished_at": None,
        }
        return self._outcome(
            state, public=[{"type": "table", "seats": _public_seats(state)}], now=now
        )

    # --- moves --------------------------------------------------------------------

    def apply(
        self,
        state: dict,
        *,
        player_id: int,
        role: str,
        message: dict,
        now: datetime,
        rng: random.Random,
    ) -> Outcome:
        seat = _seat_of(state, player_id)
        if message["type"] == "deck":
            return self._choose_deck(state, seat, message, now)
        return self._act(state, seat, message, now)

    def _choose_deck(self, state: dict, seat: int, message: dict, now: datetime) -> Outcome:
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
            deck_name=name.strip(), mathematician=mathematician, deck=list(deck)
        )
        public = [{"type": "deck_chosen", "seat": seat}]
        self._deal_if_ready(state, public)
        return self._outcome(state, public=public, now=now)

    def _deal_if_ready(self, state: dict, public: list[dict]) -> None:
        if all(s["deck"] is not None for s in state["seats"]):
            players = [
                {"mathematician": s["mathematician"], "deck": s["deck"]} for s in state["seats"]
            ]
            game = new_game(players, state["engine_seed"], burn=state["burn"])
            state["game"] = game.to_dict()
            state["phase"] = PLAYING
            public.append({"type": "dealt", "seats": _public_seats(state)})

    # --- players leaving ------------------------------------------------------------

    def player_removed(
        self, state: dict, *, player_id: int, now: datetime, rng: random.Random
    ) -> Outcome | None:
        if not state or state.get("phase") not in (SETUP, PLAYING):
            return None
        seat = next((i for i, s in enumerate(state["seats"]) if s["player_id"] == player_id), None)
        if seat is None or state["seats"][seat].get("left"):
            return None
        state = {**state, "seats": [dict(s) for s in state["seats"]]}
        if state["phase"] == SETUP:
            return self._robot_takes_over(state, seat, rng, now)
        state["seats"][seat]["left"] = True
        public = [{"type": "seat_left", "seat": seat}]
        game = remove_player(GameState.from_dict(state["game"]), seat)
        humans_in = [
            i
            for i, s in enumerate(state["seats"])
            if not s["robot"] and not s.get("left") and not game.players[i].lost
        ]
        if game.status == "running" and not humans_in:
            alive = [i for i, p in enumerate(game.players) if not p.lost]
            game = end_game(game, alive)
        outcome = self._after(state, game, now)
        outcome.public[:0] = public
        return outcome

    def _robot_takes_over(
        self, state: dict, seat: int, rng: random.Random, now: datetime
    ) -> Outcome | None:
        """Before the deal a seat nobody sits at goes to a robot, as at the start;
        with no human left the table closes."""
        if all(s["robot"] or i == seat for i, s in enumerate(state["seats"])):
            state = {**state, "phase": ENDED, "finished_at": now.isoformat()}
            outcome = self._outcome(state, public=[{"type": "seat_left", "seat": seat}], now=now)
            outcome.finished = True
            return outcome
        number = 1 + max((s["robot"] or 0 for s in state["seats"]), default=0)
        state["seats"][seat] = _robot_seat(number, rng)
        public = [
            {"type": "seat_left", "seat": seat},
            {"type": "table", "seats": _public_seats(state)},
        ]
        self._deal_if_ready(state, public)
        return self._outcome(state, public=public, now=now)

    def _act(self, state: dict, seat: int, message: dict, now: datetime) -> Outcome:
        if state["phase"] != PLAYING:
            raise RoomError("not_playing", _("The cards have not been dealt yet."))
        action = message.get("action")
        game = GameState.from_dict(state["game"])
        try:
            if not isinstance(action, dict):
                raise IllegalMove("malformed_action")
            if game.to_act != seat:
                raise IllegalMove("not_your_turn")
            game = apply(game, {**action, "player": seat})
        except IllegalMove as error:
            raise refusal(error) from error
        return self._after(state, game, now)

    def _after(self, state: dict, game: GameState, now: datetime) -> Outcome:
        state = {**state, "game": game.to_dict()}
        if game.status != "running":
            state["phase"] = FINISHED
            state["finished_at"] = now.isoformat()
        return self._outcome(state, now=now)

    # --- robots -------------------------------------------------------------------

    def tick(self, state: dict, *, now: datetime, rng: random.Random) -> Outcome | None:
        due = self.next_deadline(state)
        if due is None or now < due:
            return None
        game = GameState.from_dict(state["game"])
        game = apply(game, robot_action(game, rng))  # the planning robot (rules.robot)
        return self._after(state, game, now)

    def next_deadline(self, state: dict) -> datetime | None:
        due = state.get("robot_due")
        return datetime.fromisoformat(due) if due else None

    # --- what people see ------------------------------------------------------------

    def _outcome(self, state: dict, *, public: list | None = None, now=None) -> Outcome:
        """Every step: new public log entries for the room, a fresh view for each human."""
        public = list(public or [])
        state["robot_due"] = None
        if state["phase"] == PLAYING:
            game = GameState.from_dict(state["game"])
            if state["seats"][game.to_act]["robot"] and now is not None:
                delay = timedelta(milliseconds=state["robot_delay_ms"])
                state["robot_due"] = (now + delay).isoformat()
        if state["game"] is not None:
            log = state["game"]["log"]
            new = log[state.get("log_sent", 0) :]
            state["log_sent"] = len(log)
            if new:
                public.append({"type": "log", "entries": new})
        private = {
            s["player_id"]: [{"type": "view", "view": self._view(state, seat)}]
            for seat, s in enumerate(state["seats"])
            if s["player_id"] is not None
        }
        return Outcome(
            state=state,
            public=public,
            private=private,
            finished=state["phase"] == FINISHED,
        )

    def _view(self, state: dict, seat: int | None, *, with_log: bool = False) -> dict:
        data: dict[str, Any] = {
            "phase": state["phase"],
            "you": seat,
            "seats": _public_seats(state),
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
            game_view = view(GameState.from_dict(state["game"]), seat)
            if not with_log:
                game_view.pop("log")
            data["game"] = game_view
        return data

    def view(
        self,
        state: dict,
        *,
        player_id: int | None,
        role: str,
        seat_state: dict,
        now: datetime | None = None,
    ) -> dict:
        if not state:
            return {}
        seat = None
        for index, s in enumerate(state["seats"]):
            if player_id is not None and s["player_id"] == player_id:
                seat = index
        return self._view(state, seat, with_log=True)

    # --- the end ------------------------------------------------------------------------

    def end(self, state: dict, *, now: datetime) -> dict:
        if not state:
            return state
        return {**state, "phase": ENDED, "robot_due": None, "finished_at": now.isoformat()}

    def results(self, state: dict, seat_states: dict[int, dict]) -> list[PlayerResult]:
        """Score = proven theorems; rank 1 for the winners, then by (still in, proven)."""
        if not state or state.get("game") is None:
            return []
        game = GameState.from_dict(state["game"])
        completed = state["phase"] == FINISHED

        def key(seat: int) -> tuple:
            player = game.players[seat]
            return (seat in game.winners, not player.lost, len(player.proven))

        keys = [key(seat) for seat in range(len(game.players))]
        duration = duration_s(state)
        results = []
        for seat, s in enumerate(state["seats"]):
            if s["player_id"] is None:
                continue
            player = game.players[seat]
            rank = 1 + sum(1 for other in keys if other > keys[seat])
            left = bool(s.get("left"))
            results.append(
                PlayerResult(
                    player_id=s["player_id"],
                    score=len(player.proven),
                    rank=rank,
                    completed=completed and not left,
                    details={
                        "won": seat in game.winners,
                        "outcome": _outcome_word(game, seat, completed),
                        "duration_s": duration,
                        "lost": player.lost,
                        "left": left,
                        "mathematician": player.mathematician,
                        "deck": s["deck_name"],
                        "proven": list(player.proven),
                        "boredom": player.boredom,
                        "turns": game.turn_number,
                        "players": len(game.players),
                        "robots": sum(1 for other in state["seats"] if other["robot"]),
                    },
                )
            )
        return results


def _outcome_word(game: GameState, seat: int, completed: bool) -> str | None:
    """win / loss / draw, as duels record it; None for a game the host ended."""
    if not completed:
        return None
    if not game.winners:
        return "draw"
    return "win" if seat in game.winners else "loss"


def _seat_of(state: dict, player_id: int) -> int:
    for index, seat in enumerate(state.get("seats", [])):
        if seat["player_id"] == player_id:
            return index
    raise RoomError("not_seated", _("You do not have a seat at this table."))


def _public_seats(state: dict) -> list[dict]:
    """Who sits where; never a deck's contents (with the public piles they would tell
    which cards are in a hand)."""
    return [
        {
            "seat": index,
            "player_id": s["player_id"],
            "nickname": s["nickname"],
            "robot": s["robot"],
            "ready": s["deck"] is not None,
            "deck_name": s["deck_name"],
            "mathematician": s["mathematician"] if state["phase"] != SETUP else None,
            **({"left": True} if s.get("left") else {}),  # only for a player who left
        }
        for index, s in enumerate(state["seats"])
    ]


def _robot_seat(number: int, rng: random.Random) -> dict:
    """A robot's seat before the deal: robot ``number`` with a random starter deck."""
    starter = rng.choice(STARTER_DECKS)
    return {
        "player_id": None,
        "nickname": None,
        "robot": number,
        "deck_name": starter.id,
        "mathematician": starter.mathematician,
        "deck": list(starter.deck),
    }
