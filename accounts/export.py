"""The export of a player's data: everything stored, generated from the models.

``export_profile`` walks every relation that points at ``PlayerProfile`` --
foreign keys, one-to-ones and many-to-manys of every installed app, hidden
ones (``related_name="+"``: the browser's selected profile, room events by
actor, processed messages) included -- so a relation added later is exported
without anyone remembering to (``tests/privacy/test_export.py`` compares this
walk with an independent scan of all models). A few relations get a friendlier
shape of their own (``SHAPED``); every other one lands in ``other`` under
``"<app.Model>.<field>"``.

Left out, on purpose (docs/privacy.md): secrets that would spoil games or
identity (``SECRET_FIELDS``: undealt decks and game states, seeds, token and
password hashes) and what a step told other players privately
(``RoomEvent.private`` keeps only the player's own entry).
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from typing import Any

from django.db import models
from django.db.models.fields.reverse_related import ForeignObjectRel

from accounts import privacy
from accounts.models import PlayerProfile

# Relations exported in their own shape: relation key -> top-level key (the apps'
# privacy hooks add theirs, ``shaped()``).
SHAPED = {
    "accounts.PublicationConsent.player": "consents",
}
SECRET_FIELDS = {"password", "token_hash", "state", "rng_seed", "seed"}
# JSON fields keyed by player id, of which the player gets only their own entry.
PER_PLAYER_FIELDS = {"private"}
# The field that dates a row of a shaped section, for the CSV's time column.
TIME_KEYS = ("time", "finished_at", "joined_at")
# Cells starting like a formula are run by spreadsheets (as classrooms/reports.py).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def relation_key(field: models.Field[Any, Any]) -> str:
    return f"{field.model._meta.label}.{field.name}"


def relations_to(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """Every field of every model that points at ``model`` (the forward side)."""
    found: list[models.Field[Any, Any]] = []
    for rel in model._meta.get_fields(include_hidden=True):
        if not isinstance(rel, ForeignObjectRel):  # the reverse side of a relation
            continue
        field = rel.remote_field  # the ForeignKey / OneToOne / ManyToMany on the other model
        if field.model._meta.auto_created:  # a many-to-many's through table: its M2M covers it
            continue
        found.append(field)
    return sorted(found, key=relation_key)


def profile_relations() -> list[models.Field[Any, Any]]:
    """Every field of every model that points at PlayerProfile (the forward side)."""
    return relations_to(PlayerProfile)


def shaped() -> dict[str, str]:
    """Every relation exported in a shape of its own, with its top-level key."""
    found = dict(SHAPED)
    for hooks in privacy.registered():
        found.update(hooks.exported_relations)
    return found


def plain(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (str, int, float, bool, list, dict)) or value is None:
        return value
    return str(value)


def row(instance: models.Model, *, player_id: int, skip: str | None = None) -> dict[str, Any]:
    """A model row as JSON values, without secrets; of a per-player field only the player's entry."""
    data = {}
    for field in instance._meta.concrete_fields:
        if field.name in SECRET_FIELDS or field.name == skip:
            continue
        value = getattr(instance, field.attname)
        if field.name in PER_PLAYER_FIELDS and isinstance(value, dict):
            value = {k: v for k, v in value.items() if str(k) == str(player_id)}
        data[field.attname] = plain(value)
    return data


def _rows(field: Any, player: PlayerProfile) -> list[dict[str, Any]]:
    model = field.model
    rows = model._default_manager.filter(**{field.name: player}).order_by("pk")
    skip = None if field.many_to_many else field.name
    return [row(instance, player_id=player.pk, skip=skip) for instance in rows]


def export_profile(player: PlayerProfile) -> dict:
    """Everything stored about the profile, for the JSON/CSV download."""
    other = {}
    skipped = shaped()
    for field in profile_relations():
        key = relation_key(field)
        if key in skipped:
            continue
        rows = _rows(field, player)
        if rows:
            other[key] = rows
    data = {
        "profile": row(player, player_id=player.pk)
        | {"profile_code": player.code, "browsers": player.browsers.count()},
        "consents": [
            {
                "granted": answer.granted,
                "old_enough_or_parent_agreed": getattr(answer, "age_confirmed", None),
                "text_version": answer.text_version,
                "language": answer.language,
                "text": answer.text,
                "time": answer.created_at.isoformat(),
            }
            for answer in player.consents.order_by("created_at", "pk")
        ],
        "other": other,
    }
    for hooks in privacy.registered():
        if hooks.export_player is None:
            continue
        for section, part in hooks.export_player(player).items():
            if section == "other" and isinstance(part, dict):
                other.update(part)
            else:
                data[section] = part
    return data


def csv_cell(value: Any) -> str | int | float:
    """One CSV cell: numbers as numbers, JSON as JSON, formula-like text defused."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return value
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def to_csv(data: dict) -> str:
    """The export as rows: section, time, field, value (UTF-8 with a byte-order mark,
    so spreadsheet programs read č, ř, ľ; escaped like the teacher CSVs)."""
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer)
    writer.writerow(["section", "time", "field", "value"])

    def write(section: str, time: Any, key: str, value: Any) -> None:
        writer.writerow([csv_cell(section), csv_cell(time), csv_cell(key), csv_cell(value)])

    profile = data["profile"]
    for key, value in profile.items():
        write("profile", profile.get("created_at", ""), key, value)
    for section, rows in data.items():
        if section in ("profile", "other") or not isinstance(rows, list):
            continue
        for index, entry in enumerate(rows):
            time_key = next((key for key in TIME_KEYS if key in entry), None)
            for key, value in entry.items():
                if key != time_key:
                    write(f"{section}[{index}]", entry.get(time_key, ""), key, value)
    for section, rows in data.get("other", {}).items():
        for index, entry in enumerate(rows):
            for key, value in entry.items():
                write(f"{section}[{index}]", "", key, value)
    return buffer.getvalue()


def export_profile_csv(player: PlayerProfile) -> str:
    return to_csv(export_profile(player))
