"""Matematici (theorems): the pure rules engine.

No Django, no I/O: a state goes in, a new state comes out. See docs/rules/theorems.md.
"""

from .catalogue import CATALOGUE, FIELDS, KIND_NAMES, STARTER_DECKS, Card, StarterDeck
from .engine import (
    apply,
    end_game,
    is_legal,
    legal_actions,
    new_game,
    remove_player,
    validate_deck,
    view,
)
from .errors import IllegalMove
from .robot import DEFAULT_ROBOT, ROBOTS, choose_action, robot_action
from .state import FINISHED, RUNNING, GameState

__all__ = [
    "CATALOGUE",
    "DEFAULT_ROBOT",
    "FIELDS",
    "FINISHED",
    "KIND_NAMES",
    "ROBOTS",
    "RUNNING",
    "STARTER_DECKS",
    "Card",
    "GameState",
    "IllegalMove",
    "StarterDeck",
    "apply",
    "choose_action",
    "end_game",
    "is_legal",
    "legal_actions",
    "new_game",
    "remove_player",
    "robot_action",
    "validate_deck",
    "view",
]
