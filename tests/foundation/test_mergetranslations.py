"""tools/mergetranslations.py: pending translations fill the catalogues (AGENTS.md)."""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest

from tools import mergetranslations

CS_HEADER = "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"
SK_JS_HEADER = "nplurals=4; plural=(n % 1 == 0 && n == 1 ? 0 : n % 1 == 0 && n >= 2 && n <= 4 ? 1 : n % 1 != 0 ? 2: 3);"


def _catalogue(path: Path, plural_forms: str, entries: list[polib.POEntry]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    po = polib.POFile(wrapwidth=0)
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Plural-Forms": plural_forms}
    for entry in entries:
        po.append(entry)
    po.save(str(path))


@pytest.fixture
def locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(mergetranslations, "LOCALE_DIR", tmp_path)
    _catalogue(
        tmp_path / "cs" / "LC_MESSAGES" / "django.po",
        CS_HEADER,
        [
            polib.POEntry(msgid="Play", msgstr=""),
            polib.POEntry(msgid="Old wording", msgstr="Staré znění"),
            polib.POEntry(msgid="Kept", msgstr="Ponecháno"),
            polib.POEntry(msgid="Guessed", msgstr="Hádáno", flags=["fuzzy"], previous_msgid="Gues"),
            polib.POEntry(msgid="Board", msgctxt="poker", msgstr=""),
            polib.POEntry(
                msgid="%(n)s game",
                msgid_plural="%(n)s games",
                msgstr_plural={0: "", 1: "", 2: ""},
            ),
            polib.POEntry(msgid="Gone", msgstr="", obsolete=True),
            polib.POEntry(msgid="Nobody translated this", msgstr=""),
        ],
    )
    _catalogue(
        tmp_path / "sk" / "LC_MESSAGES" / "djangojs.po",
        SK_JS_HEADER,
        [
            polib.POEntry(
                msgid="%(n)s move",
                msgid_plural="%(n)s moves",
                msgstr_plural={0: "", 1: "", 2: "", 3: ""},
            ),
        ],
    )
    pending = tmp_path / "pending"
    pending.mkdir()
    (pending / "a.json").write_text(
        json.dumps(
            {
                "Play": {"cs": "Hrát", "sk": "Hrať"},
                "Old wording": {"cs": "Nové znění"},
                "Board": {"cs": "bez kontextu"},
                "poker\u0004Board": {"cs": "Hrací plocha"},
            }
        ),
        encoding="utf-8",
    )
    (pending / "b.json").write_text(
        json.dumps(
            {
                "%(n)s game": {"cs": ["%(n)s hra", "%(n)s hry", "%(n)s her"]},
                "%(n)s move": {"sk": ["%(n)s ťah", "%(n)s ťahy", "%(n)s ťahov"]},
            }
        ),
        encoding="utf-8",
    )
    return tmp_path


def _entries(path: Path) -> dict[tuple[str | None, str], polib.POEntry]:
    return {(entry.msgctxt, entry.msgid): entry for entry in polib.pofile(str(path))}


def test_pending_translations_fill_replace_and_report_what_is_missing(locale: Path) -> None:
    missing = mergetranslations.merge()

    cs = _entries(locale / "cs" / "LC_MESSAGES" / "django.po")
    assert cs[(None, "Play")].msgstr == "Hrát"
    assert cs[(None, "Old wording")].msgstr == "Nové znění"  # a pending wording replaces
    assert cs[(None, "Kept")].msgstr == "Ponecháno"
    # a fuzzy guess is never kept, and a plain msgid never fills an entry with a context
    assert cs[(None, "Guessed")].msgstr == "" and "fuzzy" not in cs[(None, "Guessed")].flags
    assert cs[("poker", "Board")].msgstr == "Hrací plocha"
    assert cs[(None, "%(n)s game")].msgstr_plural == {
        0: "%(n)s hra",
        1: "%(n)s hry",
        2: "%(n)s her",
    }
    # three forms fill the JavaScript catalogue's four: the last (many) fills up
    sk = _entries(locale / "sk" / "LC_MESSAGES" / "djangojs.po")
    assert list(sk[(None, "%(n)s move")].msgstr_plural.values()) == [
        "%(n)s ťah",
        "%(n)s ťahy",
        "%(n)s ťahov",
        "%(n)s ťahov",
    ]
    assert missing == {"cs/django": ["Guessed", "Nobody translated this"]}
    assert sorted(path.name for path in (locale / "pending").iterdir()) == ["a.json", "b.json"]


def test_remove_deletes_the_merged_files(locale: Path) -> None:
    mergetranslations.merge(remove=True)
    assert list((locale / "pending").iterdir()) == []


def test_forms_fit_the_catalogues_number_of_plurals() -> None:
    assert mergetranslations._fit(["a", "b", "c", "d"], 3) == ["a", "b", "d"]
    assert mergetranslations._fit(["a", "b"], 4) == ["a", "b", "b", "b"]
    assert mergetranslations._fit(["a", "b"], 0) == ["a", "b"]
