"""Tiles and faces, derived from the box data in `data.py`.

A *face* is the identity of a coloured side: two tiles form a pair iff their
faces are equal. Face ids are the canonical strings of the spec (`mult:3x7`,
`square:4`, `prime:13`, `fib:13`, `fact:5`, `zero:12a`, `cjv:1`, ...).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from math import factorial
from typing import Any

from . import data

Bw = int | str  # what a b/w side shows: a number, or "!" on a factorial tile


@dataclass(frozen=True)
class Tile:
    """One physical tile: its b/w side, and the coloured side it hides."""

    face: str
    group: str
    bw: Bw
    value: int  # the number on the coloured side


@dataclass(frozen=True)
class Face:
    """One pair's coloured side, and the two tiles that carry it.

    `key` is what the by-value scoring groups on: the coloured value, or for a
    zero pair the number behind its 0. CJV pairs have none (their two tiles
    show different numbers and they score flat).
    """

    id: str
    group: str
    key: int | None
    tiles: tuple[Tile, Tile]
    design: int | None = None  # CJV design #1 or #2

    @property
    def points(self) -> int:
        return GROUP_BY_NAME[self.group].points


GROUP_BY_NAME: dict[str, data.Group] = {g.name: g for g in data.GROUPS}
VARIANT_BY_NAME: dict[str, data.Variant] = {v.name: v for v in data.VARIANTS}
EXTENSION_BY_NAME: dict[str, data.Extension] = {e.name: e for e in data.EXTENSIONS}
RULER_BY_NUMBER: dict[int, data.RulerColour] = {c.number: c for c in data.RULER}
VARIANT_NAMES: tuple[str, ...] = tuple(v.name for v in data.VARIANTS)
EXTENSION_NAMES: tuple[str, ...] = tuple(e.name for e in data.EXTENSIONS)


def _primes_up_to(limit: int) -> list[int]:
    return [n for n in range(2, limit + 1) if all(n % d for d in range(2, int(n**0.5) + 1))]


def _pair(
    face: str, group: str, key: int | None, *sides: tuple[Bw, int], design: int | None = None
) -> Face:
    first, second = (Tile(face, group, bw, value) for bw, value in sides)
    return Face(face, group, key, (first, second), design)


def _box() -> dict[str, Face]:
    """Every face the digital game knows, in the box's order."""
    faces: list[Face] = []
    top = max(v.max_value for v in data.VARIANTS)
    for a in range(1, data.MULT_MAX_FACTOR + 1):
        for b in range(a + 1, data.MULT_MAX_FACTOR + 1):
            faces.append(_pair(f"mult:{a}x{b}", "mult", a * b, (a, a * b), (b, a * b)))
    for b in range(1, data.SQUARE_MAX_BASE + 1):
        faces.append(_pair(f"square:{b}", "square", b * b, (b, b * b), (b, b * b)))
    for p in _primes_up_to(top):
        faces.append(_pair(f"prime:{p}", "prime", p, (p, p), (p, p)))
    for f in data.FIBONACCI:
        faces.append(_pair(f"fib:{f}", "fib", f, (f, f), (f, f)))
    for n in range(1, data.FACTORIAL_MAX_N + 1):
        v = factorial(n)
        faces.append(_pair(f"fact:{n}", "fact", v, (n, v), (data.FACTORIAL_MARK, v)))
    for suffix, behind in data.ZEROS.items():
        faces.append(_pair(f"zero:{suffix}", "zero", behind, (behind, 0), (behind, 0)))
    for k, design in data.CJV_DESIGNS.items():
        faces.append(_pair(f"cjv:{k}", "cjv", None, *data.CJV_TILES, design=design))
    return {f.id: f for f in faces}


FACES: dict[str, Face] = _box()


def face(face_id: str) -> Face:
    """The face with this id; `ValueError` for an id the game does not know."""
    try:
        return FACES[face_id]
    except (KeyError, TypeError):
        raise ValueError(f"unknown Mathesso face: {face_id!r}") from None


def check_setup(variant: str, extensions: Iterable[str]) -> tuple[str, ...]:
    """Validate a variant and its extensions; return the extensions in canonical order."""
    if variant not in VARIANT_BY_NAME:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANT_NAMES}")
    if isinstance(extensions, str):
        raise ValueError("extensions must be a collection of names, not a string")
    chosen = set(extensions)
    for name in chosen:
        if name not in EXTENSION_BY_NAME:
            raise ValueError(f"unknown extension {name!r}; expected some of {EXTENSION_NAMES}")
        ext = EXTENSION_BY_NAME[name]
        if VARIANT_NAMES.index(variant) < VARIANT_NAMES.index(ext.from_variant):
            raise ValueError(f"extension {name!r} needs variant {ext.from_variant!r} or higher")
    return tuple(n for n in EXTENSION_NAMES if n in chosen)


def variant_faces(variant: str, extensions: Iterable[str] = ()) -> list[Face]:
    """The faces (one per pair) in a game of this variant with these extensions."""
    chosen = check_setup(variant, extensions)
    v = VARIANT_BY_NAME[variant]
    whole: set[str] = set()  # an extension's groups are added whole
    zeros = set(v.zeros)
    for name in chosen:
        whole.update(EXTENSION_BY_NAME[name].groups)
        zeros.update(EXTENSION_BY_NAME[name].zeros)

    def kept(f: Face) -> bool:
        if f.group == "zero":
            return f.id.removeprefix("zero:") in zeros
        if f.group in whole:
            return True
        return f.group in v.groups and f.key <= v.max_value

    return [f for f in FACES.values() if kept(f)]


def build_tiles(variant: str, extensions: Iterable[str] = ()) -> list[Tile]:
    """Every tile of a game, two per pair, in the box's order (not shuffled)."""
    return [t for f in variant_faces(variant, extensions) for t in f.tiles]


def tile_of(face_id: str, bw: Bw) -> Tile:
    """The tile of a pair that shows `bw` on its b/w side."""
    for t in face(face_id).tiles:
        if t.bw == bw:
            return t
    raise ValueError(f"face {face_id!r} has no tile with b/w side {bw!r}")


# --- looks, for clients and the rules page -------------------------------------


def _ink(number: int) -> str:
    colour = RULER_BY_NUMBER.get(number)
    return colour.hex if colour else data.PLAIN_INK


def digit_colours(tile: Tile) -> list[list[str]]:
    """The colours of each digit of a tile's coloured numeral.

    A product is printed in its factors' ruler colours, digit by digit (21 = 3x7:
    "2" orange, "1" light blue). A one-digit product is one digit in both
    colours (left half, right half). A square is one colour: its base's.
    """
    digits = str(tile.value)
    f = FACES[tile.face]
    if f.group == "mult":
        a, b = (int(x) for x in tile.face.removeprefix("mult:").split("x"))
        return [[_ink(a), _ink(b)]] if len(digits) == 1 else [[_ink(a)], [_ink(b)]]
    if f.group == "square":
        base = int(tile.face.removeprefix("square:"))
        return [[_ink(base)] for _ in digits]
    if f.group == "zero":
        return [["#ffffff"]]
    return [[data.PLAIN_INK] for _ in digits]


def look(tile: Tile) -> dict[str, Any]:
    """How a tile's coloured side is drawn, as JSON-ready data."""
    f = FACES[tile.face]
    group = GROUP_BY_NAME[f.group]
    return {
        "bw": tile.bw,
        "value": tile.value,
        "digits": [
            {"digit": d, "colours": c}
            for d, c in zip(str(tile.value), digit_colours(tile), strict=True)
        ],
        "background": group.background,
        "background_hex": list(group.background_hex),
        "behind": f.key if f.group == "zero" else None,
        "hint": f"{tile.bw}!" if f.group == "fact" and tile.bw != data.FACTORIAL_MARK else None,
        "design": f.design,
    }


def catalogue(variant: str | None = None, extensions: Iterable[str] = ()) -> dict[str, Any]:
    """The box as JSON-ready data: ruler, groups, variants, extensions and faces.

    With a variant, `faces` and `counts` describe that game only (what a
    client needs to draw it; the set of faces in a game is public); without
    one, the whole digital box.
    """
    faces = variant_faces(variant, extensions) if variant else list(FACES.values())
    counts = {g.name: 0 for g in data.GROUPS}
    for f in faces:
        counts[f.group] += 1
    return {
        "ruler": [{"number": c.number, "name": c.name, "hex": c.hex} for c in data.RULER],
        "groups": [
            {
                "name": g.name,
                "title": g.title,
                "points": g.points,
                "background": g.background,
                "background_hex": list(g.background_hex),
                "flat": g.flat,
            }
            for g in data.GROUPS
        ],
        "variants": [
            {
                "name": v.name,
                "title": v.title,
                "max_value": v.max_value,
                "groups": list(v.groups),
                "zeros": [f"zero:{z}" for z in v.zeros],
                "points_by_default": v.points_by_default,
                "pairs": len(variant_faces(v.name)),
            }
            for v in data.VARIANTS
        ],
        "extensions": [
            {
                "name": e.name,
                "title": e.title,
                "from_variant": e.from_variant,
                "groups": list(e.groups),
                "zeros": [f"zero:{z}" for z in e.zeros],
            }
            for e in data.EXTENSIONS
        ],
        "sheldon": {"score": data.SHELDON_SCORE, "max_per_player": data.MAX_SHELDONS},
        "faces": {
            f.id: {
                "group": f.group,
                "key": f.key,
                "points": f.points,
                "design": f.design,
                "tiles": [look(t) for t in f.tiles],
            }
            for f in faces
        },
        "counts": {"pairs": len(faces), "tiles": 2 * len(faces), "by_group": counts},
    }
