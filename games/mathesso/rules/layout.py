"""An irregular, seeded, non-overlapping layout of tiles on the table.

Units are tile sides: a tile is a 1 x 1 square centred on (x, y), turned by
`rot` degrees. The board is a staggered grid of cells (every other row shifted
by half a cell) with some cells left empty; each tile is turned and nudged
inside its cell by no more than keeps its bounding box in the cell, so no two
tiles ever overlap while the whole still looks scattered.

The board is portrait (width : height about 3 : 4) so that Atto-Pico fit a
phone held upright; larger variants need zoom/pan.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

CELL = 1.4  # a cell's side, in tile sides
MAX_TURN = 10.0  # degrees either way
SPARE_CELLS = 0.2  # share of extra, empty cells
ASPECT = 0.75  # board width / height


@dataclass(frozen=True)
class Spot:
    x: float
    y: float
    rot: float


def bounding_side(rot: float) -> float:
    """The side of the axis-aligned box around a unit square turned by `rot` degrees."""
    r = math.radians(abs(rot))
    return math.cos(r) + math.sin(r)


def lay_out(count: int, rng: random.Random) -> tuple[list[Spot], float, float]:
    """`count` spots in random cells; returns the spots and the board's width and height."""
    cells = max(count, math.ceil(count * (1 + SPARE_CELLS)))
    cols = max(1, math.floor(math.sqrt(cells * ASPECT)))
    rows = math.ceil(cells / cols)
    chosen = rng.sample(range(cols * rows), count)
    spots = []
    for cell in chosen:
        row, col = divmod(cell, cols)
        rot = round(rng.uniform(-MAX_TURN, MAX_TURN), 1)
        # A hair less than the full slack, so rounding to 3 decimals stays inside too.
        slack = (CELL - bounding_side(rot)) / 2 - 0.002
        dx = rng.uniform(-slack, slack)
        dy = rng.uniform(-slack, slack)
        shift = CELL / 2 if row % 2 else 0.0
        x = round(col * CELL + shift + CELL / 2 + dx, 3)
        y = round(row * CELL + CELL / 2 + dy, 3)
        spots.append(Spot(x, y, rot))
    return spots, round(cols * CELL + CELL / 2, 3), round(rows * CELL, 3)
