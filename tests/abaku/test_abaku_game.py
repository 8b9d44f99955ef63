"""The game state machine: turns, bag, exchange, skip, timeout, end (spec 3 and 5)."""

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.abaku.rules import (
    JOKER,
    Board,
    GameState,
    IllegalMove,
    apply,
    new_game,
    view,
)


def game(players: int = 2, **options) -> GameState:
    options.setdefault("turn_seconds", None)
    return new_game([f"p{k}" for k in range(players)], seed=7, **options)


def with_racks(state: GameState, *racks: tuple[int, ...], bag: tuple[int, ...] | None = None):
    players = tuple(replace(p, rack=r) for p, r in zip(state.players, racks, strict=True))
    return replace(state, players=players, bag=state.bag if bag is None else bag)


def act(state: GameState, **action):
    return apply(state, action)


def code_of(state: GameState, **action) -> str:
    with pytest.raises(IllegalMove) as caught:
        apply(state, action)
    return caught.value.code


def test_new_game_deals_five_stones_each_from_a_shuffled_bag_of_102() -> None:
    state = game(3)
    assert [len(p.rack) for p in state.players] == [5, 5, 5]
    assert len(state.bag) == 102 - 15
    assert state.stone_count() == 102
    assert game(3) == state  # same seed, same deal


def test_placing_scores_refills_the_rack_and_passes_the_turn() -> None:
    state = with_racks(game(), (2, 4, 1, 1, 1), (3, 3, 3, 3, 3))
    bag_before = len(state.bag)
    state, events = act(state, type="place", player=0, placements=[[7, 7, 2], [7, 8, 4]])
    assert state.players[0].score == 12  # 2²=4 on the centre (example ×2)
    assert len(state.players[0].rack) == 5 and len(state.bag) == bag_before - 2
    assert state.turn == 1
    assert [e["type"] for e in events] == ["placed", "turn"]
    assert events[0]["examples"] == [{"text": "2²=4", "points": 12, "cells": [[7, 7], [7, 8]]}]


def test_placing_stones_not_on_the_rack_is_refused() -> None:
    state = with_racks(game(), (2, 1, 1, 1, 1), (3, 3, 3, 3, 3))
    assert code_of(state, type="place", player=0, placements=[[7, 7, 2], [7, 8, 4]]) == (
        "not_in_rack"
    )
    assert code_of(state, type="place", player=0, placements=[[7, 7, 2], [7, 8, 4, True]]) == (
        "not_in_rack"
    )


def test_joker_from_the_rack_shows_the_chosen_digit() -> None:
    state = with_racks(game(), (2, JOKER, 1, 1, 1), (3, 3, 3, 3, 3))
    state, _ = act(state, type="place", player=0, placements=[[7, 7, 2], [7, 8, 4, True]])
    assert state.board.stone(7, 8).digit == 4 and state.board.stone(7, 8).joker
    assert state.players[0].score == 4  # (2 + 0) × 2


def test_only_the_player_on_turn_may_act() -> None:
    assert code_of(game(), type="skip", player=1) == "not_your_turn"
    assert code_of(game(), type="dance", player=0) == "unknown_action"


def test_illegal_move_leaves_no_trace() -> None:
    state = game()
    rack = state.players[0].rack
    with pytest.raises(IllegalMove):
        apply(state, {"type": "place", "player": 0, "placements": [[0, 0, rack[0]]]})
    assert state == game()


def test_exchange_returns_stones_and_draws_as_many() -> None:
    state = with_racks(game(), (0, 0, 9, 9, 1), (3, 3, 3, 3, 3))
    after, events = act(state, type="exchange", player=0, stones=[0, 0, 9])
    assert len(after.players[0].rack) == 5 and len(after.bag) == len(state.bag)
    assert after.stone_count() == 102
    assert events[0] == {"type": "exchanged", "player": 0, "count": 3}
    assert after.players[0].score == 0 and after.turn == 1


def test_exchange_needs_as_many_stones_in_the_bag() -> None:
    state = with_racks(game(), (0, 0, 9, 9, 1), (3, 3, 3, 3, 3), bag=(5, 5))
    assert code_of(state, type="exchange", player=0, stones=[0, 0, 9]) == "bag_too_small"
    assert code_of(state, type="exchange", player=0, stones=[]) == "bad_exchange"
    assert code_of(state, type="exchange", player=0, stones=[7]) == "not_in_rack"


def test_three_empty_turns_with_stones_in_the_bag_forfeit_a_duel() -> None:
    state = game()
    for _ in range(2):
        state, _ = act(state, type="skip", player=0)
        state, _ = act(state, type="skip", player=1)
    state, events = act(state, type="skip", player=0)
    assert [e["type"] for e in events] == ["skipped", "forfeited", "game_over"]
    assert state.finished and state.result["winners"] == [1]
    assert state.result["reason"] == "forfeit"
    assert code_of(state, type="skip", player=1) == "game_over"


def test_forfeiting_player_becomes_a_spectator_while_two_play_on() -> None:
    state = game(3)
    for _ in range(3):
        state, _ = act(state, type="skip", player=0)
        state, _ = act(state, type="exchange", player=1, stones=[state.players[1].rack[0]])
        state, _ = act(state, type="exchange", player=2, stones=[state.players[2].rack[0]])
    assert state.players[0].status == "forfeited" and not state.finished
    assert state.turn == 1
    state, _ = act(state, type="skip", player=1)
    assert state.turn == 2  # seat 0 is passed over


def test_exchange_or_placing_resets_the_empty_turn_count() -> None:
    state = game()
    state, _ = act(state, type="skip", player=0)
    state, _ = act(state, type="skip", player=1)
    state, _ = act(state, type="skip", player=0)
    state, _ = act(state, type="skip", player=1)
    state, _ = act(state, type="exchange", player=0, stones=[state.players[0].rack[0]])
    assert state.players[0].empty_turns == 0


def test_three_empty_turns_with_an_empty_bag_end_the_game_regularly() -> None:
    state = with_racks(game(), (7, 9), (1, 2, JOKER), bag=())
    for _ in range(2):
        state, _ = act(state, type="skip", player=0)
        state, _ = act(state, type="skip", player=1)
    state, events = act(state, type="skip", player=0)
    assert state.result["reason"] == "empty_turns" and state.result["closer"] == 0
    # the closer gains the opponent's 1+2+0; its own 7+9 are not subtracted
    assert state.result["adjustments"] == [3, -3]
    assert state.result["winners"] == [0]


def test_the_closer_gains_the_opponents_leftovers_and_keeps_its_own() -> None:
    """Seed, scoring rule 6: "Hráči, jenž hru zavřel, přináleží bodový zisk. Bude
    mu přičtena bodová hodnota všech kamenů, které zbudou soupeřům po zavření hry.
    Těm naopak bude bodová hodnota kamenů, které jim zůstaly, odečtena z jejich
    konečného bodového zisku."

    The issue's case: a game ended by three passes with an empty bag, the closer
    holding a 1 and the opponent 20 points of stones: +20/-20, not +1/-20."""
    state = with_racks(game(), (1,), (9, 8, 3), bag=())
    for _ in range(2):
        state, _ = act(state, type="skip", player=0)
        state, _ = act(state, type="skip", player=1)
    state, _ = act(state, type="skip", player=0)
    assert state.result["reason"] == "empty_turns" and state.result["closer"] == 0
    assert state.result["adjustments"] == [20, -20]
    assert [p.score for p in state.players] == [20, -20]


def test_three_players_the_closer_gains_both_opponents_leftovers() -> None:
    state = with_racks(game(3), (5, 5), (1, 2), (JOKER, 4), bag=())
    for _ in range(2):
        for seat in range(3):
            state, _ = act(state, type="skip", player=seat)
    state, _ = act(state, type="skip", player=0)
    assert state.result["closer"] == 0
    assert state.result["adjustments"] == [7, -3, -4]


def test_last_stone_from_an_empty_bag_closes_the_game_with_the_adjustment() -> None:
    board = Board.empty("plain").place([(7, 7, 2), (7, 8, 4)])
    state = replace(with_racks(game(), (8,), (5, 6, JOKER), bag=()), board=board)
    state, events = act(state, type="place", player=0, placements=[[7, 9, 8]])
    assert events[-1]["type"] == "game_over"
    assert state.result["reason"] == "last_stone"
    assert state.result["adjustments"] == [11, -11]
    assert state.players[0].score == 14 + 11 and state.players[1].score == -11


def test_timeout_counts_as_an_empty_turn() -> None:
    state = game(turn_seconds=120, now=1000.0)
    assert state.deadline == 1120.0
    assert code_of(state, type="timeout", now=1100.0) == "not_expired"
    assert code_of(state, type="skip", player=0, now=1121.0) == "turn_expired"
    state, events = act(state, type="timeout", now=1121.0)
    assert events[0] == {"type": "skipped", "player": 0, "reason": "timeout"}
    assert state.players[0].empty_turns == 1
    assert state.turn == 1 and state.deadline == 1241.0


def test_timeout_without_a_limit_is_refused() -> None:
    assert code_of(game(turn_seconds=None), type="timeout", now=10**9) == "no_time_limit"


def test_view_hides_other_racks_the_bag_order_and_the_seed() -> None:
    state = game(3)
    seen = view(state, 1)
    json.dumps(seen)
    assert "rack" in seen["players"][1] and "rack" not in seen["players"][0]
    assert seen["players"][0]["rack_count"] == 5
    assert "bag" not in seen and "seed" not in seen and seen["bag_count"] == len(state.bag)
    assert all("rack" not in p for p in view(state, None)["players"])


def test_state_round_trips_through_json() -> None:
    state, _ = act(game(), type="skip", player=0)
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state


junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 20)
    | st.floats(allow_nan=False)
    | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
)
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["place", "exchange", "skip", "timeout", "x"])},
    optional={
        "player": st.integers(-1, 3) | junk,
        "placements": st.lists(
            st.lists(st.integers(-1, 16), min_size=3, max_size=4) | junk, max_size=5
        )
        | junk,
        "stones": st.lists(st.integers(-1, 11), max_size=6) | junk,
        "now": st.floats(0, 10**6, allow_nan=False) | junk,
    },
)


@settings(max_examples=150, deadline=None)
@given(action=actions | junk)
def test_any_action_is_applied_or_refused_but_never_crashes(action) -> None:  # noqa: ANN001
    state = game(turn_seconds=120, now=0.0)
    try:
        after, events = apply(state, action)
    except IllegalMove as refused:
        assert refused.code
    else:
        assert after.stone_count() == 102 and events
