"""The duel adapter: auto-draw, either player draws, winner/draw, abandonment, idle, hard mode."""

from __future__ import annotations

import pytest

from games.poker.room_games import DuelGame
from games.rooms.errors import RoomError
from tests.poker_room.drivers import DuelDriver, at


def duel(deck: list[int], **settings) -> DuelDriver:
    """A duel whose deck starts with ``deck`` (the first card is drawn at the start)."""
    driver = DuelDriver(**settings)
    first = driver.state["sequence"][0]
    driver.state["sequence"] = [deck[0]]
    for board in driver.state["boards"].values():
        board["sequence"] = [deck[0]]
    driver.state["deck"] = list(deck[1:])
    driver.state["numbers"] = 1 if deck[0] else 0
    assert first is not None
    return driver


def test_a_duel_needs_two_players_and_both_play():
    limits = DuelGame.limits
    assert (limits.max_players, limits.min_players, limits.host_plays) == (2, 2, True)


def test_the_first_number_is_drawn_at_the_start_for_both():
    driver = DuelDriver()
    assert len(driver.state["sequence"]) == 1
    assert driver.hand(driver.a) == driver.hand(driver.b) == driver.state["sequence"][0]
    view = driver.adapter.view(driver.state, player_id=201, role="host", seat_state={})
    assert "deck" not in view and view["game"]["deck"] is None  # the lobby's deck stays secret


def test_the_next_number_comes_only_when_both_placed():
    driver = duel([5, 6, 7])
    driver.act(driver.a, {"type": "place", "cell": 0}, 1)
    assert len(driver.state["sequence"]) == 1 and driver.hand(driver.a) is None
    outcome = driver.act(driver.b, {"type": "place", "cell": 3}, 2)
    assert [e["type"] for e in outcome.public][0] == "drawn"
    assert driver.hand(driver.a) == driver.hand(driver.b) == 6


def test_either_player_may_draw_once_their_own_hand_is_empty():
    driver = duel([5, 6, 7, 8])
    with pytest.raises(RoomError) as refused:
        driver.act(driver.b, {"type": "draw"}, 1)
    assert refused.value.code == "hand_not_empty"
    driver.act(driver.b, {"type": "place", "cell": 0}, 2)
    driver.act(driver.b, {"type": "draw"}, 3)  # the guest draws, not only the host
    assert driver.hand(driver.b) == 6 and driver.hand(driver.a) == 5
    driver.act(driver.b, {"type": "place", "cell": 1}, 4)
    driver.act(driver.b, {"type": "draw"}, 5)
    # The opponent catches up in order.
    driver.act(driver.a, {"type": "place", "cell": 0}, 6)
    assert driver.hand(driver.a) == 6
    driver.act(driver.a, {"type": "place", "cell": 1}, 7)
    driver.act(driver.a, {"type": "place", "cell": 2}, 8)
    assert driver.state["boards"]["201"]["cells"][:3] == [5, 6, 7]
    driver.act(driver.a, {"type": "draw"}, 9)  # the host may draw too
    assert driver.hand(driver.a) == 8


def play_out(driver: DuelDriver, a_values=None, *, t: float = 1.0) -> float:
    """Both handle every card until the duel is over; returns the time reached."""
    while driver.state["ended_at"] is None:
        for pid in (driver.a, driver.b):
            if driver.hand(pid) is not None and driver.state["ended_at"] is None:
                t += 1
                driver.handle(pid, t)
    return t


def test_the_higher_score_wins_and_both_results_are_recorded():
    driver = duel([7] * 4 + [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13] * 2)
    outcome = None
    t = 1.0
    # Anna puts the four 7s in a row; Boris scatters them on the diagonal.
    for cell_a, cell_b in zip((0, 1, 2, 3), (0, 6, 12, 18), strict=True):
        t += 1
        driver.act(driver.a, {"type": "place", "cell": cell_a}, t)
        outcome = driver.act(driver.b, {"type": "place", "cell": cell_b}, t + 0.5)
    play_out(driver, t=t)
    assert driver.last.finished
    results = {r.player_id: r for r in driver.results()}
    assert results[201].details["outcome"] == "win" and results[202].details["outcome"] == "loss"
    assert results[201].rank == 1 and results[202].rank == 2
    assert results[201].details["filled"] == 25 and results[201].completed
    assert outcome is not None


def test_equal_score_and_filled_cells_is_a_draw():
    driver = duel(list(range(1, 14)) * 2)
    t = 1.0
    while driver.state["ended_at"] is None:
        t += 1
        cell = driver.free_cell(driver.a)
        driver.act(driver.a, {"type": "place", "cell": cell}, t)
        driver.act(driver.b, {"type": "place", "cell": cell}, t + 0.5)
    results = driver.results()
    assert {r.details["outcome"] for r in results} == {"draw"}
    assert {r.rank for r in results} == {1}


def test_equal_score_more_filled_cells_ranks_first_and_an_early_end_records_no_outcome():
    driver = duel([0, 4, 9], difficulty="hard", seconds=5)
    driver.act(driver.a, {"type": "keep_joker"}, 1)
    driver.act(driver.b, {"type": "keep_joker"}, 1)
    driver.act(driver.a, {"type": "place", "cell": 0}, 2)
    driver.act(driver.b, {"type": "place", "cell": 0}, 2)  # 9 is drawn now
    driver.act(driver.a, {"type": "place_kept_joker", "cell": 24, "value": 1}, 3)
    state = driver.adapter.end(driver.state, now=at(4))
    driver.state = state
    info = driver.results()
    by = {r.player_id: r for r in info}
    assert by[201].details["filled"] == 2 and by[202].details["filled"] == 1
    assert by[201].rank == 1
    # Ended early: the duel result is not recorded for anybody.
    assert "outcome" not in by[201].details and "outcome" not in by[202].details


def test_a_player_who_quits_gives_the_other_no_win():
    driver = duel([5] * 4 + [6] * 4)
    driver.act(driver.a, {"type": "place", "cell": 0}, 1)
    driver.act(driver.b, {"type": "place", "cell": 0}, 2)
    outcome = driver.act(driver.b, {"type": "quit"}, 3)
    assert outcome.finished
    assert any(e["type"] == "duel_quit" and e["player_id"] == 202 for e in outcome.public)
    results = driver.results()
    assert len(results) == 2  # both games are recorded...
    assert all("outcome" not in r.details for r in results)  # ...the duel result is not


def test_an_opponent_who_placed_no_number_gives_no_win():
    driver = duel(list(range(1, 14)) * 2, difficulty="hard", seconds=3)
    t = 0.0
    # Boris never moves; Anna places every number; his numbers expire by the clock.
    while driver.state["ended_at"] is None:
        t += 1
        if driver.hand(driver.a) is not None:
            driver.handle(driver.a, t)
        else:
            outcome = driver.adapter.tick(driver.state, now=at(t + 3), rng=None)
            if outcome is not None:
                driver.state = outcome.state
                driver.last = outcome
            t += 3
    assert driver.last.finished
    results = {r.player_id: r for r in driver.results()}
    assert results[202].details["filled"] == 0
    assert results[201].details["filled"] == 25
    assert "outcome" not in results[201].details and "outcome" not in results[202].details


def test_hard_mode_deadline_ticks_and_auto_draws_after_a_forfeit():
    driver = duel([5, 6, 7], difficulty="hard", seconds=10)
    driver.act(driver.a, {"type": "place", "cell": 0}, 1)
    assert driver.adapter.next_deadline(driver.state) == at(10)
    assert driver.adapter.tick(driver.state, now=at(9), rng=None) is None
    outcome = driver.adapter.tick(driver.state, now=at(10.5), rng=None)
    driver.state = outcome.state
    assert driver.state["boards"]["202"]["forfeited"] == 1
    assert [e["type"] for e in outcome.public][0] == "drawn"
    assert driver.hand(driver.a) == driver.hand(driver.b) == 6


def test_the_opponents_cells_stay_hidden_until_the_end():
    driver = duel([5, 6])
    driver.act(driver.a, {"type": "place", "cell": 4}, 1)
    seen_by_b = driver.adapter.view(driver.state, player_id=202, role="player", seat_state={})
    assert seen_by_b["game"]["cells"][4] is None
    assert seen_by_b["progress"]["201"]["filled"] == 1
    assert "cells" not in seen_by_b["progress"]["201"]
    assert "final" not in seen_by_b


def test_only_duel_players_may_act():
    driver = duel([5, 6])
    with pytest.raises(RoomError) as refused:
        driver.act(999, {"type": "place", "cell": 0}, 1)
    assert refused.value.code == "not_playing"
