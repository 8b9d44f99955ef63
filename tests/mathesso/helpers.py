"""Shared helpers for the Mathesso rules tests: scripted moves, a bot, invariants."""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from typing import Any

from games.mathesso.rules import (
    GameState,
    apply_action,
    is_pair,
    legal_actions,
    score_pairs,
    view,
)

# ---------------------------------------------------------------- finding tiles


def ids_of(state: GameState, face: str, bw: Any = None) -> list[int]:
    """Ids of the tiles with this face (and b/w side, if given), in id order."""
    return [p.id for p in state.tiles if p.tile.face == face and (bw is None or p.tile.bw == bw)]


def one_tile(state: GameState, face: str, taken: set[int] = frozenset()) -> int:
    """A face-down tile whose b/w side shows 1 and whose face is `face`, not in `taken`."""
    up = state.face_up()
    return next(i for i in ids_of(state, face, 1) if i not in taken and i not in up)


# ---------------------------------------------------------------- playing


def play(state: GameState, *actions: dict[str, Any]) -> tuple[GameState, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for action in actions:
        state, new = apply_action(state, action)
        events.extend(new)
    return state, events


def flip(player: str, tile: int) -> dict[str, Any]:
    return {"type": "flip", "player": player, "tile": tile}


def end_turn(player: str) -> dict[str, Any]:
    return {"type": "end_turn", "player": player}


def take(state: GameState, face: str) -> tuple[GameState, list[dict[str, Any]]]:
    """The player on turn flips both tiles of `face`."""
    a, b = ids_of(state, face)
    return play(state, flip(state.player, a), flip(state.player, b))


def miss(state: GameState) -> tuple[GameState, list[dict[str, Any]]]:
    """The player on turn flips two untaken tiles that do not pair."""
    owned = state.owners()
    free = [p for p in state.tiles if p.id not in owned]
    a = free[0]
    b = next(p for p in free if not is_pair(p.tile, a.tile))
    return play(state, flip(state.player, a.id), flip(state.player, b.id))


def decide_order(state: GameState, faces: dict[str, str]) -> tuple[GameState, list[dict]]:
    """Every player flips the "1" tile of the face given for them."""
    used: set[int] = set()
    actions = []
    for player, face in faces.items():
        tile = one_tile(state, face, used)
        used.add(tile)
        actions.append(flip(player, tile))
    return play(state, *actions)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


# ---------------------------------------------------------------- invariants


def visible_faces(state: GameState) -> set[str]:
    """Faces a player may know from the table now: face-up or taken tiles."""
    shown = state.face_up() | state.owners().keys()
    return {state.tiles[i].tile.face for i in shown}


@functools.cache
def _quoted(face: str) -> str:
    return json.dumps(face)


def assert_view_keeps_secrets(state: GameState, v: dict[str, Any], text: str | None = None) -> None:
    """No face-down tile's face, group or value, and no seed, is in the view.

    ``text`` is ``json.dumps(v)`` when the caller already has it: the property test
    that checks every view of every step dumps each view once, not twice."""
    up = state.face_up()
    owned = state.owners()
    for entry in v["tiles"]:
        hidden = entry["id"] not in up and entry["id"] not in owned
        assert entry["up"] == (entry["id"] in up)
        if hidden:
            assert not {"face", "group", "value", "picture"} & entry.keys(), entry
        else:
            assert entry["face"] == state.tiles[entry["id"]].tile.face
        if entry["up"]:
            assert entry["picture"] == state.tiles[entry["id"]].tile.picture.to_json()
        else:
            assert "picture" not in entry
    if text is None:
        text = json.dumps(v)
    for face in {p.tile.face for p in state.tiles} - visible_faces(state):
        assert _quoted(face) not in text, f"hidden face {face} leaked"
    assert '"seed"' not in text


def assert_consistent(state: GameState) -> None:
    """Invariants that hold at every moment of every game."""
    owned = [t for pairs in state.pairs.values() for pair in pairs for t in pair]
    assert len(owned) == len(set(owned))
    for pairs in state.pairs.values():
        for a, b in pairs:
            assert is_pair(state.tiles[a].tile, state.tiles[b].tile)
    assert not set(owned) & state.face_up()
    assert len(state.flips) <= 1
    for p in state.seats:
        assert 0 <= state.extra_turns(p) <= 2
    v = view(state)
    for entry in v["players"]:
        assert entry["score"] == score_pairs(entry["pairs"], state.points)
    restored = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored.to_dict() == state.to_dict()


def assert_finished_consistently(state: GameState) -> None:
    assert state.phase == "over"
    owned = Counter(t for pairs in state.pairs.values() for pair in pairs for t in pair)
    assert sorted(owned) == list(range(len(state.tiles)))
    assert set(owned.values()) == {1}
    v = view(state)
    result = v["result"]
    for player in v["players"]:
        assert player["score"] == score_pairs(player["pairs"], state.points)
        assert result["scores"][player["id"]] == player["score"]
        assert result["breakdown"][player["id"]]["total"] == player["score"]
    top = max(result["scores"].values())
    assert set(result["winners"]) == {p for p, s in result["scores"].items() if s == top}
    assert result["draw"] == (len(result["winners"]) > 1)
    for p in state.seats:
        assert legal_actions(state, p) == []


# ---------------------------------------------------------------- a bot


def looks_alike_key(picture: dict[str, Any]) -> str:
    """What a player sees that decides a pair, read from a view's `picture` alone.

    The whole picture, except that CJV tiles of one design pair whatever their
    numeral (seed: „graficky stejně zpracované číslo 12").
    """
    if picture["design"] is not None:
        picture = {k: v for k, v in picture.items() if k not in ("value", "digits")}
    return json.dumps(picture, sort_keys=True)


class MemoryBot:
    """Plays every seat from the public view alone, remembering faces it has seen.

    `skill` is how often it uses what it remembers, `single` how often it ends
    a turn after one flip, `decline` how often it refuses an offered extra
    turn, `turn_back` how often the server's timer turns shown tiles back.
    """

    def __init__(
        self, rng: random.Random, skill: float, single: float, decline: float, turn_back: float
    ) -> None:
        self.rng = rng
        self.skill = skill
        self.single = single
        self.decline = decline
        self.turn_back = turn_back
        self.memory: dict[int, str] = {}

    def observe(self, v: dict[str, Any]) -> None:
        for t in v["tiles"]:
            if t["owner"] is not None:
                self.memory.pop(t["id"], None)
            elif "picture" in t:
                self.memory[t["id"]] = looks_alike_key(t["picture"])

    def choose(self, state: GameState, v: dict[str, Any]) -> dict[str, Any]:
        rng = self.rng
        if v["shown"] and rng.random() < self.turn_back:
            return {"type": "turn_back"}
        if v["phase"] == "order":
            player = rng.choice(v["ordering"]["waiting"])
            return rng.choice(legal_actions(state, player))
        turn = v["turn"]
        player = turn["player"]
        moves = legal_actions(state, player)
        flips = [m["tile"] for m in moves if m["type"] == "flip"]
        unknown = [t for t in flips if t not in self.memory]
        if turn["offer"] and rng.random() < self.decline:
            return {"type": "end_turn", "player": player}
        if turn["flips"]:
            if rng.random() < self.single:
                return {"type": "end_turn", "player": player}
            face = self.memory[turn["flips"][0]]
            partners = [t for t in flips if self.memory.get(t) == face]
            if partners and rng.random() < self.skill:
                return flip(player, partners[0])
        else:
            by_face: dict[str, list[int]] = {}
            for t in flips:
                if t in self.memory:
                    by_face.setdefault(self.memory[t], []).append(t)
            known = [ts for ts in by_face.values() if len(ts) == 2]
            if known and rng.random() < self.skill:
                return flip(player, rng.choice(known)[0])
        return flip(player, rng.choice(unknown or flips))
