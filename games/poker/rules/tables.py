"""The three scoring tables, loaded from ``tables.json``.

The JSON file is the single source of truth for combinations and points: the
engine compiles it (``scoring.py``), the JavaScript twin carries a copy that the
tests compare with it byte for byte, and the rules page can render it directly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

TABLES_FILE = Path(__file__).with_name("tables.json")


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a table: a named combination and what it is worth."""

    combination: str
    points: int
    label: str


@dataclass(frozen=True, slots=True)
class Table:
    """One scoring table together with the deck it is played with."""

    name: str
    label: str
    rows: tuple[Row, ...]
    diagonal_bonus: int
    values: int
    copies: int
    jokers: int

    @property
    def deck_size(self) -> int:
        return self.values * self.copies + self.jokers


def _load() -> tuple[str, MappingProxyType[str, Table]]:
    data = json.loads(TABLES_FILE.read_text(encoding="utf-8"))
    tables = {
        name: Table(
            name=name,
            label=spec["label"],
            rows=tuple(Row(**row) for row in spec["rows"]),
            diagonal_bonus=spec["diagonal_bonus"],
            values=spec["deck"]["values"],
            copies=spec["deck"]["copies"],
            jokers=spec["deck"]["jokers"],
        )
        for name, spec in data["tables"].items()
    }
    return data["default"], MappingProxyType(tables)


DEFAULT_TABLE, TABLES = _load()
TABLE_NAMES: tuple[str, ...] = tuple(TABLES)


def get_table(name: str) -> Table:
    """Return the table called ``name``; unknown names are a caller error."""
    try:
        return TABLES[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown scoring table {name!r}; expected one of {', '.join(TABLE_NAMES)}"
        ) from None
