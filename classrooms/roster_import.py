"""Reading class lists exported by school systems: pure parsing, no requests, no database.

Two kinds of upload:

* a table (``.csv`` or ``.xlsx``) as Bakaláři, EduPage or Škola OnLine export it:
  a header row ("Příjmení", "Jméno", "Třída", sometimes "Celé jméno"), CSV in
  cp1250 or UTF-8 (with or without a BOM), separated by ``;``, ``,`` or tabs.
  The teacher maps columns to the roster name (first + last name, or one full
  name column) and may keep only the rows of one class (:class:`Mapping`);
* a OneRoster 1.2 CSV set (``orgs.csv``, ``classes.csv``, ``users.csv``,
  ``enrollments.csv``; a zip or the separate files): the teacher picks one class
  and its students (enrolment role ``student``) become roster names, each with its
  ``sourcedId`` so that a re-import matches it.

Everything refused raises :class:`ClassroomError` with a stable code; names are
validated (and matched against the roster) by ``classrooms.roster_services``.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NoReturn

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classrooms import roster_rows
from classrooms.errors import ClassroomError
from classrooms.roster_rows import CLASSES, FIRST_NAMES, FULL_NAMES, IDS, LAST_NAMES, SURNAME_FIRST

MAX_FILE_BYTES = 2 * 1024 * 1024
# A whole school's export filtered by the class column still fits.
MAX_ROWS = 3000
MAX_COLUMNS = 60
MAX_CELL = 200
# Rows x columns of the table kept between the steps: a 3000-row list of 20 columns.
MAX_CELLS = 60_000
ONEROSTER_FILES = ("orgs.csv", "classes.csv", "users.csv", "enrollments.csv")
ONEROSTER_REQUIRED = ("classes.csv", "users.csv", "enrollments.csv")
# A zip is read only when it is small once unpacked too (no zip bombs).
MAX_UNZIPPED_BYTES = 8 * 1024 * 1024


@dataclass
class Table:
    headers: list[str]
    # (row number in the file, counting the header as row 1; cells)
    rows: list[tuple[int, list[str]]]


@dataclass
class Mapping:
    first: int | None = None
    last: int | None = None
    full: int | None = None
    class_column: int | None = None
    class_value: str = ""
    # the whole-name column starts with the surname ("Nováková Tereza")
    surname_first: bool = False
    # the pupil's identifier in the school system (kept as ``source_id``)
    id_column: int | None = None


@dataclass
class Candidate:
    """One row of the upload that should become a roster name."""

    row: int
    name: str
    source_id: str = ""


@dataclass
class LeftOut:
    """A row that cannot be a pupil (a number, date, address, header or title)."""

    row: int
    text: str
    reason: str


@dataclass
class OneRosterClass:
    sourced_id: str
    title: str
    school: str = ""
    students: int = 0


@dataclass
class OneRoster:
    classes: list[OneRosterClass] = field(default_factory=list)
    # users' sourcedId -> (givenName, familyName)
    users: dict[str, tuple[str, str]] = field(default_factory=dict)
    # (row, classSourcedId, userSourcedId) of student enrolments
    enrollments: list[tuple[int, str, str]] = field(default_factory=list)


def _refuse(code: str, message: str) -> NoReturn:
    raise ClassroomError(code, message)


def _too_large() -> None:
    _refuse(
        "file_too_large",
        _("The file is too large. A class list can have at most 2 MB."),
    )


_fold = roster_rows.fold


def decode(data: bytes) -> str:
    """UTF-8 (a BOM dropped) when the bytes are UTF-8, else Windows-1250."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1250")
    except UnicodeDecodeError:
        _refuse(
            "bad_encoding",
            _("The file cannot be read as text. Save it as CSV (UTF-8) or as an Excel file."),
        )
    raise AssertionError("unreachable")


def _delimiter(text: str) -> str:
    first = next((line for line in text.splitlines() if line.strip()), "")
    counts = {sep: first.count(sep) for sep in (";", "\t", ",")}
    best = max(counts, key=lambda sep: counts[sep])
    return best if counts[best] else ";"


def _clean_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()[:MAX_CELL]


def _too_many_rows() -> NoReturn:
    _refuse(
        "too_many_rows",
        ngettext(
            "The file has too many rows: at most %(count)s row can be imported.",
            "The file has too many rows: at most %(count)s rows can be imported.",
            MAX_ROWS,
        )
        % {"count": MAX_ROWS},
    )


def _table(raw_rows: Iterable[Sequence[object]]) -> Table:
    """The header row (found below any title, address and print date, see
    ``roster_rows``) and the rows under it."""
    found: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(raw_rows, start=1):
        cells = [_clean_cell(cell) for cell in raw]
        while cells and not cells[-1]:  # Excel's formatted but empty cells
            cells.pop()
        if len(cells) > MAX_COLUMNS:
            _refuse(
                "too_many_columns",
                _("The file has too many columns. Export only the class list."),
            )
        if not any(cells):
            continue
        if len(found) > MAX_ROWS + roster_rows.HEADER_SEARCH_ROWS:
            _too_many_rows()
        found.append((number, cells))
    texts = [cells for _number, cells in found]
    index = roster_rows.header_index(texts)
    if index is None:
        start = roster_rows.first_row_is_a_title(texts)
        if start is not None:
            _refuse(
                "no_header_row",
                _(
                    "The header row of the list (e.g. Příjmení, Jméno) was not found. "
                    "The list seems to start at row %(row)s: delete the rows above it "
                    "and add a header row, or export the list again without a title."
                )
                % {"row": found[start][0]},
            )
        index = 0
    if not found or len(found) <= index + 1:
        _refuse("file_empty", _("The file holds no names. Check that it is the class list."))
    headers, rows = found[index][1], found[index + 1 :]
    if len(rows) > MAX_ROWS:
        _too_many_rows()
    width = max(len(headers), *(len(cells) for _row, cells in rows))
    if width * len(rows) > MAX_CELLS:
        _refuse(
            "too_many_cells",
            _("The file holds too much besides the names. Export only the class list."),
        )
    headers = [h or _("Column %(number)s") % {"number": i + 1} for i, h in enumerate(headers)]
    headers += [_("Column %(number)s") % {"number": i + 1} for i in range(len(headers), width)]
    return Table(
        headers=headers, rows=[(n, cells + [""] * (width - len(cells))) for n, cells in rows]
    )


def read_csv(data: bytes) -> Table:
    text = decode(data)
    if "\x00" in text:
        _refuse("wrong_type", _("This is not a CSV or Excel file."))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        return _table(reader)
    except csv.Error:
        _refuse("bad_csv", _("The CSV file is damaged. Export it again."))
    raise AssertionError("unreachable")


def read_xlsx(data: bytes) -> Table:
    from openpyxl import load_workbook

    try:
        _check_zip(data)
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except ClassroomError:
        raise
    except Exception:  # openpyxl raises many kinds for a damaged or foreign file
        _refuse("wrong_type", _("The Excel file cannot be read. Save it again as .xlsx."))
    try:
        sheet = workbook.worksheets[0]
        rows = sheet.iter_rows(
            values_only=True,
            max_row=MAX_ROWS + roster_rows.HEADER_SEARCH_ROWS + 50,
            max_col=MAX_COLUMNS + 1,
        )
        return _table(rows)
    finally:
        workbook.close()


def _check_zip(data: bytes) -> zipfile.ZipFile:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        _refuse("wrong_type", _("This is not a CSV, Excel or zip file."))
    if sum(info.file_size for info in archive.infolist()) > MAX_UNZIPPED_BYTES:
        _too_large()
    return archive


def read_upload(name: str, data: bytes) -> Table:
    """A class list table from one uploaded file, by its extension."""
    if len(data) > MAX_FILE_BYTES:
        _too_large()
    lower = (name or "").lower()
    if lower.endswith(".xlsx"):
        return read_xlsx(data)
    if lower.endswith((".csv", ".txt")):
        return read_csv(data)
    _refuse(
        "wrong_type",
        _("Upload a .csv or .xlsx file (or OneRoster files)."),
    )
    raise AssertionError("unreachable")


# --- mapping ----------------------------------------------------------------------


def _find(headers: list[str], names: set[str]) -> int | None:
    for index, header in enumerate(headers):
        if _fold(header) in names:
            return index
    return None


def guess_mapping(
    table: Table, *, class_name: str = "", roster: list[str] | None = None
) -> Mapping:
    """The columns a school system's export usually names; the teacher can change
    them. With the class's name, a class column holding that class pre-selects
    it (a whole grade's export brings only this class by default); with the
    class's roster names, a whole-name column whose names match them better
    surname first is read surname first."""
    first = _find(table.headers, FIRST_NAMES)
    last = _find(table.headers, LAST_NAMES)
    full = None if first is not None and last is not None else _find(table.headers, FULL_NAMES)
    if full is not None:
        first = last = None
    if first is None and last is None and full is None:
        full = 0
    mapping = Mapping(
        first=first,
        last=last,
        full=full,
        class_column=_find(table.headers, CLASSES),
        id_column=_find(table.headers, IDS),
    )
    if mapping.class_column is not None and class_name:
        wanted = _fold(class_name)
        mapping.class_value = next(
            (v for v in class_values(table, mapping.class_column) if _fold(v) == wanted), ""
        )
    if full is not None:
        mapping.surname_first = _fold(table.headers[full]) in SURNAME_FIRST
        if roster:
            mapping.surname_first = _reads_surname_first(table, mapping, roster)
    return mapping


def _reads_surname_first(table: Table, mapping: Mapping, roster: list[str]) -> bool:
    """Whether more names of the column match the roster read surname first."""
    known = {name.casefold() for name in roster}
    names = [cells[mapping.full] for _row, cells in table.rows if mapping.full is not None]
    as_is = sum(1 for name in names if " ".join(name.split()).casefold() in known)
    swapped = sum(1 for name in names if roster_rows.surname_first_name(name).casefold() in known)
    if as_is == swapped:
        return mapping.surname_first
    return swapped > as_is


def class_values(table: Table, column: int | None) -> list[str]:
    if column is None or not 0 <= column < len(table.headers):
        return []
    return sorted({cells[column] for _row, cells in table.rows if cells[column]}, key=_fold)


def check_mapping(table: Table, mapping: Mapping) -> None:
    width = len(table.headers)
    for column in (
        mapping.first,
        mapping.last,
        mapping.full,
        mapping.class_column,
        mapping.id_column,
    ):
        if column is not None and not 0 <= column < width:
            _refuse("bad_mapping", _("Choose the columns again."))
    if mapping.full is None and mapping.first is None and mapping.last is None:
        _refuse("no_name_column", _("Choose which column holds the name."))
    if mapping.full is not None and (mapping.first is not None or mapping.last is not None):
        _refuse(
            "two_name_mappings",
            _("Choose either one column with the whole name, or the first and last name columns."),
        )


def candidates(table: Table, mapping: Mapping) -> list[Candidate]:
    """The rows to import as roster names ("First Last"), in file order; a row
    of another class (when a class is chosen) is left out, and so is a row that
    cannot be a pupil (:func:`split_candidates`)."""
    return split_candidates(table, mapping)[0]


def split_candidates(table: Table, mapping: Mapping) -> tuple[list[Candidate], list[LeftOut]]:
    """(the pupils' rows, the rows left out as a number, date, address, header
    or title: a printed list's count, print date or repeated header)."""
    check_mapping(table, mapping)
    result: list[Candidate] = []
    left_out: list[LeftOut] = []
    for row, cells in table.rows:
        if mapping.class_column is not None and mapping.class_value:
            if cells[mapping.class_column].strip() != mapping.class_value:
                continue
        if mapping.full is not None:
            parts = [cells[mapping.full]]
        else:
            parts = [cells[c] for c in (mapping.first, mapping.last) if c is not None]
        shown = " ".join(part for part in parts if part)
        filled = [cell for cell in cells if cell]
        of_class = mapping.class_column is not None and bool(cells[mapping.class_column])
        reason: str | None
        if not shown and len(filled) == 1 and not of_class:  # a count or note under the list
            shown = filled[0]
            reason = roster_rows.not_a_name(shown) or "no_name"
        else:
            reason = roster_rows.not_a_name(shown)
        if reason is not None:
            left_out.append(LeftOut(row=row, text=shown, reason=reason))
            continue
        if mapping.full is not None and mapping.surname_first:
            shown = roster_rows.surname_first_name(shown)
        source = cells[mapping.id_column][:255] if mapping.id_column is not None else ""
        result.append(Candidate(row=row, name=shown, source_id=source))
    return result, left_out


# --- OneRoster 1.2 CSV --------------------------------------------------------------


def is_oneroster(names: list[str]) -> bool:
    basenames = {n.rsplit("/", 1)[-1].lower() for n in names}
    return any(name.lower().endswith(".zip") for name in names) or bool(
        basenames & set(ONEROSTER_REQUIRED)
    )


def oneroster_files(uploads: list[tuple[str, bytes]]) -> dict[str, bytes]:
    """The OneRoster CSV files by name, from a zip or from separate uploads."""
    files: dict[str, bytes] = {}
    if sum(len(data) for _name, data in uploads) > MAX_FILE_BYTES:
        _too_large()
    for name, data in uploads:
        if name.lower().endswith(".zip"):
            archive = _check_zip(data)
            for info in archive.infolist():
                base = info.filename.rsplit("/", 1)[-1].lower()
                if base in ONEROSTER_FILES:
                    files[base] = archive.read(info)
        else:
            base = name.rsplit("/", 1)[-1].lower()
            if base in ONEROSTER_FILES:
                files[base] = data
    missing = [name for name in ONEROSTER_REQUIRED if name not in files]
    if missing:
        _refuse(
            "oneroster_incomplete",
            _("OneRoster files are missing: %(files)s.") % {"files": ", ".join(missing)},
        )
    return files


def _records(data: bytes, name: str, needed: tuple[str, ...]) -> list[tuple[int, dict]]:
    text = decode(data)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=",")
    try:
        rows = list(reader)
    except csv.Error:
        _refuse("bad_csv", _("The file %(name)s is damaged.") % {"name": name})
    if len(rows) > MAX_ROWS * 4:
        _refuse(
            "too_many_rows",
            _("The file %(name)s has too many rows.") % {"name": name},
        )
    if not rows:
        return []
    header = [h.strip() for h in rows[0]]
    lacking = [column for column in needed if column not in header]
    if lacking:
        _refuse(
            "oneroster_columns",
            _("The file %(name)s lacks the columns %(columns)s.")
            % {"name": name, "columns": ", ".join(lacking)},
        )
    records = []
    for number, cells in enumerate(rows[1:], start=2):
        if not any(c.strip() for c in cells):
            continue
        records.append(
            (
                number,
                {h: (cells[i].strip() if i < len(cells) else "") for i, h in enumerate(header)},
            )
        )
    return records


def _active(record: dict) -> bool:
    return record.get("status", "").lower() != "tobedeleted"


def read_oneroster(files: dict[str, bytes]) -> OneRoster:
    schools = {}
    if "orgs.csv" in files:
        for _n, org in _records(files["orgs.csv"], "orgs.csv", ("sourcedId", "name")):
            schools[org["sourcedId"]] = org["name"]
    data = OneRoster()
    for _n, user in _records(
        files["users.csv"], "users.csv", ("sourcedId", "givenName", "familyName")
    ):
        if _active(user):
            data.users[user["sourcedId"]] = (user["givenName"], user["familyName"])
    counts: dict[str, int] = {}
    for number, enrol in _records(
        files["enrollments.csv"],
        "enrollments.csv",
        ("classSourcedId", "userSourcedId", "role"),
    ):
        if _active(enrol) and enrol["role"].lower() == "student":
            data.enrollments.append((number, enrol["classSourcedId"], enrol["userSourcedId"]))
            counts[enrol["classSourcedId"]] = counts.get(enrol["classSourcedId"], 0) + 1
    for _n, row in _records(files["classes.csv"], "classes.csv", ("sourcedId", "title")):
        if _active(row):
            data.classes.append(
                OneRosterClass(
                    sourced_id=row["sourcedId"],
                    title=row["title"] or row["sourcedId"],
                    school=schools.get(row.get("schoolSourcedId", ""), ""),
                    students=counts.get(row["sourcedId"], 0),
                )
            )
    if not data.classes:
        _refuse("oneroster_no_classes", _("The OneRoster files hold no class."))
    data.classes.sort(key=lambda c: (_fold(c.school), _fold(c.title)))
    return data


def oneroster_candidates(data: OneRoster, class_id: str) -> list[Candidate]:
    """The students enrolled in the class (givenName familyName, sourcedId kept);
    an enrolment of an unknown user becomes a row with an empty name (an error)."""
    if class_id not in {c.sourced_id for c in data.classes}:
        _refuse("bad_mapping", _("Choose a class from the file."))
    result = []
    for row, klass, user_id in data.enrollments:
        if klass != class_id:
            continue
        given, family = data.users.get(user_id, ("", ""))
        name = " ".join(part for part in (given, family) if part)
        result.append(Candidate(row=row, name=name, source_id=user_id))
    return result
