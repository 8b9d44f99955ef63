"""Reading the server-side state to play a Mathesso game quickly in product tests.

Only tests may do this: the state holds every face, which no client ever sees.
"""

from __future__ import annotations

from typing import Any

from games.mathesso.rules import GameState, is_pair


def next_moves(state: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(player, message) pairs that advance the game: order flips, or a whole pair.

    In the order phase every waiting player flips a face-down "1" tile. In play
    the player on turn flips two face-down tiles with the same face.
    """
    game = GameState.from_dict(state)
    up = game.face_up()
    if game.phase == "order":
        free = [p.id for p in game.tiles if p.tile.bw == 1 and p.id not in up]
        return [
            (player, {"type": "flip", "tile": tile})
            for player, tile in zip(game.waiting, free, strict=False)
        ]
    if game.phase != "play":
        return []
    player = game.player
    if game.offer:
        return [(player, {"type": "end_turn"})]
    owned = game.owners()
    by_face: dict[str, list[int]] = {}
    for p in game.tiles:
        if p.id not in owned:
            by_face.setdefault(p.tile.face, []).append(p.id)
    if game.flips:
        first = game.flips[0]
        twin = next(t for t in by_face[game.tiles[first].tile.face] if t != first)
        return [(player, {"type": "flip", "tile": twin})]
    pair = next(ids for ids in by_face.values() if len(ids) == 2)
    return [
        (player, {"type": "flip", "tile": pair[0]}),
        (player, {"type": "flip", "tile": pair[1]}),
    ]


def mismatch(state: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Two flips of tiles that do not pair by the player on turn (a turn without a pair)."""
    game = GameState.from_dict(state)
    owned = game.owners()
    free = [p for p in game.tiles if p.id not in owned]
    first = free[0]
    second = next(p for p in free if not is_pair(p.tile, first.tile))
    return [
        (game.player, {"type": "flip", "tile": first.id}),
        (game.player, {"type": "flip", "tile": second.id}),
    ]
