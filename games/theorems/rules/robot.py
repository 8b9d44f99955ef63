"""The robots for empty seats, by name (``ROBOTS``; ``robot_action``).

``simple`` (``choose_action``) scores every legal action with a few rules of
thumb (prove what is close, do not bore yourself to death, keep theorems coming)
and picks the best, breaking ties with the given ``rng``. ``planner``
(``planner.plan_action``, the default) plans proofs; see ``planner.py``."""

from __future__ import annotations

import random
from typing import Any

from . import derived
from .catalogue import CATALOGUE
from .engine import Action, legal_actions
from .planner import plan_action
from .state import GameState


def _remaining(state: GameState, seat: int, card: str) -> int:
    entry = state.players[seat].theorem(card)
    if entry is None:
        return 99
    return derived.difficulty(state, seat, entry) - entry.progress


def _danger(state: GameState, seat: int, extra: int = 0) -> bool:
    """Would ``extra`` more boredom leave less than one token of margin?"""
    player = state.players[seat]
    return player.boredom + extra >= derived.patience(state, seat) - 1


def _draw_costs_boredom(state: GameState, seat: int, count: int = 1) -> bool:
    return len(state.players[seat].draw_pile) < count


def _score_choice(state: GameState, seat: int, kind: str, choice: Any) -> float:
    if kind == "own_theorem":
        return -_remaining(state, seat, choice)
    if kind == "opponent":
        victim = state.players[choice]
        value: float = victim.boredom - derived.patience(state, choice) + len(victim.hand) / 10
        return value
    if kind == "opponent_theorem":
        return -_remaining(state, choice["player"], choice["card"])
    card = CATALOGUE[choice]
    value = {"theorem": 3.0, "event": 2.0, "tool": 1.5, "definition": 1.0}.get(card.kind, 0.0)
    if kind == "hand_card":
        return -value  # discard the least useful card
    return value - (card.difficulty or 0) / 10


def _score_event(state: GameState, seat: int, card: str) -> float:
    player = state.players[seat]
    ops = CATALOGUE[card].ops("on_play")
    score = 0.0
    for op in ops:
        name, amount = op["op"], op.get("amount", 0)
        if name == "actions":
            score += 2
        elif name == "draw":
            score += 0 if _draw_costs_boredom(state, seat, amount) and _danger(state, seat) else 2
        elif name == "boredom":
            if op.get("target", "self") == "self":
                score += 3 if player.boredom >= 2 else -1
            else:
                score += 2
        elif name == "progress":
            score += 4 * min(len(player.theorems), 3) - 1
        elif name == "difficulty":
            others = derived.alive_opponents(state, seat)
            score += 2 if any(state.players[o].theorems for o in others) else -1
        elif name == "steal":
            others = derived.alive_opponents(state, seat)
            score += 2 if any(state.players[o].hand for o in others) else -1
        elif name == "free_reshuffle":
            score += 2 if len(player.discard_pile) > len(player.draw_pile) else -1
        elif name == "repeat":
            score += 2
    return score


def _score(state: GameState, action: Action) -> float:
    seat = action["player"]
    player = state.players[seat]
    kind = action["type"]
    if kind == "choose":
        assert state.decision is not None
        return _score_choice(state, seat, state.decision.kind, action["choice"])
    if kind == "end_turn":
        return 0.5
    if kind == "prove":
        return 10 - _remaining(state, seat, action["card"]) / 10
    if kind == "define":
        return 9 if player.definition is None else 0.2
    if kind == "draw":
        if _draw_costs_boredom(state, seat) and _danger(state, seat, player.reshuffles + 1):
            return -1
        return 3 if len(player.hand) < 4 else 1
    card = CATALOGUE[action["card"]]
    if kind == "use":
        effect = card.effects_for("on_use")[0]
        cost = sum(op.get("amount", 0) for op in effect["cost"] if op["op"] == "boredom")
        if cost and _danger(state, seat, cost):
            return -1
        op = effect["ops"][0]
        if op["op"] == "progress":
            targets = [
                e for e in player.theorems if op.get("field") in (None, *CATALOGUE[e.card].fields)
            ]
            if not targets or (len(player.hand) < 2 and effect["cost"] and not cost):
                return -1
            return 7
        if op["op"] == "boredom":
            return 6 if player.boredom > 0 else -1
        if op["op"] == "fetch":
            return 2 if player.discard_pile else -1
        return 2 if len(player.hand) > 1 else -1
    if card.kind == "theorem":
        on_play_boredom = sum(op.get("amount", 0) for op in card.ops("on_play"))
        if on_play_boredom and _danger(state, seat, on_play_boredom):
            return -1
        return 8 - len(player.theorems) - (card.difficulty or 0) / 10
    if card.kind == "tool":
        return 5
    if card.kind == "definition":
        return 0.4 if player.definition is not None else 4
    return _score_event(state, seat, action["card"])


def choose_action(state: GameState, rng: random.Random) -> Action:
    """A sensible legal action for the player to act (``state.to_act``)."""
    actions = legal_actions(state)
    if not actions:
        raise ValueError("no legal action: the game has finished")
    best = max(_score(state, action) for action in actions)
    return rng.choice([action for action in actions if _score(state, action) == best])


# The robots a seat can hold, by name; DEFAULT_ROBOT fills empty seats. The simple
# robot above stays for comparison (bench/theorems_robot_bench.py) and as an
# easier opponent.
ROBOTS = {"simple": choose_action, "planner": plan_action}
DEFAULT_ROBOT = "planner"


def robot_action(state: GameState, rng: random.Random, robot: str = DEFAULT_ROBOT) -> Action:
    """The action of the named robot (the planning robot unless told otherwise)."""
    return ROBOTS[robot](state, rng)
