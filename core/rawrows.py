"""Model instances from hand-written SQL, for the few statements every request runs.

Building a query with the ORM compiles it again on every call (filters,
select list, joins, quoting): for the identity lookup and the homework
placement's row lock that compilation cost more CPU than PostgreSQL spent on
the statement (bench/RESULTS-homework.md, bench/RESULTS-placement-cpu.md).
Here the select list of a model is written once per process from its
``_meta`` (so a new column is read without touching the SQL), and a row
becomes an instance the way the ORM makes one: the fields' database
converters, then ``Model.from_db`` (``_state.adding`` False, ``_state.db`` set).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from django.db import connections
from django.db.models import Model

M = TypeVar("M", bound=Model)

Converter = Callable[[Any, Any, Any], Any]


_COLUMNS: dict[type[Model], tuple[tuple[str, ...], tuple[str, ...]]] = {}
_CONVERTERS: dict[tuple[type[Model], str], tuple[tuple[Any, list[Converter]], ...]] = {}


def _columns(model: type[Model]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(column names, attribute names) of the model's concrete fields, in order."""
    if model not in _COLUMNS:
        fields = model._meta.concrete_fields
        # a concrete field always has its column (None only for a non-concrete one)
        columns = tuple(cast(str, f.column) for f in fields)
        _COLUMNS[model] = columns, tuple(f.attname for f in fields)
    return _COLUMNS[model]


def select_list(model: type[Model], alias: str) -> str:
    """``alias."col1", alias."col2", ...`` for every concrete field of ``model``."""
    quote = connections["default"].ops.quote_name
    return ", ".join(f"{alias}.{quote(column)}" for column in _columns(model)[0])


def width(model: type[Model]) -> int:
    return len(_columns(model)[0])


def _converters(model: type[Model], using: str) -> tuple[tuple[Any, list[Converter]], ...]:
    if (model, using) not in _CONVERTERS:
        db = connections[using]
        found = []
        for field in model._meta.concrete_fields:
            column = field.get_col(model._meta.db_table)
            found.append((column, db.ops.get_db_converters(column) + column.get_db_converters(db)))
        _CONVERTERS[model, using] = tuple(found)
    return _CONVERTERS[model, using]


def instance(model: type[M], values: Sequence[Any], using: str = "default") -> M:
    """An instance of ``model`` from its columns in ``select_list`` order."""
    db = connections[using]
    row = list(values)
    for index, (column, converters) in enumerate(_converters(model, using)):
        for convert in converters:
            row[index] = convert(row[index], column, db)
    made: M = model.from_db(using, list(_columns(model)[1]), row)
    return made
