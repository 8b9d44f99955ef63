"""The room protocol's JSON Schema and JS typedefs, generated from its pydantic models.

    python -m tools.protocol_schema          # rewrite both files
    python -m tools.protocol_schema --check  # exit 1 when either is out of date

The models are the one source (``games/rooms/schemas.py`` and each game's
``events.py``, attached to its room adapters as ``messages``, ``events`` and
``view_model``). From them come

- ``docs/protocol.schema.json``: a JSON Schema (2020-12) whose ``$defs`` hold every
  message, event, frame and view, each family as a discriminated union on ``type``;
  ``x-rooms`` says which definitions each game and mode uses;
- ``static/js/kit/protocol.js``: the same definitions as JSDoc typedefs, for the
  game JS to import (``@typedef {import("../kit/protocol.js").Frame} Frame``) and
  ``tsc --checkJs`` to check.

Runtime definitions keep their names (``Frame``, ``RuntimeMessage``, ``SeatPublic``);
a game's are prefixed with its name (``<Game>View``, ``<Game>GroupMessage``).
``tests/rooms/test_protocol_schema.py`` fails when either file is stale.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, Field, TypeAdapter

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "docs" / "protocol.schema.json"
TYPEDEFS = ROOT / "static" / "js" / "kit" / "protocol.js"
COMMAND = "python -m tools.protocol_schema"

Names = dict[str, Any]  # definition name -> a type pydantic can describe


def _union(models: dict[str, type[BaseModel]]) -> Any:
    """A discriminated union of a ``{type: model}`` table (one model: the model)."""
    members = tuple(models.values())
    if len(members) == 1:
        return members[0]
    return Annotated[Union[members], Field(discriminator="type")]  # noqa: UP007


def _pascal(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in text.replace(".", "_").split("_"))


def namespaces() -> list[tuple[str, Names, list[dict[str, Any]]]]:
    """``(prefix, {name: type}, rooms)``: the runtime's, then one per game.

    A game whose modes share their tables (a table and a solo game) names its
    unions ``Message``, ``Event`` and ``View``; one whose modes differ (a group
    game and a duel) names them per mode (``GroupMessage``, ``DuelEvent``).
    """
    from games.rooms import protocol_doc, schemas

    found: list[tuple[str, Names, list[dict[str, Any]]]] = [
        (
            "",
            {
                "RuntimeMessage": schemas.RuntimeMessage,
                "RuntimeEvent": schemas.RuntimeEvent,
                "Frame": schemas.Frame,
            },
            [],
        )
    ]
    games: dict[str, list[tuple[str, Any]]] = {}
    for game, mode, adapter in protocol_doc.project_adapters():
        games.setdefault(game, []).append((mode, adapter))
    for game in sorted(games):
        sets: dict[tuple[int, int, int], list[tuple[str, Any]]] = {}
        for mode, adapter in sorted(games[game]):
            key = (id(adapter.messages), id(adapter.events), id(adapter.view_model))
            sets.setdefault(key, []).append((mode, adapter))
        names: Names = {}
        rooms = []
        for modes in sets.values():
            adapter = modes[0][1]
            label = "" if len(sets) == 1 else _pascal(modes[0][0])
            entry: dict[str, Any] = {"game": game, "modes": [mode for mode, _a in modes]}
            for part, table in (("Message", adapter.messages), ("Event", adapter.events)):
                if table:
                    names[f"{label}{part}"] = _union(table)
                    entry[part.lower()] = f"{label}{part}"
            if adapter.view_model is not None:
                names[adapter.view_model.__name__] = adapter.view_model
                entry["view"] = adapter.view_model.__name__
            rooms.append(entry)
        found.append((_pascal(game), names, rooms))
    return found


def _prefixed(prefix: str, name: str) -> str:
    return name if name.startswith(prefix) else f"{prefix}{name}"


def _rename_refs(node: Any, names: dict[str, str]) -> Any:
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "title":
                continue  # pydantic's titles repeat the names: noise in the typedefs
            out[key] = _rename_refs(value, names)
        if isinstance(out.get("$ref"), str):
            out["$ref"] = "#/$defs/" + names[out["$ref"].rsplit("/", 1)[1]]
        mapping = out.get("discriminator", {}).get("mapping")
        if isinstance(mapping, dict):
            out["discriminator"]["mapping"] = {
                tag: "#/$defs/" + names[ref.rsplit("/", 1)[1]] for tag, ref in mapping.items()
            }
        return out
    if isinstance(node, list):
        return [_rename_refs(item, names) for item in node]
    return node


def schema() -> dict[str, Any]:
    """The whole JSON Schema document."""
    defs: dict[str, Any] = {}
    rooms: list[dict[str, Any]] = []
    for prefix, names, ns_rooms in namespaces():
        inputs: list[tuple[str, Literal["validation"], TypeAdapter[Any]]] = [
            (name, "validation", TypeAdapter(kind)) for name, kind in names.items()
        ]
        tops, found = TypeAdapter.json_schemas(inputs)
        nested = found.get("$defs", {})
        renamed = {name: _prefixed(prefix, name) for name in [*nested, *names]}
        for name, definition in nested.items():
            _add(defs, renamed[name], _rename_refs(definition, renamed))
        for (name, _mode), top in tops.items():
            if set(top) == {"$ref"}:  # a model: already among the nested definitions
                continue
            described = {"description": _union_doc(name), **top}
            _add(defs, renamed[name], _rename_refs(described, renamed))
        for room in ns_rooms:
            rooms.append(
                {
                    key: (
                        _prefixed(prefix, value) if key in ("message", "event", "view") else value
                    )
                    for key, value in room.items()
                }
            )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Matika room protocol",
        "description": (
            f"Generated by `{COMMAND}` from the pydantic models; do not edit."
            " Client messages carry `id` (and optionally `room`) besides their fields;"
            " the server sends `Frame`s, whose `events` hold runtime and game events."
        ),
        "x-rooms": rooms,
        "$defs": dict(sorted(defs.items())),
    }


def _union_doc(name: str) -> str:
    if name.endswith("Message"):
        return "A client message, told apart by `type`."
    if name.endswith("Event"):
        return "An event inside a frame's `events`, told apart by `type`."
    return "A frame the server sends, told apart by `type`."


def _add(defs: dict[str, Any], name: str, definition: Any) -> None:
    if name in defs and defs[name] != definition:
        raise ValueError(f"two different protocol definitions are both named {name}")
    defs[name] = definition


# --- JSDoc -----------------------------------------------------------------------------


def js_type(node: dict[str, Any]) -> str:
    """A JSON Schema node as a TypeScript type in JSDoc syntax."""
    if "$ref" in node:
        return str(node["$ref"]).rsplit("/", 1)[1]
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return " | ".join(json.dumps(value) for value in node["enum"])
    for key in ("oneOf", "anyOf"):
        if key in node:
            parts = [js_type(member) for member in node[key]]
            return "(" + " | ".join(parts) + ")" if len(parts) > 1 else parts[0]
    kind = node.get("type")
    if kind in ("integer", "number"):
        return "number"
    if kind in ("string", "boolean", "null"):
        return str(kind)
    if kind == "array":
        return f"Array<{js_type(node.get('items', {}))}>"
    if kind == "object":
        if "properties" in node:
            required = set(node.get("required", []))
            fields = [
                f"{name}{'' if name in required else '?'}: {js_type(value)}"
                for name, value in node["properties"].items()
            ]
            return "{" + ", ".join(fields) + "}"
        extra = node.get("additionalProperties", True)
        value = "any" if extra is True or not extra else js_type(extra)
        return f"Object<string, {value}>"
    return "any"


def _comment(text: str) -> str:
    return " ".join(text.split()).replace("*/", "* /")


def typedefs(document: dict[str, Any]) -> str:
    lines = [
        "// @ts-check",
        "// The room protocol's types (docs/protocol.md), generated from the pydantic",
        f"// models by `{COMMAND}`: do not edit. Import them in JSDoc:",
        "//   /** @typedef {import(<this file's URL, relative>).Frame} Frame */",
        "// (written without quotes here: collectstatic rewrites a quoted dynamic import,",
        "// and one of this file naming itself loops its post-processing).",
        "// docs/protocol.schema.json is the same as a JSON Schema.",
        "",
    ]
    for name, node in document["$defs"].items():
        lines.append("/**")
        if node.get("description"):
            lines.append(f" * {_comment(node['description'])}")
        if node.get("type") == "object" and "properties" in node:
            required = set(node.get("required", []))
            lines.append(f" * @typedef {{object}} {name}")
            for field, value in node["properties"].items():
                label = field if field in required else f"[{field}]"
                text = f" * @property {{{js_type(value)}}} {label}"
                if value.get("description"):
                    text += f" {_comment(value['description'])}"
                lines.append(text)
        else:
            lines.append(f" * @typedef {{{js_type(node)}}} {name}")
        lines.append(" */")
        lines.append("")
    lines.append("export {};")
    return "\n".join(lines) + "\n"


def render() -> tuple[str, str]:
    """The JSON Schema file's text and protocol.js's text."""
    document = schema()
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n", typedefs(document)


def main(argv: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import django

    django.setup()
    outputs = dict(zip((SCHEMA, TYPEDEFS), render(), strict=True))
    if "--check" in argv:
        stale = [
            path for path, text in outputs.items() if not path.exists() or path.read_text() != text
        ]
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run {COMMAND}", file=sys.stderr)
        return 1 if stale else 0
    for path, text in outputs.items():
        path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
