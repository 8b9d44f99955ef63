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

    def copy(self) -> PlayerState:
        """An independent copy (see :meth:`GameState.copy`)."""
        return PlayerState(
            mathematician=self.mathematician,
            hand=self.hand[:],
            draw_pile=self.draw_pile[:],
            discard_pile=self.discard_pile[:],
            theorems=[
                TheoremInPlay(entry.card, entry.progress, entry.difficulty_delta)
                for entry in self.theorems
            ],
            tools=self.tools[:],
            definition=self.definition,
            proven=self.proven[:],
            resolving=self.resolving[:],
            boredom=self.boredom,
            patience_bonus=self.patience_bonus,
            ambition_bonus=self.ambition_bonus,
            reshuffles=self.reshuffles,
            lost=self.lost,
        )

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

    def copy(self) -> Decision:
        """An independent copy (see :meth:`GameState.copy`)."""
        return Decision(
            player=self.player,
            kind=self.kind,
            options=_plain_copy(self.options),
            task=_plain_copy(self.task),
            source=self.source,
        )


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

    def copy(self, *, keep_log: bool = True) -> GameState:
        """An independent copy, equal to ``copy.deepcopy(self)`` but built field by
        field (deepcopy was half the planning robot's time). Without ``keep_log``
        the copy starts with an empty log.

        Every field is named here; ``tests/theorems/test_state_copy.py`` fails when
        a field is added to a state class, so a new one cannot end up shared.
        """
        decision = self.decision
        return GameState(
            players=[player.copy() for player in self.players],
            seed=self.seed,
            current=self.current,
            start_player=self.start_player,
            burn=self.burn,
            status=self.status,
            winners=self.winners[:],
            turn_number=self.turn_number,
            actions_left=self.actions_left,
            free_definition=self.free_definition,
            proved_this_turn=self.proved_this_turn[:],
            tools_used=self.tools_used[:],
            events_played=self.events_played[:],
            queue=[_plain_copy(task) for task in self.queue],
            decision=decision.copy() if decision is not None else None,
            rng_counter=self.rng_counter,
            log=[_plain_copy(entry) for entry in self.log] if keep_log else [],
        )


def _plain_copy(value: Any) -> Any:
    """A copy of JSON-like data (dicts, lists, tuples of them; anything else is
    immutable here: str, int, bool, None) as deep as deepcopy would make it."""
    kind = type(value)
    if kind is dict:
        return {key: _plain_copy(item) for key, item in value.items()}
    if kind is list:
        return [_plain_copy(item) for item in value]
    if kind is tuple:
        return tuple(_plain_copy(item) for item in value)
    return value
