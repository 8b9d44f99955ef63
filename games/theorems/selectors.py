"""Reads for Matematici: a player's saved decks and the statistics of a deck."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.db.models import QuerySet

from accounts.models import PlayerProfile

from .models import SavedDeck
from .rules import CATALOGUE, FIELDS, Card

KINDS_IN_DECKS = ("theorem", "event", "tool", "definition")


def decks_for(player: PlayerProfile | None) -> QuerySet[SavedDeck]:
    if player is None:
        return SavedDeck.objects.none()
    return SavedDeck.objects.filter(player=player)


def deck_for(player: PlayerProfile | None, deck_id: int) -> SavedDeck | None:
    return decks_for(player).filter(pk=deck_id).first()


def deck_choices(player: PlayerProfile | None) -> list[dict[str, Any]]:
    """Saved decks as the table's deck picker needs them (only the player's own)."""
    return [
        {"id": d.pk, "name": d.name, "mathematician": d.mathematician, "cards": list(d.cards)}
        for d in decks_for(player)
    ]


def _difficulty(card: Card) -> int:
    """A theorem card's printed difficulty (every theorem has one; other kinds none)."""
    assert card.difficulty is not None, card.id
    return card.difficulty


def deck_statistics(mathematician: str | None, cards: list[str]) -> dict[str, Any]:
    """Counts by kind and field and the difficulty curve of a (possibly unfinished) deck.

    ``difficulty_curve`` counts theorems by printed difficulty; ``effective_curve``
    by the difficulty for the chosen mathematician (one easier when a field matches,
    never below 1), which is what the player will actually need to prove.
    """
    known = [CATALOGUE[c] for c in cards if c in CATALOGUE]
    mathematician_card = CATALOGUE.get(mathematician or "")
    own_fields = (
        set(mathematician_card.fields)
        if mathematician_card and mathematician_card.kind == "mathematician"
        else set()
    )
    kinds = Counter(card.kind for card in known)
    fields = Counter(field for card in known if card.kind == "theorem" for field in card.fields)
    theorems = [card for card in known if card.kind == "theorem"]
    printed = Counter(_difficulty(card) for card in theorems)
    effective = Counter(
        max(1, _difficulty(card) - (1 if set(card.fields) & own_fields else 0)) for card in theorems
    )
    top = max([*printed, 1])
    return {
        "count": len(cards),
        "kinds": {kind: kinds.get(kind, 0) for kind in KINDS_IN_DECKS},
        "fields": {field: fields.get(field, 0) for field in FIELDS},
        "difficulty_curve": [
            {"difficulty": d, "count": printed.get(d, 0)} for d in range(1, top + 1)
        ],
        "effective_curve": [
            {"difficulty": d, "count": effective.get(d, 0)} for d in range(1, top + 1)
        ],
        "theorems": len(theorems),
        "average_difficulty": (
            round(sum(_difficulty(card) for card in theorems) / len(theorems), 2)
            if theorems
            else None
        ),
    }
