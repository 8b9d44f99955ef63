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
