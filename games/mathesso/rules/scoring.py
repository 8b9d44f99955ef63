"""Scoring a player's pairs (spec section 5)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from . import data
from .tiles import GROUP_BY_NAME, Face, face


def _faces(face_ids: Iterable[str]) -> list[Face]:
    ids = list(face_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("a player cannot own the same pair twice")
    return [face(i) for i in ids]


def sheldons(face_ids: Iterable[str]) -> int:
    """How many Sheldons these pairs hold: a design-#1 CJV pair with a design-#2 one."""
    designs = [f.design for f in _faces(face_ids) if f.group == "cjv"]
    return min(designs.count(1), designs.count(2), data.MAX_SHELDONS)


def score_breakdown(face_ids: Iterable[str], points: bool = True) -> dict[str, Any]:
    """The score of a player owning these pairs (one face id per pair), itemised.

    Flat groups (factorials, CJV) score their points per pair, and each Sheldon
    turns its 5 + 5 into 12. Every other pair is grouped by key (the coloured
    value, or the number behind a zero); a key scores the sum of its pairs'
    points times the number of its pairs. With `points` off the score is the
    number of pairs.
    """
    faces = _faces(face_ids)
    if not points:
        return {"points": False, "pairs": len(faces), "total": len(faces)}
    flat = [f for f in faces if GROUP_BY_NAME[f.group].flat]
    by_key: dict[int, list[Face]] = defaultdict(list)
    for f in faces:
        if not GROUP_BY_NAME[f.group].flat and f.key is not None:  # by value: a key each
            by_key[f.key].append(f)
    n_sheldons = sheldons(f.id for f in faces)
    sheldon_bonus = n_sheldons * (data.SHELDON_SCORE - 2 * GROUP_BY_NAME["cjv"].points)
    keys: list[dict[str, Any]] = [
        {
            "key": key,
            "faces": [f.id for f in group],
            "sum": sum(f.points for f in group),
            "count": len(group),
            "score": sum(f.points for f in group) * len(group),
        }
        for key, group in sorted(by_key.items())
    ]
    flat_score = sum(f.points for f in flat) + sheldon_bonus
    return {
        "points": True,
        "pairs": len(faces),
        "flat": [{"face": f.id, "points": f.points} for f in flat],
        "sheldons": n_sheldons,
        "sheldon_bonus": sheldon_bonus,
        "keys": keys,
        "total": flat_score + sum(k["score"] for k in keys),
    }


def score_pairs(faces: Iterable[str], points: bool = True) -> int:
    """The score of a player who owns these pairs (one face id per pair)."""
    total: int = score_breakdown(faces, points)["total"]
    return total
