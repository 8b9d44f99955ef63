"""Abaku's fixed data: board size, premium layouts and the stone set.

Everything a UI, the docs or the tests need to draw the board or count stones
is read from here, so the numbers exist exactly once (spec sections 2 and 3).
"""

BOARD_SIZE = 15
CENTRE = (7, 7)

# Premium squares, rows top to bottom, exactly as in the spec:
# "." plain, "d" digit x2, "t" digit x3, "D" example x2, "T" example x3, "*" centre.
LAYOUTS: dict[str, tuple[str, ...]] = {
    "standard": (
        "T..t...T...d..T",
        "..d...d.d...t..",
        ".t...D.......d.",
        "d...D..d..D...t",
        "...D.......D...",
        ".....t...t..D..",
        ".d....d.d....d.",
        "T..d...*...d..T",
        ".d....d.d....d.",
        "..D..t...t.....",
        "...D.......D...",
        "t...D..d..D...d",
        ".d.......D...t.",
        "..t...d.d...d..",
        "T..d...T...t..T",
    ),
    "plain": tuple("." * BOARD_SIZE for _ in range(BOARD_SIZE)),
}

# What each premium letter does: (digit multiplier, example multiplier).
PREMIUMS: dict[str, tuple[int, int]] = {
    ".": (1, 1),
    "d": (2, 1),
    "t": (3, 1),
    "D": (1, 2),
    "T": (1, 3),
    "*": (1, 2),
}

# A joker in a rack or the bag; on the board it shows the digit chosen for it.
JOKER = 10

# The bag at the start of a game: stone kind -> how many (100 digits + 2 jokers).
STONE_SET: dict[int, int] = {
    0: 6,
    1: 14,
    2: 14,
    3: 12,
    4: 12,
    5: 10,
    6: 10,
    7: 8,
    8: 8,
    9: 6,
    JOKER: 2,
}

RACK_SIZE = 5
EMPTY_TURNS_TO_END = 3
DEFAULT_TURN_SECONDS = 120
