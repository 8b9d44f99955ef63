"""Spec §6: the FAQ decisions carried over from the seed, one test each."""

import pytest

from games.theorems.rules import IllegalMove, legal_actions
from games.theorems.rules.derived import difficulty, hand_limit

from .theorems_helpers import act, progress, seat, table

HAND = ("rolle", "pigeonhole", "thales", "coffee", "holidays")


def test_faq_hand_limit_three_forbids_only_the_draw_action_nobody_discards():
    state = table(
        seat(hand=HAND, draw=("ceva", "ptolemy", "morley")),
        seat("bolzano", proven=("squeeze_theorem",)),
    )
    assert hand_limit(state, 0) == 3 and hand_limit(state, 1) == 10
    assert len(state.players[0].hand) == 5  # still holds all five cards
    assert {"type": "draw", "player": 0} not in legal_actions(state)
    with pytest.raises(IllegalMove) as error:
        act(state, "draw")
    assert error.value.code == "hand_limit"
    # effects still draw
    state.players[0].hand.append("conference")
    state = act(state, "play", "conference")
    assert len(state.players[0].hand) == 8


def test_faq_hand_limit_three_lapses_when_its_owner_has_lost():
    state = table(
        seat(hand=HAND, draw=("ceva",)),
        seat("bolzano", proven=("squeeze_theorem",), boredom=7),
        seat("euclid"),
    )
    state.players[1].lost = True
    assert hand_limit(state, 0) == 10


def test_faq_circle_inversion_resolves_first_then_lies_alone_on_the_discard_pile():
    state = table(seat(hand=("circle_inversion",), draw=("rolle",), discard=("thales", "ceva")))
    state = act(state, "play", "circle_inversion")
    player = state.players[0]
    assert player.discard_pile == ["circle_inversion"]
    assert sorted(player.draw_pile) == ["ceva", "rolle", "thales"]
    assert player.boredom == 0 and player.reshuffles == 0  # no Nuda, not a reshuffle


def test_faq_stolen_idea_then_recursion_repeats_the_steal_and_resolves_a_stolen_event():
    state = table(
        seat(hand=("stolen_idea", "recursion")),
        seat("euclid", hand=("rolle",)),
    )
    state = act(state, "play", "stolen_idea")
    assert state.players[0].hand == ["recursion", "rolle"]
    state.players[1].hand = ["coffee"]  # the only card left to steal is an event
    before = state.actions_left
    state = act(state, "play", "recursion")
    player = state.players[0]
    assert state.actions_left == before - 1 + 2  # Káva resolved as the thief's
    assert player.discard_pile == ["stolen_idea", "coffee", "recursion"]
    assert state.players[1].hand == []


def test_faq_mean_value_theorem_stays_proven_when_its_condition_lapses():
    state = table(
        seat("bolzano", theorems=(("mean_value_theorem", 1),)),
        seat("euclid", proven=("thales",)),
    )
    entry = state.players[0].theorems[0]
    assert difficulty(state, 0, entry) == 4 - 1 - 2
    state = act(state, "prove", "mean_value_theorem")
    assert state.players[0].proven == ["mean_value_theorem"]
    state.players[1].proven.clear()  # the opponent no longer has more proven theorems
    state = act(state, "end_turn")
    assert state.players[0].proven == ["mean_value_theorem"]


def test_faq_riemann_hypothesis_cannot_be_the_target_of_prove():
    state = table(seat(theorems=("riemann_hypothesis",)))
    with pytest.raises(IllegalMove) as error:
        act(state, "prove", "riemann_hypothesis")
    assert error.value.code == "not_provable"


def test_faq_riemann_hypothesis_advances_with_every_prove_on_another_theorem():
    state = table(seat(theorems=("riemann_hypothesis", "ptolemy", "morley")))
    state = act(act(state, "prove", "ptolemy"), "prove", "morley")
    assert progress(state, 0, "riemann_hypothesis") == 2
    assert progress(state, 0, "ptolemy") == 1 and progress(state, 0, "morley") == 1


def test_faq_riemann_hypothesis_takes_progress_from_other_effects_normally():
    state = table(seat(hand=("calculator",), theorems=("riemann_hypothesis", "ptolemy")))
    state = act(state, "play", "calculator")
    assert progress(state, 0, "riemann_hypothesis") == 1 and progress(state, 0, "ptolemy") == 1


def test_faq_euler_gets_minus_one_on_the_riemann_hypothesis_not_minus_two():
    state = table(seat("euler", theorems=("riemann_hypothesis",)))
    assert difficulty(state, 0, state.players[0].theorems[0]) == 5


def test_riemann_hypothesis_is_proven_by_prove_on_others_and_bores_all_opponents():
    state = table(
        seat("gauss", theorems=(("riemann_hypothesis", 4), "ptolemy"), draw=("rolle",)),
        seat("euclid"),
        seat("hypatia"),
    )
    state = act(state, "prove", "ptolemy")
    assert state.players[0].proven == ["riemann_hypothesis"]
    assert [p.boredom for p in state.players] == [0, 2, 2]
