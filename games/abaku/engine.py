"""The Abaku rules engine as a turn-based table plays it (``games.rooms.turntable.TurnEngine``).

The engine's player ids are the seat indexes; every refusal leaves here with a
stable code and a message in the player's language.
"""

from __future__ import annotations

import random
from typing import Any

from django.utils.translation import gettext_lazy

from games.rooms.errors import RoomError
from games.rooms.turntable import Action, Event, Seat, Standing

from . import rules
from .rules import GameState, IllegalMove
from .rules.game import ACTIVE, end_game, remove_player

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


class AbakuEngine:
    """Abaku's rules behind the table's one contract."""

    def new_game(self, seats: list[dict], *, settings: dict, seed: int, now: float) -> GameState:
        return rules.new_game(
            [str(index) for index in range(len(seats))],
            seed=seed,
            layout=settings["layout"],
            turn_seconds=settings["turn_seconds"],
            now=now,
        )

    def load(self, data: dict) -> GameState:
        return GameState.from_dict(data)

    def dump(self, game: GameState) -> dict:
        return game.to_dict()

    def apply(self, game: GameState, action: Action) -> tuple[GameState, list[Event]]:
        try:
            return rules.apply(game, action)
        except IllegalMove as error:
            raise refusal(error) from error

    def view(self, game: GameState, seat: Seat | None) -> dict:
        return rules.view(game, seat)

    def remove_player(
        self, game: GameState, seat: Seat, *, now: float
    ) -> tuple[GameState, list[Event]]:
        return remove_player(game, seat, now=now)

    def to_act(self, game: GameState) -> Seat | None:
        return None if game.finished else game.turn

    def deadline(self, game: GameState) -> float | None:
        return game.deadline

    def timeout_action(self, game: GameState, *, now: float) -> Action:
        return {"type": "timeout", "now": now}

    def robot_action(
        self, game: GameState, seat: Seat, robot: Any, rng: random.Random, *, now: float
    ) -> Action:
        return {**rules.robot_action(game, robot, rng), "now": now}

    def in_game(self, game: GameState, seat: Seat) -> bool:
        return game.players[seat].status == ACTIVE

    def end(self, game: GameState) -> tuple[GameState, list[Event]]:
        return end_game(game, "robots_only")

    def finished(self, game: GameState) -> bool:
        return game.finished

    def scores(self, game: GameState) -> list[Standing]:
        """Points after the end adjustment; forfeited seats rank after those still in."""
        return [Standing(p.score, (p.status == ACTIVE, p.score)) for p in game.players]
