"""Mathesso rules engine: pure, deterministic, no I/O and no Django.

Public API (see docs/rules/mathesso.md):
- tiles: `build_tiles`, `Tile`, `Picture`, `is_pair`, `owned_faces`, `FACES`, `catalogue`,
  `VARIANT_NAMES`, `EXTENSION_NAMES`
- scoring: `score_pairs`, `score_breakdown`, `sheldons`
- the game: `new_game`, `apply_action`, `remove_player`, `view`, `legal_actions`, `scores`,
  `result`, `GameState` (`to_dict` / `from_dict`), `IllegalMove`
"""

from .game import (
    GameState,
    IllegalMove,
    PlacedTile,
    apply_action,
    legal_actions,
    new_game,
    remove_player,
    result,
    scores,
    view,
)
from .scoring import score_breakdown, score_pairs, sheldons
from .tiles import (
    EXTENSION_NAMES,
    FACES,
    VARIANT_NAMES,
    Face,
    Picture,
    Tile,
    build_tiles,
    catalogue,
    is_pair,
    owned_faces,
    variant_faces,
)

__all__ = [
    "EXTENSION_NAMES",
    "FACES",
    "VARIANT_NAMES",
    "Face",
    "GameState",
    "IllegalMove",
    "Picture",
    "PlacedTile",
    "Tile",
    "apply_action",
    "build_tiles",
    "catalogue",
    "is_pair",
    "legal_actions",
    "new_game",
    "owned_faces",
    "remove_player",
    "result",
    "score_breakdown",
    "score_pairs",
    "scores",
    "sheldons",
    "variant_faces",
    "view",
]
