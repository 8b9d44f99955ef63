"""Matematici as homework (``GameSpec.assignable``): every pupil of an
assignment plays the same game -- the same starter deck against the same robots
with the same shuffles, so the same first hand -- at a table of the
``homework`` mode: one pupil, one to three robots.

The room's random seed (``Room.rng_seed``, from which the rooms runtime derives
the robots' decks and the engine's seed, so every shuffle) is
HMAC-SHA256(server secret, the assignment's key) instead of a fresh random
number (``games/rooms/homework.py``): the same for every pupil, not computable
without the secret, never sent. The pupil does not choose a deck: the teacher
chose the starter deck, so the cards are dealt as the room starts. The game
ends through the runtime's usual finish, which tells the homework gate
(``Assignable.room_mode``).

The homework score is the number of theorems the pupil proved (the game's own
score); full marks by default is the starter deck's mathematician's ambition,
the theorems that win the game (docs/lti.md, "Grades").

The homework app sits above the games: this module reaches it only through the
rooms runtime's ``games/rooms/homework.py`` (the gate, ``games.registry.assignments()``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import partial
from typing import Any

from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.assignments import settings_object
from games.rooms import homework
from games.rooms.turntable import SETUP, Event

from .adapter import TheoremsTable
from .rules import CATALOGUE, STARTER_DECKS

GAME = "theorems"
MODE = "homework"
STARTERS = {deck.id: deck for deck in STARTER_DECKS}
DEFAULT_DECK = STARTER_DECKS[0].id
#: Robots at the pupil's table (the table has 2-4 seats).
MIN_ROBOTS, MAX_ROBOTS, DEFAULT_ROBOTS = 1, 3, 1


def clean_settings(settings: Any) -> dict[str, Any]:
    """``{"deck": <starter deck id>, "robots": 1-3}``: the deck every pupil plays
    and how many robots sit at the table."""
    settings = settings_object(settings, {"deck", "robots"})
    deck = settings.get("deck") or DEFAULT_DECK
    if deck not in STARTERS:
        raise ValidationError(_("Choose one of the starter decks."), code="bad_deck")
    robots = settings.get("robots", DEFAULT_ROBOTS)
    if robots in (None, ""):
        robots = DEFAULT_ROBOTS
    if type(robots) is not int or not MIN_ROBOTS <= robots <= MAX_ROBOTS:
        raise ValidationError(
            _("The table has one to three robots."),
            code="bad_robots",
        )
    return {"deck": deck, "robots": robots}


def _deck_choices() -> list[tuple[str, str]]:
    from .presentation import starter_decks

    return [(deck["id"], deck["name"]) for deck in starter_decks()]


def setting_fields() -> list[tuple[str, Any, list | None, Any]]:
    return [
        ("deck", gettext_lazy("Deck"), _deck_choices(), DEFAULT_DECK),
        ("robots", gettext_lazy("Robots at the table (1-3)"), None, DEFAULT_ROBOTS),
    ]


def full_marks(settings: Any) -> int:
    """The theorems that win: the deck's mathematician's ambition."""
    starter = STARTERS.get(settings.get("deck") or DEFAULT_DECK, STARTERS[DEFAULT_DECK])
    return int(CATALOGUE[starter.mathematician].ambition or 1)


class TheoremsHomework(TheoremsTable):
    """A homework table: the pupil's seat holds the teacher's starter deck from
    the start, so the cards are dealt at once (no deck to choose); no rematch."""

    rematch = False

    def clean_settings(self, settings: dict) -> dict:
        cleaned = super().clean_settings(settings)
        deck = settings.get("deck")
        if deck not in STARTERS:
            deck = DEFAULT_DECK
        return {**cleaned, "deck": deck}

    def initial_state(self, settings: dict, seed: int) -> dict:
        return {**super().initial_state(settings, seed), "homework_deck": settings["deck"]}

    def deal_if_ready(self, state: dict, public: list[Event], now: datetime) -> None:
        starter = STARTERS.get(state.get("homework_deck") or "")
        if state["phase"] == SETUP and starter is not None:
            for seat in state["seats"]:
                if not seat["robot"] and seat["deck"] is None:
                    seat.update(
                        deck_name=starter.id,
                        mathematician=starter.mathematician,
                        deck=list(starter.deck),
                    )
        super().deal_if_ready(state, public, now)


def room_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The homework table's settings for the homework's settings."""
    return {
        "table_size": 1 + int(settings.get("robots") or DEFAULT_ROBOTS),
        "deck": settings.get("deck") or DEFAULT_DECK,
    }


#: (player=, assignment=) -> the pupil's homework table, new (True) or continued (False).
start_assignment_room = partial(
    homework.start_assignment_room, game=GAME, mode=MODE, room_settings=room_settings
)


def play_url(assignment_id: int) -> str:
    return reverse("theorems:homework", args=[assignment_id])
