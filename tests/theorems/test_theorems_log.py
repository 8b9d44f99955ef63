"""The log names cards in the case its sentence needs, in Czech and Slovak.

Issue 18: „The log declines card names wrongly („dokázal(a) Cevova věta" →
„Cevovu větu"): the catalogue needs the case forms the log uses, in cs and sk."
"""

from __future__ import annotations

import pytest
from django.utils import translation

from games.theorems import presentation
from games.theorems.rules import CATALOGUE


def test_ceva_is_proved_in_the_accusative():
    ceva = CATALOGUE["ceva"]
    assert presentation.case_form(ceva, "accusative", "cs") == "Cevovu větu"
    assert presentation.case_form(ceva, "accusative", "sk") == "Cevovu vetu"


@pytest.mark.parametrize("lang", ["cs", "sk"])
def test_every_card_a_log_line_can_name_has_its_accusative(lang):
    for card in CATALOGUE.values():
        if card.kind == "mathematician":
            continue
        form = presentation.CASES[card.id]["accusative"][lang]
        assert form and form[0].isupper(), (card.id, form)
        # the same words as the name, only their endings change
        assert len(form.split()) == len(card.name(lang).split()), (card.id, form)


def test_feminine_names_change_and_masculine_inanimate_ones_stay():
    assert presentation.case_form(CATALOGUE["fermat_little"], "accusative", "cs") == (
        "Malou Fermatovu větu"
    )
    assert presentation.case_form(CATALOGUE["chinese_remainder"], "accusative", "sk") == (
        "Čínsku zvyškovú vetu"
    )
    assert presentation.case_form(CATALOGUE["computer"], "accusative", "cs") == "Počítač"


def test_english_uses_the_plain_name():
    assert presentation.case_form(CATALOGUE["ceva"], "accusative", "en") == "Ceva's theorem"


def test_the_table_data_carries_the_accusative_in_the_page_language():
    with translation.override("cs"):
        cards = presentation.table_data()["cards"]
    assert cards["ceva"]["name"] == "Cevova věta"
    assert cards["ceva"]["accusative"] == "Cevovu větu"
