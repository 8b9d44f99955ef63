"""Generate the poker test vectors and the JavaScript copy of the tables.

Run from the project root:  python -m games.poker.vectors

Both outputs are derived from the Python engine and ``tables.json``; the Python
suite fails when either file is stale and the JavaScript suite fails when the
twin disagrees with any vector. Everything is drawn from one fixed seed, so a
rerun without engine changes rewrites identical bytes.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from games.poker.rules import (
    EASY,
    HARD,
    JOKER,
    LINES,
    TABLE_NAMES,
    TABLES_FILE,
    IllegalMove,
    PokerGame,
    build_deck,
    daily_deck,
    daily_seed,
    preview,
    score_board,
    score_line,
    seeded_deck,
    shuffle,
)

ROOT = Path(__file__).resolve().parents[2]
VECTORS_FILE = ROOT / "tests" / "vectors" / "poker.json"
JS_TABLES_FILE = ROOT / "games" / "poker" / "static" / "poker" / "tables.js"
SEED = 20260429

FULL_BOARDS = 500
PARTIAL_BOARDS = 500
NARROW_BOARDS = 300
JOKER_BOARDS = 100
PREVIEWS = 150
RANDOM_LINES = 400
DECK_SEEDS = (0, 1, 42, 2**32, 2**64 + 5, 2**255 + 12345)
GAME_SCRIPTS = 48
DAILY = (("2026-11-29", "test-secret"), ("2027-01-01", "another secret"))

#: Lines chosen by hand: every row of every table, the spec's worked checks and
#: edge cases (empty cells breaking runs, wrap-around straights).
_: None = None
HAND_LINES: list[list[int | None]] = [
    [7, 7, 7, 7, 7], [1, 1, 1, 1, 1], [9, 3, 3, 3, 3], [3, 3, 3, 3, _], [_, 3, 3, 3, 3],
    [3, 3, _, 3, 3], [3, 3, 3, _, 3], [3, 3, 9, 3, 3], [8, 7, 6, 5, 4], [1, 2, 3, 4, 5],
    [9, 10, 11, 12, 13], [6, 4, 8, 5, 7], [3, 3, 3, 9, 9], [9, 9, 3, 3, 3], [5, 5, 8, 8, 5],
    [4, 4, _, 6, 6], [4, 4, 6, 6, 2], [4, 6, 4, 6, 2], [2, 7, 7, 7, _], [7, 2, 7, _, 7],
    [4, 11, 11, 2, _], [4, 11, 2, 11, _], [_, _, _, _, _], [1, 2, 3, 4, _], [12, 13, 1, 2, 3],
    [10, 11, 12, 13, 1], [1, 10, 11, 12, 13], [13, 1, 11, 10, 12], [1, 1, 1, 13, 13],
    [13, 13, 13, 1, 1], [1, 13, 1, 13, 1], [7, 7, 7, 7, 2], [1, 1, 1, 1, 5], [1, 5, 1, 1, 1],
    [5, 5, _, _, _], [5, 5, 6, 6, _], [5, 5, 5, _, 2], [3, 3, 3, 3, 3], [2, 2, 2, 2, 2],
    [6, 6, 6, 6, 6], [_, 8, _, 8, _], [8, 8, 8, 8, 8], [2, 3, 4, 5, 6], [6, 5, 4, 3, 2],
    [2, 4, 3, 5, 6], [4, 4, 4, 4, _], [11, 11, _, 11, 11], [5, 5, 5, 5, 6], [6, 5, 5, 5, 5],
]  # fmt: skip


def _board(rng: random.Random, values: list[int], filled: int) -> list[int | None]:
    cells: list[int | None] = [None] * 25
    for cell, value in zip(rng.sample(range(25), filled), values, strict=False):
        cells[cell] = value
    return cells


def _dealt_values(rng: random.Random, table: str, count: int) -> list[int]:
    """Values as a game would see them: drawn from a shuffled deck, a joker
    becoming a random value (which is how five of a kind appears)."""
    cards = shuffle(build_deck(table), rng)[:count]
    return [rng.randint(1, 13) if card == JOKER else card for card in cards]


def _boards(rng: random.Random, table: str) -> list[list[int | None]]:
    boards = []
    for _ in range(FULL_BOARDS):
        boards.append(_board(rng, _dealt_values(rng, table, 25), 25))
    for _ in range(PARTIAL_BOARDS):
        boards.append(_board(rng, _dealt_values(rng, table, 25), rng.randint(0, 24)))
    for _ in range(NARROW_BOARDS):
        # Few distinct values, so straights, full houses and fours are common.
        low = rng.randint(1, 9)
        values = [rng.randint(low, low + 4) for _ in range(25)]
        boards.append(_board(rng, values, rng.choice((25, 25, 20, 15))))
    for _ in range(JOKER_BOARDS):
        # A joker-made five of a kind in a random line of an otherwise dealt board.
        cells = _board(rng, _dealt_values(rng, table, 25), rng.choice((25, 18)))
        value = rng.randint(1, 13)
        for cell in LINES[rng.randrange(len(LINES))]:
            cells[cell] = value
        boards.append(cells)
    return boards


def _lines(rng: random.Random) -> list[list[int | None]]:
    lines = [list(line) for line in HAND_LINES]
    for _ in range(RANDOM_LINES):
        low = rng.randint(1, 13)
        high = min(13, low + rng.choice((2, 4, 12)))
        lines.append([None if rng.random() < 0.15 else rng.randint(low, high) for _ in range(5)])
    return lines


def _game_script(rng: random.Random, table: str, mode: str) -> dict[str, Any]:
    """A random game played action by action, with some illegal actions and, in
    hard mode, pauses long enough to forfeit cards; every step's events or error
    code is recorded so the JS state machine can replay and compare it."""
    seed = rng.getrandbits(64)
    seconds = rng.choice((3, 5, 10)) if mode == HARD else None
    start = now = 1_800_000_000.0 + rng.randint(0, 10**6)
    game = PokerGame.new(
        table=table, mode=mode, seconds_per_card=seconds, deck=seeded_deck(seed, table), now=now
    )
    steps: list[dict[str, Any]] = []
    while not game.over and len(steps) < 80:
        pauses = (0.5, 1.0, 2.0, 2.5) if mode == EASY else (1.0, 2.5, 4.0, 7.5)
        now += rng.choice(pauses)
        free = [cell for cell, value in enumerate(game.cells) if value is None]
        taken = [cell for cell, value in enumerate(game.cells) if value is not None]
        roll = rng.random()
        if roll < 0.06 and taken:
            action: dict[str, Any] = {"type": "place", "cell": rng.choice(taken)}
        elif roll < 0.09:
            action = {"type": "use_joker", "cell": rng.choice(free), "value": rng.choice((0, 14))}
        elif roll < 0.12:
            action = {"type": "advance"}
        elif game.kept_jokers and roll < 0.3:
            value = rng.randint(1, 13)
            action = {"type": "place_kept_joker", "cell": rng.choice(free), "value": value}
        elif game.hand == JOKER:
            if rng.random() < 0.5:
                action = {"type": "keep_joker"}
            else:
                value = rng.randint(1, 13)
                action = {"type": "use_joker", "cell": rng.choice(free), "value": value}
        else:
            action = {"type": "place", "cell": rng.choice(free)}
        step: dict[str, Any] = {"action": action, "now": now}
        try:
            if action["type"] == "advance":
                step["events"] = game.advance(now)
            else:
                step["events"] = game.apply(action, now)
        except IllegalMove as error:
            step["error"] = error.code
        steps.append(step)
    return {
        "table": table,
        "mode": mode,
        "seconds": seconds,
        "seed": str(seed),
        "start": start,
        "steps": steps,
        "view": game.player_view(),
        "state": game.to_dict(),
    }


def build() -> dict[str, Any]:
    rng = random.Random(SEED)
    lines = _lines(rng)
    vectors: dict[str, Any] = {
        "about": (
            "Generated by `python -m games.poker.vectors` from the Python poker "
            "engine; do not edit. Cells are row-major, null = empty; lines are in the "
            "canonical order row0..row4, col0..col4, main diagonal, anti-diagonal."
        ),
        "seed": SEED,
        "lines": [],
        "boards": [],
        "previews": [],
        "decks": [],
        "daily": [],
        "games": [],
    }
    for table in TABLE_NAMES:
        for values in lines:
            vectors["lines"].append(
                {
                    "table": table,
                    "values": values,
                    "score": score_line(values, table),
                    "diagonal": score_line(values, table, diagonal=True),
                }
            )
        boards = _boards(rng, table)
        for cells in boards:
            score = score_board(cells, table)
            vectors["boards"].append(
                {"table": table, "cells": cells, "lines": score.lines, "total": score.total}
            )
        partial = [cells for cells in boards if None in cells]
        for cells in rng.sample(partial, PREVIEWS):
            value = rng.randint(1, 13)
            gains = preview(cells, value, table)
            vectors["previews"].append(
                {
                    "table": table,
                    "cells": cells,
                    "value": value,
                    "gains": {str(cell): gain for cell, gain in gains.items()},
                }
            )
        for seed in DECK_SEEDS:
            vectors["decks"].append(
                {"table": table, "seed": str(seed), "deck": seeded_deck(seed, table)}
            )
    for day, secret in DAILY:
        vectors["daily"].append(
            {
                "date": day,
                "secret": secret,
                "seed": str(daily_seed(day, secret)),
                "deck": daily_deck(day, secret),
            }
        )
    game_rng = random.Random(SEED + 1)
    for index in range(GAME_SCRIPTS):
        table = TABLE_NAMES[index % len(TABLE_NAMES)]
        mode = HARD if index % 2 else EASY
        vectors["games"].append(_game_script(game_rng, table, mode))
    return vectors


def render_vectors() -> str:
    """One vector per line: small diffs, and still a few hundred kB."""
    vectors = build()
    parts = ["{"]
    keys = list(vectors)
    for position, key in enumerate(keys):
        comma = "," if position < len(keys) - 1 else ""
        value = vectors[key]
        if isinstance(value, list):
            items = ",\n".join(json.dumps(item, separators=(",", ":")) for item in value)
            parts.append(f"{json.dumps(key)}: [\n{items}\n]{comma}")
        else:
            parts.append(f"{json.dumps(key)}: {json.dumps(value)}{comma}")
    parts.append("}")
    return "\n".join(parts) + "\n"


def render_js_tables() -> str:
    data = json.loads(TABLES_FILE.read_text(encoding="utf-8"))
    return (
        "// Generated by `python -m games.poker.vectors` from\n"
        "// games/poker/rules/tables.json (the single source); do not edit.\n"
        "// A copy rather than a JSON import so the modules load in any browser\n"
        "// without import attributes; both test suites fail when it is stale.\n"
        f"export const TABLES_DATA = {json.dumps(data, indent=2)};\n"
        "\n"
        "export default TABLES_DATA;\n"
    )


def main() -> None:
    VECTORS_FILE.write_text(render_vectors(), encoding="utf-8")
    JS_TABLES_FILE.write_text(render_js_tables(), encoding="utf-8")
    print(f"wrote {VECTORS_FILE.relative_to(ROOT)} and {JS_TABLES_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
