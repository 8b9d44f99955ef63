"""A whole game of Abaku as pure data a server can store and drive (spec 3 and 5).

``new_game`` deals, ``apply(state, action)`` returns the next state and the public
events, ``view(state, seat)`` is what one seat may see. State is immutable and
round-trips through JSON (``to_dict`` / ``from_dict``). Randomness comes only
from the game's seed (the bag is shuffled with it, and exchanged stones are mixed
back in with a generator derived from the seed and the move number), time only
from the ``now`` an action carries, so replaying the same actions always gives
the same game.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .board import Board, normalise
from .data import DEFAULT_TURN_SECONDS, EMPTY_TURNS_TO_END, JOKER, RACK_SIZE, STONE_SET
from .errors import IllegalMove
from .moves import evaluate_move

Event = dict[str, Any]
Action = dict[str, Any]

ACTIVE = "active"
FORFEITED = "forfeited"


def stone_value(kind: int) -> int:
    """What a stone left on a rack is worth at the end: its digit, a joker 0."""
    return 0 if kind == JOKER else kind


@dataclass(frozen=True)
class Player:
    """One seat: name, points, rack, and how many empty turns in a row."""

    name: str
    score: int = 0
    rack: tuple[int, ...] = ()
    empty_turns: int = 0
    status: str = ACTIVE

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "score": self.score,
            "rack": list(self.rack),
            "empty_turns": self.empty_turns,
            "status": self.status,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Player:
        return cls(
            data["name"],
            data["score"],
            tuple(data["rack"]),
            data["empty_turns"],
            data["status"],
        )


@dataclass(frozen=True)
class GameState:
    """Everything about a game in progress or finished. Never mutated."""

    board: Board
    players: tuple[Player, ...]
    bag: tuple[int, ...]
    seed: int
    turn: int = 0
    move_number: int = 0
    rack_size: int = RACK_SIZE
    turn_seconds: float | None = DEFAULT_TURN_SECONDS
    turn_started: float | None = None
    finished: bool = False
    result: dict[str, Any] | None = None
    history: tuple[dict[str, Any], ...] = field(default=())

    @property
    def deadline(self) -> float | None:
        """When the player on turn runs out of time, if there is a limit and a clock."""
        if self.turn_seconds is None or self.turn_started is None or self.finished:
            return None
        return self.turn_started + self.turn_seconds

    def stone_count(self) -> int:
        """Stones in the game: board, bag and racks (constant, tests check it)."""
        return len(self.board) + len(self.bag) + sum(len(p.rack) for p in self.players)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": 1,
            "board": self.board.to_dict(),
            "players": [p.to_dict() for p in self.players],
            "bag": list(self.bag),
            "seed": self.seed,
            "turn": self.turn,
            "move_number": self.move_number,
            "rack_size": self.rack_size,
            "turn_seconds": self.turn_seconds,
            "turn_started": self.turn_started,
            "finished": self.finished,
            "result": self.result,
            "history": list(self.history),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        return cls(
            board=Board.from_dict(data["board"]),
            players=tuple(Player.from_dict(p) for p in data["players"]),
            bag=tuple(data["bag"]),
            seed=data["seed"],
            turn=data["turn"],
            move_number=data["move_number"],
            rack_size=data["rack_size"],
            turn_seconds=data["turn_seconds"],
            turn_started=data["turn_started"],
            finished=data["finished"],
            result=data["result"],
            history=tuple(data["history"]),
        )


def new_game(
    names: Sequence[str],
    *,
    seed: int,
    layout: str = "standard",
    turn_seconds: float | None = DEFAULT_TURN_SECONDS,
    rack_size: int = RACK_SIZE,
    now: float | None = None,
) -> GameState:
    """Shuffle the bag with ``seed`` and deal; seat 0 moves first.

    ``turn_seconds=None`` switches the time limit off (solo and teaching games).
    """
    if not 1 <= len(names) <= 4:
        raise IllegalMove("bad_players", "Abaku is for 1 to 4 players")
    if not 1 <= rack_size <= 7:
        # move generation grows with the rack's arrangements: 7 is measured, 10 is not usable
        raise IllegalMove("bad_rack_size", "a rack holds 1 to 7 stones")
    bag = [kind for kind, count in STONE_SET.items() for _ in range(count)]
    random.Random(seed).shuffle(bag)
    players = []
    for name in names:
        players.append(Player(name, rack=tuple(bag[:rack_size])))
        del bag[:rack_size]
    return GameState(
        board=Board.empty(layout),
        players=tuple(players),
        bag=tuple(bag),
        seed=seed,
        rack_size=rack_size,
        turn_seconds=turn_seconds,
        turn_started=now,
    )


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """The state after ``action`` and the public events it caused.

    Actions (JSON objects):
    ``{"type": "place", "player": seat, "placements": [[row, col, digit(, joker)], ...]}``,
    ``{"type": "exchange", "player": seat, "stones": [kind, ...]}``,
    ``{"type": "skip", "player": seat}``, ``{"type": "timeout", "now": t}``.
    Anything else is ``malformed_action`` / ``unknown_action``, never a crash.
    Any of them may carry ``"now"`` (seconds); it starts the next turn's clock
    (without it the next turn has no deadline), and a place/exchange/skip after
    the deadline is refused (``turn_expired``): the server applies ``timeout``.
    """
    if not isinstance(action, dict):
        raise IllegalMove("malformed_action", "an action is a JSON object")
    if state.finished:
        raise IllegalMove("game_over", "the game has ended")
    kind = action.get("type")
    now = action.get("now")
    if now is not None and (isinstance(now, bool) or not isinstance(now, (int, float))):
        raise IllegalMove("malformed_action", "now is a number of seconds")
    if kind == "timeout":
        deadline = state.deadline
        if deadline is None:
            raise IllegalMove("no_time_limit", "this game has no running turn clock")
        if now is None or now < deadline:
            raise IllegalMove("not_expired", "the player on turn still has time")
        return _empty_turn(state, state.turn, "timeout", now)
    if kind not in ("place", "exchange", "skip"):
        raise IllegalMove("unknown_action", f"unknown action {kind!r}")
    seat = action.get("player")
    if seat != state.turn:
        raise IllegalMove("not_your_turn", "it is another player's turn")
    deadline = state.deadline
    if deadline is not None and now is not None and now > deadline:
        raise IllegalMove("turn_expired", "the time for this turn has run out")
    if kind == "place":
        return _place(state, seat, action.get("placements") or [], now)
    if kind == "exchange":
        return _exchange(state, seat, action.get("stones") or [], now)
    return _empty_turn(state, seat, "skip", now)


def _take(rack: tuple[int, ...], kinds: Sequence[int]) -> tuple[int, ...]:
    """The rack without ``kinds``; ``not_in_rack`` if it does not hold them."""
    if not all(isinstance(k, int) and not isinstance(k, bool) for k in kinds):
        raise IllegalMove("not_in_rack", "stones are given by their kind number")
    left = Counter(rack)
    left.subtract(kinds)
    if any(n < 0 for n in left.values()):
        raise IllegalMove("not_in_rack", "those stones are not on your rack")
    remaining = list(rack)
    for k in kinds:
        remaining.remove(k)
    return tuple(remaining)


def _place(
    state: GameState, seat: int, placements: Sequence[Any], now: float | None
) -> tuple[GameState, list[Event]]:
    if not isinstance(placements, (list, tuple)):
        raise IllegalMove("bad_placement", "placements are a list")
    placed = normalise(placements)
    player = state.players[seat]
    rack = _take(player.rack, [JOKER if p.joker else p.digit for p in placed])
    result = evaluate_move(state.board, placed)
    drawn = state.bag[: state.rack_size - len(rack)]
    player = replace(player, score=player.score + result.score, rack=rack + drawn, empty_turns=0)
    event: Event = {
        "type": "placed",
        "player": seat,
        "placements": [list(p) for p in placed],
        "examples": [
            {"text": e.text, "points": e.points, "cells": [list(c) for c in e.cells]}
            for e in result.examples
        ],
        "score": result.score,
        "drew": len(drawn),
    }
    state = replace(
        state,
        board=state.board.place(placed),
        players=_with(state.players, seat, player),
        bag=state.bag[len(drawn) :],
        history=(*state.history, event),
    )
    if not state.bag and not player.rack:
        return _finish(state, [event], "last_stone", closer=seat)
    return _next_turn(state, [event], now)


def _exchange(
    state: GameState, seat: int, stones: Sequence[int], now: float | None
) -> tuple[GameState, list[Event]]:
    player = state.players[seat]
    if not isinstance(stones, (list, tuple)) or not stones:
        raise IllegalMove("bad_exchange", "exchange at least one stone")
    if len(state.bag) < len(stones):
        raise IllegalMove("bag_too_small", "the bag holds fewer stones than you return")
    rack = _take(player.rack, stones)
    drawn = state.bag[: len(stones)]
    bag = list(state.bag[len(stones) :]) + list(stones)
    random.Random(f"{state.seed}:{state.move_number}").shuffle(bag)
    player = replace(player, rack=rack + drawn, empty_turns=0)
    event: Event = {"type": "exchanged", "player": seat, "count": len(stones)}
    state = replace(
        state,
        players=_with(state.players, seat, player),
        bag=tuple(bag),
        history=(*state.history, event),
    )
    return _next_turn(state, [event], now)


def _empty_turn(
    state: GameState, seat: int, reason: str, now: float | None
) -> tuple[GameState, list[Event]]:
    """A skip or a timeout; the third in a row forfeits or ends the game."""
    player = state.players[seat]
    player = replace(player, empty_turns=player.empty_turns + 1)
    event: Event = {"type": "skipped", "player": seat, "reason": reason}
    events = [event]
    state = replace(
        state, players=_with(state.players, seat, player), history=(*state.history, event)
    )
    if player.empty_turns >= EMPTY_TURNS_TO_END:
        if not state.bag:
            return _finish(state, events, "empty_turns", closer=seat)
        player = replace(player, status=FORFEITED)
        forfeit: Event = {"type": "forfeited", "player": seat}
        events.append(forfeit)
        state = replace(
            state,
            players=_with(state.players, seat, player),
            history=(*state.history, forfeit),
        )
        if sum(p.status == ACTIVE for p in state.players) < 2:
            return _finish(state, events, "forfeit", closer=None)
    return _next_turn(state, events, now)


def remove_player(
    state: GameState, seat: int, *, now: float | None = None
) -> tuple[GameState, list[Event]]:
    """``seat`` leaves the table for good: they forfeit at once, as after three empty
    turns (``forfeited`` with ``"reason": "left"``), and their stones stay on their
    rack. If it was their turn, the next active player is on turn at once with a
    fresh clock from ``now``. Fewer than two active players end the game
    (``forfeit``, no end adjustment). A seat already out changes nothing.
    """
    if state.finished:
        raise IllegalMove("game_over", "the game has ended")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(state.players):
        raise IllegalMove("malformed_action", "a seat is a seat number")
    if now is not None and (isinstance(now, bool) or not isinstance(now, (int, float))):
        raise IllegalMove("malformed_action", "now is a number of seconds")
    player = state.players[seat]
    if player.status != ACTIVE:
        return state, []
    forfeit: Event = {"type": "forfeited", "player": seat, "reason": "left"}
    events = [forfeit]
    state = replace(
        state,
        players=_with(state.players, seat, replace(player, status=FORFEITED)),
        history=(*state.history, forfeit),
    )
    if sum(p.status == ACTIVE for p in state.players) < min(2, len(state.players)):
        return _finish(state, events, "forfeit", closer=None)
    if seat == state.turn:
        return _next_turn(state, events, now)
    return state, events


def end_game(state: GameState, reason: str) -> tuple[GameState, list[Event]]:
    """End a running game now, without an end adjustment (e.g. only robots are left):
    the standings as they are, winners among the active players."""
    if state.finished:
        raise IllegalMove("game_over", "the game has ended")
    return _finish(state, [], reason, closer=None)


def _next_turn(
    state: GameState, events: list[Event], now: float | None
) -> tuple[GameState, list[Event]]:
    count = len(state.players)
    seat = state.turn
    for step in range(1, count + 1):
        candidate = (state.turn + step) % count
        if state.players[candidate].status == ACTIVE:
            seat = candidate
            break
    state = replace(
        state,
        turn=seat,
        move_number=state.move_number + 1,
        turn_started=now,
    )
    events.append({"type": "turn", "player": seat, "deadline": state.deadline})
    return state, events


def _finish(
    state: GameState, events: list[Event], reason: str, closer: int | None
) -> tuple[GameState, list[Event]]:
    """End the game: the end adjustment (spec 4), then the standings (spec 5).

    The player who closed the game gains the value of the stones left on the
    other active players' racks, and each of them loses the value of their own
    (seed: "Bude mu přičtena bodová hodnota všech kamenů, které zbudou soupeřům
    … Těm naopak bude … odečtena"). The closer's own leftover stones (possible
    after three empty turns with an empty bag) are neither added nor subtracted.
    A game ended by forfeit has no closer and no adjustment.
    """
    players = list(state.players)
    adjustments = [0] * len(players)
    if closer is not None:
        for seat, p in enumerate(players):
            if p.status != ACTIVE or seat == closer:
                continue
            own = sum(stone_value(k) for k in p.rack)
            adjustments[seat] -= own
            adjustments[closer] += own
        players = [replace(p, score=p.score + adjustments[s]) for s, p in enumerate(players)]
    active = [s for s, p in enumerate(players) if p.status == ACTIVE]
    best = max((players[s].score for s in active), default=None)
    winners = [s for s in active if players[s].score == best]
    standings = sorted(
        range(len(players)),
        key=lambda s: (players[s].status != ACTIVE, -players[s].score, s),
    )
    result = {
        "reason": reason,
        "closer": closer,
        "adjustments": adjustments,
        "scores": [p.score for p in players],
        "winners": winners,
        "standings": standings,
    }
    event: Event = {"type": "game_over", **result}
    state = replace(
        state,
        players=tuple(players),
        finished=True,
        result=result,
        history=(*state.history, event),
    )
    events.append(event)
    return state, events


def _with(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    return players[:seat] + (player,) + players[seat + 1 :]


def view(state: GameState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (``None`` for a spectator): every rack but its own is
    reduced to a count (all are shown once the game is over, for the end
    adjustment), the bag to its size, and the seed (which would reveal the bag
    order) is left out."""
    data = state.to_dict()
    for index, player in enumerate(data["players"]):
        player["rack_count"] = len(player["rack"])
        if index != seat and not state.finished:
            del player["rack"]
    data["bag_count"] = len(state.bag)
    del data["bag"]
    del data["seed"]
    data["you"] = seat
    data["deadline"] = state.deadline
    return data
