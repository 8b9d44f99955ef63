"""The card catalogue of Matematici, loaded from ``catalogue.json``.

The JSON file is the single source of truth for every card (names, fields, numbers,
effects), the field and kind names, and the starter decks; the engine, the robot, the
UI and the docs all read it from here. Everything is frozen so the module-level
catalogue is not mutable shared state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

KINDS = ("mathematician", "theorem", "event", "tool", "definition")
LANGUAGES = ("cs", "sk", "en")


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({key: _freeze(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(item) for item in value)
    return value


def thaw(value: Any) -> Any:
    """Plain dicts and lists again, e.g. to put an effect into a JSON state."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [thaw(item) for item in value]
    return value


@dataclass(frozen=True)
class Card:
    id: str
    kind: str
    names: Mapping[str, str]
    fields: tuple[str, ...] = ()
    difficulty: int | None = None
    patience: int | None = None
    ambition: int | None = None
    effects: tuple[Mapping[str, Any], ...] = ()

    def name(self, language: str = "cs") -> str:
        return self.names[language]

    def effects_for(self, trigger: str) -> tuple[Mapping[str, Any], ...]:
        return tuple(effect for effect in self.effects if effect["trigger"] == trigger)

    def ops(self, trigger: str) -> list[dict[str, Any]]:
        """The immediate operations of a trigger, as plain dicts, in printed order."""
        return [thaw(op) for effect in self.effects_for(trigger) for op in effect["ops"]]

    def modifiers(self, trigger: str) -> tuple[Mapping[str, Any], ...]:
        return tuple(mod for effect in self.effects_for(trigger) for mod in effect["modifiers"])

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "kind": self.kind, "names": dict(self.names)}
        for key in ("fields", "difficulty", "patience", "ambition", "effects"):
            value = getattr(self, key)
            if value not in (None, ()):
                data[key] = thaw(value)
        return data


@dataclass(frozen=True)
class StarterDeck:
    id: str
    names: Mapping[str, str]
    mathematician: str
    deck: tuple[str, ...]

    def player(self) -> dict[str, Any]:
        """The ``players`` entry ``new_game`` expects."""
        return {"mathematician": self.mathematician, "deck": list(self.deck)}


def _load() -> tuple[Mapping[str, Card], Mapping[str, Any], Mapping[str, Any], tuple[Any, ...]]:
    raw = json.loads((Path(__file__).with_name("catalogue.json")).read_text(encoding="utf-8"))
    cards = {}
    for entry in raw["cards"]:
        frozen = _freeze(entry)
        cards[entry["id"]] = Card(
            id=frozen["id"],
            kind=frozen["kind"],
            names=frozen["names"],
            fields=frozen.get("fields", ()),
            difficulty=frozen.get("difficulty"),
            patience=frozen.get("patience"),
            ambition=frozen.get("ambition"),
            effects=frozen.get("effects", ()),
        )
    decks = tuple(
        StarterDeck(d["id"], MappingProxyType(d["names"]), d["mathematician"], tuple(d["deck"]))
        for d in raw["starter_decks"]
    )
    return MappingProxyType(cards), _freeze(raw["fields"]), _freeze(raw["kinds"]), decks


CATALOGUE, FIELDS, KIND_NAMES, STARTER_DECKS = _load()
