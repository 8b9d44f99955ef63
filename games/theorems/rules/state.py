"""The game state: plain dataclasses that round-trip through JSON.

Piles are lists of catalogue ids with the top card LAST. Cards are referred to by
their catalogue id everywhere; the engine never lets one player have two copies of
a card on the table, so an id is enough to name a card in play.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field
from typing import Any

RUNNING = "running"
FINISHED = "finished"


@dataclass
class TheoremInPlay:
    card: str
    progress: int = 0
    # permanent changes aimed at this card (Cevova věta −1, Oponentura +2)
    difficulty_delta: int = 0


@dataclass
class PlayerState:
    mathematician: str
    hand: list[str] = field(default_factory=list)
    draw_pile: list[str] = field(default_factory=list)
    discard_pile: list[str] = field(default_factory=list)
    theorems: list[TheoremInPlay] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)
    definition: str | None = None
    proven: list[str] = field(default_factory=list)
    # events being resolved: between being played and reaching the discard pile
    resolving: list[str] = field(default_factory=list)
    boredom: int = 0
    # permanent changes from immediate effects ("+2 Trpělivost")
    patience_bonus: int = 0
    ambition_bonus: int = 0
    reshuffles: int = 0
    lost: bool = False

    def theorem(self, card: str) -> TheoremInPlay | None:
        return next((entry for entry in self.theorems if entry.card == card), None)

    def all_cards(self) -> list[str]:
        """Every card this player holds in any zone (for consistency checks)."""
        cards = self.hand + self.draw_pile + self.discard_pile + self.tools + self.proven
        cards += [entry.card for entry in self.theorems] + self.resolving
        if self.definition is not None:
            cards.append(self.definition)
        return cards


@dataclass
class Decision:
    """A choice the engine waits for; ``task`` is resumed with the chosen option."""

    player: int
    kind: str
    options: list[Any]
    task: dict[str, Any]
    source: str | None = None


@dataclass
class GameState:
    players: list[PlayerState]
    seed: int
    current: int
    start_player: int
    burn: bool = True
    status: str = RUNNING
    winners: list[int] = field(default_factory=list)
    turn_number: int = 1
    actions_left: int = 3
    free_definition: bool = True
    proved_this_turn: list[str] = field(default_factory=list)
    tools_used: list[str] = field(default_factory=list)
    events_played: list[str] = field(default_factory=list)
    # pending effect operations, resolved front first
    queue: list[dict[str, Any]] = field(default_factory=list)
    decision: Decision | None = None
    # how many random draws were taken; with ``seed`` it makes every shuffle reproducible
    rng_counter: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)

    @property
    def to_act(self) -> int | None:
        """The seat whose action the game waits for (None once finished)."""
        if self.status != RUNNING:
            return None
        return self.decision.player if self.decision else self.current

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        data = copy.deepcopy(data)
        players = []
        for player in data.pop("players"):
            theorems = [TheoremInPlay(**entry) for entry in player.pop("theorems")]
            players.append(PlayerState(theorems=theorems, **player))
        decision = data.pop("decision")
        return cls(
            players=players,
            decision=Decision(**decision) if decision is not None else None,
            **data,
        )

    def copy(self) -> GameState:
        return copy.deepcopy(self)
