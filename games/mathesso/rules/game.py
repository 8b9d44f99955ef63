"""The Mathesso game as a pure state machine.

`new_game` lays out a seeded table; `apply_action(state, action)` returns a new
state and the events the action caused, or raises `IllegalMove` with a stable
code, leaving the given state untouched; `view(state, player)` is what one
player (or a spectator) may see. States are plain data with `to_dict` /
`from_dict` for storage; actions, events and views are JSON-ready dicts.

Phases: "order" (every player flips a "1" tile; the lowest coloured value
plays first, ties flip again), "play" (turns of one or two flips), "over".
A player who leaves the table (`remove_player`) keeps their pairs but gets no
more turns; a table left with one player is over.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from . import data
from .layout import lay_out
from .scoring import score_breakdown, score_pairs, sheldons
from .tiles import (
    VARIANT_BY_NAME,
    Tile,
    build_tiles,
    check_setup,
    is_pair,
    owned_faces,
    tile_of,
)

Event = dict[str, Any]
Action = Mapping[str, Any]

ORDER, PLAY, OVER = "order", "play", "over"
ACTION_TYPES = ("flip", "end_turn", "turn_back")
STATE_VERSION = 1


class IllegalMove(Exception):
    """An action the rules do not allow now; `code` is stable, `message` is for people."""

    CODES: dict[str, str] = {
        "bad_action": "the action is not a well-formed Mathesso action",
        "unknown_player": "the player does not sit at this table",
        "game_over": "the game has ended",
        "not_your_turn": "it is not this player's turn (or their order flip)",
        "no_such_tile": "there is no tile with this id",
        "tile_taken": "the tile has already been taken as part of a pair",
        "already_flipped": "the tile is already face up",
        "not_a_one": "the order of play is decided by tiles whose b/w side shows 1",
        "wrong_phase": "the action belongs to another phase of the game",
        "nothing_flipped": "a turn ends only after at least one flip",
        "nothing_to_turn_back": "no tiles are waiting to be turned back",
        "already_gone": "the player has already left the table",
    }

    def __init__(self, code: str, message: str | None = None) -> None:
        if code not in self.CODES:
            raise ValueError(f"unknown IllegalMove code {code!r}")
        self.code = code
        self.message = message or self.CODES[code]
        super().__init__(f"{code}: {self.message}")

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class PlacedTile:
    """A tile where it lies; `id` is its index on this table, unrelated to its face."""

    id: int
    tile: Tile
    x: float
    y: float
    rot: float


@dataclass
class GameState:
    """Everything about one game, secrets included: never send it to a client.

    Send `view(state, player)` instead. Derived facts (face-up tiles, owners,
    scores, Sheldons, extra turns left) are computed, not stored.
    """

    variant: str
    extensions: tuple[str, ...]
    points: bool
    seed: int | str  # secret: it determines the whole layout
    seats: tuple[str, ...]  # players in the order they sat down
    tiles: tuple[PlacedTile, ...]
    width: float
    height: float
    phase: str = ORDER
    order: list[str] = field(default_factory=list)  # playing order once decided
    # The order procedure: tiles each player flipped, lots drawn when "1" tiles
    # ran out, players still to flip.
    draws: dict[str, list[int]] = field(default_factory=dict)
    lots: dict[str, int] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)
    current: int = 0  # index into `order` of the player on turn
    round: int = 1
    flips: list[int] = field(default_factory=list)  # tiles flipped in this turn
    extra: bool = False  # this turn is a Sheldon's extra turn
    offer: bool = False  # the turn is over; the player may take an extra turn now
    shown: list[int] = field(default_factory=list)  # last turn's tiles, still face up
    pairs: dict[str, list[list[int]]] = field(default_factory=dict)
    turns: dict[str, int] = field(default_factory=dict)
    extra_taken: dict[str, int] = field(default_factory=dict)
    gone: list[str] = field(default_factory=list)  # players who left the table, in order

    # --- derived -------------------------------------------------------------

    @property
    def player(self) -> str | None:
        """Whose turn it is, in the play phase."""
        return self.order[self.current] if self.phase == PLAY else None

    @property
    def active(self) -> list[str]:
        """Players still at the table, in seat order."""
        return [p for p in self.seats if p not in self.gone]

    def face_up(self) -> set[int]:
        up = set(self.flips) | set(self.shown)
        for ids in self.draws.values():
            up.update(ids)
        return up

    def owners(self) -> dict[int, str]:
        return {t: p for p, pairs in self.pairs.items() for pair in pairs for t in pair}

    def faces_of(self, player: str) -> list[str]:
        """The faces the player owns, one per pair taken (see `tiles.owned_faces`)."""
        return owned_faces((self.tiles[a].tile, self.tiles[b].tile) for a, b in self.pairs[player])

    def extra_turns(self, player: str) -> int:
        """Sheldon extra turns the player holds and has not taken yet."""
        return sheldons(self.faces_of(player)) - self.extra_taken[player]

    # --- storage -------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "variant": self.variant,
            "extensions": list(self.extensions),
            "points": self.points,
            "seed": self.seed,
            "seats": list(self.seats),
            "board": {"width": self.width, "height": self.height},
            "tiles": [
                {"face": p.tile.face, "bw": p.tile.bw, "x": p.x, "y": p.y, "rot": p.rot}
                for p in self.tiles
            ],
            "phase": self.phase,
            "order": list(self.order),
            "draws": {p: list(ids) for p, ids in self.draws.items()},
            "lots": dict(self.lots),
            "waiting": list(self.waiting),
            "current": self.current,
            "round": self.round,
            "flips": list(self.flips),
            "extra": self.extra,
            "offer": self.offer,
            "shown": list(self.shown),
            "pairs": {p: [list(pair) for pair in pairs] for p, pairs in self.pairs.items()},
            "turns": dict(self.turns),
            "extra_taken": dict(self.extra_taken),
            "gone": list(self.gone),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameState:
        if d.get("version") != STATE_VERSION:
            raise ValueError(f"unsupported Mathesso state version {d.get('version')!r}")
        tiles = tuple(
            PlacedTile(i, tile_of(t["face"], t["bw"]), t["x"], t["y"], t["rot"])
            for i, t in enumerate(d["tiles"])
        )
        return cls(
            variant=d["variant"],
            extensions=tuple(d["extensions"]),
            points=d["points"],
            seed=d["seed"],
            seats=tuple(d["seats"]),
            tiles=tiles,
            width=d["board"]["width"],
            height=d["board"]["height"],
            phase=d["phase"],
            order=list(d["order"]),
            draws={p: list(ids) for p, ids in d["draws"].items()},
            lots=dict(d["lots"]),
            waiting=list(d["waiting"]),
            current=d["current"],
            round=d["round"],
            flips=list(d["flips"]),
            extra=d["extra"],
            offer=d["offer"],
            shown=list(d["shown"]),
            pairs={p: [list(pair) for pair in pairs] for p, pairs in d["pairs"].items()},
            turns=dict(d["turns"]),
            extra_taken=dict(d["extra_taken"]),
            gone=list(d.get("gone", [])),  # absent in states stored before players could leave
        )

    def copy(self) -> GameState:
        """A copy whose mutable parts are independent (tiles are immutable and shared)."""
        return replace(
            self,
            order=list(self.order),
            draws={p: list(ids) for p, ids in self.draws.items()},
            lots=dict(self.lots),
            waiting=list(self.waiting),
            flips=list(self.flips),
            shown=list(self.shown),
            pairs={p: [list(pair) for pair in pairs] for p, pairs in self.pairs.items()},
            turns=dict(self.turns),
            extra_taken=dict(self.extra_taken),
            gone=list(self.gone),
        )


def new_game(
    players: Sequence[str],
    variant: str,
    extensions: Iterable[str] = (),
    *,
    seed: int | str,
    points: bool | None = None,
) -> GameState:
    """A new game, its tiles shuffled and laid out from `seed`.

    `seed` decides where every face lies: take it from a secure source
    (`secrets.token_hex()`) and never show it to players. `points` defaults to
    the variant's custom (off for Atto only). With one player there is no
    order to decide and play starts at once.
    """
    exts = check_setup(variant, extensions)
    seats = tuple(players)
    if not data.MIN_PLAYERS <= len(seats) <= data.MAX_PLAYERS:
        raise ValueError(f"a table holds {data.MIN_PLAYERS}-{data.MAX_PLAYERS} players")
    if len(set(seats)) != len(seats) or not all(isinstance(p, str) and p for p in seats):
        raise ValueError("players must be distinct non-empty strings")
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise ValueError("seed must be an int or a string")
    tiles = build_tiles(variant, exts)
    rng = random.Random(f"mathesso-layout:{seed}")
    rng.shuffle(tiles)
    spots, width, height = lay_out(len(tiles), rng)
    state = GameState(
        variant=variant,
        extensions=exts,
        points=VARIANT_BY_NAME[variant].points_by_default if points is None else bool(points),
        seed=seed,
        seats=seats,
        tiles=tuple(
            PlacedTile(i, t, s.x, s.y, s.rot)
            for i, (t, s) in enumerate(zip(tiles, spots, strict=True))
        ),
        width=width,
        height=height,
        pairs={p: [] for p in seats},
        turns={p: 0 for p in seats},
        extra_taken={p: 0 for p in seats},
    )
    if len(seats) == 1:
        state.phase = PLAY
        state.order = list(seats)
    else:
        state.waiting = list(seats)
    return state


# --- actions -------------------------------------------------------------------


def _parse(action: Action) -> tuple[str, str | None, int | None]:
    if not isinstance(action, Mapping) or action.get("type") not in ACTION_TYPES:
        raise IllegalMove("bad_action", f"an action is a mapping with a type in {ACTION_TYPES}")
    kind = action["type"]
    player = action.get("player")
    tile = action.get("tile")
    if kind != "turn_back" and not isinstance(player, str):
        raise IllegalMove("bad_action", f"a {kind} action names its player")
    if kind == "flip" and (not isinstance(tile, int) or isinstance(tile, bool)):
        raise IllegalMove("bad_action", "a flip names a tile by its integer id")
    return kind, player, tile


def apply_action(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action; return the new state and what happened, in order.

    Actions: `{"type": "flip", "player": p, "tile": id}`,
    `{"type": "end_turn", "player": p}` (after a single flip, or to decline an
    offered extra turn) and `{"type": "turn_back"}` (a server's timer turning
    the last turn's tiles face down; the next flip does it anyway).
    """
    kind, player, tile = _parse(action)
    if state.phase == OVER:
        raise IllegalMove("game_over")
    if player is not None and player not in state.seats:
        raise IllegalMove("unknown_player")
    s = state.copy()
    events: list[Event] = []
    if kind == "turn_back":
        if not s.shown:
            raise IllegalMove("nothing_to_turn_back")
        _turn_back(s, events)
    elif s.phase == ORDER:
        if kind != "flip":
            raise IllegalMove("wrong_phase", "the order of play is still being decided")
        assert player is not None and tile is not None  # _parse checked a flip
        _order_flip(s, player, tile, events)
    elif kind == "flip":
        assert player is not None and tile is not None  # _parse checked a flip
        _play_flip(s, player, tile, events)
    else:
        assert player is not None  # _parse checked that an end_turn names its player
        _end_turn(s, player, events)
    return s, events


def _placed(s: GameState, tile: int) -> PlacedTile:
    if not 0 <= tile < len(s.tiles):
        raise IllegalMove("no_such_tile")
    return s.tiles[tile]


def _flipped(s: GameState, player: str, tile: int) -> Event:
    t = s.tiles[tile].tile
    return {
        "type": "flipped",
        "player": player,
        "tile": tile,
        "bw": t.bw,
        "face": t.face,
        "group": t.group,
        "value": t.value,
        "picture": t.picture.to_json(),
    }


def _order_ones(s: GameState) -> list[int]:
    """Face-down tiles whose b/w side shows 1, still free for the order procedure."""
    up = s.face_up()
    return [p.id for p in s.tiles if p.tile.bw == 1 and p.id not in up]


def _order_flip(s: GameState, player: str, tile: int, events: list[Event]) -> None:
    if player not in s.waiting:
        raise IllegalMove("not_your_turn", "this player has no order tile to flip now")
    placed = _placed(s, tile)
    if tile in s.face_up():
        raise IllegalMove("already_flipped")
    if placed.tile.bw != 1:
        raise IllegalMove("not_a_one")
    s.draws.setdefault(player, []).append(tile)
    s.waiting.remove(player)
    events.append(_flipped(s, player, tile))
    if not s.waiting:
        _settle_order(s, events)


def _order_key(s: GameState, player: str) -> tuple[int, ...]:
    values = tuple(s.tiles[t].tile.value for t in s.draws[player])
    return values + ((s.lots[player],) if player in s.lots else ())


def _settle_order(s: GameState, events: list[Event]) -> None:
    """Every player has flipped: decide the order, or send the tied players again.

    When too few "1" tiles are left face down for every tied player to flip
    another, the remaining ties are broken by lot (drawn from the seed).
    """
    by_key: dict[tuple[int, ...], list[str]] = {}
    for p in s.active:
        by_key.setdefault(_order_key(s, p), []).append(p)
    ties = [group for group in by_key.values() if len(group) > 1]
    if ties:
        tied = [p for group in ties for p in group]
        if len(_order_ones(s)) >= len(tied):
            # Seed step 3: „Pokud více hráčů objeví na barevné straně stejné číslo,
            # otočí tito hráči další kartičku s číslem 1 a postupují znovu podle kroku 2."
            s.waiting = tied
            events.append({"type": "order_tie", "players": tied, "groups": _again(s)})
            return
        flips_so_far = sum(len(ids) for ids in s.draws.values())
        rng = random.Random(f"mathesso-lots:{s.seed}:{flips_so_far}")
        for group in ties:
            drawn = rng.sample(group, len(group))
            s.lots.update({p: rank for rank, p in enumerate(drawn)})
            events.append({"type": "order_lots", "players": drawn})
    # Players who left during the order procedure sit at the end and never play.
    s.order = sorted(s.active, key=lambda p: _order_key(s, p)) + list(s.gone)
    events.append({"type": "order_decided", "order": list(s.order)})
    events.append({"type": "turned_back", "tiles": sorted(s.face_up())})
    s.draws, s.lots, s.waiting = {}, {}, []
    s.phase = PLAY
    s.current = 0
    events.append({"type": "turn_started", "player": s.player, "round": s.round, "extra": False})


def _again(s: GameState) -> list[dict[str, Any]]:
    """The players who flip another "1" tile because they tied, by tie.

    Each entry is `{"players", "value"}`: players (in seat order) who found the
    same coloured number `value` and are breaking that tie now. A player still
    to flip again has one draw fewer than a partner who already has.
    """
    groups: list[dict[str, Any]] = []
    seen: set[tuple[int, ...]] = set()
    for p in s.waiting:
        n = len(s.draws.get(p, []))
        if not n or _order_key(s, p)[:n] in seen:
            continue
        key = _order_key(s, p)[:n]
        seen.add(key)
        players = [q for q in s.active if q in s.draws and _order_key(s, q)[:n] == key]
        groups.append({"players": players, "value": key[-1]})
    return groups


def _turn_back(s: GameState, events: list[Event]) -> None:
    events.append({"type": "turned_back", "tiles": list(s.shown)})
    s.shown = []


def _play_flip(s: GameState, player: str, tile: int, events: list[Event]) -> None:
    if player != s.player:
        raise IllegalMove("not_your_turn")
    _placed(s, tile)
    if tile in s.owners():
        raise IllegalMove("tile_taken")
    if tile in s.flips:
        raise IllegalMove("already_flipped")
    if s.offer:
        s.offer = False
        s.extra = True
        s.extra_taken[player] += 1
        events.append({"type": "extra_turn_taken", "player": player})
        events.append({"type": "turn_started", "player": player, "round": s.round, "extra": True})
    if s.shown:
        _turn_back(s, events)
    s.flips.append(tile)
    events.append(_flipped(s, player, tile))
    if len(s.flips) < 2:
        return
    first, second = s.flips
    s.flips = []
    if is_pair(s.tiles[first].tile, s.tiles[second].tile):
        held = sheldons(s.faces_of(player))
        s.pairs[player].append([first, second])
        face = s.faces_of(player)[-1]
        events.append(
            {"type": "pair_taken", "player": player, "tiles": [first, second], "face": face}
        )
        if sheldons(s.faces_of(player)) > held:
            events.append({"type": "sheldon", "player": player})
    else:
        s.shown = [first, second]
        events.append({"type": "no_pair", "player": player, "tiles": [first, second]})
    _finish_turn(s, events)


def _end_turn(s: GameState, player: str, events: list[Event]) -> None:
    if player != s.player:
        raise IllegalMove("not_your_turn")
    if s.offer:
        s.offer = False
        events.append({"type": "extra_turn_declined", "player": player})
        _next_player(s, events)
    elif s.flips:
        s.shown, s.flips = s.flips, []
        _finish_turn(s, events)
    else:
        raise IllegalMove("nothing_flipped")


def _finish_turn(s: GameState, events: list[Event]) -> None:
    player = s.player
    assert player is not None  # a turn ends in the play phase, where someone is on turn
    s.turns[player] += 1
    s.extra = False
    events.append({"type": "turn_ended", "player": player})
    if 2 * sum(len(pairs) for pairs in s.pairs.values()) == len(s.tiles):
        s.phase = OVER
        events.append({"type": "game_over", **result(s)})
    elif s.extra_turns(player) > 0:
        s.offer = True
        events.append({"type": "extra_turn_offered", "player": player})
    else:
        _next_player(s, events)


def _next_player(s: GameState, events: list[Event]) -> None:
    """The next player in the order who is still at the table."""
    for _step in range(len(s.order)):
        s.current = (s.current + 1) % len(s.order)
        if s.current == 0:
            s.round += 1
        if s.order[s.current] not in s.gone:
            break
    events.append({"type": "turn_started", "player": s.player, "round": s.round, "extra": False})


def remove_player(state: GameState, player: str) -> tuple[GameState, list[Event]]:
    """`player` leaves the table for good; return the new state and the events.

    They keep the pairs they took (and their score) but get no more turns. In
    the order procedure they stop being waited for. On turn, the tiles they
    flipped in this turn are turned back and the next player still at the
    table is on turn at once (an offered extra turn lapses). When a table of
    two or more is left with one player (or a table of one with nobody), the
    game is over (`game_over`, the winners chosen among the players still at
    the table).
    """
    if state.phase == OVER:
        raise IllegalMove("game_over")
    if player not in state.seats:
        raise IllegalMove("unknown_player")
    if player in state.gone:
        raise IllegalMove("already_gone")
    s = state.copy()
    events: list[Event] = []
    on_turn = s.phase == PLAY and s.player == player
    s.gone.append(player)
    events.append({"type": "player_gone", "player": player})
    if on_turn and s.flips:
        events.append({"type": "turned_back", "tiles": list(s.flips)})
        s.flips = []
    if len(s.active) < min(2, len(s.seats)):
        if s.phase == ORDER and s.face_up():
            events.append({"type": "turned_back", "tiles": sorted(s.face_up())})
        s.phase = OVER
        s.offer = s.extra = False
        s.draws, s.lots, s.waiting = {}, {}, []
        events.append({"type": "game_over", **result(s)})
        return s, events
    if s.phase == ORDER:
        flipped = s.draws.pop(player, [])
        s.lots.pop(player, None)
        if flipped:
            events.append({"type": "turned_back", "tiles": list(flipped)})
        if player in s.waiting:
            s.waiting.remove(player)
            if not s.waiting:
                _settle_order(s, events)
    elif on_turn:
        s.offer = s.extra = False
        _next_player(s, events)
    return s, events


# --- reading the state -----------------------------------------------------------


def scores(state: GameState) -> dict[str, int]:
    """Live scores: each player's score for the pairs they hold now."""
    return {p: score_pairs(state.faces_of(p), state.points) for p in state.seats}


def result(state: GameState) -> dict[str, Any]:
    """Scores, winners and whether it is a draw (equal top scores), for now or the end."""
    now = scores(state)
    seated = state.order or state.seats
    staying = [p for p in seated if p not in state.gone] or list(seated)
    top = max(now[p] for p in staying)
    winners = [p for p in staying if now[p] == top]
    return {"scores": now, "winners": winners, "draw": len(winners) > 1}


def legal_actions(state: GameState, player: str) -> list[dict[str, Any]]:
    """Every move `player` may make now (the server's `turn_back` is not a move)."""
    if state.phase == ORDER:
        if player not in state.waiting:
            return []
        return [{"type": "flip", "player": player, "tile": t} for t in _order_ones(state)]
    if state.phase != PLAY or player != state.player:
        return []
    blocked = state.owners().keys() | set(state.flips)
    moves: list[dict[str, Any]] = [
        {"type": "flip", "player": player, "tile": p.id} for p in state.tiles if p.id not in blocked
    ]
    if state.offer or state.flips:
        moves.append({"type": "end_turn", "player": player})
    return moves


@lru_cache(maxsize=1024)
def _score_and_sheldons(faces: tuple[str, ...], points: bool) -> tuple[int, int]:
    """A player's score and Sheldons for the faces they own. Pure, so the views
    of one state for every viewer compute them once (they were most of a view)."""
    return score_pairs(faces, points), sheldons(faces)


def view(state: GameState, player: str | None = None) -> dict[str, Any]:
    """What `player` (None: a spectator) may see, ready to send as JSON.

    A tile's face, group and value appear only while it is face up or taken,
    and its `picture` (exactly what its coloured side shows) while it is face up;
    the seed, the tile set's order and past order-procedure draws never do.
    Mathesso has no private information, so every player sees the same board;
    only `you` and `actions` differ.
    """
    if player is not None and player not in state.seats:
        raise ValueError(f"{player!r} does not sit at this table")
    up = state.face_up()
    owners = state.owners()
    tiles = []
    for p in state.tiles:
        entry: dict[str, Any] = {
            "id": p.id,
            "bw": p.tile.bw,
            "x": p.x,
            "y": p.y,
            "rot": p.rot,
            "up": p.id in up,
            "owner": owners.get(p.id),
        }
        if p.id in up or p.id in owners:
            entry.update(face=p.tile.face, group=p.tile.group, value=p.tile.value)
        if p.id in up:
            entry["picture"] = p.tile.picture.to_json()  # what to draw: tiles.Picture
        tiles.append(entry)
    players = []
    for pid in state.order or state.seats:
        faces = state.faces_of(pid)
        score, held = _score_and_sheldons(tuple(faces), state.points)
        players.append(
            {
                "id": pid,
                "pairs": faces,
                "score": score,
                "turns": state.turns[pid],
                "sheldons": held,
                "extra_turns": held - state.extra_taken[pid],  # as GameState.extra_turns
                "gone": pid in state.gone,
            }
        )
    moves = legal_actions(state, player) if player is not None else []
    return {
        "game": "mathesso",
        "variant": state.variant,
        "extensions": list(state.extensions),
        "points": state.points,
        "phase": state.phase,
        "round": state.round,
        "board": {"width": state.width, "height": state.height},
        "tiles": tiles,
        "players": players,
        "ordering": (
            {
                "waiting": list(state.waiting),
                "draws": {p: list(t) for p, t in state.draws.items()},
                "again": _again(state),
            }
            if state.phase == ORDER
            else None
        ),
        "turn": (
            {
                "player": state.player,
                "flips": list(state.flips),
                "extra": state.extra,
                "offer": state.offer,
            }
            if state.phase == PLAY
            else None
        ),
        "shown": list(state.shown),
        "result": (
            {
                **result(state),
                "breakdown": {
                    p: score_breakdown(state.faces_of(p), state.points) for p in state.seats
                },
            }
            if state.phase == OVER
            else None
        ),
        "you": player,
        "actions": sorted({m["type"] for m in moves}),
    }
