"""GameState.copy builds the copy field by field instead of copy.deepcopy (issue 26):
it must stay exactly as independent as deepcopy made it. Random games check it
at random steps: the copy equals a deepcopy (types included), shares no mutable
object with the original, and playing on — or scribbling over — the copy leaves
the original as it was. A field added to a state class fails the field check
until the copy handles it."""

import copy
import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.theorems.rules import STARTER_DECKS, GameState, apply, legal_actions, new_game
from games.theorems.rules.effects import resolve
from games.theorems.rules.engine import _RULES, _check
from games.theorems.rules.planner import plan_action
from games.theorems.rules.state import Decision, PlayerState, TheoremInPlay
from tests.examples import examples

from .test_theorems_properties import players

# The fields GameState.copy (and the copies it calls) name one by one. When this
# test fails, a state class gained or lost a field: copy it in
# games/theorems/rules/state.py (a list or dict gets its own copy), then list it here.
COPIED_FIELDS = {
    GameState: {
        "players",
        "seed",
        "current",
        "start_player",
        "burn",
        "status",
        "winners",
        "turn_number",
        "actions_left",
        "free_definition",
        "proved_this_turn",
        "tools_used",
        "events_played",
        "queue",
        "decision",
        "rng_counter",
        "log",
    },
    PlayerState: {
        "mathematician",
        "hand",
        "draw_pile",
        "discard_pile",
        "theorems",
        "tools",
        "definition",
        "proven",
        "resolving",
        "boredom",
        "patience_bonus",
        "ambition_bonus",
        "reshuffles",
        "lost",
    },
    Decision: {"player", "kind", "options", "task", "source"},
    TheoremInPlay: {"card", "progress", "difficulty_delta"},
}

MAX_STEPS = 3000


def test_the_copy_handles_every_field_of_every_state_class():
    for cls, handled in COPIED_FIELDS.items():
        assert {f.name for f in dataclasses.fields(cls)} == handled, (
            f"{cls.__name__} changed its fields: teach GameState.copy about them"
        )


def _unusual(value, name: str):
    """A value of the field's kind that a fresh game does not have."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 7
    if isinstance(value, str):
        return f"{value}-unusual"
    if isinstance(value, list):
        if name == "theorems":
            return [*value, TheoremInPlay("unusual", progress=2, difficulty_delta=-3)]
        return [*value, {"unusual": [1, {"deep": [2]}]} if name in ("queue", "log") else "x"]
    if value is None and name == "definition":
        return "unusual-definition"
    if value is None and name == "decision":
        return Decision(1, "unusual", options=[{"a": [1]}], task={"t": [2]}, source="unusual")
    raise AssertionError(f"no unusual value for {name}={value!r}: teach _unusual about it")


def test_a_copy_keeps_every_field_even_one_few_games_reach():
    """Every field set to a value a fresh game does not have (a bonus, a theorem's
    difficulty change, a pending decision): the random games below reach some of
    those states only now and then, this checks all of them every run."""
    state = new_game([deck.player() for deck in STARTER_DECKS], seed=1)
    for player in state.players:
        for f in dataclasses.fields(PlayerState):
            setattr(player, f.name, _unusual(getattr(player, f.name), f.name))
    for f in dataclasses.fields(GameState):
        if f.name != "players":
            setattr(state, f.name, _unusual(getattr(state, f.name), f.name))
    expected = copy.deepcopy(state)
    copied = state.copy()
    assert_same(copied, expected)
    assert not {id(part) for part in mutable_parts(state)} & {
        id(part) for part in mutable_parts(copied)
    }, "a part is shared"
    scribble(copied)
    assert_same(state, expected)


def assert_same(copied, expected, path="state"):
    """Equal and of the same type all the way down (a list is not a tuple)."""
    assert type(copied) is type(expected), path
    if dataclasses.is_dataclass(expected):
        for f in dataclasses.fields(expected):
            name = f.name
            assert_same(getattr(copied, name), getattr(expected, name), f"{path}.{name}")
    elif isinstance(expected, dict):
        assert copied.keys() == expected.keys(), path
        for key in expected:
            assert_same(copied[key], expected[key], f"{path}[{key!r}]")
    elif isinstance(expected, (list, tuple)):
        assert len(copied) == len(expected), path
        for index, (a, b) in enumerate(zip(copied, expected, strict=True)):
            assert_same(a, b, f"{path}[{index}]")
    else:
        assert copied == expected, path


def mutable_parts(value):
    """Every list, dict and state object reachable from ``value``."""
    if dataclasses.is_dataclass(value):
        yield value
        for f in dataclasses.fields(value):
            yield from mutable_parts(getattr(value, f.name))
    elif isinstance(value, dict):
        yield value
        for item in value.values():
            yield from mutable_parts(item)
    elif isinstance(value, (list, tuple)):
        if isinstance(value, list):
            yield value
        for item in value:
            yield from mutable_parts(item)


def scribble(value) -> None:
    """Change every mutable part of ``value`` in place."""
    parts = list(mutable_parts(value))
    for part in parts:
        if isinstance(part, list):
            part.append("scribbled")
        elif isinstance(part, dict):
            part["scribbled"] = True
        else:
            for f in dataclasses.fields(part):
                if isinstance(getattr(part, f.name), (int, str)):
                    setattr(part, f.name, "scribbled")


def apply_in_place(state: GameState, action) -> None:
    """What ``apply`` does to its own copy, done to ``state`` itself."""
    _check(state, action)
    _RULES[action["type"]][1](state, state.players[action["player"]], action)
    resolve(state)


def check_copy(state: GameState, action) -> None:
    before = copy.deepcopy(state)

    copied = state.copy()
    assert_same(copied, before)
    original_ids = {id(part) for part in mutable_parts(state)}
    assert not original_ids & {id(part) for part in mutable_parts(copied)}, "a part is shared"
    apply_in_place(copied, action)  # the engine's own move, on the copy
    assert_same(state, before)

    without_log = state.copy(keep_log=False)
    assert_same(without_log, dataclasses.replace(copy.deepcopy(before), log=[]))
    scribble(without_log)
    copied = state.copy()
    scribble(copied)
    assert_same(state, before)


@settings(
    max_examples=examples(10, 25),  # tests/examples.py
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    table=st.lists(players, min_size=2, max_size=4),
    seed=st.integers(min_value=0, max_value=2**32),
    burn=st.booleans(),
    check_every=st.integers(min_value=1, max_value=8),
    planner_seats=st.lists(st.booleans(), min_size=4, max_size=4),
)
def test_a_copy_is_as_independent_as_a_deepcopy(table, seed, burn, check_every, planner_seats):
    rng = random.Random(seed)
    state = new_game(table, seed=seed, burn=burn)
    for step in range(MAX_STEPS):
        if state.status == "finished":
            break
        seat = state.to_act
        if planner_seats[seat]:
            action = plan_action(state, rng)
        else:
            action = rng.choice(legal_actions(state))
        if step == 0 or rng.randrange(check_every) == 0:
            check_copy(state, action)
        state = apply(state, action)
    else:
        raise AssertionError(f"no result after {MAX_STEPS} actions")
    assert_same(state.copy(), copy.deepcopy(state))  # the finished game too
