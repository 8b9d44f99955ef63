"""Marks out (issue 37 §4): the class reports' files name each pupil as a
school's list does -- surname and first name apart, in Czech alphabetical order
by surname (Ch after H; Č, Ř, Š, Ž after C, R, S, Z) -- with the pupil's
identifier in the school system or LMS, so they paste next to a Bakaláři or
EduPage list."""

import csv
import io

import pytest
from openpyxl import load_workbook

from classrooms import collation
from tests.classrooms import factories

pytestmark = pytest.mark.django_db

SHUFFLED = [
    "Žofie Žáková",
    "Jan Chalupa",
    "Sára Šimková",
    "Eva Cibulková",
    "Petr Hora",
    "Rudolf Řezník",
    "Ota Čapek",
    "Radek Rys",
    "Stanislav Sýkora",
    "Zuzana Zelená",
]
BY_SURNAME = [
    ("Cibulková", "Eva"),
    ("Čapek", "Ota"),
    ("Hora", "Petr"),
    ("Chalupa", "Jan"),
    ("Rys", "Radek"),
    ("Řezník", "Rudolf"),
    ("Sýkora", "Stanislav"),
    ("Šimková", "Sára"),
    ("Zelená", "Zuzana"),
    ("Žáková", "Žofie"),
]


def test_names_sort_by_surname_in_czech_and_ids_read_as_the_school_writes_them():
    ordered = collation.sort_by_surname(SHUFFLED, str, "cs")
    assert [collation.split_name(name) for name in ordered] == BY_SURNAME
    assert collation.external_id("lti:8f2c") == "8f2c"
    assert collation.external_id("OR-17") == "OR-17"


def test_the_participation_files_have_surname_first_name_and_id_in_class_list_order(
    teacher_client, teacher
):
    classroom = factories.make_class(teacher, name="6.A", roster="\n".join(SHUFFLED))
    classroom.members.filter(roster_name="Jan Chalupa").update(source_id="lti:8f2c")
    classroom.members.filter(roster_name="Ota Čapek").update(source_id="OR-17")
    text = teacher_client.get(
        f"/classes/{classroom.pk}/results/participation.csv", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode("utf-8")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0][:4] == ["Surname", "First name", "ID in the school system", "Nickname"]
    assert [tuple(row[:2]) for row in rows[1:]] == BY_SURNAME
    ids = {row[0]: row[2] for row in rows[1:]}
    assert (ids["Chalupa"], ids["Čapek"], ids["Hora"]) == ("8f2c", "OR-17", "")

    sheet = load_workbook(
        io.BytesIO(
            teacher_client.get(f"/classes/{classroom.pk}/results/participation.xlsx").content
        )
    ).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows(min_row=2)]
    assert [tuple(row[:2]) for row in values] == BY_SURNAME
