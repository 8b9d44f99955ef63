"""The tiny turn-based game's rules engine: pure, no Django.

Count to the goal: on their turn a player adds 1 or 2 to their own count; who
first reaches the goal wins. A turn that runs out adds nothing; a robot adds
what its level says; a player who leaves is out, and the last one in wins.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from games.rooms.turntable import Action, Event, Seat, Standing


class IllegalMove(Exception):
    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(code)
        self.code, self.message = code, message or code


@dataclass(frozen=True)
class Game:
    counts: list[int]
    goal: int
    turn: int = 0
    out: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    turn_seconds: int | None = None
    turn_started: float | None = None

    @property
    def over(self) -> bool:
        return bool(self.winners)


def _next(game: Game, now: float | None) -> Game:
    seats = len(game.counts)
    turn = game.turn
    for _step in range(seats):
        turn = (turn + 1) % seats
        if turn not in game.out:
            break
    return replace(game, turn=turn, turn_started=now)


class CountEngine:
    """The tiny game behind ``games.rooms.turntable.TurnEngine``."""

    def new_game(self, seats: list[dict], *, settings: dict, seed: int, now: float) -> Game:
        return Game(
            counts=[0] * len(seats),
            goal=settings["goal"],
            turn=seed % len(seats) if settings.get("random_start") else 0,
            turn_seconds=settings.get("turn_seconds"),
            turn_started=now,
        )

    def load(self, data: dict) -> Game:
        return Game(**data)

    def dump(self, game: Game) -> dict:
        return asdict(game)

    def apply(self, game: Game, action: Action) -> tuple[Game, list[Event]]:
        if game.over:
            raise IllegalMove("game_over", "The game is over.")
        seat, kind = action.get("player"), action.get("type")
        if kind == "timeout":
            return _next(game, action["now"]), [{"type": "counted", "seat": game.turn, "by": 0}]
        if seat != game.turn:
            raise IllegalMove("not_your_turn", "It is not your turn.")
        by = action.get("by")
        if kind != "add" or by not in (1, 2):
            raise IllegalMove("bad_count", "Add 1 or 2.")
        counts = [*game.counts]
        counts[seat] += by
        game = replace(game, counts=counts)
        if counts[seat] >= game.goal:
            game = replace(game, winners=[seat])
        else:
            game = _next(game, action.get("now"))
        return game, [{"type": "counted", "seat": seat, "by": by}]

    def view(self, game: Game, seat: Seat | None) -> dict:
        return {"counts": list(game.counts), "turn": game.turn, "winners": list(game.winners)}

    def remove_player(self, game: Game, seat: Seat, *, now: float) -> tuple[Game, list[Event]]:
        game = replace(game, out=[*game.out, seat])
        still_in = [s for s in range(len(game.counts)) if s not in game.out]
        if len(still_in) == 1:
            return replace(game, winners=still_in), []
        return (_next(game, now) if game.turn == seat else game), []

    def to_act(self, game: Game) -> Seat | None:
        return None if game.over else game.turn

    def deadline(self, game: Game) -> float | None:
        if game.over or game.turn_seconds is None or game.turn_started is None:
            return None
        return game.turn_started + game.turn_seconds

    def timeout_action(self, game: Game, *, now: float) -> Action:
        return {"type": "timeout", "now": now}

    def robot_action(
        self, game: Game, seat: Seat, robot: Any, rng: random.Random, *, now: float
    ) -> Action:
        return {"type": "add", "player": seat, "by": 2 if robot == "quick" else 1, "now": now}

    def in_game(self, game: Game, seat: Seat) -> bool:
        return seat not in game.out

    def end(self, game: Game) -> tuple[Game, list[Event]]:
        best = max(game.counts[s] for s in range(len(game.counts)) if s not in game.out)
        winners = [s for s, c in enumerate(game.counts) if c == best and s not in game.out]
        return replace(game, winners=winners), [{"type": "ended_early"}]

    def finished(self, game: Game) -> bool:
        return game.over

    def scores(self, game: Game) -> list[Standing]:
        return [Standing(c, (s not in game.out, c)) for s, c in enumerate(game.counts)]
