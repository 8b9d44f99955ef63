"""Property tests over random games played by a bot that sees only the public view."""

import json
import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.mathesso.rules import (
    IllegalMove,
    apply_action,
    is_pair,
    legal_actions,
    new_game,
    score_pairs,
    view,
)
from tests.examples import examples

from .helpers import (
    MemoryBot,
    assert_consistent,
    assert_finished_consistently,
    assert_view_keeps_secrets,
    flip,
    looks_alike_key,
)
from .test_tiles import SETUPS

# max_examples: tests/examples.py (40 with MATIKA_FULL_EXAMPLES=1)
SLOW = settings(
    max_examples=examples(20, 40), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

small_setups = st.sampled_from([s for s in SETUPS if s[0] in ("atto", "femto", "pico")])
any_setup = st.sampled_from(SETUPS)
players = st.integers(min_value=1, max_value=6).map(lambda n: [f"p{i}" for i in range(1, n + 1)])
seeds = st.one_of(st.integers(), st.text(max_size=12))


@st.composite
def bots(draw):
    return MemoryBot(
        random.Random(draw(st.integers())),
        skill=draw(st.floats(0.5, 1.0)),
        single=draw(st.floats(0.0, 0.3)),
        decline=draw(st.floats(0.0, 1.0)),
        turn_back=draw(st.floats(0.0, 0.5)),
    )


def play_out(state, bot, check_step):
    """Let the bot play the game to its end, checking every step; return the last state."""
    limit = 60 * len(state.tiles)
    for _ in range(limit):
        if state.phase == "over":
            return state
        v = view(state)
        bot.observe(v)
        action = bot.choose(state, v)
        before = state.to_dict()
        new, events = apply_action(state, action)
        assert state.to_dict() == before  # pure: the old state is untouched
        check_step(state, action, new, events)
        state = new
    raise AssertionError(f"game did not end in {limit} actions")


def check_events(state, action, new, events):
    assert json.loads(json.dumps(events)) == events
    turned_back: set[int] = set()
    for e in events:
        if e["type"] == "flipped":
            turned_back.discard(e["tile"])
            tile = new.tiles[e["tile"]].tile
            assert (e["face"], e["bw"], e["value"]) == (tile.face, tile.bw, tile.value)
            assert e["picture"] == tile.picture.to_json()
        if e["type"] in ("pair_taken", "no_pair"):
            a, b = (new.tiles[t].tile for t in e["tiles"])
            assert is_pair(a, b) == (e["type"] == "pair_taken")
            assert (a.picture.motif == b.picture.motif) == (e["type"] == "pair_taken")
        if e["type"] == "turned_back":
            assert e.keys() == {"type", "tiles"}
            turned_back.update(e["tiles"])
    assert not turned_back & new.face_up()


# The two largest sets cost seconds per game (every step checked): fewer examples
# there, more on the rest (SLOW), so the test stays inside the suite's timeout on
# a busy machine and every set is still played with every check.
LARGE = ("mili", "standart")
SLOW_LARGE = settings(
    max_examples=examples(5, 8), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
smaller_setups = st.sampled_from([s for s in SETUPS if s[0] not in LARGE])
large_setups = st.sampled_from([s for s in SETUPS if s[0] in LARGE])


@SLOW
@given(smaller_setups, players, seeds, bots())
def test_random_games_end_consistently(setup, seats, seed, bot):
    _random_game_ends_consistently(setup, seats, seed, bot)


@SLOW_LARGE
@given(large_setups, players, seeds, bots())
def test_random_games_on_the_large_sets_end_consistently(setup, seats, seed, bot):
    _random_game_ends_consistently(setup, seats, seed, bot)


def _random_game_ends_consistently(setup, seats, seed, bot):
    variant, extensions = setup
    state = new_game(seats, variant, extensions, seed=seed)

    def check(old, action, new, events):
        check_events(old, action, new, events)
        assert_consistent(new)

    final = play_out(state, bot, check)
    assert_finished_consistently(final)
    for p in final.seats:
        assert final.extra_taken[p] <= final.extra_turns(p) + final.extra_taken[p] <= 2
        assert score_pairs(final.faces_of(p), final.points) == view(final)["result"]["scores"][p]
    # Everyone had one turn per round: turn counts differ only by the last round
    # and by the extra turns taken.
    regular = [final.turns[p] - final.extra_taken[p] for p in final.order]
    assert max(regular) - min(regular) <= 1
    assert regular == sorted(regular, reverse=True)


@SLOW
@given(small_setups, players, seeds, bots())
def test_view_never_leaks_a_hidden_face(setup, seats, seed, bot):
    variant, extensions = setup
    state = new_game(seats, variant, extensions, seed=seed)

    def check(old, action, new, events):
        for who in [None, *new.seats]:
            v = view(new, who)
            text = json.dumps(v)
            assert json.loads(text) == v
            assert_view_keeps_secrets(new, v, text)

    play_out(state, bot, check)


def swap_hidden_tiles(state, rnd):
    """The same game with two face-down tiles of equal b/w side but different faces swapped."""
    hidden = [p for p in state.tiles if p.id not in state.face_up() | state.owners().keys()]
    rnd.shuffle(hidden)
    for a in hidden:
        for b in hidden:
            if a.tile.bw == b.tile.bw and a.tile.face != b.tile.face:
                tiles = list(state.tiles)
                tiles[a.id] = replace(a, tile=b.tile)
                tiles[b.id] = replace(b, tile=a.tile)
                return replace(state, tiles=tuple(tiles))
    return None


@SLOW
@given(small_setups, players, seeds, bots(), st.integers(0, 400), st.randoms())
def test_views_cannot_tell_where_the_hidden_faces_lie(setup, seats, seed, bot, steps, rnd):
    variant, extensions = setup
    state = new_game(seats, variant, extensions, seed=seed)
    for _ in range(steps):
        if state.phase == "over":
            break
        v = view(state)
        bot.observe(v)
        state, _ = apply_action(state, bot.choose(state, v))
    swapped = swap_hidden_tiles(state, rnd)
    if swapped is not None:
        for who in [None, *state.seats]:
            assert view(swapped, who) == view(state, who)


@given(any_setup, seeds, st.data())
def test_two_tiles_match_exactly_when_they_look_the_same(setup, seed, data):
    variant, extensions = setup
    state = new_game(["solo"], variant, extensions, seed=seed)
    first = data.draw(st.sampled_from(state.tiles), label="first")
    partner = data.draw(st.sampled_from(["face", "look", "any"]), label="pick its partner")
    others = [p for p in state.tiles if p.id != first.id]
    if partner == "face":
        second = next(p for p in others if p.tile.face == first.tile.face)
    elif partner == "look":
        second = data.draw(st.sampled_from([p for p in others if is_pair(p.tile, first.tile)]))
    else:
        second = data.draw(st.sampled_from(others), label="second")
    new, events = apply_action(state, flip("solo", first.id))
    new, more = apply_action(new, flip("solo", second.id))
    events += more
    taken = any(e["type"] == "pair_taken" for e in events)
    seen = [looks_alike_key(e["picture"]) for e in events if e["type"] == "flipped"]
    assert taken == (seen[0] == seen[1])
    assert (new.pairs["solo"] == [[first.id, second.id]]) == taken


@settings(deadline=None)  # the machine is shared: no timing in tests
@given(small_setups, players, seeds, bots(), st.integers(0, 200), st.data())
def test_every_move_the_engine_lists_is_legal_and_others_are_refused(
    setup, seats, seed, bot, steps, data
):
    variant, extensions = setup
    state = new_game(seats, variant, extensions, seed=seed)
    for _ in range(steps):
        if state.phase == "over":
            break
        v = view(state)
        bot.observe(v)
        state, _ = apply_action(state, bot.choose(state, v))
    who = data.draw(st.sampled_from(state.seats))
    legal = legal_actions(state, who)
    assert view(state, who)["actions"] == sorted({m["type"] for m in legal})
    for move in legal:
        apply_action(state, move)
    tile = data.draw(st.integers(-2, len(state.tiles) + 1))
    for move in (flip(who, tile), {"type": "end_turn", "player": who}):
        if move not in legal:
            try:
                apply_action(state, move)
            except IllegalMove as err:
                assert err.code in IllegalMove.CODES
            else:
                raise AssertionError(f"{move} was accepted but not listed")
