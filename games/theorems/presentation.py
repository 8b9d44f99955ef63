"""Cards in words: names in the page language and effect texts built from the card data.

The catalogue holds effects as data (``catalogue.json``); this module turns that
data into short keyword sentences ("■ +1 Cards, −1 Boredom"), so the gallery,
the deck builder and the table read one source and no card text is written twice.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .rules import CATALOGUE, FIELDS, KIND_NAMES, STARTER_DECKS, Card

LANGUAGES = ("cs", "sk", "en")
KIND_ORDER = ("mathematician", "theorem", "event", "tool", "definition")

# The case forms a sentence needs ("dokázal(a) Cevovu větu"): presentation data
# kept in the catalogue beside each card's names, which the rules never read.
_CATALOGUE_FILE = Path(__file__).with_name("rules") / "catalogue.json"
CASES: dict[str, dict[str, dict[str, str]]] = {
    entry["id"]: entry.get("cases", {})
    for entry in json.loads(_CATALOGUE_FILE.read_text(encoding="utf-8"))["cards"]
}


def case_form(card: Card, case: str, lang: str | None = None) -> str:
    """The card's name in a grammatical case; the plain name where it does not change."""
    lang = lang or language()
    return CASES.get(card.id, {}).get(case, {}).get(lang) or card.name(lang)


def language() -> str:
    """The active language if the catalogue has names in it, else Czech."""
    lang = (get_language() or "cs").split("-")[0]
    return lang if lang in LANGUAGES else "cs"


def signed(amount: int) -> str:
    return f"+{amount}" if amount >= 0 else f"−{-amount}"


def field_name(field: str, lang: str | None = None) -> str:
    return FIELDS[field][lang or language()]


def _op_text(op: Mapping[str, Any]) -> str:
    kind = op["op"]
    amount = op.get("amount", 0)
    n = signed(amount)
    target = op.get("target", "self")
    if kind == "draw":  # "+1 karta", "+3 karty", "+5 karet": counted through plural forms
        return ngettext("%(n)s Card", "%(n)s Cards", abs(amount)) % {"n": n}
    if kind == "boredom":
        if target == "opponent":
            return _("an opponent %(n)s Boredom") % {"n": n}
        if target == "all_opponents":
            return _("all opponents %(n)s Boredom") % {"n": n}
        return _("%(n)s Boredom") % {"n": n}
    if kind == "actions":
        return ngettext("%(n)s Action", "%(n)s Actions", abs(amount)) % {"n": n}
    if kind == "patience":
        return _("%(n)s Patience") % {"n": n}
    if kind == "ambition":
        return _("%(n)s Ambition") % {"n": n}
    if kind == "progress":
        if target == "all_own_theorems":
            return _("all your theorems in play %(n)s Progress") % {"n": n}
        if op.get("field"):
            return _("one of your %(field)s theorems %(n)s Progress") % {
                "field": field_name(op["field"]),
                "n": n,
            }
        return _("one of your theorems %(n)s Progress") % {"n": n}
    if kind == "difficulty":
        if target == "opponent_theorem":
            return _("an opponent's theorem in play %(n)s Difficulty") % {"n": n}
        return _("one of your theorems %(n)s Difficulty") % {"n": n}
    if kind == "discard_from_hand":
        return _("discard a card from your hand")
    if kind == "steal":
        return _(
            "take a random card from an opponent's hand; an event is resolved as yours, "
            "any other card goes to your hand"
        )
    if kind == "repeat":
        return _("repeat the effect of the last other event you played this turn")
    if kind == "fetch":
        if op.get("from") == "discard_pile":
            return _("take a card from your discard pile into your hand")
        return _("take any card of your draw pile into your hand, then shuffle the draw pile")
    if kind == "free_reshuffle":
        return _("shuffle your discard pile into your draw pile (no Boredom, not a reshuffle)")
    return kind


def _modifier_text(modifier: Mapping[str, Any]) -> str:
    kind = modifier["modifier"]
    if kind == "difficulty":
        n = signed(modifier["amount"])
        if modifier.get("scope") == "field":
            return _("your %(field)s theorems %(n)s Difficulty") % {
                "field": field_name(modifier["field"]),
                "n": n,
            }
        if modifier.get("condition") == "opponent_has_more_proven":
            return _("%(n)s Difficulty while an opponent has more proven theorems than you") % {
                "n": n
            }
        if modifier.get("condition") == "own_tool_in_play":
            return _("%(n)s Difficulty while you have a tool in play") % {"n": n}
        return _("%(n)s Difficulty") % {"n": n}
    if kind == "ambition":
        return _("%(n)s Ambition") % {"n": signed(modifier["amount"])}
    if kind == "patience":
        return _("%(n)s Patience") % {"n": signed(modifier["amount"])}
    if kind == "opponent_hand_limit":
        return _("your opponents' hand limit is %(value)s") % {"value": modifier["value"]}
    if kind == "riemann_prove_rule":
        return _(
            "cannot be the target of the Prove action; whenever you use Prove on another "
            "theorem, this one also gets +1 Progress"
        )
    return kind


def card_text(card: Card) -> list[str]:
    """One line per effect of the card, in the active language."""
    lines = []
    for effect in card.effects:
        trigger = effect["trigger"]
        if trigger == "on_use":
            cost = ", ".join(_op_text(op) for op in effect["cost"])
            ops = ", ".join(_op_text(op) for op in effect["ops"])
            lines.append(
                _("Use: %(cost)s → %(effect)s") % {"cost": cost, "effect": ops}
                if cost
                else _("Use: %(effect)s") % {"effect": ops}
            )
            continue
        if "ops" in effect:
            text = ", ".join(_op_text(op) for op in effect["ops"])
        else:
            text = ", ".join(_modifier_text(mod) for mod in effect["modifiers"])
        if trigger == "on_play":
            lines.append(_("When played: %(effect)s") % {"effect": text})
        elif trigger == "proven":
            lines.append(_("■ When proven: %(effect)s") % {"effect": text})
        elif trigger == "while_proven":
            lines.append(_("■ While proven: %(effect)s") % {"effect": text})
        elif trigger == "end_of_turn":
            lines.append(
                _("■ While proven, at the end of your turn: %(effect)s") % {"effect": text}
            )
        else:
            lines.append(_("While in play: %(effect)s") % {"effect": text})
    return lines


def card_data(card: Card, lang: str | None = None) -> dict[str, Any]:
    """A card as the templates and scripts show it."""
    lang = lang or language()
    data: dict[str, Any] = {
        "id": card.id,
        "kind": card.kind,
        "kind_name": KIND_NAMES[card.kind][lang],
        "name": card.name(lang),
        "accusative": case_form(card, "accusative", lang),
        "fields": list(card.fields),
        "field_names": [FIELDS[f][lang] for f in card.fields],
        "text": card_text(card),
    }
    for key in ("difficulty", "patience", "ambition"):
        value = getattr(card, key)
        if value is not None:
            data[key] = value
    return data


def catalogue_cards(lang: str | None = None) -> list[dict[str, Any]]:
    """Every card, grouped by kind, then theorems by field and difficulty, then by name."""
    lang = lang or language()

    def order(card: Card) -> tuple:
        first_field = card.fields[0] if card.fields else ""
        field_index = list(FIELDS).index(first_field) if first_field in FIELDS else 0
        return (
            KIND_ORDER.index(card.kind),
            field_index if card.kind == "theorem" else 0,
            card.difficulty or 0,
            card.name(lang),
        )

    return [card_data(card, lang) for card in sorted(CATALOGUE.values(), key=order)]


def fields(lang: str | None = None) -> list[dict[str, str]]:
    lang = lang or language()
    return [{"id": key, "name": names[lang]} for key, names in FIELDS.items()]


def kinds(lang: str | None = None) -> list[dict[str, str]]:
    lang = lang or language()
    return [{"id": key, "name": KIND_NAMES[key][lang]} for key in KIND_ORDER]


def starter_decks(lang: str | None = None) -> list[dict[str, Any]]:
    lang = lang or language()
    return [
        {
            "id": deck.id,
            "name": deck.names[lang],
            "mathematician": deck.mathematician,
            "cards": list(deck.deck),
        }
        for deck in STARTER_DECKS
    ]


def table_data(*, saved_decks: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """What the table script needs: card names and texts, kinds, fields, decks to choose."""
    lang = language()
    return {
        "language": lang,
        "cards": {card["id"]: card for card in catalogue_cards(lang)},
        "fields": fields(lang),
        "kinds": kinds(lang),
        "starter_decks": starter_decks(lang),
        "saved_decks": saved_decks or [],
    }
