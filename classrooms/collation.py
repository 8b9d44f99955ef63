"""Roster names in the order a Czech or Slovak teacher reads them.

Czech and Slovak put Č after C, Ch after H (one letter), Ř after R, Š after S and
Ž after Z, and sort á, é, í... with their base letters. Code-point order (what
PostgreSQL's "C" collation and Python's ``sorted`` give) puts the háček letters
after Z and Ch among the C's. The database cannot help everywhere: the
development and test PostgreSQL is built without ICU. So lists of roster names
are sorted here with ICU's collator (PyICU, docs/decisions.md), in the page's
language: Slovak for Slovak pages, Czech otherwise (English pages list the
same Czech and Slovak names).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

import icu
from django.utils.translation import get_language

T = TypeVar("T")

_collators: dict[str, icu.Collator] = {}
_lock = threading.Lock()


def _collator(language: str) -> icu.Collator:
    with _lock:
        collator = _collators.get(language)
        if collator is None:
            collator = icu.Collator.createInstance(icu.Locale(language))
            _collators[language] = collator
        return collator


def _language(language: str | None) -> str:
    code = (language or get_language() or "cs").lower()
    return "sk" if code.startswith("sk") else "cs"


def name_key(name: str, language: str | None = None) -> bytes:
    """A sort key for ``name`` (compare keys, never show them)."""
    collator = _collator(_language(language))
    with _lock:  # one collator object is shared between threads
        return collator.getSortKey(name or "")


def sort_by_name(
    items: Iterable[T], name: Callable[[T], str], language: str | None = None
) -> list[T]:
    """``items`` sorted by ``name(item)`` in Czech (or Slovak) alphabetical order;
    equal names keep their order."""
    language = _language(language)
    return sorted(items, key=lambda item: name_key(name(item), language))


def split_name(roster_name: str) -> tuple[str, str]:
    """(surname, first name) of a roster name, written first name first ("Tereza
    Nováková"): the last word is the surname (a one-word name is a surname)."""
    parts = (roster_name or "").split()
    if len(parts) < 2:
        return " ".join(parts), ""
    return parts[-1], " ".join(parts[:-1])


def sort_by_surname(
    items: Iterable[T], name: Callable[[T], str], language: str | None = None
) -> list[T]:
    """``items`` in the order of a school's class list: by surname, then first
    name, in Czech (or Slovak) alphabetical order (Ch after H; Č, Ř, Š, Ž after
    C, R, S, Z); equal names keep their order."""
    language = _language(language)

    def key(item: T) -> tuple[bytes, bytes]:
        surname, first = split_name(name(item))
        return name_key(surname, language), name_key(first, language)

    return sorted(items, key=key)


def external_id(source_id: str) -> str:
    """A roster entry's identifier in the school's system, as that system writes
    it: the OneRoster ``sourcedId`` as imported, the LMS's user id without the
    ``lti:`` prefix Matika keeps it under (``lti.services.source_id``)."""
    source_id = source_id or ""
    return source_id[4:] if source_id.startswith("lti:") else source_id
