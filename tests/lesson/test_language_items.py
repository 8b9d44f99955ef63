"""Language of the live lesson and its pages (issue 40 §3, "Language").

- "+3 karty", not "+3 Karet": a Matematici card's effect counts cards and
  actions through plural forms;
- one decimal separator per language: the class charts wrote "65.5" beside the
  tables' "65,5" on Czech pages;
- the teacher's gender is not assumed: Czech says "vyučující", never "Učitel"
  for the pupil's own teacher (the teacher's default nickname included);
- ty/vy: a pupil hosting a class table read "spusťte hru" (vy) in its lobby
  beside "Pozvi hráče" (ty); the teacher reads vy, a pupil ty.

The Czech and Slovak wordings are read from the catalogues as the lead merges
them (the .po files with this session's ``locale/pending/*.json`` on top).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from classrooms.charts import Series, line_chart
from games.rooms import services as rooms
from games.theorems import presentation
from games.theorems.rules import CATALOGUE
from tests.poker_web.helpers import player_cookie

LOCALE = Path(__file__).resolve().parents[2] / "locale"


def _catalogue(language: str) -> dict[str, list[str]]:
    """msgid -> its translation(s), the pending ones replacing the catalogue's."""
    texts: dict[str, list[str]] = {}
    for domain in ("django", "djangojs"):
        for entry in polib.pofile(str(LOCALE / language / "LC_MESSAGES" / f"{domain}.po")):
            if not entry.obsolete:
                forms = list(entry.msgstr_plural.values()) if entry.msgid_plural else []
                key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
                texts[key] = forms or [entry.msgstr]
    for path in sorted((LOCALE / "pending").glob("*.json")):
        for msgid, value in json.loads(path.read_text(encoding="utf-8")).items():
            if language in value:
                text = value[language]
                texts[msgid] = text if isinstance(text, list) else [text]
    return texts


def test_card_effects_count_cards_and_actions_through_plural_forms():
    with translation.override("en"):
        assert presentation.card_text(CATALOGUE["cayley_theorem"]) == ["■ When proven: +1 Card"]
        assert presentation.card_text(CATALOGUE["wilson_theorem"]) == [
            "■ When proven: +1 Action, +1 Card"
        ]
        assert presentation.card_text(CATALOGUE["conference"]) == ["When played: +3 Cards"]
    cs, sk = _catalogue("cs"), _catalogue("sk")
    assert cs["%(n)s Card"] == ["%(n)s Karta", "%(n)s Karty", "%(n)s Karet"]
    assert sk["%(n)s Card"] == ["%(n)s Karta", "%(n)s Karty", "%(n)s Kariet"]
    assert cs["%(n)s Action"][0] == "%(n)s Akce" and cs["%(n)s Action"][2] == "%(n)s Akcí"


def test_a_chart_writes_numbers_with_the_page_languages_decimal_separator():
    series = [Series("Průměr třídy", [65.5, 70.25])]
    with translation.override("cs"):
        czech = line_chart(title="Graf", x_labels=["1. 12.", "2. 12."], series=series)
    assert "65,5" in czech and ("70,2" in czech or "70,3" in czech)
    assert "65.5" not in czech
    with translation.override("en"):
        english = line_chart(title="Chart", x_labels=["1 Dec", "2 Dec"], series=series)
    assert "65.5" in english and "65,5" not in english


# Where Czech speaks of the pupil's own teacher (or names the teacher's profile).
PUPILS_TEACHER = [
    "Teacher",
    "Teacher: %(teacher)s",
    "You are %(name)s in this class · teacher %(teacher)s",
    "Your teacher will confirm your name soon.",
    "Your teacher will confirm the name you type.",
    "Without the code, your teacher confirms you first.",
    "No game is running. When your teacher starts one, it appears here.",
    "Your teacher gave the whole class the same numbers. Play them on your own: "
    "your teacher sees your score and how you played.",
    "Your teacher has not opened Matika in this course yet. Try again later.",
    "your teacher sees the score",
]


@pytest.mark.parametrize("msgid", PUPILS_TEACHER)
def test_czech_does_not_assume_the_teachers_gender(msgid):
    text = " ".join(_catalogue("cs")[msgid])
    assert not re.search(r"\b[Uu]čitel\b|\bdal\b|\bneotevřel\b", text), text
    assert text, msgid


def _key(context: str, msgid: str) -> str:
    return f"{context}\x04{msgid}"


@pytest.mark.parametrize("language", ["cs", "sk"])
def test_a_pupil_hosting_a_table_reads_ty_and_a_teacher_vy_in_the_lobby(language):
    texts = _catalogue(language)
    formal = "addressing a teacher formally"
    for msgid in (
        "Waiting for players to join. Start the game when everybody is in.",
        "Start the game when everybody is in.",
    ):
        assert re.search(r"\bspus[tť]\b|\bspusti\b", texts[msgid][0]), texts[msgid]
        assert re.search(r"spusťte|spustite", texts[_key(formal, msgid)][0])


@pytest.mark.django_db
def test_the_room_page_says_whom_it_addresses(client):
    profile, cookie = player_cookie("Ema")
    room = rooms.create_room(
        game="theorems", mode="table", host=profile, settings={"table_size": 2}
    )
    client.cookies[settings.PLAYER_COOKIE_NAME] = cookie
    page = client.get(f"/rooms/{room.code}/").content.decode()
    assert 'data-formal="false"' in page and 'data-host="true"' in page
