"""The action protocol: shapes, stable error codes, decisions, views."""

import json

import pytest

from games.theorems.rules import IllegalMove, apply, legal_actions, view

from .theorems_helpers import act, choose, seat, table


def error_code(state, action):
    with pytest.raises(IllegalMove) as error:
        apply(state, action)
    return error.value.code


@pytest.fixture
def state():
    return table(
        seat(hand=("eureka", "coffee"), theorems=("ptolemy", "morley"), draw=("rolle",)),
        seat("euclid", hand=("thales",), draw=("ceva",)),
    )


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (None, "malformed_action"),
        ("draw", "malformed_action"),
        ({}, "unknown_action"),
        ({"type": "shuffle", "player": 0}, "unknown_action"),
        ({"type": "draw"}, "malformed_action"),
        ({"type": "draw", "player": "0"}, "malformed_action"),
        ({"type": "draw", "player": True}, "malformed_action"),
        ({"type": "draw", "player": 0, "card": "rolle"}, "malformed_action"),
        ({"type": "play", "player": 0}, "malformed_action"),
        ({"type": "play", "player": 0, "card": 3}, "malformed_action"),
        ({"type": "play", "player": 0, "card": "no_such_card"}, "card_not_in_hand"),
        ({"type": "prove", "player": 0, "card": "no_such_card"}, "theorem_not_in_play"),
        ({"type": "use", "player": 0, "card": "computer"}, "tool_not_in_play"),
        ({"type": "draw", "player": 1}, "not_your_turn"),
        ({"type": "draw", "player": 7}, "not_your_turn"),
        ({"type": "choose", "player": 0, "choice": "ptolemy"}, "no_decision"),
    ],
)
def test_malformed_unknown_and_untimely_actions_have_stable_codes(state, action, code):
    assert error_code(state, action) == code


def test_legal_actions_list_every_choice_including_ending_the_turn(state):
    actions = legal_actions(state)
    assert {"type": "end_turn", "player": 0} in actions
    assert {"type": "prove", "player": 0, "card": "morley"} in actions
    assert {"type": "play", "player": 0, "card": "eureka"} in actions
    assert all(a["player"] == 0 for a in actions)


def test_while_a_choice_is_pending_only_the_choice_is_legal(state):
    state = act(state, "play", "eureka")
    assert state.to_act == 0 and state.decision.kind == "own_theorem"
    assert legal_actions(state) == [
        {"type": "choose", "player": 0, "choice": "ptolemy"},
        {"type": "choose", "player": 0, "choice": "morley"},
    ]
    assert error_code(state, {"type": "end_turn", "player": 0}) == "decision_pending"
    assert error_code(state, {"type": "choose", "player": 1, "choice": "morley"}) == "not_your_turn"
    assert (
        error_code(state, {"type": "choose", "player": 0, "choice": "thales"}) == "invalid_choice"
    )


def test_a_bool_is_not_a_seat_number_in_a_choice():
    state = table(seat(hand=("boring_lecture",)), seat("euclid"), seat("hypatia"))
    state = act(state, "play", "boring_lecture")
    assert error_code(state, {"type": "choose", "player": 0, "choice": True}) == "invalid_choice"
    assert choose(state, 1).players[1].boredom == 2


def test_apply_leaves_its_input_untouched(state):
    before = json.dumps(state.to_dict(), sort_keys=True)
    after = act(state, "play", "eureka")
    after = choose(after, "morley")
    assert json.dumps(state.to_dict(), sort_keys=True) == before
    assert after.players[0].theorem("morley").progress == 2


def test_view_hides_other_hands_pile_order_and_the_seed(state):
    seen = view(state, 1)
    assert "hand" not in seen["players"][0] and seen["players"][0]["hand_count"] == 2
    assert seen["players"][1]["hand"] == ["thales"]
    assert seen["players"][0]["draw_pile_count"] == 1
    for player in seen["players"]:
        assert "draw_pile" not in player
    assert "seed" not in seen and "rng_counter" not in seen and "queue" not in seen
    assert seen["legal_actions"] == []
    assert view(state, 0)["legal_actions"] == legal_actions(state)
    json.dumps(seen)


def test_view_shows_discard_piles_without_their_order():
    state = table(seat(discard=("thales", "ceva", "rolle")), seat("euclid"))
    assert view(state, 1)["players"][0]["discard_pile"] == ["ceva", "rolle", "thales"]


def test_view_shows_effective_difficulty_and_progress():
    state = table(seat("euclid", theorems=(("morley", 2),), definition="euclid_axioms"))
    theorem = view(state, None)["players"][0]["theorems"][0]
    assert theorem == {"card": "morley", "progress": 2, "difficulty": 4, "difficulty_delta": 0}


def test_log_of_a_hidden_draw_does_not_name_the_card(state):
    state = act(state, "draw")
    assert state.log[-1] == {"type": "draw", "player": 0, "count": 1}
