"""Class lists in, never a silent misread (issue 37 §3), with files shaped like
the real exports (tests/classrooms/roster_files/: a Bakaláři print with a title,
the school's address and the print date in merged cells, cp1250, a BOM, a whole
grade with a class column, surname-first names)."""

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from classrooms import roster_import
from classrooms.errors import ClassroomError
from tests.classrooms import factories
from tests.classrooms.test_roster_import import _confirm, _names

pytestmark = pytest.mark.django_db

FILES = Path(__file__).resolve().parent / "roster_files"
PUPILS = [
    "David Žák",
    "Eliška Čermáková",
    "Jan Bartoš",
    "Klára Šimková",
    "Anna Chalupová",
    "Matěj Kříž",
    "Ondřej Řezníček",
    "Tereza Nováková",
    "Tomáš Dvořák",
    "Vojtěch Horák",
]


def _file(name: str) -> bytes:
    return (FILES / name).read_bytes()


def _upload(client, classroom, name):
    return client.post(
        f"/classes/{classroom.pk}/members/import/",
        {"files": [SimpleUploadedFile(name, _file(name))]},
    )


@pytest.mark.parametrize("name", ["bakalari_tisk.xlsx", "bakalari_tisk_cp1250.csv"])
def test_a_printed_list_finds_its_header_below_title_address_and_date(name):
    table = roster_import.read_upload(name, _file(name))
    assert table.headers[:3] == ["Č.", "Příjmení", "Jméno"]
    mapping = roster_import.guess_mapping(table)
    assert (mapping.first, mapping.last) == (2, 1)
    rows, left_out = roster_import.split_candidates(table, mapping)
    assert sorted(row.name for row in rows) == sorted(PUPILS)
    assert rows[0].row == 6  # the file's own row number (header at row 5)
    assert [(skipped.row, skipped.text, skipped.reason) for skipped in left_out] == [
        (17, "Počet žáků: 10", "address")
    ]


def test_no_number_date_address_or_header_is_ever_proposed_as_a_pupil():
    table = roster_import.Table(
        headers=["Celé jméno"],
        rows=[
            (2, ["1"]),
            (3, ["10."]),
            (4, ["1. 12. 2026"]),
            (5, ["2026-12-01"]),
            (6, ["Bílá 1234/12, 160 00 Praha"]),
            (7, ["Příjmení a jméno"]),
            (8, ["Seznam žáků třídy"]),
            (9, ["Tereza Nováková"]),
        ],
    )
    rows, left_out = roster_import.split_candidates(table, roster_import.guess_mapping(table))
    assert [row.name for row in rows] == ["Tereza Nováková"]
    assert [skipped.reason for skipped in left_out] == [
        "number",
        "number",
        "date",
        "date",
        "address",
        "header",
        "title",
    ]


def test_a_title_above_a_list_without_header_is_refused_naming_the_row_to_start_from():
    with pytest.raises(ClassroomError) as refused:
        roster_import.read_upload("bez_zahlavi.csv", _file("bez_zahlavi.csv"))
    assert refused.value.code == "no_header_row"
    assert "row 3" in refused.value.message


def test_the_printed_xlsx_imports_ten_pupils_and_nothing_else(teacher):
    classroom = factories.make_class(teacher, name="6.A")
    from django.test import Client

    client = Client()
    client.force_login(teacher)
    assert _upload(client, classroom, "bakalari_tisk.xlsx").status_code == 302
    page = client.get(f"/classes/{classroom.pk}/members/import/map/?preview=1")
    html = page.content.decode()
    assert page.status_code == 200, html
    preview = page.context["preview"]
    assert sorted(c.name for c in preview.new) == sorted(PUPILS) and not preview.errors
    mapping = page.context["mapping"]
    assert mapping.class_value == "6.A"  # the count under the list has no class: not a row
    response = _confirm(
        client,
        classroom,
        {
            "first": mapping.first,
            "last": mapping.last,
            "full": "",
            "class_column": mapping.class_column,
            "class_value": mapping.class_value,
        },
    )
    assert response.status_code == 302
    assert _names(classroom) == sorted(PUPILS)


def test_a_whole_grade_brings_only_the_class_of_the_same_name_by_default(teacher):
    classroom = factories.make_class(teacher, name="6. A")
    from django.test import Client

    client = Client()
    client.force_login(teacher)
    _upload(client, classroom, "rocnik6_bom.csv")
    page = client.get(f"/classes/{classroom.pk}/members/import/map/?preview=1")
    mapping = page.context["mapping"]
    assert mapping.class_value == "6.A"
    assert 'value="6.A" selected' in page.content.decode()
    preview = page.context["preview"]
    assert len(preview.new) == 10 and "Petr Novák" not in {c.name for c in preview.new}


def test_surname_first_names_are_read_by_their_header():
    table = roster_import.read_upload("rocnik6_bom.csv", _file("rocnik6_bom.csv"))
    mapping = roster_import.guess_mapping(table, class_name="6.A")
    assert mapping.surname_first is True
    names = [row.name for row in roster_import.candidates(table, mapping)]
    assert sorted(names) == sorted(PUPILS)


def test_surname_first_names_re_imported_match_the_roster_instead_of_ten_duplicates(teacher):
    classroom = factories.make_class(teacher, name="6.A", roster="\n".join(PUPILS))
    from django.test import Client

    client = Client()
    client.force_login(teacher)
    header_free = "Žák;Třída\n" + "\n".join(
        " ".join(reversed(name.split())) + ";6.A" for name in PUPILS
    )
    client.post(
        f"/classes/{classroom.pk}/members/import/",
        {"files": [SimpleUploadedFile("zaci.csv", header_free.encode("utf-8"))]},
    )
    page = client.get(f"/classes/{classroom.pk}/members/import/map/?preview=1")
    assert page.context["mapping"].surname_first is True  # from the roster, not the header
    preview = page.context["preview"]
    assert (len(preview.new), len(preview.unchanged)) == (0, 10)
    before = _names(classroom)
    response = _confirm(client, classroom, {"full": "0", "class_column": "1", "surname_first": "1"})
    assert response.status_code == 302 and _names(classroom) == before


def test_a_name_in_another_word_order_is_flagged_and_never_added(teacher):
    classroom = factories.make_class(teacher, name="6.A", roster="\n".join(PUPILS))
    from django.test import Client

    client = Client()
    client.force_login(teacher)
    text = "Celé jméno\nNováková Tereza\nNová Žákyně\n"
    client.post(
        f"/classes/{classroom.pk}/members/import/",
        {"files": [SimpleUploadedFile("zaci.csv", text.encode("utf-8"))]},
    )
    page = client.get(f"/classes/{classroom.pk}/members/import/map/?full=0&preview=1")
    preview = page.context["preview"]
    assert [c.name for c in preview.new] == ["Nová Žákyně"]
    assert [(c.name, m.roster_name) for c, m in preview.suspected] == [
        ("Nováková Tereza", "Tereza Nováková")
    ]
    assert 'data-change="suspected"' in page.content.decode()
    _confirm(client, classroom, {"full": "0"})
    assert _names(classroom) == sorted([*PUPILS, "Nová Žákyně"])


# --- issue 38 §3: the upload stays out of the session --------------------------------


def test_the_session_never_holds_the_parsed_upload(teacher):
    from django.contrib.sessions.models import Session
    from django.test import Client

    classroom = factories.make_class(teacher, name="6.A")
    client = Client()
    client.force_login(teacher)
    big = "Příjmení;Jméno;Třída;Poznámka\n" + "".join(
        f"Novák {_letters(i)};Jan;6.A;{'x' * 150}\n" for i in range(2000)
    )
    assert _upload_bytes(client, classroom, big.encode("utf-8")).status_code == 302
    session = Session.objects.get(session_key=client.session.session_key)
    decoded = session.get_decoded()
    assert not any(key.startswith("classrooms.roster-import") for key in decoded)
    assert len(session.session_data) < 1000  # the login, not 300 KB of a class list
    page = client.get(f"/classes/{classroom.pk}/members/import/map/?preview=1")
    assert page.status_code == 200 and len(page.context["preview"].new) == 2000


def _letters(number: int) -> str:
    """A distinct surname part without digits: 0 -> "Aaa", 1 -> "Aab"."""
    letters = ""
    for _position in range(3):
        number, digit = divmod(number, 26)
        letters = chr(ord("a") + digit) + letters
    return letters.capitalize()


def _upload_bytes(client, classroom, data: bytes, name: str = "zaci.csv"):
    return client.post(
        f"/classes/{classroom.pk}/members/import/",
        {"files": [SimpleUploadedFile(name, data)]},
    )


def test_rows_columns_and_cells_are_capped_with_stable_codes(teacher):
    from django.test import Client

    classroom = factories.make_class(teacher, name="6.A")
    client = Client()
    client.force_login(teacher)
    wide = ";".join(f"Sloupec {i}" for i in range(70)) + "\n" + ";".join("x" * 70) + "\n"
    many = "Jméno\n" + "".join(f"Jan{i}\n" for i in range(3100))
    cells = "Jméno;" + ";".join(f"S{i}" for i in range(39)) + "\n"
    cells += "".join("Jan;" + ";".join("1" * 39) + "\n" for _ in range(2000))
    for data, code in (
        (wide, "too_many_columns"),
        (many, "too_many_rows"),
        (cells, "too_many_cells"),
    ):
        response = _upload_bytes(client, classroom, data.encode())
        assert response.status_code == 400
        assert f'data-error-code="{code}"' in response.content.decode()


def test_an_id_column_is_kept_and_comes_back_in_the_exports(teacher):
    from django.test import Client

    classroom = factories.make_class(teacher, name="6.A")
    client = Client(headers={"accept-language": "en"})
    client.force_login(teacher)
    text = "Příjmení;Jméno;ID žáka\nNováková;Tereza;B-1001\nChalupa;Jan;B-1002\n"
    _upload_bytes(client, classroom, text.encode("cp1250"))
    page = client.get(f"/classes/{classroom.pk}/members/import/map/?preview=1")
    mapping = page.context["mapping"]
    assert mapping.id_column == 2
    _confirm(client, classroom, {"first": "1", "last": "0", "full": "", "id_column": "2"})
    assert dict(classroom.members.values_list("roster_name", "source_id")) == {
        "Tereza Nováková": "B-1001",
        "Jan Chalupa": "B-1002",
    }
    text = client.get(f"/classes/{classroom.pk}/results/participation.csv").content.decode()
    assert "Chalupa,Jan,B-1002" in text and "Nováková,Tereza,B-1001" in text
