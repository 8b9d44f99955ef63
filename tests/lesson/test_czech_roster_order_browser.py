"""Rosters in Czech order (issue 31, low: "Čeněk" after "Lukáš"), at 1280×800.

Seen: the class's student list, reports and exports sorted names by code point,
so Č, Ř, Š, Ž came after Z and "Chrudoš" stood among the C's. Czech (and Slovak)
put Č after C, Ch after H, Ř after R, Š after S and Ž after Z.
"""

import csv
import io

import pytest
from django.utils import translation
from playwright.sync_api import expect

from classrooms import collation, selectors
from tests.classrooms import factories
from tests.classrooms.login import log_in

pytestmark = [pytest.mark.browser, pytest.mark.live]

LAPTOP = {"width": 1280, "height": 800}
SHUFFLED = [
    "Žofie Malá",
    "Lukáš Novák",
    "Čeněk Horák",
    "Zdeněk Bílý",
    "Chrudoš Veselý",
    "Cyril Černý",
    "Hana Dvořáková",
    "Řehoř Kos",
    "Rudolf Tichý",
    "Šimon Krátký",
    "Sára Nová",
    "Ivan Malý",
    "adam Malý",
    "Ábel Dlouhý",
]
BY_SURNAME = [
    "Zdeněk Bílý",
    "Cyril Černý",
    "Ábel Dlouhý",
    "Hana Dvořáková",
    "Čeněk Horák",
    "Řehoř Kos",
    "Šimon Krátký",
    "Žofie Malá",
    "adam Malý",
    "Ivan Malý",
    "Sára Nová",
    "Lukáš Novák",
    "Rudolf Tichý",
    "Chrudoš Veselý",
]
CZECH = [
    "Ábel Dlouhý",
    "adam Malý",
    "Cyril Černý",
    "Čeněk Horák",
    "Hana Dvořáková",
    "Chrudoš Veselý",
    "Ivan Malý",
    "Lukáš Novák",
    "Rudolf Tichý",
    "Řehoř Kos",
    "Sára Nová",
    "Šimon Krátký",
    "Zdeněk Bílý",
    "Žofie Malá",
]


def test_roster_lists_sort_names_in_czech_and_slovak(transactional_db):
    classroom = factories.make_class(roster="\n".join(SHUFFLED))
    listed = selectors.in_roster_order(selectors.roster(classroom))
    assert [member.roster_name for member in listed] == CZECH
    assert [row.member.roster_name for row in selectors.participation(classroom)] == CZECH
    with translation.override("sk"):
        slovak = selectors.in_roster_order(selectors.roster(classroom))
        assert [member.roster_name for member in slovak] == CZECH
    assert collation.sort_by_name(["Ota", "Ôdor", "Oto"], str, "sk") == ["Ota", "Oto", "Ôdor"]


def test_the_students_page_and_the_export_list_names_in_czech(
    transactional_db, browser, asgi_server
):
    teacher = factories.make_teacher("abeceda@skola.cz")
    classroom = factories.make_class(teacher, roster="\n".join(SHUFFLED))
    context = browser.new_context(base_url=asgi_server, viewport=LAPTOP, locale="cs-CZ")
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in(page, teacher)

    page.goto(f"/classes/{classroom.pk}/members/")
    rows = page.locator("tr[data-member] td:first-child a")
    expect(rows).to_have_count(len(CZECH))
    assert rows.all_inner_texts() == CZECH

    answer = page.request.get(f"/classes/{classroom.pk}/results/participation.csv")
    assert answer.ok
    table = list(csv.reader(io.StringIO(answer.text().lstrip("\ufeff")), delimiter=";"))
    # the export is in a class list's order: by surname, then first name (issue 37 §4)
    names = [f"{row[1]} {row[0]}" for row in table[1:] if row and f"{row[1]} {row[0]}" in CZECH]
    assert names == BY_SURNAME
    context.close()
