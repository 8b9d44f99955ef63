"""Writes the class-list fixtures shaped like real school exports (issue 37 §3).

Run ``python -m tests.classrooms.roster_files.make_files`` to write them again;
the files themselves are what the tests read.
"""

from pathlib import Path

HERE = Path(__file__).resolve().parent

PUPILS_6A = [
    ("Bartoš", "Jan", "12.03.2014"),
    ("Čermáková", "Eliška", "02.07.2014"),
    ("Dvořák", "Tomáš", "21.01.2014"),
    ("Horák", "Vojtěch", "09.11.2013"),
    ("Chalupová", "Anna", "30.05.2014"),
    ("Kříž", "Matěj", "17.08.2014"),
    ("Nováková", "Tereza", "04.04.2014"),
    ("Řezníček", "Ondřej", "26.09.2013"),
    ("Šimková", "Klára", "13.12.2013"),
    ("Žák", "David", "08.06.2014"),
]
PUPILS_6B = [("Adamcová", "Lucie"), ("Beneš", "Filip"), ("Novák", "Petr")]
TITLE = "Seznam žáků třídy 6.A – školní rok 2026/2027"
SCHOOL = "Základní škola Praha 6, Bílá 1234/12, 160 00 Praha"
PRINTED = "Vytištěno: 1. 12. 2026 10:15"


def printed_xlsx() -> None:
    """A Bakaláři list printed to Excel: title, address and print date in merged
    cells above the header, numbered rows, a count at the bottom."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Žáci"
    for row, text in ((1, TITLE), (2, SCHOOL), (3, PRINTED)):
        sheet.cell(row=row, column=1, value=text)
        sheet.merge_cells(start_row=row, start_column=1, end_row=row, end_column=5)
    sheet.append([])
    sheet.append(["Č.", "Příjmení", "Jméno", "Datum narození", "Třída"])
    for number, (last, first, born) in enumerate(PUPILS_6A, start=1):
        sheet.append([number, last, first, born, "6.A"])
    sheet.append([])
    sheet.append(["Počet žáků: 10"])
    sheet.merge_cells(start_row=sheet.max_row, start_column=1, end_row=sheet.max_row, end_column=3)
    book.save(HERE / "bakalari_tisk.xlsx")


def printed_csv_cp1250() -> None:
    """The same print saved as CSV in Windows-1250 with ';'."""
    lines = [TITLE, SCHOOL, PRINTED, "", "Č.;Příjmení;Jméno;Datum narození;Třída"]
    lines += [
        f"{n};{last};{first};{born};6.A" for n, (last, first, born) in enumerate(PUPILS_6A, 1)
    ]
    lines += ["", "Počet žáků: 10"]
    (HERE / "bakalari_tisk_cp1250.csv").write_bytes("\r\n".join(lines).encode("cp1250"))


def grade_bom_csv() -> None:
    """A whole grade (6.A and 6.B) with a class column and surname-first names,
    UTF-8 with a byte-order mark, as EduPage / Škola OnLine export it."""
    lines = ["Příjmení a jméno;Třída;Číslo"]
    rows = [(f"{last} {first}", "6.A") for last, first, _born in PUPILS_6A]
    rows += [(f"{last} {first}", "6.B") for last, first in PUPILS_6B]
    lines += [f"{name};{klass};{i}" for i, (name, klass) in enumerate(sorted(rows), start=1)]
    (HERE / "rocnik6_bom.csv").write_bytes(("\ufeff" + "\r\n".join(lines)).encode("utf-8"))


def title_without_header_csv() -> None:
    """A title and the names, but no header row: refused with the row to start from."""
    lines = [TITLE, ""] + [f"{first};{last}" for last, first, _born in PUPILS_6A]
    (HERE / "bez_zahlavi.csv").write_bytes("\r\n".join(lines).encode("cp1250"))


if __name__ == "__main__":
    printed_xlsx()
    printed_csv_cp1250()
    grade_bom_csv()
    title_without_header_csv()
