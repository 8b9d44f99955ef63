"""Values that follow from the state and the cards in play: difficulty, patience,
ambition, hand limit. They are computed, never stored, so they can never go stale
when a definition is replaced or a condition lapses."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from .catalogue import CATALOGUE
from .state import GameState, PlayerState, TheoremInPlay

HAND_LIMIT = 10
ACTIONS_PER_TURN = 3
MIN_DIFFICULTY = 1
MIN_AMBITION = 1


def alive_opponents(state: GameState, seat: int) -> list[int]:
    return [other for other, p in enumerate(state.players) if other != seat and not p.lost]


def _shared_modifiers(player: PlayerState) -> Iterator[Mapping[str, Any]]:
    """Modifiers of a player's cards that reach beyond the card itself."""
    for card in player.proven:
        yield from CATALOGUE[card].modifiers("while_proven")
    in_play = [*player.tools, *(entry.card for entry in player.theorems)]
    if player.definition is not None:
        in_play.append(player.definition)
    for card in in_play:
        for modifier in CATALOGUE[card].modifiers("while_in_play"):
            if modifier.get("scope") != "self":
                yield modifier


def _condition_holds(state: GameState, seat: int, condition: str | None) -> bool:
    player = state.players[seat]
    if condition is None:
        return True
    if condition == "opponent_has_more_proven":
        mine = len(player.proven)
        return any(len(state.players[o].proven) > mine for o in alive_opponents(state, seat))
    if condition == "own_tool_in_play":
        return bool(player.tools)
    raise ValueError(f"unknown condition {condition!r}")


def difficulty(state: GameState, seat: int, entry: TheoremInPlay) -> int:
    """The effective difficulty of one of the player's theorems in play."""
    player = state.players[seat]
    card = CATALOGUE[entry.card]
    assert card.difficulty is not None
    value = card.difficulty + entry.difficulty_delta
    if set(card.fields) & set(CATALOGUE[player.mathematician].fields):
        value -= 1  # only once, however many fields match (seed FAQ on Euler and RH)
    for modifier in _shared_modifiers(player):
        if modifier["modifier"] == "difficulty" and modifier["field"] in card.fields:
            value += modifier["amount"]
    for modifier in card.modifiers("while_in_play"):
        if modifier["modifier"] == "difficulty" and modifier.get("scope") == "self":
            if _condition_holds(state, seat, modifier.get("condition")):
                value += modifier["amount"]
    return max(MIN_DIFFICULTY, value)


def patience(state: GameState, seat: int) -> int:
    player = state.players[seat]
    value = CATALOGUE[player.mathematician].patience or 0
    value += player.patience_bonus
    for modifier in _shared_modifiers(player):
        if modifier["modifier"] == "patience":
            value += modifier["amount"]
    return value


def ambition(state: GameState, seat: int) -> int:
    player = state.players[seat]
    value = (CATALOGUE[player.mathematician].ambition or 0) + player.ambition_bonus
    for modifier in _shared_modifiers(player):
        if modifier["modifier"] == "ambition":
            value += modifier["amount"]
    return max(MIN_AMBITION, value)


def hand_limit(state: GameState, seat: int) -> int:
    limit = HAND_LIMIT
    for other in alive_opponents(state, seat):
        for modifier in _shared_modifiers(state.players[other]):
            if modifier["modifier"] == "opponent_hand_limit":
                limit = min(limit, modifier["value"])
    return limit


def follows_riemann_rule(card: str) -> bool:
    """Riemannova hypotéza: never a Prove target, but advances with every Prove."""
    return any(
        modifier["modifier"] == "riemann_prove_rule"
        for modifier in CATALOGUE[card].modifiers("while_in_play")
    )
