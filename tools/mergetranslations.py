"""Merge ``locale/pending/*.json`` translations into the Czech and Slovak catalogues.

Parallel work adds strings faster than one person edits ``.po`` files, so each
area writes ``{"msgid": {"cs": "...", "sk": "..."}}`` next to its change (for a
plural msgid, a list of the language's forms: ``["1 den", "2 dny", "5 dní"]``; for
an entry with a context, the key is ``"context\\u0004msgid"``, gettext's own joining of
the two -- a plain msgid never fills an entry that has a context); after
``make translations`` this fills the matching entries -- a pending translation
replaces the catalogue's, so a wording can be corrected the same way -- and
reports what is still missing. Merged files are removed with ``--remove``.
"""

import json
import re
import sys
from pathlib import Path

import polib

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = ("cs", "sk")


def _fit(forms: list[str], plurals: int) -> list[str]:
    """One pending list for catalogues with different numbers of forms: Django's
    cs/sk JavaScript header has four (one, few, fractions, many), the Python one
    three (one, few, many). The last form (many) fills up or closes the list."""
    if not plurals or len(forms) == plurals:
        return list(forms)
    if len(forms) < plurals:
        return list(forms) + [forms[-1]] * (plurals - len(forms))
    return list(forms[: plurals - 1]) + [forms[-1]]


def merge(remove: bool = False) -> dict[str, list[str]]:
    pending: dict[str, dict[str, str]] = {}
    files = sorted((LOCALE_DIR / "pending").glob("*.json"))
    for path in files:
        for msgid, translations in json.loads(path.read_text(encoding="utf-8")).items():
            pending.setdefault(msgid, {}).update(translations)
    missing: dict[str, list[str]] = {}
    for language in LANGUAGES:
        for domain in ("django", "djangojs"):
            po_path = LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"
            if not po_path.exists():
                continue
            catalogue = polib.pofile(str(po_path), wrapwidth=0)
            found = re.search(r"nplurals=(\d+)", catalogue.metadata.get("Plural-Forms", ""))
            plurals = int(found.group(1)) if found else 0
            for entry in catalogue:
                if entry.obsolete:
                    continue
                if "fuzzy" in entry.flags:
                    # a guess from a similar msgid: never kept (plural forms too)
                    entry.flags.remove("fuzzy")
                    entry.msgstr = ""
                    if entry.msgid_plural:
                        entry.msgstr_plural = {k: "" for k in entry.msgstr_plural}
                    entry.previous_msgid = entry.previous_msgid_plural = None
                    entry.previous_msgctxt = None
                key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
                text = pending.get(key, {}).get(language)
                if entry.msgid_plural:
                    # Plural forms come as a list in the catalogue's order
                    # (cs and sk: one, few, many/other).
                    if isinstance(text, list) and text:
                        entry.msgstr_plural = dict(enumerate(_fit(text, plurals)))
                    if not all(entry.msgstr_plural.values()):
                        missing.setdefault(f"{language}/{domain}", []).append(key)
                    continue
                if text:
                    entry.msgstr = text
                if not entry.msgstr:
                    missing.setdefault(f"{language}/{domain}", []).append(key)
            catalogue.save(str(po_path))
    if remove:
        for path in files:
            path.unlink()
    return missing


if __name__ == "__main__":
    still_missing = merge(remove="--remove" in sys.argv)
    for where, msgids in still_missing.items():
        print(f"{where}: {len(msgids)} untranslated")
        for msgid in msgids:
            print("   ", json.dumps(msgid, ensure_ascii=False))
    sys.exit(1 if still_missing else 0)
