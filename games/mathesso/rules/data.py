"""The Mathesso box as data: the one source of truth for tiles, variants and colours.

Everything the engine, the future UI and the rules page need to know about the
physical game lives here as plain constants. `tiles.py` turns them into tiles;
`catalogue()` turns them into JSON for clients. Change the game here and
nowhere else.

Where the seed is silent, the spec (`shared/spec/mathesso.md`) marks its
choices **Decision**; the few this module adds are noted beside them and in
`docs/rules/mathesso.md`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RulerColour:
    """One field of the colour ruler (barevné pravítko)."""

    number: int
    name: str
    hex: str


# The seed fixes 1 pink, 2 red, 3 orange, 7 light blue; the spec decides the rest.
RULER: tuple[RulerColour, ...] = (
    RulerColour(1, "pink", "#f06ba8"),
    RulerColour(2, "red", "#d62828"),
    RulerColour(3, "orange", "#f77f00"),
    RulerColour(4, "yellow", "#f5c400"),
    RulerColour(5, "green", "#43a047"),
    RulerColour(6, "dark green", "#1b5e20"),
    RulerColour(7, "light blue", "#4fc3f7"),
    RulerColour(8, "dark blue", "#1a237e"),
    RulerColour(9, "violet", "#8e24aa"),
    RulerColour(10, "brown", "#795548"),
)

# Numerals that the ruler does not colour (primes, Fibonacci numbers, factorials,
# zeros, CJV, and the square of 11, whose base lies beyond the ruler).
PLAIN_INK = "#111111"


@dataclass(frozen=True)
class Group:
    """A group of tiles: how its coloured side looks and what its pairs score.

    `flat` groups score their points per pair and stay out of the by-value
    multiplication (seed: "Toto pravidlo se nevztahuje na páry ze skupiny
    faktoriály a CJV").
    """

    name: str
    title: str
    points: int
    background: str
    background_hex: tuple[str, ...]
    flat: bool = False


GROUPS: tuple[Group, ...] = (
    Group("mult", "small multiplication table", 2, "grey", ("#9e9e9e",)),
    Group("square", "second powers", 3, "circle", ("#ffffff", "#616161")),
    Group("prime", "primes", 1, "yellow", ("#ffeb3b",)),
    Group("fib", "Fibonacci numbers", 2, "orange", ("#ff9800",)),
    Group(
        "fact",
        "factorials",
        4,
        "rainbow",
        ("#e53935", "#fb8c00", "#fdd835", "#43a047", "#1e88e5", "#8e24aa"),
        flat=True,
    ),
    Group("zero", "zeros", 0, "black", ("#000000",)),
    Group("cjv", "Cooper–Janeček variety", 5, "yellow-blue", ("#ffeb3b", "#1e88e5"), flat=True),
)

# --- what the box holds -------------------------------------------------------

# mult: every a·b with 1 <= a < b <= MULT_MAX_FACTOR (squares are their own group).
MULT_MAX_FACTOR = 10
# square: bases 1..SQUARE_MAX_BASE.
SQUARE_MAX_BASE = 11
# fib: one pair per distinct value.
FIBONACCI: tuple[int, ...] = (1, 2, 3, 5, 8, 13, 21, 34, 55, 89)
# fact: n = 1..FACTORIAL_MAX_N; one tile shows n, the other "!".
FACTORIAL_MAX_N = 5
FACTORIAL_MARK = "!"

# cjv: four pairs, each of a tile "12" that shows 21 and a tile "21" that shows 12.
# Pairs 1 and 2 are design #1, pairs 3 and 4 design #2; one pair of each design
# held by one player is a Sheldon.
CJV_DESIGNS: dict[int, int] = {1: 1, 2: 1, 3: 2, 4: 2}
CJV_TILES: tuple[tuple[int, int], ...] = ((12, 21), (21, 12))  # (b/w side, coloured value)
SHELDON_SCORE = 12  # a Sheldon's two CJV pairs score this instead of 2 * 5
MAX_SHELDONS = 2

# zero pairs: face suffix -> the number shown on both b/w sides and behind the 0.
# The two "12" pairs are different faces (seed: "černé kartičky 12 jsou různé").
# The box's other black tiles (17, 19, 23, 29, 31, 41, 43, 71) are used by no
# variant and are left out of the digital game.
ZEROS: dict[str, int] = {"21": 21, "34": 34, "55": 55, "12a": 12, "12b": 12, "37": 37, "73": 73}
# Tiles that do not pair must look different, so the two black 12s carry one
# and two dots under their 0 (a shape to count, not a colour to tell apart).
ZERO_DOTS: dict[str, int] = {"12a": 1, "12b": 2}


@dataclass(frozen=True)
class Variant:
    """A variant keeps every pair of its groups whose coloured value is <= max_value.

    The cap is the variant's own: an extension's groups come whole.
    """

    name: str
    title: str
    max_value: int
    groups: tuple[str, ...]
    zeros: tuple[str, ...]
    points_by_default: bool = True


_BASIC = ("mult", "square", "prime")
_WITH_FIB = ("mult", "square", "prime", "fib")

# In the order of difficulty: "from Femto up" means this order.
VARIANTS: tuple[Variant, ...] = (
    Variant("atto", "Atto", 6, _BASIC, (), points_by_default=False),
    # Only Atto plays without points: the seed's "Výše popsaná pravidla počítání
    # bodů se v této variantě nepoužívají" stands under Atto alone.
    Variant("femto", "Femto", 6, _WITH_FIB, ()),
    Variant("pico", "Pico", 13, _WITH_FIB, ()),
    Variant("nano", "Nano", 21, _WITH_FIB, ("21",)),
    Variant("mikro", "Mikro", 37, _WITH_FIB, ("21", "34")),
    Variant("mili", "Mili", 73, _WITH_FIB, ("21", "34", "55")),
    Variant("standart", "Standart", 121, _WITH_FIB, ("21", "34", "55")),
)


@dataclass(frozen=True)
class Extension:
    """An extension chosen when a game is created, allowed from `from_variant` up."""

    name: str
    title: str
    from_variant: str
    groups: tuple[str, ...]
    zeros: tuple[str, ...]


EXTENSIONS: tuple[Extension, ...] = (
    # An extension adds its tiles whole, whatever the variant's max_value: the
    # seed words both alike ("Přidáme žetony Faktoriál (výše)", "Přidáme žetony
    # CJV (výše)"), and CJV's zeros 37 and 73 lie above Pico's 13 as well.
    # See docs/rules/mathesso.md, decision 10.
    Extension("factorial", "Faktoriál", "femto", ("fact",), ()),
    Extension("cjv", "CJV", "pico", ("cjv",), ("12a", "12b", "37", "73")),
)

# Tables hold 1-6 players.
MIN_PLAYERS = 1
MAX_PLAYERS = 6
