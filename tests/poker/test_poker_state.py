"""One player's game: placing, jokers, hard-mode forfeits, game end, storage."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.poker.rules import (
    ERROR_CODES,
    JOKER,
    IllegalMove,
    PokerGame,
    score_board,
    seeded_deck,
)

NUMBERS = [(value % 13) + 1 for value in range(60)]  # 1, 2, ..., 13, 1, 2, ...


def solo(deck=None, *, now=0.0, **options) -> PokerGame:
    return PokerGame.new(deck=NUMBERS if deck is None else deck, now=now, **options)


def group(**options) -> PokerGame:
    return PokerGame.new(**options)


def code_of(call) -> str:
    with pytest.raises(IllegalMove) as raised:
        call()
    assert raised.value.code in ERROR_CODES
    assert raised.value.message
    return raised.value.code


def roundtrip(game: PokerGame) -> PokerGame:
    return PokerGame.from_dict(json.loads(json.dumps(game.to_dict())))


# --- easy mode, own deck -----------------------------------------------------


def test_a_solo_game_deals_its_first_card_at_the_start():
    game = solo(now=100.0)
    assert game.hand == 1
    assert game.started_at == 100.0
    assert game.sequence == [1]


def test_placing_writes_the_number_and_draws_the_next_card():
    game = solo()
    events = game.place(12, now=1.0)
    assert game.cells[12] == 1
    assert game.hand == 2
    assert [event["type"] for event in events] == ["placed", "dealt"]
    assert events[0] == {
        "type": "placed",
        "cell": 12,
        "value": 1,
        "joker": False,
        "kept": False,
        "at": 1.0,
    }


def test_an_easy_game_ends_complete_after_25_placements():
    game = solo()
    for cell in range(25):
        events = game.place(cell, now=float(cell + 1))
    assert game.over and game.completed
    assert game.finished_at == 25.0
    assert events[-1] == {
        "type": "game_over",
        "completed": True,
        "score": score_board(game.cells).total,
        "at": 25.0,
    }
    assert game.cells == NUMBERS[:25]
    assert code_of(lambda: game.place(0, now=30.0)) == "game_over"


def test_a_written_number_never_moves():
    game = solo()
    game.place(3, now=1.0)
    assert code_of(lambda: game.place(3, now=2.0)) == "cell_taken"
    assert game.cells[3] == 1


@pytest.mark.parametrize("cell", [-1, 25, "3", None, 2.0, True])
def test_a_cell_must_be_an_index_of_the_board(cell):
    assert code_of(lambda: solo().place(cell, now=1.0)) == "bad_cell"


def test_the_state_machine_uses_the_deck_it_was_given():
    deck = seeded_deck(7)
    game = solo(deck)
    assert game.hand == deck[0]
    assert game.deck == deck[1:]


def test_a_deck_must_match_the_table():
    with pytest.raises(ValueError, match="does not belong"):
        solo([JOKER, *NUMBERS], table="matematico")
    with pytest.raises(ValueError, match="does not belong"):
        solo([14, *NUMBERS])


@pytest.mark.parametrize(
    "options",
    [
        {"mode": "medium"},
        {"mode": "hard"},
        {"mode": "hard", "seconds_per_card": 2},
        {"mode": "hard", "seconds_per_card": 301},
        {"mode": "easy", "seconds_per_card": 10},
        {"table": "poker"},
    ],
)
def test_invalid_settings_are_refused(options):
    with pytest.raises(ValueError):
        PokerGame.new(**options)


# --- jokers ------------------------------------------------------------------


def joker_first(*rest: int) -> list[int]:
    return [JOKER, *(rest or NUMBERS)]


def test_a_joker_used_now_takes_the_chosen_value_and_is_remembered():
    game = solo(joker_first())
    assert game.hand == JOKER
    events = game.use_joker(6, 13, now=1.0)
    assert game.cells[6] == 13
    assert game.joker_cells == [6]
    assert events[0]["joker"] is True
    assert game.hand == 1


def test_a_joker_needs_a_decision_not_a_plain_placement():
    game = solo(joker_first())
    assert code_of(lambda: game.place(0, now=1.0)) == "joker_in_hand"
    for value in (0, 14, None, "5"):
        assert code_of(lambda v=value: game.use_joker(0, v, now=1.0)) == "bad_value"


def test_joker_actions_need_a_joker_in_hand():
    game = solo()
    assert code_of(lambda: game.use_joker(0, 5, now=1.0)) == "not_joker"
    assert code_of(lambda: game.keep_joker(now=1.0)) == "not_joker"
    assert code_of(lambda: game.place_kept_joker(0, 5, now=1.0)) == "no_kept_joker"


def test_keeping_a_joker_draws_the_next_card_without_using_a_turn():
    game = solo(joker_first())
    events = game.keep_joker(now=2.0)
    assert game.kept_jokers == 1
    assert game.hand == 1
    assert game.placed == 0 and game.free_cells == 25
    assert [event["type"] for event in events] == ["kept_joker", "dealt"]


def test_a_kept_joker_is_placed_later_while_a_number_is_in_hand():
    game = solo(joker_first())
    game.keep_joker(now=1.0)
    game.place(0, now=2.0)
    hand = game.hand
    game.place_kept_joker(24, 9, now=3.0)
    assert game.cells[24] == 9
    assert game.joker_cells == [24]
    assert game.kept_jokers == 0
    assert game.hand == hand  # the sequence did not move


def test_kept_jokers_warn_when_free_cells_run_short():
    game = solo(joker_first(JOKER, *NUMBERS))
    game.keep_joker(now=1.0)
    game.keep_joker(now=1.0)
    for cell in range(22):
        game.place(cell, now=2.0)
    assert not game.jokers_at_risk
    game.place(22, now=3.0)
    assert game.free_cells == 2 and game.jokers_at_risk


def test_a_joker_left_over_at_the_end_is_lost():
    game = solo(joker_first())
    game.keep_joker(now=1.0)
    for cell in range(25):
        game.place(cell, now=2.0)
    assert game.over and game.completed
    assert game.kept_jokers == 1
    assert code_of(lambda: game.place_kept_joker(0, 1, now=3.0)) == "game_over"


def test_the_last_cell_can_be_filled_by_a_kept_joker():
    game = solo(joker_first())
    game.keep_joker(now=1.0)
    for cell in range(24):
        game.place(cell, now=2.0)
    events = game.place_kept_joker(24, 5, now=3.0)
    assert game.over and game.completed
    assert events[-1]["type"] == "game_over"


# --- a sequence dealt by a lobby (group, duel) --------------------------------


def test_without_an_own_deck_the_player_waits_for_the_deal():
    game = group()
    assert game.hand is None
    assert code_of(lambda: game.place(0, now=1.0)) == "no_card"
    game.deal(8, now=2.0)
    game.place(0, now=3.0)
    assert game.cells[0] == 8
    assert game.hand is None


def test_a_player_catches_up_on_the_sequence_in_order():
    game = group()
    for card in (4, 5, 6):
        game.deal(card, now=1.0)
    game.place(0, now=2.0)
    game.place(1, now=2.0)
    game.place(2, now=2.0)
    assert game.cells[:3] == [4, 5, 6]


def test_a_kept_joker_can_be_placed_after_the_sequence_ran_out():
    game = group()
    game.deal(JOKER, now=1.0)
    game.keep_joker(now=2.0)
    game.deal(7, now=3.0)
    game.place(0, now=4.0)
    game.close_sequence(now=5.0)
    assert not game.over
    game.place_kept_joker(1, 7, now=6.0)
    assert game.over and not game.completed
    assert game.cells[:2] == [7, 7]
    assert game.score().total == 15


def test_a_closed_sequence_without_kept_jokers_ends_the_game_incomplete():
    game = group()
    game.deal(3, now=1.0)
    game.place(0, now=2.0)
    events = game.close_sequence(now=3.0)
    assert game.over and not game.completed
    assert events[-1]["type"] == "game_over"
    assert code_of(lambda: game.deal(4, now=4.0)) == "sequence_closed"


def test_a_finished_player_still_receives_the_groups_cards():
    game = group()
    for cell in range(25):
        game.deal(5, now=float(cell))
        game.place(cell, now=float(cell))
    assert game.over
    assert game.deal(6, now=30.0) == []
    assert game.sequence[-1] == 6


def test_dealing_checks_the_card_and_the_deck_owner():
    game = group(table="matematico")
    assert code_of(lambda: game.deal(JOKER, now=1.0)) == "bad_card"
    assert code_of(lambda: game.deal(14, now=1.0)) == "bad_card"
    assert code_of(lambda: solo().deal(5, now=1.0)) == "own_deck"
    assert code_of(lambda: solo().close_sequence(now=1.0)) == "own_deck"


# --- hard mode ---------------------------------------------------------------


def hard(deck=None, seconds=10, now=0.0) -> PokerGame:
    return solo(deck, now=now, mode="hard", seconds_per_card=seconds)


def test_a_card_placed_before_its_deadline_counts():
    game = hard()
    assert game.deadline() == 10.0
    game.place(0, now=10.0)  # exactly on the deadline is still in time
    assert game.cells[0] == 1
    assert game.forfeited == 0
    assert game.deadline() == 20.0


def test_a_card_not_placed_in_time_is_forfeited_and_the_next_follows():
    game = hard()
    events = game.advance(now=10.5)
    assert events[0] == {"type": "forfeited", "index": 0, "card": 1, "at": 10.0}
    assert events[1]["type"] == "dealt" and events[1]["at"] == 10.0
    assert game.hand == 2
    assert game.forfeited == 1
    assert game.free_cells == 24
    assert game.deadline() == 20.0


def test_forfeits_are_computed_from_timestamps_while_the_player_was_away():
    game = hard()
    game.place(0, now=3.0)  # card 2 reached at 3, due at 13
    events = game.place(1, now=35.0)  # cards 2, 3 expired at 13 and 23; card 4 due at 33
    assert [e["card"] for e in events if e["type"] == "forfeited"] == [2, 3, 4]
    assert game.cells[1] == 5
    assert game.forfeited == 3


def test_an_illegal_move_leaves_even_pending_forfeits_unapplied():
    game = hard()
    game.place(0, now=1.0)
    before = game.to_dict()
    assert code_of(lambda: game.place(0, now=50.0)) == "cell_taken"
    assert game.to_dict() == before


def test_in_a_group_the_deadline_runs_from_the_draw_when_the_player_waited():
    game = group(mode="hard", seconds_per_card=10)
    game.deal(5, now=100.0)
    assert game.deadline() == 110.0


def test_in_a_group_the_deadline_runs_from_the_previous_card_when_catching_up():
    game = group(mode="hard", seconds_per_card=10)
    game.deal(5, now=100.0)
    game.deal(6, now=101.0)
    game.deal(7, now=102.0)
    game.place(0, now=108.0)
    assert game.deadline() == 118.0  # card 6 reached when card 5 was placed
    game.advance(now=130.0)  # card 6 expires at 118, card 7 (reached then) at 128
    assert game.forfeited == 2
    assert game.hand is None


def test_a_hard_game_ends_when_placed_plus_forfeited_reach_25():
    game = hard()
    for cell in range(20):
        game.place(cell, now=float(cell))
    events = game.advance(now=1000.0)
    assert game.forfeited == 5
    assert game.over and not game.completed
    assert game.finished_at == 19.0 + 5 * 10
    assert events[-1]["type"] == "game_over" and events[-1]["completed"] is False
    assert game.cells.count(None) == 5


def test_an_undecided_joker_expires_without_costing_a_cell():
    game = hard(joker_first())
    events = game.advance(now=11.0)
    assert events[0] == {"type": "joker_expired", "index": 0, "at": 10.0}
    assert game.forfeited == 0 and game.free_cells == 25
    assert game.hand == 1


def test_a_kept_joker_has_no_deadline():
    game = hard(joker_first())
    game.keep_joker(now=1.0)
    game.place(0, now=2.0)
    game.advance(now=100.0)  # nine numbers expire meanwhile, the kept joker does not
    assert game.forfeited == 9
    assert game.kept_jokers == 1
    game.place_kept_joker(24, 4, now=100.0)
    assert game.cells[24] == 4


def test_an_easy_game_never_forfeits():
    game = solo()
    assert game.deadline() is None
    assert game.advance(now=10**9) == []
    game.place(0, now=10**9)
    assert game.cells[0] == 1


# --- storage, view, dispatch -------------------------------------------------


def test_the_state_survives_a_json_roundtrip():
    game = hard(joker_first())
    game.keep_joker(now=1.0)
    game.place(0, now=2.0)
    game.place_kept_joker(1, 9, now=3.0)
    restored = roundtrip(game)
    assert restored == game
    assert restored.place(2, now=4.0) == game.place(2, now=4.0)
    assert restored.to_dict() == game.to_dict()


def test_an_unknown_state_version_is_refused():
    data = solo().to_dict()
    data["version"] = 99
    with pytest.raises(ValueError, match="version"):
        PokerGame.from_dict(data)


def test_the_player_view_hides_the_deck():
    game = solo(seeded_deck(3))
    view = game.player_view()
    assert "deck" not in view
    assert view["hand"] == game.hand
    assert view["score"] == 0 and view["lines"] == [0] * 12
    json.dumps(view)


def test_apply_dispatches_client_messages():
    game = solo(joker_first(JOKER, *NUMBERS))
    game.apply({"type": "use_joker", "cell": 0, "value": 3}, now=1.0)
    game.apply({"type": "keep_joker"}, now=2.0)
    game.apply({"type": "place", "cell": 1}, now=3.0)
    game.apply({"type": "place_kept_joker", "cell": 2, "value": 3}, now=4.0)
    assert game.cells[:3] == [3, 1, 3]
    assert code_of(lambda: game.apply({"type": "draw"}, now=5.0)) == "unknown_action"
    assert code_of(lambda: game.apply({"type": "place"}, now=5.0)) == "bad_cell"


def test_now_must_be_a_number():
    with pytest.raises(ValueError, match="now"):
        solo().place(0, now="soon")  # type: ignore[arg-type]


# --- property: any legal play keeps the invariants -----------------------------

actions = st.lists(
    st.tuples(
        st.sampled_from(["place", "use_joker", "keep_joker", "place_kept_joker", "wait"]),
        st.integers(0, 24),
        st.integers(1, 13),
        st.floats(0, 30),
    ),
    max_size=80,
)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["easy", "hard"]), actions)
def test_random_play_keeps_the_invariants(seed, mode, plan):
    game = PokerGame.new(
        deck=seeded_deck(seed),
        now=0.0,
        mode=mode,
        seconds_per_card=10 if mode == "hard" else None,
    )
    now = 0.0
    for kind, cell, value, pause in plan:
        now += pause
        before = game.to_dict()
        try:
            if kind == "wait":
                game.advance(now)
            else:
                game.apply({"type": kind, "cell": cell, "value": value}, now)
        except IllegalMove:
            assert game.to_dict() == before
        assert game.placed + game.forfeited <= 25
        assert game.over == (game.finished_at is not None)
        assert set(game.joker_cells) <= {i for i, v in enumerate(game.cells) if v is not None}
        assert game.handled <= len(game.sequence)
        if game.over:
            assert game.placed + game.forfeited == 25 or game.closed
        assert roundtrip(game) == game
