"""Property tests: random games (random legal actions and the robot) always finish
in a consistent state; apply never mutates its input; illegal actions never crash."""

import copy
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.theorems.rules import (
    CATALOGUE,
    STARTER_DECKS,
    GameState,
    IllegalMove,
    apply,
    choose_action,
    legal_actions,
    new_game,
    view,
)
from games.theorems.rules.derived import ambition, difficulty, patience
from tests.examples import examples

from .theorems_helpers import all_cards

DECK_CARDS = sorted(c for c, card in CATALOGUE.items() if card.kind != "mathematician")
MATHEMATICIANS = sorted(c for c, card in CATALOGUE.items() if card.kind == "mathematician")
MAX_STEPS = 3000

decks = st.lists(st.sampled_from(DECK_CARDS), min_size=10, max_size=20, unique=True)
players = st.builds(
    lambda mathematician, deck: {"mathematician": mathematician, "deck": deck},
    st.sampled_from(MATHEMATICIANS),
    decks,
)


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def assert_consistent(state: GameState, cards: Counter) -> None:
    assert all_cards(state) == cards, "a card was lost or duplicated"
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert state.actions_left >= 0
    for seat, player in enumerate(state.players):
        assert player.boredom >= 0
        assert ambition(state, seat) >= 1
        assert len({e.card for e in player.theorems}) == len(player.theorems)
        assert len(set(player.tools)) == len(player.tools)
        if player.lost:
            continue
        assert player.boredom < patience(state, seat)
        for entry in player.theorems:
            assert 0 <= entry.progress < difficulty(state, seat, entry)
    if state.status == "running":
        assert state.winners == []
        assert not state.players[state.current].lost
        assert state.decision is not None or state.queue == []
        assert legal_actions(state)
    else:
        assert state.status == "finished" and legal_actions(state) == []
        assert len(state.winners) <= 1
        assert all(not state.players[w].lost for w in state.winners)
        assert state.queue == [] and state.decision is None


def play_out(
    state: GameState, rng: random.Random, robots: list[bool], robot=choose_action
) -> GameState:
    cards = all_cards(state)
    assert_consistent(state, cards)
    for _ in range(MAX_STEPS):
        if state.status == "finished":
            return state
        seat = state.to_act
        action = robot(state, rng) if robots[seat] else rng.choice(legal_actions(state))
        # A deep copy compared field by field: as strict as comparing the JSON of
        # both (stricter: a list and a tuple differ), without serialising the
        # whole growing log twice a step.
        before = copy.deepcopy(state)
        new = apply(state, action)
        assert state == before, "apply mutated its input"
        state = new
        assert_consistent(state, cards)
        json.dumps(view(state, seat))
    raise AssertionError(f"no result after {MAX_STEPS} actions")


@settings(
    max_examples=examples(20, 40),  # tests/examples.py
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    table=st.lists(players, min_size=2, max_size=4),
    seed=st.integers(min_value=0, max_value=2**32),
    burn=st.booleans(),
    robots=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_random_games_finish_consistently(table, seed, burn, robots):
    state = new_game(table, seed=seed, burn=burn)
    final = play_out(state, random.Random(seed), robots)
    assert final.status == "finished"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_robots_finish_a_starter_deck_game(seed):
    state = new_game([deck.player() for deck in STARTER_DECKS], seed=seed)
    final = play_out(state, random.Random(seed), [True, True])
    assert final.winners in ([0], [1], [])


def test_a_seed_replays_the_same_game():
    def replay():
        state = new_game([deck.player() for deck in STARTER_DECKS], seed=99)
        rng = random.Random(1)
        while state.status == "running":
            state = apply(state, choose_action(state, rng))
        return state.to_dict()

    assert replay() == replay()


action_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-2, max_value=5),
    st.sampled_from(DECK_CARDS + MATHEMATICIANS + ["", "?"]),
    st.fixed_dictionaries({"player": st.integers(0, 3), "card": st.sampled_from(DECK_CARDS)}),
)
actions = st.one_of(
    st.dictionaries(
        st.sampled_from(["type", "player", "card", "choice", "extra"]),
        st.one_of(
            st.sampled_from(["define", "draw", "play", "prove", "use", "end_turn", "choose"]),
            action_values,
        ),
    ),
    action_values,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=st.lists(players, min_size=2, max_size=3),
    seed=st.integers(min_value=0, max_value=2**16),
    steps=st.integers(min_value=0, max_value=40),
    action=actions,
    pick_legal=st.booleans(),
)
def test_an_action_is_applied_if_and_only_if_it_is_legal(table, seed, steps, action, pick_legal):
    state = new_game(table, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.status != "running":
            break
        state = apply(state, rng.choice(legal_actions(state)))
    legal = {canonical(a) for a in legal_actions(state)}
    if pick_legal and legal:
        action = json.loads(sorted(legal)[seed % len(legal)])
    before = canonical(state.to_dict())
    try:
        apply(state, action)
        accepted = True
    except IllegalMove as error:
        accepted = False
        assert error.code and isinstance(error.code, str)
    assert accepted == (canonical(action) in legal)
    assert canonical(state.to_dict()) == before
