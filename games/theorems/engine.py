"""The Matematici rules engine as a turn-based table plays it
(``games.rooms.turntable.TurnEngine``).

The engine's player ids are already the seat indexes. The game keeps its own log
(``GameState.log``) instead of events, so ``apply`` reports none: the table sends
new log entries (``adapter.TheoremsTable.public_events``). There is no turn clock.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.rooms.turntable import Action, Event, Seat, Standing

from . import rules
from .errors import refusal
from .rules import GameState, IllegalMove


class TheoremsEngine:
    """Matematici's rules behind the table's one contract."""

    def new_game(self, seats: list[dict], *, settings: dict, seed: int, now: float) -> GameState:
        players: list[Mapping[str, Any]] = [
            {"mathematician": s["mathematician"], "deck": s["deck"]} for s in seats
        ]
        return rules.new_game(players, seed, burn=settings["burn"])

    def load(self, data: dict) -> GameState:
        return GameState.from_dict(data)

    def dump(self, game: GameState) -> dict:
        return game.to_dict()

    def apply(self, game: GameState, action: Action) -> tuple[GameState, list[Event]]:
        """The input is routed by ``to_act``: an effect may ask someone other than
        the player on turn to choose."""
        try:
            if game.to_act != action.get("player"):
                raise IllegalMove("not_your_turn")
            return rules.apply(game, action), []
        except IllegalMove as error:
            raise refusal(error) from error

    def view(self, game: GameState, seat: Seat | None) -> dict:
        return rules.view(game, seat)

    def remove_player(
        self, game: GameState, seat: Seat, *, now: float
    ) -> tuple[GameState, list[Event]]:
        """Out as if they had lost; the turn passes on at once, the last one in wins."""
        return rules.remove_player(game, seat), []

    def to_act(self, game: GameState) -> Seat | None:
        return game.to_act

    def deadline(self, game: GameState) -> float | None:
        return None  # no turn clock in Matematici

    def timeout_action(self, game: GameState, *, now: float) -> Action:
        raise NotImplementedError("Matematici has no turn clock")

    def robot_action(
        self, game: GameState, seat: Seat, robot: Any, rng: random.Random, *, now: float
    ) -> Action:
        return rules.robot_action(game, rng)  # the planning robot (rules.robot)

    def in_game(self, game: GameState, seat: Seat) -> bool:
        return not game.players[seat].lost

    def end(self, game: GameState) -> tuple[GameState, list[Event]]:
        """Only robots are still in: those still in win."""
        alive = [seat for seat, player in enumerate(game.players) if not player.lost]
        return rules.end_game(game, alive), []

    def finished(self, game: GameState) -> bool:
        return game.status != rules.RUNNING

    def scores(self, game: GameState) -> list[Standing]:
        """Proven theorems; the winners first, then those still in, by proven."""
        return [
            Standing(
                len(player.proven),
                (seat in game.winners, not player.lost, len(player.proven)),
            )
            for seat, player in enumerate(game.players)
        ]
