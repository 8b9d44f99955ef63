"""Turn-based tables in the rooms runtime: the table flow every such game shares.

A turn-based game (a board or card game taking turns) plugs its pure rules engine in through
one typed contract, :class:`TurnEngine`; its adapter subclasses :class:`TurnTable`
and says only what is its own: settings, what a message means as an engine
action, what a seat holds and what people see. The table owns the rest:

- the phase (``setup`` -> ``playing`` -> ``finished``, or ``ended`` by the host);
- the seats: humans in the order they sat down, robots in the seats nobody took,
  leavers marked ``left`` (they still get their result);
- robot pacing: when a robot is to act, ``robot_due`` is set a moment ahead and
  the runtime's tick (a client, the Celery safety net or the next move) plays
  exactly one robot action, so people can follow the robots;
- the turn clock: a human whose engine deadline passed gets the engine's timeout;
- removal of a player: their seat leaves the game (``engine.remove_player``); a
  table where only robots are still in is over;
- competition ranking (``games.rooms.ranking``) and the common result details.

The state is a JSON dict: ``phase``, ``seats``, ``game`` (the engine's own
``dump``), ``robot_due``, ``started_at``, ``finished_at`` and whatever the
adapter adds (``initial_state``). With ``record_actions`` the first game state
and every action applied to it are kept (``initial``, ``actions``), so a review
can replay the game; they never leave the server.

The one player-id type between the table and an engine is the seat index
(``Seat``); the one verb is ``apply(game, action)`` with ``action["player"]``
the acting seat (timeouts name no player). Engines raise refusals the runtime
understands (an exception with ``code`` and ``message``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, Protocol, runtime_checkable

from django.utils.translation import gettext as _

from .errors import RoomError
from .ranking import competition_ranks
from .registry import Outcome, PlayerResult, RoomGame, SeatInfo, duration_s

SETUP, PLAYING, FINISHED, ENDED = "setup", "playing", "finished", "ended"
PLAYING_ROLES = ("host", "player")

Seat = int  # a player at the table: the index of their seat
Action = dict[str, Any]
Event = dict[str, Any]


@dataclass(frozen=True)
class Standing:
    """One seat's result: the ``score`` recorded, and the ``key`` it ranks by
    (higher is better; e.g. ``(still in, score)`` puts forfeits last)."""

    score: int
    key: tuple[Any, ...]


@runtime_checkable
class TurnEngine(Protocol):
    """What a turn-based game's rules engine offers the table (``games/<game>/engine.py``)."""

    def new_game(
        self, seats: list[dict[str, Any]], *, settings: dict[str, Any], seed: int, now: float
    ) -> Any:
        """A dealt game for these seats (their table entries) with this seed."""
        ...

    def load(self, data: dict[str, Any]) -> Any: ...

    def dump(self, game: Any) -> dict[str, Any]: ...

    def apply(self, game: Any, action: Action) -> tuple[Any, list[Event]]:
        """The game after ``action`` and its public events; raise a refusal if illegal."""
        ...

    def view(self, game: Any, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator, public things only)."""
        ...

    def remove_player(self, game: Any, seat: Seat, *, now: float) -> tuple[Any, list[Event]]: ...

    def to_act(self, game: Any) -> Seat | None:
        """The seat the game waits for (None once it is over)."""
        ...

    def deadline(self, game: Any) -> float | None:
        """When the seat to act runs out of time (epoch seconds), if there is a clock."""
        ...

    def timeout_action(self, game: Any, *, now: float) -> Action: ...

    def robot_action(
        self, game: Any, seat: Seat, robot: Any, rng: random.Random, *, now: float
    ) -> Action: ...

    def in_game(self, game: Any, seat: Seat) -> bool:
        """Is ``seat`` still playing (not forfeited, not lost)?"""
        ...

    def end(self, game: Any) -> tuple[Any, list[Event]]:
        """Finish a running game now: only robots are still playing."""
        ...

    def finished(self, game: Any) -> bool: ...

    def scores(self, game: Any) -> list[Standing]:
        """Every seat's standing, in seat order."""
        ...


def stamp(moment: datetime) -> float:
    return moment.timestamp()


def seat_of(state: dict[str, Any], player_id: int) -> Seat:
    """The seat of ``player_id`` at the table in ``state``, or a ``not_seated`` refusal."""
    for index, seat in enumerate(state.get("seats", [])):
        if seat["player_id"] == player_id:
            return index
    raise RoomError("not_seated", _("You do not have a seat at this table."))


class TurnTable(RoomGame):
    """Base adapter of a turn-based table; see the module docstring."""

    engine: ClassVar[TurnEngine]
    # Seats a table has at least; robots fill up to the larger of this and the
    # settings' ``table_size``.
    min_seats: ClassVar[int] = 1
    # The public event announcing the seats at the start (and after changes in setup).
    table_event: ClassVar[str] = "table"
    # The public event when the engine deals (None: no event of its own).
    dealt_event: ClassVar[str | None] = None
    # The public event naming a seat whose player left (None: the engine's events say it).
    leave_event: ClassVar[str | None] = None
    # Keep ``initial`` and ``actions`` so the game can be replayed (reviews).
    record_actions: ClassVar[bool] = False

    # --- what each game says ---------------------------------------------------

    def human_seat(self, seat: SeatInfo) -> dict[str, Any]:
        return {"player_id": seat.player_id, "nickname": seat.nickname, "robot": None}

    def robot_seat(
        self, number: int, settings: dict[str, Any], rng: random.Random
    ) -> dict[str, Any]:
        """Robot ``number`` (1, 2, ...) in a seat nobody took."""
        raise NotImplementedError

    def initial_state(self, settings: dict[str, Any], seed: int) -> dict[str, Any]:
        """The game's own keys of the state (settings it keeps, the engine seed)."""
        return {"settings": settings, "engine_seed": seed}

    def ready(self, state: dict[str, Any]) -> bool:
        """May the engine deal (every seat has what it needs)?"""
        return True

    def engine_settings(self, state: dict[str, Any]) -> dict[str, Any]:
        settings: dict[str, Any] = state["settings"]
        return settings

    def robot_delay_ms(self, state: dict[str, Any]) -> int:
        delay: int = state["settings"]["robot_delay_ms"]
        return delay

    def action(
        self, state: dict[str, Any], seat: Seat, message: dict[str, Any], now: datetime
    ) -> Action:
        """The engine action a player's message asks for (refuse malformed ones)."""
        return {**message, "player": seat}

    def not_playing(self, state: dict[str, Any]) -> Exception:
        return RoomError("game_over", _("The game is over."))

    def setup_message(
        self, state: dict[str, Any], seat: Seat, message: dict[str, Any], now: datetime
    ) -> Outcome:
        raise RoomError("unknown_type", _("This game does not accept that message."))

    setup_types: ClassVar[frozenset[str]] = frozenset()

    def left_in_setup(
        self, state: dict[str, Any], seat: Seat, rng: random.Random, now: datetime
    ) -> Outcome | None:
        """A human left before the deal (only tables with a setup phase)."""
        return None

    def seat_details(self, state: dict[str, Any], seat: dict[str, Any]) -> dict[str, Any]:
        """What the public seat list says beyond who sits there."""
        return {"left": bool(seat.get("left"))}

    def public_events(self, state: dict[str, Any], events: list[Event]) -> list[Event]:
        """Everything the room hears after a step (the engine's events by default)."""
        return events

    def table_view(self, state: dict[str, Any], seat: Seat | None, *, full: bool) -> dict[str, Any]:
        """What ``seat`` sees; ``full`` for a sync snapshot, not for every step."""
        raise NotImplementedError

    def result_details(
        self, state: dict[str, Any], game: Any, seat: Seat, completed: bool
    ) -> dict[str, Any]:
        return {}

    # --- start ------------------------------------------------------------------

    def start(
        self, *, settings: dict[str, Any], seats: list[SeatInfo], rng: random.Random, now: datetime
    ) -> Outcome:
        settings = self.clean_settings(settings)
        table = [self.human_seat(s) for s in seats if s.role in PLAYING_ROLES]
        robots = max(settings.get("table_size", 0), self.min_seats) - len(table)
        table += [self.robot_seat(number, settings, rng) for number in range(1, robots + 1)]
        state = {
            "phase": SETUP,
            "seats": table,
            **self.initial_state(settings, rng.randrange(2**62)),
            "game": None,
            "robot_due": None,
            "started_at": now.isoformat(),
            "finished_at": None,
        }
        public = [{"type": self.table_event, "seats": self.public_seats(state)}]
        self.deal_if_ready(state, public, now)
        return self.outcome(state, public, now)

    def deal_if_ready(self, state: dict[str, Any], public: list[Event], now: datetime) -> None:
        if state["phase"] != SETUP or not self.ready(state):
            return
        game = self.engine.new_game(
            state["seats"],
            settings=self.engine_settings(state),
            seed=state["engine_seed"],
            now=stamp(now),
        )
        state["game"] = self.engine.dump(game)
        state["phase"] = PLAYING
        if self.record_actions:
            state["initial"], state["actions"] = self.engine.dump(game), []
        if self.dealt_event:
            public.append({"type": self.dealt_event, "seats": self.public_seats(state)})

    # --- a stored state as this code reads it ------------------------------------

    def stored(self, state: dict[str, Any]) -> dict[str, Any]:
        """``state`` as the runtime stored it, read by this code: every way in with a
        stored state (``apply``, ``tick``, ``player_removed``, ``view``, ``results``)
        passes it here first. A game whose stored ids changed maps them once here (the
        next stored state then holds the current ones); the default changes nothing."""
        return state

    # --- moves ------------------------------------------------------------------

    def apply(
        self,
        state: dict[str, Any],
        *,
        player_id: int,
        role: str,
        message: dict[str, Any],
        now: datetime,
        rng: random.Random,
    ) -> Outcome:
        state = self.stored(state)
        if message["type"] in self.setup_types:
            return self.setup_message(state, self.seat_of(state, player_id), message, now)
        if state.get("phase") != PLAYING:
            raise self.not_playing(state)
        action = self.action(state, self.seat_of(state, player_id), message, now)
        return self._play(state, action, now)

    def _play(self, state: dict[str, Any], action: Action, now: datetime) -> Outcome:
        game, events = self.engine.apply(self.engine.load(state["game"]), action)
        return self.after(self._logged(state, action), game, events, now)

    def after(
        self, state: dict[str, Any], game: Any, events: list[Event], now: datetime
    ) -> Outcome:
        state = {**state, "game": self.engine.dump(game)}
        if self.engine.finished(game):
            state["phase"] = FINISHED
            state["finished_at"] = now.isoformat()
        return self.outcome(state, events, now)

    def _logged(self, state: dict[str, Any], action: Action) -> dict[str, Any]:
        """The state with ``action`` in its log (states stored before a game kept one
        have none, and no review)."""
        if not self.record_actions or "actions" not in state:
            return dict(state)
        return {**state, "actions": [*state["actions"], action]}

    # --- players leaving ----------------------------------------------------------

    def player_removed(
        self, state: dict[str, Any], *, player_id: int, now: datetime, rng: random.Random
    ) -> Outcome | None:
        """A human left or was removed. Before the deal the game decides
        (``left_in_setup``); once dealt their seat leaves the game, a turn they held
        passes on at once, and a table where only robots are still in is over."""
        state = self.stored(state)
        if not state or state.get("phase") not in (SETUP, PLAYING):
            return None
        seat = next((i for i, s in enumerate(state["seats"]) if s["player_id"] == player_id), None)
        if seat is None or state["seats"][seat].get("left"):
            return None
        state = {**state, "seats": [dict(s) for s in state["seats"]]}
        if state["phase"] == SETUP:
            return self.left_in_setup(state, seat, rng, now)
        game, events = self.engine.remove_player(
            self.engine.load(state["game"]), seat, now=stamp(now)
        )
        state = self._logged(state, {"type": "removed", "player": seat, "now": stamp(now)})
        state["seats"][seat]["left"] = True
        if self.leave_event:
            events = [{"type": self.leave_event, "seat": seat}, *events]
        humans_in = [
            i
            for i, s in enumerate(state["seats"])
            if not s["robot"] and not s.get("left") and self.engine.in_game(game, i)
        ]
        if not self.engine.finished(game) and not humans_in:
            game, more = self.engine.end(game)
            events = [*events, *more]
        return self.after(state, game, events, now)

    # --- time: robots and the turn clock -------------------------------------------

    def tick(self, state: dict[str, Any], *, now: datetime, rng: random.Random) -> Outcome | None:
        """A robot to act plays once its moment has come; a human's run-out turn times out."""
        state = self.stored(state)
        if not state or state.get("phase") != PLAYING:
            return None
        game = self.engine.load(state["game"])
        seat = self.engine.to_act(game)
        robot = state["seats"][seat]["robot"] if seat is not None else None
        due = state.get("robot_due")
        if robot and seat is not None and due is not None and now >= datetime.fromisoformat(due):
            action = self.engine.robot_action(game, seat, robot, rng, now=stamp(now))
        elif not robot and (deadline := self.engine.deadline(game)) is not None:
            if stamp(now) < deadline:
                return None
            action = self.engine.timeout_action(game, now=stamp(now))
        else:
            return None
        game, events = self.engine.apply(game, action)
        return self.after(self._logged(state, action), game, events, now)

    def next_deadline(self, state: dict[str, Any]) -> datetime | None:
        if not state or state.get("phase") != PLAYING:
            return None
        if state.get("robot_due"):
            return datetime.fromisoformat(state["robot_due"])
        deadline = self.engine.deadline(self.engine.load(state["game"]))
        return None if deadline is None else datetime.fromtimestamp(deadline, tz=UTC)

    # --- what people see --------------------------------------------------------------

    def outcome(self, state: dict[str, Any], events: list[Event], now: datetime) -> Outcome:
        """Every step: pace a robot that is to act, tell the room, a fresh view for
        every seated human."""
        state["robot_due"] = None
        if state["phase"] == PLAYING:
            seat = self.engine.to_act(self.engine.load(state["game"]))
            if seat is not None and state["seats"][seat]["robot"]:
                delay = timedelta(milliseconds=self.robot_delay_ms(state))
                state["robot_due"] = (now + delay).isoformat()
        private = {
            s["player_id"]: [{"type": "view", "view": self.table_view(state, seat, full=False)}]
            for seat, s in enumerate(state["seats"])
            if s["player_id"] is not None
        }
        return Outcome(
            state=state,
            public=self.public_events(state, list(events)),
            private=private,
            finished=state["phase"] == FINISHED,
        )

    def view(
        self,
        state: dict[str, Any],
        *,
        player_id: int | None,
        role: str,
        seat_state: dict[str, Any],
        now: datetime | None = None,
    ) -> dict[str, Any]:
        if not state:
            return {}
        state = self.stored(state)
        seat = None
        for index, s in enumerate(state["seats"]):
            if player_id is not None and s["player_id"] == player_id:
                seat = index
        return self.table_view(state, seat, full=True)

    def seat_of(self, state: dict[str, Any], player_id: int) -> Seat:
        return seat_of(state, player_id)

    def public_seats(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """Who sits where (never anything secret a seat holds)."""
        return [
            {
                "seat": index,
                "player_id": s["player_id"],
                "nickname": s["nickname"],
                "robot": s["robot"],
                **self.seat_details(state, s),
            }
            for index, s in enumerate(state["seats"])
        ]

    # --- the end -------------------------------------------------------------------------

    def end(self, state: dict[str, Any], *, now: datetime) -> dict[str, Any]:
        if not state:
            return state
        return {**state, "phase": ENDED, "robot_due": None, "finished_at": now.isoformat()}

    def results(
        self, state: dict[str, Any], seat_states: dict[int, dict[str, Any]]
    ) -> list[PlayerResult]:
        """Every human's standing; competition ranks over all seats, robots included."""
        state = self.stored(state)
        if not state or state.get("game") is None:
            return []
        game = self.engine.load(state["game"])
        completed = state["phase"] == FINISHED
        standings = self.engine.scores(game)
        ranks = competition_ranks([standing.key for standing in standings])
        common = {
            "duration_s": duration_s(state),
            "players": len(standings),
            "robots": sum(1 for s in state["seats"] if s["robot"]),
        }
        results = []
        for seat, s in enumerate(state["seats"]):
            if s["player_id"] is None:
                continue
            left = bool(s.get("left"))
            results.append(
                PlayerResult(
                    player_id=s["player_id"],
                    score=standings[seat].score,
                    rank=ranks[seat],
                    completed=completed and not left,
                    details={
                        **common,
                        "left": left,
                        **self.result_details(state, game, seat, completed),
                    },
                )
            )
        return results
