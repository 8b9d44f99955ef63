"""Which rows of a printed class list are the header and which are pupils (issue 37 §3).

A list printed from Bakaláři, EduPage or Škola OnLine and saved as a table has
rows above its header: the title ("Seznam žáků třídy 6.A"), the school's
address, the print date, often in merged cells. Below the header there may be
a count ("Počet žáků: 25") or a repeated header on every printed page. Pure
functions, no Django models: ``roster_import`` reads the file with them.

* :func:`header_index` finds the header row: the first of the top rows that
  names a name column ("Příjmení", "Jméno", "Příjmení a jméno", ...), else the
  first with two known column names. Without one, a file whose first row is a
  title (one cell above wider rows, a date, a number) is refused with the row
  to start from; any other file keeps its first row as the header.
* :func:`not_a_name` says why a cell cannot be a pupil's name: a number ("1",
  "10."), a date, an address (digits among words, a postcode), a column
  header, or a title/footer line. Such rows are left out and listed.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

#: How many rows from the top may stand above the header.
HEADER_SEARCH_ROWS = 25

FIRST_NAMES = {"jmeno", "meno", "krestnijmeno", "krstnemeno", "firstname", "givenname", "first"}
LAST_NAMES = {"prijmeni", "priezvisko", "lastname", "familyname", "surname", "last"}
#: Whole-name columns whose names start with the surname ("Nováková Tereza").
SURNAME_FIRST = {
    "prijmeniajmeno",
    "prijmenijmeno",
    "priezviskoameno",
    "priezviskomeno",
    "lastnamefirstname",
    "surnamefirstname",
    "nameofpupil",
}
FULL_NAMES = {
    "celejmeno",
    "celemeno",
    "jmenoaprijmeni",
    "menoapriezvisko",
    "zak",
    "ziak",
    "zaci",
    "ziaci",
    "student",
    "name",
    "fullname",
    "pupil",
} | SURNAME_FIRST
CLASSES = {"trida", "trieda", "class", "classname", "skupina", "group"}
#: A pupil's identifier in the school system: kept as the entry's ``source_id``.
IDS = {"id", "sourcedid", "evidencnicislo", "identifikator", "idzaka", "idziaka", "studentid"}
#: Other column names of school exports: they make a row a header, never a pupil.
OTHER_HEADERS = {
    "c",
    "cislo",
    "poradi",
    "poradovecislo",
    "por",
    "no",
    "number",
    "datumnarozeni",
    "datumnarodenia",
    "narozen",
    "narodeny",
    "rodnecislo",
    "email",
    "mail",
    "pohlavi",
    "pohlavie",
    "id",
    "sourcedid",
    "evidencnicislo",
    "poznamka",
    "adresa",
    "bydliste",
    "zakonnyzastupce",
    "telefon",
    "username",
    "login",
}
NAME_HEADERS = FIRST_NAMES | LAST_NAMES | FULL_NAMES
KNOWN_HEADERS = NAME_HEADERS | CLASSES | OTHER_HEADERS

#: Words of titles, addresses and footers of printed lists (folded).
TITLE_WORDS = {
    "seznam",
    "zaku",
    "ziakov",
    "trida",
    "tridy",
    "trieda",
    "triedy",
    "skola",
    "skoly",
    "skole",
    "zs",
    "zakladni",
    "zakladna",
    "gymnazium",
    "vytisteno",
    "vytlacene",
    "tisk",
    "datum",
    "pocet",
    "celkem",
    "spolu",
    "strana",
    "ulice",
    "namesti",
    "namestie",
    "prispevkova",
    "organizace",
    "skolni",
    "skolsky",
}

DATE = re.compile(r"^\s*(\d{1,2}\.\s*\d{1,2}\.\s*\d{2,4}|\d{4}-\d{2}-\d{2})(\s.*)?$")
NUMBER = re.compile(r"^[\d\s.,:/#()+-]+$")
POSTCODE = re.compile(r"\b\d{3}\s?\d{2}\b")


def fold(text: str) -> str:
    """Lower case without diacritics and punctuation: "Příjmení" -> "prijmeni"."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return "".join(ch for ch in bare.casefold() if ch.isalnum())


def words(text: str) -> list[str]:
    """Folded words: "Nováková, Tereza" -> ["novakova", "tereza"]."""
    return [w for w in (fold(part) for part in re.split(r"[\s,;]+", text or "")) if w]


def _filled(cells: list[str]) -> int:
    return sum(1 for cell in cells if cell)


#: Name-column headers that are also words of names ("David Žák"): a header
#: only beside other known column names.
WEAK_HEADERS = {"zak", "ziak", "zaci", "ziaci", "student", "name", "pupil", "first", "last"}


def _is_header(cells: list[str]) -> bool:
    """Two known column names, or a name column's own header ("Jméno",
    "Příjmení a jméno"); a pupil "David Žák" in two columns is no header."""
    folded = [fold(cell) for cell in cells if cell]
    known = sum(1 for name in folded if name in KNOWN_HEADERS)
    if known >= 2:
        return True
    if any(name in NAME_HEADERS and name not in WEAK_HEADERS for name in folded):
        return True
    return known == len(folded) and any(name in NAME_HEADERS for name in folded)


def header_index(rows: list[list[str]]) -> int | None:
    """The index of the header among ``rows`` (non-empty rows, in file order), or
    None when no row of the top looks like one."""
    for index, cells in enumerate(rows[:HEADER_SEARCH_ROWS]):
        if _is_header(cells):
            return index
    return None


def first_row_is_a_title(rows: list[list[str]]) -> int | None:
    """Without a recognised header: when the first row cannot be a header (one
    cell above wider rows, or a date, a number, a title), the index of the row
    to start from (the first as wide as most rows); else None."""
    if len(rows) < 2:
        return None
    widths = Counter(_filled(cells) for cells in rows[:HEADER_SEARCH_ROWS])
    usual = max(widths, key=lambda width: (widths[width], width))
    first = rows[0]
    texts = [cell for cell in first if cell]
    title = (usual >= 2 and _filled(first) < usual) or any(
        not_a_name(text) in ("number", "date", "title", "address") for text in texts
    )
    if not title:
        return None
    return next(
        (index for index, cells in enumerate(rows) if _filled(cells) >= usual and index > 0),
        1,
    )


def not_a_name(text: str) -> str | None:
    """Why ``text`` cannot be a pupil's name ("number", "date", "address",
    "header", "title"), or None when it can."""
    text = (text or "").strip()
    if not text:
        return None
    if DATE.match(text):
        return "date"
    if NUMBER.match(text):
        return "number"
    folded = fold(text)
    if folded in KNOWN_HEADERS or all(word in KNOWN_HEADERS for word in words(text)):
        return "header"
    if any(ch.isdigit() for ch in text):
        return "address" if POSTCODE.search(text) or len(words(text)) > 1 else "number"
    if "@" in text or "://" in text:
        return "address"
    if set(words(text)) & TITLE_WORDS or text.endswith(":"):
        return "title"
    return None


def surname_first_name(name: str) -> str:
    """ "Nováková Tereza" -> "Tereza Nováková" (the first word is the surname;
    a comma after the surname is dropped: "Nováková, Tereza")."""
    parts = name.replace(",", " ").split()
    if len(parts) < 2:
        return " ".join(parts)
    return " ".join([*parts[1:], parts[0]])


def same_person(one: str, other: str) -> bool:
    """The same words in another order ("Nováková Tereza" / "Tereza Nováková")."""
    a, b = sorted(words(one)), sorted(words(other))
    return bool(a) and len(a) >= 2 and a == b
