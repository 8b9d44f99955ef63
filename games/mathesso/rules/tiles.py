"""Tiles, their pictures and faces, derived from the box data in `data.py`.

A tile's *picture* is exactly what its coloured side shows. Two tiles pair iff
they look the same (`is_pair`): their pictures are equal, except that a CJV
12-tile and 21-tile of one design pair although their numerals differ (seed:
„aby na barevné straně nalezl graficky stejně zpracované číslo 12"; „CJV jsou
jediné kombinace, kdy čísla na barevné straně přidružených kartiček nejsou
úplně identická"). So tiles that look the same always pair, and tiles that do
not pair always look different; `tests/mathesso/test_tiles.py` checks both for
every tile of every setup.

A *face* is one pair of the box (its two tiles) and what scoring counts. Face
ids are the canonical strings of the spec (`mult:3x7`, `square:4`, `prime:13`,
`fib:13`, `fact:5`, `zero:12a`, `cjv:1`, ...). The faces of one look (`cjv:1`
and `cjv:2` are both design I) are interchangeable: whoever takes a pair owns
the first such face they do not own yet (`owned_faces`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from math import factorial
from typing import Any

from . import data

Bw = int | str  # what a b/w side shows: a number, or "!" on a factorial tile


@dataclass(frozen=True)
class Picture:
    """What a tile's coloured side shows, exactly as it is drawn.

    The board (`tiles.js`) and the rules page (`presentation.face_svg`) draw
    nothing that is not in here, so equal pictures look the same and unequal
    ones look different.
    """

    background: str
    background_hex: tuple[str, ...]
    numeral: str
    digit_colours: tuple[tuple[str, ...], ...]  # per digit: one colour, or two halves
    behind: int | None = None  # a zero's translucent number behind the 0
    dots: int = 0  # marks under a zero's 0 (the two black 12s differ here)
    hint: str | None = None  # a factorial's small "n!", on both tiles of the pair
    design: int | None = None  # CJV design I or II

    @property
    def motif(self) -> Picture:
        """What two tiles must share to pair: the picture, but a CJV numeral is free."""
        if self.design is None:
            return self
        return replace(self, numeral="", digit_colours=())

    def to_json(self) -> dict[str, Any]:
        return {
            "value": int(self.numeral),
            "digits": [
                {"digit": d, "colours": list(c)}
                for d, c in zip(self.numeral, self.digit_colours, strict=True)
            ],
            "background": self.background,
            "background_hex": list(self.background_hex),
            "behind": self.behind,
            "dots": self.dots,
            "hint": self.hint,
            "design": self.design,
        }


@dataclass(frozen=True)
class Tile:
    """One physical tile: its b/w side, and the coloured side it hides."""

    face: str
    group: str
    bw: Bw
    value: int  # the number on the coloured side
    picture: Picture = field(compare=False, repr=False)


def is_pair(a: Tile, b: Tile) -> bool:
    """Whether two tiles form a pair: they look the same (see the module's note)."""
    return a.picture.motif == b.picture.motif


@dataclass(frozen=True)
class Face:
    """One pair of the box, and the two tiles that carry it.

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


def _ink(number: int) -> str:
    colour = RULER_BY_NUMBER.get(number)
    return colour.hex if colour else data.PLAIN_INK


def _digit_colours(face: str, group: str, value: int) -> tuple[tuple[str, ...], ...]:
    """The colours of each digit of a coloured numeral.

    A product is printed in its factors' ruler colours, digit by digit (21 = 3x7:
    "2" orange, "1" light blue). A one-digit product is one digit in both
    colours (left half, right half). A square is one colour: its base's.
    """
    digits = str(value)
    if group == "mult":
        a, b = (int(x) for x in face.removeprefix("mult:").split("x"))
        return ((_ink(a), _ink(b)),) if len(digits) == 1 else ((_ink(a),), (_ink(b),))
    if group == "square":
        base = int(face.removeprefix("square:"))
        return tuple((_ink(base),) for _ in digits)
    if group == "zero":
        return (("#ffffff",),)
    return tuple((data.PLAIN_INK,) for _ in digits)


def _picture(face: str, group: str, key: int | None, value: int, design: int | None) -> Picture:
    look = GROUP_BY_NAME[group]
    return Picture(
        background=look.background,
        background_hex=look.background_hex,
        numeral=str(value),
        digit_colours=_digit_colours(face, group, value),
        behind=key if group == "zero" else None,
        dots=data.ZERO_DOTS.get(face.removeprefix("zero:"), 0) if group == "zero" else 0,
        hint=f"{face.removeprefix('fact:')}!" if group == "fact" else None,
        design=design,
    )


def _pair(
    face: str, group: str, key: int | None, *sides: tuple[Bw, int], design: int | None = None
) -> Face:
    first, second = (
        Tile(face, group, bw, value, _picture(face, group, key, value, design))
        for bw, value in sides
    )
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
# The faces of each look, in box order: faces sharing a motif are interchangeable.
FACES_BY_MOTIF: dict[Picture, tuple[str, ...]] = {}
for _face in FACES.values():
    _motif = _face.tiles[0].picture.motif
    FACES_BY_MOTIF[_motif] = (*FACES_BY_MOTIF.get(_motif, ()), _face.id)
del _face, _motif


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
        return f.group in v.groups and f.key is not None and f.key <= v.max_value

    return [f for f in FACES.values() if kept(f)]


def build_tiles(variant: str, extensions: Iterable[str] = ()) -> list[Tile]:
    """Every tile of a game, two per pair, in the box's order (not shuffled)."""
    return [t for f in variant_faces(variant, extensions) for t in f.tiles]


def owned_faces(taken: Iterable[Sequence[Tile]]) -> list[str]:
    """The faces a player owns for the pairs they took, one per pair, in order.

    A pair may join tiles of two faces that look the same (a design-I CJV
    12-tile of `cjv:1` with the 21-tile of `cjv:2`). Such faces score alike, so
    each pair is credited with the first face of its look the player does not
    own yet. `ValueError` if two tiles do not pair.
    """
    owned: list[str] = []
    seen: set[str] = set()
    for first, second in taken:
        face = first.face
        if face != second.face or face in seen:
            if not is_pair(first, second):
                raise ValueError(f"{first.face} and {second.face} do not pair")
            free = [f for f in FACES_BY_MOTIF[first.picture.motif] if f not in seen]
            if not free:
                raise ValueError(f"more pairs that look like {first.face} than the box holds")
            face = free[0]
        owned.append(face)
        seen.add(face)
    return owned


def tile_of(face_id: str, bw: Bw) -> Tile:
    """The tile of a pair that shows `bw` on its b/w side."""
    for t in face(face_id).tiles:
        if t.bw == bw:
            return t
    raise ValueError(f"face {face_id!r} has no tile with b/w side {bw!r}")


# --- looks, for clients and the rules page -------------------------------------


def digit_colours(tile: Tile) -> list[list[str]]:
    """The colours of each digit of a tile's coloured numeral (see `_digit_colours`)."""
    return [list(c) for c in tile.picture.digit_colours]


def look(tile: Tile) -> dict[str, Any]:
    """How a tile's coloured side is drawn, as JSON-ready data: its picture and b/w side."""
    return {"bw": tile.bw, **tile.picture.to_json()}


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
