"""Abaku in the rooms runtime: a thin translator to the pure rules engine.

Two modes are registered (``apps.py``):

- ``table``: 2-4 seats played in real time (code/link/QR or a class); humans take
  seats, robots fill the seats nobody took, spectators may watch. An optional turn
  time limit; a turn that runs out counts as an empty turn (``timeout``).
- ``solo``: a one-human room started at once: practice alone (``table_size`` 1) or
  a game against one robot (``table_size`` 2); no time limit.

The room's state holds the engine's ``GameState.to_dict()`` (the bag order and the
seed included): it never leaves the server. People see ``rules.view`` only, where
every rack but their own is a count. When a robot is on turn ``robot_due`` is set
a moment ahead and the runtime's tick (sent by a client, the Celery safety net or
the next move) plays exactly one robot action, so people can follow the robots.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.rooms.errors import RoomError
from games.rooms.registry import Limits, Outcome, PlayerResult, RoomGame, SeatInfo, duration_s

from . import events
from .rules import (
    DEFAULT_LEVEL,
    LAYOUTS,
    LEVELS,
    OLD_LEVELS,
    GameState,
    IllegalMove,
    apply,
    best_move,
    new_game,
    review,
    robot_action,
    view,
)
from .rules.game import ACTIVE, end_game, remove_player

PLAYING, FINISHED, ENDED = "playing", "finished", "ended"
PLAYING_ROLES = ("host", "player")
DEFAULT_TABLE_SIZE = 2
DEFAULT_ROBOT_DELAY_MS = 700
MAX_ROBOT_DELAY_MS = 5000
TURN_SECONDS_CHOICES = (None, 30, 60, 120, 180, 300)
DEFAULT_TURN_SECONDS = 120

# Every engine refusal in the player's language; the code stays stable.
MESSAGES = {
    "malformed_action": gettext_lazy("This is not a move of this game."),
    "unknown_action": gettext_lazy("This is not a move of this game."),
    "game_over": gettext_lazy("The game is over."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "turn_expired": gettext_lazy("Your time for this turn has run out."),
    "bad_placement": gettext_lazy("Place stones on empty squares of the board."),
    "bad_digit": gettext_lazy("A stone shows a digit from 0 to 9."),
    "off_board": gettext_lazy("That square is not on the board."),
    "duplicate_cell": gettext_lazy("Two stones cannot lie on the same square."),
    "occupied": gettext_lazy("That square is already taken."),
    "no_stones": gettext_lazy("Place at least one stone."),
    "not_in_rack": gettext_lazy("Those stones are not on your rack."),
    "bad_exchange": gettext_lazy("Choose at least one stone to exchange."),
    "bag_too_small": gettext_lazy("The bag holds fewer stones than you want to exchange."),
    "not_in_line": gettext_lazy("All new stones must lie in one row or one column."),
    "gap": gettext_lazy("The new stones must not leave a gap."),
    "not_connected": gettext_lazy("The new stones must touch the stones on the board."),
    "off_centre": gettext_lazy("The first example must cover the centre square."),
    "first_move_too_short": gettext_lazy("The first move needs at least two stones."),
    "no_example": gettext_lazy("The new stones do not form a correct example."),
    "contact_without_example": gettext_lazy(
        "Every place where a new stone touches an old one must be part of a new example."
    ),
    "zero_between": gettext_lazy(
        "A zero between two stones must form an example with both of them."
    ),
}


def refusal(error: IllegalMove) -> RoomError:
    """The engine's refusal with a message in the active language."""
    message = MESSAGES.get(error.code)
    return RoomError(error.code, str(message) if message else error.message)


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
    level = settings.get("robot_level", DEFAULT_LEVEL)
    # the robot levels and their order live in the rules (robot.py); ids stored
    # before the four levels (issue 19) map to the level they play now
    level = OLD_LEVELS.get(level, level) if isinstance(level, str) else level
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


def _stamp(moment: datetime) -> float:
    return moment.timestamp()


class AbakuTable(RoomGame):
    """A table of 2-4 seats; robots take the seats nobody took before the start."""

    limits = Limits(max_players=4, min_players=1, spectators=True)
    messages = events.MESSAGES
    message_types = frozenset(messages)
    events = events.EVENTS
    template_name = "abaku/_table.html"
    script = "abaku/table.js"
    solo = False
    rematch = True

    def clean_settings(self, settings: dict) -> dict:
        return clean_settings(settings, solo=self.solo)

    # --- start ------------------------------------------------------------------

    def start(
        self, *, settings: dict, seats: list[SeatInfo], rng: random.Random, now: datetime
    ) -> Outcome:
        settings = self.clean_settings(settings)
        humans = [s for s in seats if s.role in PLAYING_ROLES]
        if not 1 <= len(humans) <= 4:
            raise RoomError("bad_table", _("An Abaku table seats 1 to 4 players."))
        table: list[dict[str, Any]] = [
            {"player_id": s.player_id, "nickname": s.nickname, "robot": None} for s in humans
        ]
        robots = max(0, settings["table_size"] - len(table))
        for _number in range(robots):
            table.append({"player_id": None, "nickname": None, "robot": settings["robot_level"]})
        game = new_game(
            [str(index) for index in range(len(table))],
            seed=rng.randrange(2**62),
            layout=settings["layout"],
            turn_seconds=settings["turn_seconds"],
            now=_stamp(now),
        )
        state = {
            "phase": PLAYING,
            "seats": table,
            "settings": settings,
            "game": game.to_dict(),
            # the first state and every action applied to it: the after-game review
            # replays them (``review.replay``); the racks they reveal stay on the server
            "initial": game.to_dict(),
            "actions": [],
            "robot_due": None,
            "started_at": now.isoformat(),
            "finished_at": None,
        }
        return self._outcome(state, [{"type": "started", "seats": _public_seats(state)}], now)

    # --- moves ----------------------------------------------------------------------

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
        if state.get("phase") != PLAYING:
            raise RoomError("game_over", _("The game is over."))
        seat = _seat_of(state, player_id)
        kind = message["type"]
        action: dict[str, Any] = {"type": kind, "player": seat, "now": _stamp(now)}
        if kind == "place":
            action["placements"] = message.get("placements")
            if not isinstance(action["placements"], list) or not action["placements"]:
                raise refusal(IllegalMove("no_stones"))
        elif kind == "exchange":
            action["stones"] = message.get("stones")
            if not isinstance(action["stones"], list):
                raise refusal(IllegalMove("bad_exchange"))
        game = GameState.from_dict(state["game"])
        try:
            game, events = apply(game, action)
        except IllegalMove as error:
            raise refusal(error) from error
        return self._after(_logged(state, action), game, events, now)

    def _after(self, state: dict, game: GameState, events: list, now: datetime) -> Outcome:
        state = {**state, "game": game.to_dict()}
        if game.finished:
            state["phase"] = FINISHED
            state["finished_at"] = now.isoformat()
        return self._outcome(state, events, now)

    # --- players leaving -------------------------------------------------------------

    def player_removed(
        self, state: dict, *, player_id: int, now: datetime, rng: random.Random
    ) -> Outcome | None:
        """A human left or was removed: their seat forfeits (``rules.remove_player``).

        A turn they held passes at once with a fresh clock (or to a robot, which
        plays after its delay); one active seat left ends the game, and so does a
        table where only robots are still active.
        """
        if not state or state.get("phase") != PLAYING:
            return None
        seat = next((i for i, s in enumerate(state["seats"]) if s["player_id"] == player_id), None)
        if seat is None or state["seats"][seat].get("left"):
            return None
        game = GameState.from_dict(state["game"])
        game, events = remove_player(game, seat, now=_stamp(now))
        state = _logged(state, {"type": "removed", "player": seat, "now": _stamp(now)})
        state["seats"] = [dict(s) for s in state["seats"]]
        state["seats"][seat]["left"] = True
        humans = [
            i
            for i, s in enumerate(state["seats"])
            if not s["robot"] and game.players[i].status == ACTIVE
        ]
        if not game.finished and not humans:
            game, more = end_game(game, "robots_only")
            events += more
        return self._after(state, game, events, now)

    # --- time: robots and the turn clock ----------------------------------------------

    def tick(self, state: dict, *, now: datetime, rng: random.Random) -> Outcome | None:
        """A robot on turn plays once its moment has come; a human's run-out turn is empty."""
        if not state or state.get("phase") != PLAYING:
            return None
        game = GameState.from_dict(state["game"])
        robot = state["seats"][game.turn]["robot"]
        due = state.get("robot_due")
        if robot and due is not None and now >= datetime.fromisoformat(due):
            action = {**robot_action(game, robot, rng), "now": _stamp(now)}
            game, events = apply(game, action)
            return self._after(_logged(state, action), game, events, now)
        deadline = game.deadline
        if not robot and deadline is not None and _stamp(now) >= deadline:
            action = {"type": "timeout", "now": _stamp(now)}
            game, events = apply(game, action)
            return self._after(_logged(state, action), game, events, now)
        return None

    def next_deadline(self, state: dict) -> datetime | None:
        if not state or state.get("phase") != PLAYING:
            return None
        if state.get("robot_due"):
            return datetime.fromisoformat(state["robot_due"])
        deadline = GameState.from_dict(state["game"]).deadline
        return None if deadline is None else datetime.fromtimestamp(deadline, tz=UTC)

    # --- what people see ------------------------------------------------------------------

    def _outcome(self, state: dict, events: list, now: datetime) -> Outcome:
        """Every step: the engine's public events, a public view for spectators and a
        private view (with the own rack) for every seated human."""
        state["robot_due"] = None
        if state["phase"] == PLAYING:
            turn = state["game"]["turn"]
            if state["seats"][turn]["robot"]:
                delay = timedelta(milliseconds=state["settings"]["robot_delay_ms"])
                state["robot_due"] = (now + delay).isoformat()
        public = [*events, {"type": "view", "view": self._view(state, None, history=False)}]
        private = {
            s["player_id"]: [{"type": "view", "view": self._view(state, seat, history=False)}]
            for seat, s in enumerate(state["seats"])
            if s["player_id"] is not None
        }
        return Outcome(
            state=state, public=public, private=private, finished=state["phase"] == FINISHED
        )

    def _view(self, state: dict, seat: int | None, *, history: bool = True) -> dict:
        game = view(GameState.from_dict(state["game"]), seat)
        if not history:
            game.pop("history")
        return {
            "phase": state["phase"],
            "you": seat,
            "seats": _public_seats(state),
            "settings": {
                key: state["settings"][key]
                for key in ("table_size", "robot_level", "turn_seconds", "layout", "robot_delay_ms")
            },
            "robot_due": state.get("robot_due"),
            "game": game,
        }

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
        return self._view(state, seat)

    # --- the end ------------------------------------------------------------------------------

    def end(self, state: dict, *, now: datetime) -> dict:
        if not state:
            return state
        return {**state, "phase": ENDED, "robot_due": None, "finished_at": now.isoformat()}

    def results(self, state: dict, seat_states: dict[int, dict]) -> list[PlayerResult]:
        """Score = points after the end adjustment; competition ranks over all seats."""
        if not state or not state.get("game"):
            return []
        game = GameState.from_dict(state["game"])
        completed = state["phase"] == FINISHED
        scores = [p.score for p in game.players]
        winners = set(game.result["winners"]) if game.result else set()
        duration = duration_s(state)
        results = []
        for seat, s in enumerate(state["seats"]):
            if s["player_id"] is None:
                continue
            player = game.players[seat]
            forfeited = player.status != "active"
            left = bool(s.get("left"))
            mine = (not forfeited, player.score)
            rank = 1 + sum(1 for p in game.players if (p.status == "active", p.score) > mine)
            if not completed:
                outcome = None
            elif seat in winners:
                outcome = "draw" if len(winners) > 1 else "win"
            else:
                outcome = "loss"
            results.append(
                PlayerResult(
                    player_id=s["player_id"],
                    score=player.score,
                    rank=rank,
                    completed=completed and not left,
                    details={
                        "outcome": outcome,
                        "duration_s": duration,
                        "reason": game.result["reason"] if game.result else None,
                        "forfeited": forfeited,
                        "left": left,
                        "players": len(game.players),
                        "robots": sum(1 for other in state["seats"] if other["robot"]),
                        "robot_level": state["settings"]["robot_level"],
                        "moves": game.move_number,
                        "scores": scores,
                    },
                )
            )
        return results


class AbakuSolo(AbakuTable):
    """Practice alone or against one robot: one human seat, started at once, no clock."""

    limits = Limits(max_players=1, min_players=1, spectators=False)
    solo = True


# --- hints and the after-game review (issue 19, item 5) -----------------------------


def _other_humans(state: dict, seat: int) -> bool:
    return any(
        s["player_id"] is not None and index != seat for index, s in enumerate(state["seats"])
    )


def hint(state: dict, *, player_id: int) -> dict:
    """The best move for the player on turn: ``{"placements": [[row, col, digit,
    joker], ...] or None, "score": int}``. Only in games without other people
    (practice alone, against robots): elsewhere it would help one player against
    another (``hint_not_allowed``). Read-only: nothing is stored."""
    if not state or state.get("phase") != PLAYING:
        raise refusal(IllegalMove("game_over"))
    seat = _seat_of(state, player_id)
    if _other_humans(state, seat):
        raise RoomError(
            "hint_not_allowed",
            _("Hints are only for games alone or against robots."),
        )
    game = GameState.from_dict(state["game"])
    if game.turn != seat:
        raise refusal(IllegalMove("not_your_turn"))
    move = best_move(game.board, game.players[seat].rack)
    if move is None:
        return {"placements": None, "score": 0}
    placements = [[p.row, p.col, p.digit, p.joker] for p in move.placements]
    return {"placements": placements, "score": move.score}


def game_review(state: dict, *, player_id: int) -> list[dict]:
    """After the game, per turn what was played and the best move there was
    (``rules.review``), replayed from the first state and the action log.

    A seat that left mid-game is taken out where it happened, as in the game.
    The best moves of other people's turns are left out (``best`` None): they
    would show what was on their racks; robots' turns and the own are shown."""
    if not state or state.get("phase") == PLAYING:
        raise RoomError("not_finished", _("The review is there once the game is over."))
    if "initial" not in state:
        raise RoomError("no_review", _("This game was played before reviews were kept."))
    seat = _seat_of(state, player_id)
    game = GameState.from_dict(state["initial"])
    turns: list[dict] = []
    segment: list[dict] = []

    def flush(game: GameState) -> None:
        for turn in review(game, segment):
            turns.append({**turn, "move_number": len(turns) + 1})

    try:
        for action in state["actions"]:
            if action.get("type") != "removed":
                segment.append(action)
                continue
            flush(game)
            for earlier in segment:
                game, _events = apply(game, earlier)
            segment = []
            if not game.finished:
                game, _events = remove_player(game, action["player"], now=action.get("now"))
        flush(game)
    except IllegalMove as error:  # a log that does not replay (never expected): no review
        raise RoomError("no_review", _("This game cannot be reviewed.")) from error
    for turn in turns:
        owner = state["seats"][turn["player"]]
        if owner["player_id"] is not None and turn["player"] != seat:
            turn["best"], turn["best_score"], turn["missed"] = None, None, None
    return turns


def _logged(state: dict, action: dict) -> dict:
    """The state with ``action`` appended to its action log (states stored before
    the log existed have none and get no review)."""
    if "actions" not in state:
        return dict(state)
    return {**state, "actions": [*state["actions"], action]}


def _seat_of(state: dict, player_id: int) -> int:
    for index, seat in enumerate(state.get("seats", [])):
        if seat["player_id"] == player_id:
            return index
    raise RoomError("not_seated", _("You do not have a seat at this table."))


def _public_seats(state: dict) -> list[dict]:
    return [
        {
            "seat": index,
            "player_id": s["player_id"],
            "nickname": s["nickname"],
            "robot": s["robot"],
            "left": bool(s.get("left")),
        }
        for index, s in enumerate(state["seats"])
    ]
