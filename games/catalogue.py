"""The four games as the platform presents them: one list, read by the home page.

``ready`` turns on when a game is playable on the site; until then it is shown
with a note instead of a link that leads nowhere.
"""

from dataclasses import dataclass

from django.urls import reverse_lazy
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class GameInfo:
    slug: str
    name: Promise
    tagline: Promise
    players: Promise
    ready: bool = False
    url: Promise | str = ""


GAMES: tuple[GameInfo, ...] = (
    GameInfo(
        slug="poker",
        name=_("Mathematical poker"),
        tagline=_(
            "Place numbers into a 5×5 grid and build pairs, straights and full houses "
            "in rows, columns and diagonals."
        ),
        players=_("alone, in a duel or the whole class together"),
        ready=True,
        url=reverse_lazy("poker:index"),
    ),
    GameInfo(
        slug="mathesso",
        name=_("Mathesso"),
        tagline=_("A memory game: find the tiles that show the same number in different forms."),
        players=_("1–6 players"),
        ready=True,
        url=reverse_lazy("mathesso:index"),
    ),
    GameInfo(
        slug="abaku",
        name=_("Abaku"),
        tagline=_("Like Scrabble, with digits: lay stones that form correct arithmetic examples."),
        players=_("1–4 players or against the robot"),
        ready=True,
        url=reverse_lazy("abaku:index"),
    ),
    GameInfo(
        slug="theorems",
        name=_("Mathematicians"),
        tagline=_("A card game: famous mathematicians gather ideas and prove theorems."),
        players=_("2–4 players"),
        ready=True,
        url=reverse_lazy("theorems:index"),
    ),
)
