"""Spec §2–§3: definition phase, the four actions, proving, end of turn, boredom,
reshuffling, winning and losing."""

import pytest

from games.theorems.rules import IllegalMove, apply, effects, legal_actions, new_game

from .theorems_helpers import act, progress, seat, table

FILLER = ("rolle", "pigeonhole", "thales", "coffee", "holidays", "eureka")
TEN = (*FILLER, "ceva", "ptolemy", "morley", "calculator")


def codes_of(state, kind, card=None):
    with pytest.raises(IllegalMove) as error:
        act(state, kind, card)
    return error.value.code


# --- actions per turn ------------------------------------------------------------------


def test_start_player_has_two_actions_then_everyone_has_three():
    players = [
        {
            "mathematician": "euler",
            "deck": list(FILLER) + ["ptolemy", "ceva", "morley", "wilson_theorem"],
        }
        for _ in range(2)
    ]
    state = new_game(players, seed=2)
    first = state.current
    state = act(act(state, "draw"), "draw")
    assert state.actions_left == 0
    assert codes_of(state, "draw") == "no_actions_left"
    state = act(state, "end_turn")
    assert state.current != first and state.actions_left == 3
    state = act(state, "end_turn")
    assert state.current == first and state.actions_left == 3


def test_with_no_actions_left_only_ending_the_turn_remains():
    state = table(
        seat(hand=("coffee",), draw=FILLER, theorems=("rolle",)), actions=0, free_definition=False
    )
    assert legal_actions(state) == [{"type": "end_turn", "player": 0}]


def test_actions_may_be_mixed_and_repeated():
    state = table(seat(hand=("pythagoras", "thales"), draw=FILLER))
    state = act(act(act(state, "draw"), "play", "pythagoras"), "play", "thales")
    assert state.actions_left == 0
    assert [e.card for e in state.players[0].theorems] == ["pythagoras", "thales"]


def test_acting_out_of_turn_is_illegal():
    state = table(seat(draw=FILLER), seat("euclid", draw=FILLER))
    with pytest.raises(IllegalMove) as error:
        apply(state, {"type": "draw", "player": 1})
    assert error.value.code == "not_your_turn"


# --- definition phase ------------------------------------------------------------------


def test_free_definition_at_start_of_turn_costs_no_action():
    state = table(seat(hand=("prime_definition",)))
    state = act(state, "define", "prime_definition")
    assert state.players[0].definition == "prime_definition"
    assert state.actions_left == 3


def test_only_one_free_definition_per_turn():
    state = table(seat(hand=("prime_definition", "set_definition")))
    state = act(state, "define", "prime_definition")
    assert codes_of(state, "define", "set_definition") == "definition_phase_over"


def test_free_definition_only_before_the_first_action():
    state = table(seat(hand=("prime_definition",), draw=FILLER))
    state = act(state, "draw")
    assert codes_of(state, "define", "prime_definition") == "definition_phase_over"


def test_a_definition_can_still_be_played_later_for_an_action():
    state = table(seat(hand=("prime_definition",), draw=FILLER))
    state = act(act(state, "draw"), "play", "prime_definition")
    assert state.players[0].definition == "prime_definition"
    assert state.actions_left == 1


def test_only_definitions_are_laid_for_free():
    state = table(seat(hand=("pythagoras",)))
    assert codes_of(state, "define", "pythagoras") == "not_a_definition"


def test_a_new_definition_discards_the_old_one():
    state = table(seat(hand=("set_definition",), definition="prime_definition"))
    state = act(state, "define", "set_definition")
    assert state.players[0].definition == "set_definition"
    assert state.players[0].discard_pile == ["prime_definition"]


def test_the_same_definition_cannot_be_laid_twice():
    state = table(seat(hand=("set_definition",), definition="set_definition"))
    assert codes_of(state, "define", "set_definition") == "already_in_play"
    assert codes_of(state, "play", "set_definition") == "already_in_play"


# --- draw --------------------------------------------------------------------------------


def test_draw_takes_the_top_card_of_the_draw_pile():
    state = table(seat(draw=("ptolemy", "rolle")))
    state = act(state, "draw")
    assert state.players[0].hand == ["ptolemy"]
    assert state.players[0].draw_pile == ["rolle"]
    assert state.actions_left == 2


def test_draw_is_not_allowed_with_ten_cards_in_hand():
    state = table(seat(hand=TEN, draw=("pythagoras",)))
    assert codes_of(state, "draw") == "hand_limit"
    state = table(seat(hand=TEN[:9], draw=("pythagoras",)))
    assert len(act(state, "draw").players[0].hand) == 10


def test_effects_draw_above_the_hand_limit_and_nobody_discards():
    state = table(seat(hand=(*TEN, "conference"), draw=("pythagoras", "euler_line", "four_colour")))
    state = act(state, "play", "conference")
    assert len(state.players[0].hand) == 13


def test_draw_with_both_piles_empty_is_not_offered():
    state = table(seat())
    assert codes_of(state, "draw") == "nothing_to_draw"


# --- play ----------------------------------------------------------------------------------


def test_playing_a_theorem_or_tool_lays_it_on_the_table():
    state = table(seat(hand=("ptolemy", "computer")))
    state = act(act(state, "play", "ptolemy"), "play", "computer")
    player = state.players[0]
    assert [e.card for e in player.theorems] == ["ptolemy"] and player.tools == ["computer"]
    assert player.hand == [] and progress(state, 0, "ptolemy") == 0


def test_an_event_resolves_and_then_goes_to_the_discard_pile():
    state = table(seat(hand=("coffee",)))
    state = act(state, "play", "coffee")
    assert state.actions_left == 4
    assert state.players[0].discard_pile == ["coffee"]


def test_a_card_not_in_hand_cannot_be_played():
    state = table(seat(hand=("coffee",)))
    assert codes_of(state, "play", "holidays") == "card_not_in_hand"


def test_a_second_copy_of_a_card_in_play_or_proven_cannot_be_laid():
    state = table(
        seat(
            hand=("ptolemy", "rolle", "computer"),
            theorems=("ptolemy",),
            proven=("rolle",),
            tools=("computer",),
        )
    )
    for card in ("ptolemy", "rolle", "computer"):
        assert codes_of(state, "play", card) == "already_in_play"


# --- prove ---------------------------------------------------------------------------------


def test_prove_adds_one_progress():
    state = table(seat(theorems=("ptolemy",)))
    state = act(state, "prove", "ptolemy")
    assert progress(state, 0, "ptolemy") == 1 and state.actions_left == 2


def test_each_theorem_can_be_proved_only_once_per_turn():
    state = table(seat(theorems=("ptolemy", "morley")), seat("euclid"))
    state = act(state, "prove", "ptolemy")
    assert codes_of(state, "prove", "ptolemy") == "already_proved_this_turn"
    state = act(state, "prove", "morley")
    state = act(act(state, "end_turn"), "end_turn")
    assert progress(act(state, "prove", "ptolemy"), 0, "ptolemy") == 2


def test_only_own_theorems_in_play_can_be_proved():
    state = table(seat(proven=("rolle",)), seat("euclid", theorems=("ptolemy",)))
    assert codes_of(state, "prove", "ptolemy") == "theorem_not_in_play"
    assert codes_of(state, "prove", "rolle") == "theorem_not_in_play"


def test_theorem_is_proven_when_progress_reaches_difficulty():
    # Gauss is a number theorist, Ptolemaiova věta (geometry, 4) is not made easier
    state = table(seat(theorems=(("ptolemy", 2),)))
    state = act(state, "prove", "ptolemy")
    assert progress(state, 0, "ptolemy") == 3
    state = table(seat(theorems=(("ptolemy", 3),), draw=FILLER))
    state = act(state, "prove", "ptolemy")
    assert state.players[0].proven == ["ptolemy"] and state.players[0].theorems == []


def test_matching_field_makes_a_theorem_one_easier():
    # seed example: Galois proves Lagrangeova věta (6) with 5 progress
    state = table(seat("galois", theorems=(("lagrange_theorem", 4),), draw=FILLER))
    state = act(state, "prove", "lagrange_theorem")
    assert state.players[0].proven == ["lagrange_theorem"]


def test_a_two_field_theorem_is_one_easier_only_once():
    # Binomická věta (Algebra, Kombinatorika, 3) for Euler (3 fields incl. Kombinatorika)
    state = table(seat("euler", theorems=(("binomial_theorem", 1),), draw=FILLER))
    state = act(state, "prove", "binomial_theorem")
    assert state.players[0].proven == ["binomial_theorem"]


def test_difficulty_never_drops_below_one():
    state = table(
        seat(
            "euclid",
            theorems=("thales",),
            definition="euclid_axioms",
            proven=("euler_line",),
            draw=FILLER,
        )
    )
    assert state.players[0].theorems[0].progress == 0
    state = act(state, "prove", "thales")
    assert state.players[0].proven == ["euler_line", "thales"]


def test_a_drop_in_difficulty_proves_a_theorem_at_once():
    state = table(seat(hand=("euclid_axioms",), theorems=(("ptolemy", 3),), draw=FILLER))
    state = act(state, "define", "euclid_axioms")
    assert state.players[0].proven == ["ptolemy"]


# --- tools ---------------------------------------------------------------------------------


def test_each_tool_can_be_used_once_per_turn_for_one_action():
    state = table(seat(tools=("coffee_machine",), boredom=3))
    state = act(state, "use", "coffee_machine")
    assert state.actions_left == 2 and state.players[0].boredom == 2
    assert codes_of(state, "use", "coffee_machine") == "tool_already_used"


def test_only_tools_in_play_can_be_used():
    state = table(seat(hand=("coffee_machine",)))
    assert codes_of(state, "use", "coffee_machine") == "tool_not_in_play"


def test_a_tool_whose_cost_cannot_be_paid_cannot_be_used():
    state = table(seat(tools=("blackboard",), draw=FILLER))
    assert codes_of(state, "use", "blackboard") == "cost_not_payable"


# --- end of turn ------------------------------------------------------------------------------


def test_end_of_turn_burns_the_top_card_of_the_draw_pile():
    state = table(seat(draw=("morley", "rolle")), seat("euclid"))
    state = act(state, "end_turn")
    assert state.players[0].discard_pile == ["morley"]
    assert state.players[0].draw_pile == ["rolle"]
    assert state.current == 1


def test_small_deck_variant_skips_burning():
    state = table(seat(draw=("morley", "rolle")), seat("euclid"), burn=False)
    state = act(state, "end_turn")
    assert state.players[0].discard_pile == [] and len(state.players[0].draw_pile) == 2


def test_end_of_turn_effects_come_before_the_burn():
    # Základní věta aritmetiky draws the top card; the next one is burnt
    state = table(
        seat(proven=("fundamental_theorem_of_arithmetic",), draw=("morley", "rolle")),
        seat("euclid"),
    )
    state = act(state, "end_turn")
    assert state.players[0].hand == ["morley"] and state.players[0].discard_pile == ["rolle"]


def test_player_wins_at_end_of_turn_with_enough_proven_theorems():
    state = table(
        seat(proven=("rolle", "thales", "pigeonhole"), theorems=(("ptolemy", 3),), draw=FILLER),
        seat("euclid"),
    )
    state = act(state, "prove", "ptolemy")
    assert state.status == "running"  # proven, but victory waits for the end of the turn
    state = act(state, "end_turn")
    assert state.status == "finished" and state.winners == [0]
    assert legal_actions(state) == []
    with pytest.raises(IllegalMove) as error:
        apply(state, {"type": "end_turn", "player": 0})
    assert error.value.code == "game_over"


def test_only_the_player_ending_the_turn_can_win():
    state = table(
        seat(draw=FILLER), seat("euclid", proven=("rolle", "thales", "pigeonhole", "ceva"))
    )
    state = act(state, "end_turn")
    assert state.status == "running" and state.current == 1
    assert act(state, "end_turn").winners == [1]


def test_losing_to_the_burn_reshuffle_beats_winning():
    state = table(
        seat(proven=("rolle", "thales", "pigeonhole", "ceva"), discard=("morley",), boredom=6),
        seat("euclid"),
    )
    state = act(state, "end_turn")
    assert state.players[0].lost and state.winners == [1]


# --- boredom ------------------------------------------------------------------------------------


def test_boredom_reaching_patience_loses_at_once():
    state = table(seat(tools=("computer",), theorems=("ptolemy",), boredom=6), seat("euclid"))
    state = act(state, "use", "computer")
    assert state.players[0].lost
    assert state.status == "finished" and state.winners == [1]
    assert progress(state, 0, "ptolemy") == 0  # the loss came before the +2 Postup


def test_boredom_never_drops_below_zero():
    state = table(seat(hand=("holidays",), boredom=1))
    assert act(state, "play", "holidays").players[0].boredom == 0


def test_several_players_lose_at_once_and_the_last_one_wins():
    state = table(
        seat("euclid", theorems=(("abel_ruffini", 7),), draw=FILLER),
        seat("gauss", boredom=5),
        seat("fermat", boredom=8),
    )
    state = act(state, "prove", "abel_ruffini")
    assert state.players[1].lost and state.players[2].lost
    assert state.winners == [0]


def test_a_lost_player_is_skipped_and_play_goes_on():
    state = table(
        seat("euclid", hand=("boring_lecture",), draw=FILLER),
        seat("gauss", boredom=5),
        seat("fermat", draw=FILLER),
    )
    state = act(state, "play", "boring_lecture")
    state = apply(state, {"type": "choose", "player": 0, "choice": 1})
    assert state.players[1].lost and state.status == "running"
    state = act(state, "end_turn")
    assert state.current == 2


def test_everyone_losing_together_is_a_draw():
    state = table(seat(boredom=5), seat("euclid", boredom=5))
    effects.change_boredom(state, [0, 1], 2)
    assert state.players[0].lost and state.players[1].lost
    assert state.status == "finished" and state.winners == []


def test_losing_when_patience_drops_with_the_definition_that_raised_it():
    state = table(
        seat(hand=("prime_definition",), definition="set_definition", boredom=7), seat("euclid")
    )
    state = act(state, "define", "prime_definition")
    assert state.players[0].lost and state.winners == [1]


# --- reshuffling ------------------------------------------------------------------------------


def test_reshuffles_cost_one_then_two_then_three_boredom():
    state = table(seat("fermat", discard=("rolle",), draw=()), seat("erdos"))
    for expected_boredom in (1, 3, 6):
        state = act(state, "draw")
        player = state.players[0]
        assert player.boredom == expected_boredom and player.hand[-1] == "rolle"
        player.discard_pile = player.hand[:]
        player.hand = []
    assert state.players[0].reshuffles == 3


def test_burning_from_an_empty_draw_pile_reshuffles():
    state = table(seat(discard=("rolle", "thales")), seat("euclid"))
    state = act(state, "end_turn")
    player = state.players[0]
    assert player.reshuffles == 1 and player.boredom == 1
    assert len(player.draw_pile) == 1 and len(player.discard_pile) == 1


def test_with_both_piles_empty_nothing_happens():
    state = table(seat(hand=("conference",)), seat("euclid"))
    state = act(state, "play", "conference")
    player = state.players[0]
    assert player.hand == [] and player.reshuffles == 0 and player.boredom == 0
    state = act(state, "end_turn")
    # the burn then reshuffles Konference (the only card left) and burns it again
    player = state.players[0]
    assert player.reshuffles == 1 and player.boredom == 1
    assert player.discard_pile == ["conference"] and player.draw_pile == []


def test_a_reshuffle_in_the_middle_of_drawing_can_end_the_game_at_once():
    state = table(
        seat(hand=("conference",), draw=("rolle",), discard=("ceva", "morley"), boredom=6),
        seat("euclid"),
    )
    state = act(state, "play", "conference")
    player = state.players[0]
    assert player.lost and state.winners == [1]
    assert player.hand == ["rolle"]  # the reshuffle for the second card ended it
    assert sorted(player.draw_pile) == ["ceva", "morley"]


def test_playing_fermats_last_theorem_can_bore_you_out():
    state = table(seat(hand=("fermat_last",), boredom=6), seat("euclid"))
    state = act(state, "play", "fermat_last")
    assert state.players[0].lost and state.winners == [1]
