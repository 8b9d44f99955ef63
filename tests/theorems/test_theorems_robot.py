"""The robot plays legal and sensible moves."""

import random

from games.theorems.rules import choose_action, legal_actions

from .theorems_helpers import act, seat, table


def test_robot_proves_a_theorem_it_can_prove():
    state = table(seat(hand=("coffee",), theorems=(("ptolemy", 3),), draw=("rolle",)))
    assert choose_action(state, random.Random(1)) == {
        "type": "prove",
        "player": 0,
        "card": "ptolemy",
    }


def test_robot_does_not_bore_itself_out_with_a_tool():
    state = table(
        seat(tools=("computer",), theorems=("ptolemy",), boredom=6),
        seat("euclid"),
        free_definition=False,
    )
    state.proved_this_turn = ["ptolemy"]
    action = choose_action(state, random.Random(1))
    assert action != {"type": "use", "player": 0, "card": "computer"}


def test_robot_answers_a_decision_with_the_theorem_closest_to_proof():
    state = table(seat(hand=("eureka",), theorems=(("morley", 1), ("ptolemy", 2))))
    state = act(state, "play", "eureka")
    action = choose_action(state, random.Random(1))
    assert action == {"type": "choose", "player": 0, "choice": "ptolemy"}
    assert action in legal_actions(state)


def test_robot_ends_the_turn_when_nothing_else_is_legal():
    state = table(seat(), actions=0, free_definition=False)
    assert choose_action(state, random.Random(1)) == {"type": "end_turn", "player": 0}
