"""The planning robot (the default robot seat): legal, sensible, and it never
looks at cards it could not see at a real table."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.theorems.rules import (
    DEFAULT_ROBOT,
    ROBOTS,
    STARTER_DECKS,
    apply,
    legal_actions,
    new_game,
    robot_action,
)
from games.theorems.rules.derived import patience
from games.theorems.rules.planner import plan_action
from tests.examples import examples

from .test_theorems_properties import play_out, players
from .theorems_helpers import act, seat, table


def test_the_planning_robot_is_the_default_and_the_simple_one_stays_available():
    assert DEFAULT_ROBOT == "planner"
    assert ROBOTS["planner"] is plan_action
    assert set(ROBOTS) == {"planner", "simple"}
    state = new_game([deck.player() for deck in STARTER_DECKS], seed=3)
    assert robot_action(state, random.Random(1)) == plan_action(state, random.Random(1))


def test_it_proves_the_theorem_it_can_finish_now():
    state = table(seat(hand=("coffee",), theorems=(("ptolemy", 3),), draw=("rolle",)))
    assert plan_action(state, random.Random(1)) == {
        "type": "prove",
        "player": 0,
        "card": "ptolemy",
    }


def test_it_plays_its_theorems_early_to_prove_them_side_by_side():
    # Three theorems and three actions: one Prove a theorem a turn, so they go
    # on the table now rather than waiting in the hand.
    state = table(seat("gauss", hand=("wilson_theorem", "fermat_little", "euclid_primes")))
    state.free_definition = False
    for _ in range(3):
        action = plan_action(state, random.Random(1))
        assert action["type"] in ("play", "prove"), action
        state = apply(state, action)
    assert len(state.players[0].theorems) + len(state.players[0].proven) >= 2


def test_patience_is_a_budget_it_does_not_spend_to_the_last_token():
    state = table(
        seat(tools=("computer",), theorems=("ptolemy",), boredom=6),
        seat("euclid"),
        free_definition=False,
    )
    state.proved_this_turn = ["ptolemy"]
    assert patience(state, 0) == 7
    assert plan_action(state, random.Random(1)) != {"type": "use", "player": 0, "card": "computer"}


def test_it_answers_a_decision_with_the_theorem_the_progress_finishes():
    state = table(seat(hand=("eureka",), theorems=(("morley", 1), ("ptolemy", 2))))
    state = act(state, "play", "eureka")
    action = plan_action(state, random.Random(1))
    assert action == {"type": "choose", "player": 0, "choice": "ptolemy"}


def _robot_positions(seed: int, steps: int):
    state = new_game([deck.player() for deck in STARTER_DECKS], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.status != "running":
            return
        yield state
        state = apply(state, plan_action(state, rng))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 60), data=st.data())
def test_its_choice_does_not_depend_on_cards_it_cannot_see(seed, steps, data):
    positions = list(_robot_positions(seed, steps))
    state = positions[-1]
    me = state.to_act
    other = state.copy()
    shuffle = random.Random(data.draw(st.integers(0, 2**32)))
    shuffle.shuffle(other.players[me].draw_pile)
    other.seed = data.draw(st.integers(0, 2**32))
    for index, player in enumerate(other.players):
        if index != me:
            hidden = player.hand + player.draw_pile
            shuffle.shuffle(hidden)
            player.hand, player.draw_pile = hidden[: len(player.hand)], hidden[len(player.hand) :]
    assert plan_action(state, random.Random(5)) == plan_action(other, random.Random(5))


@settings(
    max_examples=examples(6, 12),  # tests/examples.py
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    table=st.lists(players, min_size=2, max_size=4),
    seed=st.integers(min_value=0, max_value=2**32),
    burn=st.booleans(),
)
def test_planning_robots_play_random_decks_to_the_end(table, seed, burn):
    state = new_game(table, seed=seed, burn=burn)
    final = play_out(state, random.Random(seed), [True] * len(table), robot=plan_action)
    assert final.status == "finished"


def test_every_action_it_picks_is_legal():
    for position in _robot_positions(11, 80):
        assert plan_action(position, random.Random(2)) in legal_actions(position)
