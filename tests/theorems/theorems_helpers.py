"""Builders for hand-made Matematici positions, so each test states exactly the
zones it is about and nothing else."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.theorems.rules import GameState, apply
from games.theorems.rules.state import PlayerState, TheoremInPlay

Theorem = str | tuple[str, int] | tuple[str, int, int]


def seat(
    mathematician: str = "gauss",
    *,
    hand: tuple[str, ...] = (),
    draw: tuple[str, ...] = (),
    discard: tuple[str, ...] = (),
    theorems: tuple[Theorem, ...] = (),
    tools: tuple[str, ...] = (),
    definition: str | None = None,
    proven: tuple[str, ...] = (),
    boredom: int = 0,
    reshuffles: int = 0,
) -> PlayerState:
    """One player; ``draw`` is listed top card FIRST (as you would deal it)."""
    entries = []
    for theorem in theorems:
        if isinstance(theorem, str):
            theorem = (theorem,)
        entries.append(TheoremInPlay(*theorem))
    return PlayerState(
        mathematician=mathematician,
        hand=list(hand),
        draw_pile=list(reversed(draw)),
        discard_pile=list(discard),
        theorems=entries,
        tools=list(tools),
        definition=definition,
        proven=list(proven),
        boredom=boredom,
        reshuffles=reshuffles,
    )


def table(
    *players: PlayerState,
    current: int = 0,
    actions: int = 3,
    free_definition: bool = True,
    burn: bool = True,
    seed: int = 7,
) -> GameState:
    """A running game at the start of ``current``'s turn (not the first turn)."""
    if len(players) == 1:
        players = (players[0], seat("hypatia"))
    return GameState(
        players=list(players),
        seed=seed,
        current=current,
        start_player=0,
        burn=burn,
        turn_number=2,
        actions_left=actions,
        free_definition=free_definition,
    )


def act(state: GameState, kind: str, card: str | None = None) -> GameState:
    action: dict[str, Any] = {"type": kind, "player": state.to_act}
    if card is not None:
        action["card"] = card
    return apply(state, action)


def choose(state: GameState, choice: Any) -> GameState:
    return apply(state, {"type": "choose", "player": state.to_act, "choice": choice})


def progress(state: GameState, seat_: int, card: str) -> int:
    entry = state.players[seat_].theorem(card)
    assert entry is not None, f"{card} is not in play"
    return entry.progress


def all_cards(state: GameState) -> Counter[str]:
    return Counter(card for player in state.players for card in player.all_cards())
