"""The catalogue data matches spec §5, and every effect uses the documented vocabulary."""

from collections import Counter

import pytest

from games.theorems.rules import CATALOGUE, FIELDS, STARTER_DECKS, validate_deck
from games.theorems.rules.catalogue import KINDS, LANGUAGES

AL, NT, GE, AN, CO = "algebra", "number_theory", "geometry", "analysis", "combinatorics"

# spec §5, mathematicians: fields, patience T, ambition C
MATHEMATICIANS = {
    "euler": ({NT, AN, CO}, 6, 4),
    "galois": ({AL}, 4, 3),
    "noether": ({AL}, 7, 4),
    "gauss": ({NT}, 7, 4),
    "fermat": ({NT}, 10, 5),
    "euclid": ({GE}, 7, 4),
    "hypatia": ({GE}, 7, 4),
    "bolzano": ({AN}, 7, 4),
    "cauchy": ({AN}, 7, 4),
    "riemann": ({AN}, 4, 3),
    "erdos": ({CO}, 10, 5),
    "jarnik": ({CO}, 7, 4),
}

# spec §5, theorems: Czech name, fields, difficulty
THEOREMS = {
    "cayley_theorem": ("Cayleyho věta", {AL}, 2),
    "binomial_theorem": ("Binomická věta", {AL, CO}, 3),
    "cayley_hamilton": ("Cayleyho–Hamiltonova věta", {AL}, 4),
    "sylow_theorems": ("Sylowovy věty", {AL}, 5),
    "lagrange_theorem": ("Lagrangeova věta", {AL}, 6),
    "fundamental_theorem_of_algebra": ("Základní věta algebry", {AL}, 7),
    "abel_ruffini": ("Abelova–Ruffiniho věta", {AL}, 8),
    "euclid_primes": ("Eukleidova věta o prvočíslech", {NT}, 2),
    "fermat_little": ("Malá Fermatova věta", {NT}, 3),
    "wilson_theorem": ("Wilsonova věta", {NT}, 4),
    "fundamental_theorem_of_arithmetic": ("Základní věta aritmetiky", {NT}, 5),
    "chinese_remainder": ("Čínská zbytková věta", {NT}, 5),
    "fermat_last": ("Velká Fermatova věta", {NT}, 8),
    "riemann_hypothesis": ("Riemannova hypotéza", {NT, AN}, 6),
    "pythagoras": ("Pythagorova věta", {GE}, 2),
    "thales": ("Thaletova věta", {GE}, 2),
    "ceva": ("Cevova věta", {GE}, 3),
    "ptolemy": ("Ptolemaiova věta", {GE}, 4),
    "euler_line": ("Eulerova přímka", {GE}, 5),
    "morley": ("Morleyho věta", {GE}, 6),
    "gauss_bonnet": ("Gaussova–Bonnetova věta", {GE, AN}, 7),
    "poincare_conjecture": ("Poincarého domněnka", {GE}, 8),
    "rolle": ("Rolleova věta", {AN}, 2),
    "bolzano_theorem": ("Bolzanova věta", {AN}, 3),
    "squeeze_theorem": ("Věta o třech limitách", {AN}, 3),
    "mean_value_theorem": ("Věta o střední hodnotě", {AN}, 4),
    "banach_fixed_point": ("Banachova věta o pevném bodě", {AN}, 5),
    "newton_leibniz": ("Newtonova–Leibnizova formule", {AN}, 6),
    "pigeonhole": ("Dirichletův princip", {CO}, 2),
    "euler_paths": ("Eulerova věta o tazích", {CO}, 3),
    "euler_polyhedron": ("Eulerova formule pro mnohostěny", {CO, GE}, 4),
    "hall_theorem": ("Hallova věta", {CO}, 5),
    "ramsey_theorem": ("Ramseyova věta", {CO}, 6),
    "four_colour": ("Věta o čtyřech barvách", {CO}, 7),
}

TRIGGERS = {"on_play", "proven", "while_proven", "while_in_play", "on_use", "end_of_turn"}
OPS = {
    "draw",
    "boredom",
    "actions",
    "patience",
    "ambition",
    "progress",
    "difficulty",
    "discard_from_hand",
    "steal",
    "repeat",
    "fetch",
    "free_reshuffle",
}
MODIFIERS = {"difficulty", "ambition", "patience", "opponent_hand_limit", "riemann_prove_rule"}


def test_catalogue_has_the_68_cards_of_the_spec_by_kind():
    counts = Counter(card.kind for card in CATALOGUE.values())
    assert counts == {
        "mathematician": 12,
        "theorem": 34,
        "event": 10,
        "tool": 6,
        "definition": 6,
    }
    assert len(CATALOGUE) == 68
    assert all(card.kind in KINDS for card in CATALOGUE.values())


def test_every_card_is_named_in_czech_slovak_and_english():
    for card in CATALOGUE.values():
        assert set(card.names) == set(LANGUAGES), card.id
        assert all(card.name(language).strip() for language in LANGUAGES)


@pytest.mark.parametrize("card_id", sorted(MATHEMATICIANS))
def test_mathematician_data_matches_spec(card_id):
    card = CATALOGUE[card_id]
    assert (set(card.fields), card.patience, card.ambition) == MATHEMATICIANS[card_id]


@pytest.mark.parametrize("card_id", sorted(THEOREMS))
def test_theorem_data_matches_spec(card_id):
    card = CATALOGUE[card_id]
    assert (card.name("cs"), set(card.fields), card.difficulty) == THEOREMS[card_id]


def test_every_field_is_one_of_the_five_named_fields():
    assert set(FIELDS) == {AL, NT, GE, AN, CO}
    for card in CATALOGUE.values():
        assert set(card.fields) <= set(FIELDS)


def test_every_effect_uses_the_documented_vocabulary():
    for card in CATALOGUE.values():
        for effect in card.effects:
            assert effect["trigger"] in TRIGGERS, card.id
            for op in (*effect.get("cost", ()), *effect.get("ops", ())):
                assert op["op"] in OPS, (card.id, op)
            for modifier in effect.get("modifiers", ()):
                assert modifier["modifier"] in MODIFIERS, (card.id, modifier)


def test_every_playable_card_except_the_mathematicians_has_an_effect():
    for card in CATALOGUE.values():
        assert bool(card.effects) == (card.kind != "mathematician"), card.id


def test_every_tool_is_used_once_with_one_effect():
    for card in CATALOGUE.values():
        if card.kind == "tool":
            assert len(card.effects_for("on_use")) == 1


def test_catalogue_cannot_be_changed_at_runtime():
    with pytest.raises(TypeError):
        CATALOGUE["new"] = CATALOGUE["euler"]  # type: ignore[index]
    with pytest.raises(TypeError):
        CATALOGUE["thales"].effects[0]["ops"][0]["amount"] = 5  # type: ignore[index]


def test_card_to_dict_is_plain_json_data():
    data = CATALOGUE["lagrange_theorem"].to_dict()
    assert data["difficulty"] == 6
    assert data["effects"][0]["modifiers"][0] == {
        "modifier": "difficulty",
        "amount": -1,
        "scope": "field",
        "field": AL,
    }


def test_two_starter_decks_are_valid_decks():
    assert len(STARTER_DECKS) == 2
    for deck in STARTER_DECKS:
        validate_deck(deck.mathematician, list(deck.deck))
        assert set(deck.names) == set(LANGUAGES)
