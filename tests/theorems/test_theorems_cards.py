"""Spec §5: the effect of every card of the catalogue."""

import pytest

from games.theorems.rules import CATALOGUE, IllegalMove, legal_actions, view
from games.theorems.rules.derived import ambition, difficulty, patience

from .theorems_helpers import act, choose, progress, seat, table

FILLER = ("rolle", "pigeonhole", "thales", "coffee", "holidays", "eureka", "ceva", "ptolemy")

# the immediate ■ effects that need no choice, as changes for the prover and the opponent
IMMEDIATE = {
    "cayley_theorem": {"cards": 1},
    "binomial_theorem": {"cards": 1, "boredom": -1},
    "cayley_hamilton": {"actions": 2},
    "sylow_theorems": {"opponent_boredom": 1, "cards": 2},
    "lagrange_theorem": {"cards": 1},
    "fundamental_theorem_of_algebra": {"ambition": -1},
    "abel_ruffini": {"opponent_boredom": 2, "patience": 2, "cards": 1},
    "euclid_primes": {"cards": 1},
    "fermat_little": {"boredom": -1, "cards": 1},
    "wilson_theorem": {"actions": 1, "cards": 1},
    "fundamental_theorem_of_arithmetic": {},
    "chinese_remainder": {"boredom": -1},
    "fermat_last": {"ambition": -1, "patience": 1},
    "pythagoras": {"cards": 1},
    "thales": {"boredom": -1},
    "ceva": {},
    "ptolemy": {"cards": 2},
    "euler_line": {"cards": 1},
    "morley": {"actions": 1, "cards": 2, "boredom": -1},
    "gauss_bonnet": {"patience": 2, "opponent_boredom": 2, "cards": 1},
    "poincare_conjecture": {"patience": 3, "boredom": -2, "cards": 1},
    "rolle": {"cards": 1},
    "bolzano_theorem": {"boredom": -1, "cards": 1},
    "squeeze_theorem": {},
    "mean_value_theorem": {"cards": 1},
    "newton_leibniz": {"cards": 2, "actions": 1},
    "pigeonhole": {"cards": 1},
    "euler_paths": {"boredom": -1, "cards": 1},
    "euler_polyhedron": {"cards": 2},
    "hall_theorem": {"cards": 1},
    "ramsey_theorem": {"opponent_boredom": 1, "actions": 1, "cards": 2},
    "four_colour": {"patience": 2, "cards": 2},
}


def measure(state):
    me, other = state.players
    return {
        "cards": len(me.hand),
        "boredom": me.boredom,
        "actions": state.actions_left,
        "patience": patience(state, 0),
        "ambition": ambition(state, 0),
        "opponent_boredom": other.boredom,
    }


def ready_to_prove(card, others=()):
    """A theorem one Prove away from being proven (Erdős vs Fermat, 3 boredom)."""
    state = table(seat("erdos", theorems=(card, *others), draw=FILLER, boredom=3), seat("fermat"))
    entry = state.players[0].theorems[0]
    entry.progress = difficulty(state, 0, entry) - 1
    return state


def test_every_theorem_is_covered_by_an_effect_test():
    theorems = {c for c, card in CATALOGUE.items() if card.kind == "theorem"}
    assert theorems - set(IMMEDIATE) == {"riemann_hypothesis", "banach_fixed_point"}


@pytest.mark.parametrize(("card", "expected"), sorted(IMMEDIATE.items()))
def test_proving_a_theorem_has_its_immediate_effect(card, expected):
    state = ready_to_prove(card)
    before = measure(state)
    state = act(state, "prove", card)
    assert state.players[0].proven == [card]
    after = measure(state)
    changes = {key: after[key] - before[key] for key in after}
    changes["actions"] += 1  # the Prove action itself
    assert {k: v for k, v in changes.items() if v} == expected


# --- theorems with choices or lasting effects ---------------------------------------------


def test_chinese_remainder_gives_two_progress_to_a_chosen_theorem():
    state = ready_to_prove("chinese_remainder", others=("ptolemy", "morley"))
    state = act(state, "prove", "chinese_remainder")
    assert state.decision.kind == "own_theorem" and state.decision.options == ["ptolemy", "morley"]
    state = choose(state, "morley")
    assert progress(state, 0, "morley") == 2 and progress(state, 0, "ptolemy") == 0


def test_hall_theorem_progress_can_prove_another_theorem_whose_effect_follows():
    state = ready_to_prove("hall_theorem", others=("thales",))
    state = act(state, "prove", "hall_theorem")
    assert state.players[0].proven == ["hall_theorem", "thales"]
    assert state.players[0].boredom == 3 - 1


def test_newton_leibniz_gives_one_progress_to_a_theorem():
    state = ready_to_prove("newton_leibniz", others=(("ptolemy", 1),))
    state = act(state, "prove", "newton_leibniz")
    assert progress(state, 0, "ptolemy") == 2


def test_ceva_makes_a_chosen_theorem_permanently_one_easier():
    state = ready_to_prove("ceva", others=("morley", "poincare_conjecture"))
    state = act(state, "prove", "ceva")
    state = choose(state, "morley")
    entry = state.players[0].theorem("morley")
    assert entry.difficulty_delta == -1 and difficulty(state, 0, entry) == 5


def test_lagrange_makes_your_algebra_theorems_easier_while_proven():
    state = table(
        seat("euclid", proven=("lagrange_theorem",), theorems=("sylow_theorems",)),
        seat("euclid", theorems=("sylow_theorems",)),
    )
    assert difficulty(state, 0, state.players[0].theorems[0]) == 4
    assert difficulty(state, 1, state.players[1].theorems[0]) == 5


def test_euler_line_makes_your_geometry_theorems_easier_while_proven():
    state = table(seat(proven=("euler_line",), theorems=("morley", "rolle")))
    assert [difficulty(state, 0, e) for e in state.players[0].theorems] == [5, 2]


def test_fundamental_theorem_of_algebra_lowers_ambition_so_fewer_theorems_win():
    state = table(
        seat(proven=("fundamental_theorem_of_algebra", "rolle", "thales"), draw=FILLER),
        seat("euclid"),
    )
    assert ambition(state, 0) == 3
    assert act(state, "end_turn").winners == [0]


def test_ambition_never_drops_below_one():
    state = table(seat("galois", proven=("fundamental_theorem_of_algebra", "fermat_last")))
    state.players[0].ambition_bonus = -5
    assert ambition(state, 0) == 1


def test_fermat_last_costs_one_boredom_when_played():
    state = table(seat(hand=("fermat_last",)))
    state = act(state, "play", "fermat_last")
    assert state.players[0].boredom == 1


def test_fundamental_theorem_of_arithmetic_draws_at_end_of_turn_only_while_proven():
    state = table(
        seat(theorems=("fundamental_theorem_of_arithmetic",), draw=("rolle", "ceva")),
        seat("euclid"),
    )
    assert act(state, "end_turn").players[0].hand == []
    state.players[0].proven = [state.players[0].theorems.pop().card]
    assert act(state, "end_turn").players[0].hand == ["rolle"]


def test_mean_value_theorem_is_two_easier_while_an_opponent_has_more_proven():
    state = table(
        seat(theorems=("mean_value_theorem",), proven=("rolle",)),
        seat("euclid", proven=("thales",)),
    )
    entry = state.players[0].theorems[0]
    assert difficulty(state, 0, entry) == 4
    state.players[1].proven.append("ceva")
    assert difficulty(state, 0, entry) == 2


def test_mean_value_theorem_is_proven_when_an_opponent_overtakes():
    state = table(
        seat(theorems=(("mean_value_theorem", 2),), draw=FILLER),
        seat("euclid", theorems=(("thales", 0),), draw=FILLER),
        current=1,
    )
    state.players[1].theorems[0].progress = 0
    state = act(state, "prove", "thales")  # Eukleidés: Thales 2 - 1 = 1
    assert state.players[1].proven == ["thales"]
    assert state.players[0].proven == ["mean_value_theorem"]
    assert len(state.players[0].hand) == 1  # its ■ +1 Karet, during the opponent's turn


def test_four_colour_is_two_easier_while_you_have_a_tool_in_play():
    state = table(seat(theorems=("four_colour",)))
    entry = state.players[0].theorems[0]
    assert difficulty(state, 0, entry) == 7
    state.players[0].tools.append("computer")
    assert difficulty(state, 0, entry) == 5


def test_banach_takes_any_card_of_the_draw_pile_then_shuffles_it():
    state = ready_to_prove("banach_fixed_point")
    state = act(state, "prove", "banach_fixed_point")
    assert state.decision.kind == "draw_pile_card"
    assert state.decision.options == sorted(set(FILLER))
    assert "options" in view(state, 0)["decision"]
    assert "options" not in view(state, 1)["decision"]
    state = choose(state, "ptolemy")
    player = state.players[0]
    assert "ptolemy" in player.hand and "ptolemy" not in player.draw_pile
    assert len(player.draw_pile) == len(FILLER) - 1


def test_banach_with_an_empty_draw_pile_reshuffles_first():
    state = ready_to_prove("banach_fixed_point")
    state.players[0].discard_pile = state.players[0].draw_pile
    state.players[0].draw_pile = []
    state = act(state, "prove", "banach_fixed_point")
    assert state.players[0].reshuffles == 1 and state.players[0].boredom == 4
    assert state.decision.kind == "draw_pile_card"


# --- events ------------------------------------------------------------------------------


def test_stolen_idea_takes_a_random_card_that_stays_yours():
    state = table(
        seat(hand=("stolen_idea",), draw=FILLER), seat("euclid", hand=("morley", "ptolemy", "ceva"))
    )
    state = act(state, "play", "stolen_idea")
    stolen = state.players[0].hand
    assert len(stolen) == 1 and stolen[0] in ("morley", "ptolemy", "ceva")
    assert len(state.players[1].hand) == 2
    assert "card" in state.log[-1] and state.log[-1]["card"] is None  # hidden from the table
    state = act(state, "play", stolen[0])
    assert state.players[0].theorem(stolen[0]) is not None


def test_stolen_idea_chooses_among_opponents_and_fizzles_on_an_empty_hand():
    state = table(seat(hand=("stolen_idea",)), seat("euclid"), seat("hypatia", hand=("rolle",)))
    state = act(state, "play", "stolen_idea")
    assert state.decision.kind == "opponent" and state.decision.options == [1, 2]
    state = choose(state, 1)
    assert state.players[0].hand == [] and state.players[0].discard_pile == ["stolen_idea"]


def test_recursion_is_not_playable_without_an_earlier_event():
    state = table(seat(hand=("recursion", "holidays")))
    with pytest.raises(IllegalMove) as error:
        act(state, "play", "recursion")
    assert error.value.code == "nothing_to_repeat"


def test_recursion_repeats_the_last_other_event_played_this_turn():
    state = table(seat(hand=("recursion", "coffee", "holidays"), boredom=5))
    state = act(act(state, "play", "coffee"), "play", "holidays")
    state = act(state, "play", "recursion")
    assert state.players[0].boredom == 1 and state.actions_left == 3 + 2 - 3
    assert state.players[0].discard_pile == ["coffee", "holidays", "recursion"]


def test_recursion_does_not_remember_events_of_earlier_turns():
    state = table(seat(hand=("recursion", "coffee")), seat("euclid"))
    state = act(act(state, "play", "coffee"), "end_turn")
    state = act(state, "end_turn")
    assert {"type": "play", "player": 0, "card": "recursion"} not in legal_actions(state)


def test_calculator_gives_all_your_theorems_one_progress():
    state = table(
        seat(hand=("calculator",), theorems=("ptolemy", "morley")),
        seat("euclid", theorems=("ceva",)),
    )
    state = act(state, "play", "calculator")
    assert progress(state, 0, "ptolemy") == progress(state, 0, "morley") == 1
    assert progress(state, 1, "ceva") == 0


def test_coffee_gives_two_actions():
    state = table(seat(hand=("coffee",)))
    assert act(state, "play", "coffee").actions_left == 4


def test_eureka_gives_two_progress_to_a_chosen_theorem():
    state = table(seat(hand=("eureka",), theorems=("ptolemy", "morley")))
    state = choose(act(state, "play", "eureka"), "ptolemy")
    assert progress(state, 0, "ptolemy") == 2 and progress(state, 0, "morley") == 0


def test_an_event_without_a_target_is_still_played_and_does_nothing():
    state = table(seat(hand=("eureka",)))
    state = act(state, "play", "eureka")
    assert state.players[0].discard_pile == ["eureka"] and state.actions_left == 2


def test_boring_lecture_bores_a_chosen_opponent_by_two():
    state = table(seat(hand=("boring_lecture",)), seat("euclid"), seat("hypatia"))
    state = choose(act(state, "play", "boring_lecture"), 2)
    assert [p.boredom for p in state.players] == [0, 0, 2]


def test_peer_review_makes_an_opponents_theorem_two_harder():
    state = table(seat(hand=("peer_review",)), seat("euclid", theorems=("ptolemy", "morley")))
    state = choose(act(state, "play", "peer_review"), {"player": 1, "card": "morley"})
    entry = state.players[1].theorem("morley")
    assert entry.difficulty_delta == 2 and difficulty(state, 1, entry) == 7


def test_conference_draws_three_cards():
    state = table(seat(hand=("conference",), draw=FILLER))
    assert act(state, "play", "conference").players[0].hand == list(FILLER[:3])


def test_holidays_removes_two_boredom():
    state = table(seat(hand=("holidays",), boredom=3))
    assert act(state, "play", "holidays").players[0].boredom == 1


# --- tools ---------------------------------------------------------------------------------


def test_blackboard_discards_a_chosen_card_then_draws_two():
    state = table(seat(hand=("morley", "ceva"), tools=("blackboard",), draw=FILLER))
    state = choose(act(state, "use", "blackboard"), "ceva")
    player = state.players[0]
    assert player.discard_pile == ["ceva"] and player.hand == ["morley", "rolle", "pigeonhole"]


def test_ruler_and_compass_costs_boredom_and_advances_a_geometry_theorem():
    state = table(seat(tools=("ruler_and_compass",), theorems=("rolle", "morley")))
    state = act(state, "use", "ruler_and_compass")
    assert state.players[0].boredom == 1
    assert progress(state, 0, "morley") == 2 and progress(state, 0, "rolle") == 0


def test_computer_costs_boredom_and_advances_any_theorem():
    state = table(seat(tools=("computer",), theorems=("rolle", "morley")))
    state = choose(act(state, "use", "computer"), "rolle")
    assert state.players[0].proven == ["rolle"] and state.players[0].boredom == 1


def test_abacus_discards_a_card_and_advances_a_number_theory_theorem():
    state = table(seat(hand=("ceva",), tools=("abacus",), theorems=("morley", "wilson_theorem")))
    state = act(state, "use", "abacus")
    assert state.players[0].discard_pile == ["ceva"]
    assert progress(state, 0, "wilson_theorem") == 2 and progress(state, 0, "morley") == 0


def test_coffee_machine_removes_one_boredom():
    state = table(seat(tools=("coffee_machine",), boredom=2))
    assert act(state, "use", "coffee_machine").players[0].boredom == 1


def test_library_costs_boredom_and_fetches_a_chosen_card_from_the_discard_pile():
    state = table(seat(tools=("library",), discard=("ceva", "morley")))
    state = act(state, "use", "library")
    assert state.decision.kind == "discard_pile_card"
    state = choose(state, "morley")
    player = state.players[0]
    assert player.hand == ["morley"] and player.discard_pile == ["ceva"] and player.boredom == 1


# --- definitions -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("definition", "theorem", "printed"),
    [
        ("group_definition", "lagrange_theorem", 6),
        ("prime_definition", "wilson_theorem", 4),
        ("euclid_axioms", "morley", 6),
        ("limit_definition", "newton_leibniz", 6),
        ("graph_definition", "ramsey_theorem", 6),
    ],
)
def test_field_definition_makes_your_theorems_of_its_field_one_easier(definition, theorem, printed):
    # Jarník's field matches none of these except combinatorics; Hypatia checks the rest
    state = table(
        seat("hypatia", theorems=(theorem, "rolle"), definition=definition),
        seat("hypatia", theorems=(theorem,)),
    )
    mine, other = state.players[0].theorems[0], state.players[1].theorems[0]
    field_bonus = 1 if "geometry" in CATALOGUE[theorem].fields else 0
    assert difficulty(state, 0, mine) == printed - field_bonus - 1
    assert difficulty(state, 1, other) == printed - field_bonus
    if theorem != "newton_leibniz":
        assert difficulty(state, 0, state.players[0].theorems[1]) == 2


def test_set_definition_adds_one_patience_while_in_play():
    state = table(seat(hand=("set_definition",)))
    assert patience(state, 0) == 7
    assert patience(act(state, "define", "set_definition"), 0) == 8
