"""The group game adapter: host draws, per-seat boards, hard deadlines, jokers, end, ranking."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.poker.room_games import common
from games.poker.room_games.group import GroupGame
from games.rooms.errors import RoomError
from tests.poker_room.drivers import GroupDriver, at

BASE = at(0).timestamp()
NUMBERS = [n for n in range(1, 14)] * 4


def with_deck(driver: GroupDriver, deck: list[int]) -> GroupDriver:
    driver.state["deck"] = list(deck)
    return driver


def test_bare_settings_give_an_easy_contiguous_game_the_host_deals():
    assert GroupGame().clean_settings({}) == {
        "table": "contiguous",
        "difficulty": "easy",
        "seconds": None,
        "host_plays": False,
    }


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"table": "poker"}, "bad_table"),
        ({"difficulty": "medium"}, "bad_difficulty"),
        ({"difficulty": "hard", "seconds": 2}, "bad_seconds"),
        ({"difficulty": "hard", "seconds": 301}, "bad_seconds"),
        ({"difficulty": "hard", "seconds": True}, "bad_seconds"),
    ],
)
def test_bad_settings_are_refused_with_a_stable_code(settings, code):
    with pytest.raises(RoomError) as refused:
        GroupGame().clean_settings(settings)
    assert refused.value.code == code


def test_a_dealing_host_has_no_board_and_a_playing_host_has_one():
    dealing = GroupDriver(2)
    assert [p["player_id"] for p in dealing.view(100, "host")["players"]] == [101, 102]
    assert dealing.seats[100] == {}
    assert dealing.view(100, "host")["you_play"] is False
    playing = GroupDriver(2, host_plays=True)
    assert [p["player_id"] for p in playing.view(100, "host")["players"]] == [100, 101, 102]
    assert playing.seats[100]["cells"] == [None] * 25


def test_the_group_limits_are_fifty_players_and_the_host_deals_on_top():
    limits = GroupGame.limits
    assert (limits.max_players, limits.host_plays, limits.spectators) == (50, False, False)


def test_the_deck_is_secret_and_the_whole_table_deck():
    driver = GroupDriver(1)
    assert sorted(driver.state["deck"]) == sorted(NUMBERS + [0, 0])
    assert "deck" not in driver.view(101)
    assert "deck" not in driver.started.public[0]


def test_only_the_host_draws():
    driver = GroupDriver(2)
    with pytest.raises(RoomError) as refused:
        driver.draw(1, who=101)
    assert refused.value.code == "not_host"
    event = driver.draw(1)
    assert event["type"] == "drawn" and event["index"] == 0 and event["at"] == at(1).timestamp()


def test_a_move_in_time_is_answered_by_the_ack_alone():
    driver = with_deck(GroupDriver(1), [7, 9])
    driver.draw(1)
    assert driver.place(101, 0, 2) == []  # no private event: the page already shows it


def test_every_player_gets_the_drawn_number_and_places_it_on_their_own_board():
    driver = with_deck(GroupDriver(3), [7, 9, 4])
    driver.draw(1)
    driver.place(101, 0, 2)
    driver.place(102, 24, 3)
    assert driver.seats[101]["cells"][0] == 7
    assert driver.seats[102]["cells"][24] == 7
    assert driver.seats[103]["cells"] == [None] * 25  # untouched seat: nothing stored yet
    assert driver.view(103)["game"]["sequence"] == [7]  # but caught up when seen


def test_a_player_without_a_number_in_hand_is_refused_and_nothing_changes():
    driver = GroupDriver(1)
    before = dict(driver.seats[101])
    with pytest.raises(RoomError) as refused:
        driver.place(101, 0, 1)
    assert refused.value.code == "no_card"
    assert driver.seats[101] == before


def test_a_dealing_host_cannot_place():
    driver = GroupDriver(1)
    driver.draw(1)
    with pytest.raises(RoomError) as refused:
        driver.place(100, 0, 2)
    assert refused.value.code == "not_playing"


def test_who_falls_behind_catches_up_in_order():
    driver = with_deck(GroupDriver(2), [3, 5, 8, 11])
    for t in (1, 2, 3):
        driver.draw(t)
    driver.place(101, 0, 4)
    driver.place(101, 1, 5)
    driver.place(101, 2, 6)
    assert driver.seats[101]["cells"][:3] == [3, 5, 8]
    with pytest.raises(RoomError):
        driver.place(101, 3, 7)  # nothing more drawn yet
    assert driver.view(102)["game"]["handled"] == 0


def test_hard_deadline_runs_from_the_draw_for_a_waiting_player():
    driver = with_deck(GroupDriver(1, difficulty="hard", seconds=10), [3, 5])
    driver.draw(100)
    common_view = driver.view(101)
    assert common_view["game"]["sequence"] == [3]
    driver.place(101, 0, 110)  # exactly at the deadline is in time
    assert driver.seats[101]["cells"][0] == 3


def test_hard_deadline_runs_from_the_previous_number_for_a_player_catching_up(monkeypatch):
    driver = with_deck(GroupDriver(2, difficulty="hard", seconds=10), [3, 5, 8, 9])
    driver.draw(0)
    driver.draw(1)
    driver.draw(2)
    driver.place(101, 0, 9)  # card 0 handled at 9: card 1's clock starts at 9
    driver.place(101, 1, 18)  # 9 + 10 > 18: in time although drawn at 1
    assert driver.seats[101]["cells"][:2] == [3, 5]
    # Player 102 never acted: card 0 expired at 10, card 1 at 20, card 2 at 30.
    monkeypatch.setattr(common, "wall_clock", lambda: at(25).timestamp())
    seen = driver.view(102)["game"]
    assert seen["forfeited"] == 2 and seen["handled"] == 2
    assert seen["handled_at"] == at(20).timestamp()


def test_hard_deadlines_are_computed_from_stored_times_after_a_restart():
    """Nothing runs between actions; a later action finds the expired numbers gone."""
    driver = with_deck(GroupDriver(1, difficulty="hard", seconds=5), [3, 5, 8, 9])
    driver.draw(0)
    driver.draw(0.5)
    driver.draw(1)
    # A "restart": only the JSON states survive (the driver round-trips them anyway).
    private = driver.place(101, 7, 12)  # 3 expired at 5, 5 expired at 10, 8 is in hand until 15
    game = private[0]["game"]
    assert game["forfeited"] == 2
    assert game["cells"][7] == 8
    assert [e["type"] for e in private[0]["events"]][:2] == ["forfeited", "forfeited"]


def test_each_player_decides_on_a_joker_alone():
    driver = with_deck(GroupDriver(3), [0, 6, 9])
    driver.draw(1)  # a joker reaches everybody at once
    driver.act(101, {"type": "use_joker", "cell": 12, "value": 13}, 2)
    driver.act(102, {"type": "keep_joker"}, 3)
    driver.draw(4)
    assert driver.seats[101]["cells"][12] == 13 and driver.seats[101]["joker_cells"] == [12]
    assert driver.seats[102]["kept_jokers"] == 1
    # The kept joker is placed while holding a number, outside the sequence.
    driver.act(102, {"type": "place_kept_joker", "cell": 0, "value": 6}, 5)
    driver.place(102, 1, 6)
    assert driver.seats[102]["cells"][:2] == [6, 6] and driver.seats[102]["joker_cells"] == [0]
    # 103 still has the joker in hand and cannot place it as a plain number.
    with pytest.raises(RoomError) as refused:
        driver.place(103, 0, 7)
    assert refused.value.code == "joker_in_hand"


def test_a_kept_joker_is_placed_after_the_sequence_ran_out():
    driver = with_deck(GroupDriver(1), [0] + list(range(1, 14)) * 2)
    driver.draw(0)
    driver.act(101, {"type": "keep_joker"}, 0.5)
    for i in range(24):
        driver.draw(1 + i)
        driver.place(101, i, 1.5 + i)
    driver.draw(30)  # the 25th number closes the sequence
    assert driver.state["closed"]
    with pytest.raises(RoomError) as refused:
        driver.draw(31)
    assert refused.value.code == "sequence_closed"
    # The player skips the 25th number? No: they place the kept joker first, outside it.
    assert driver.act(101, {"type": "place_kept_joker", "cell": 24, "value": 2}, 32) == []
    game = driver.seats[101]
    assert game["cells"][24] == 2 and game["finished_at"] is not None
    assert game["kept_jokers"] == 0


def test_the_sequence_closes_after_twenty_five_numbers_jokers_not_counted():
    driver = with_deck(GroupDriver(1), [0, 0] + [5] * 25 + [6])
    for t in range(27):
        event = driver.draw(t)
    assert event["closed"] and driver.state["numbers"] == 25 and len(driver.state["sequence"]) == 27


def test_the_host_ends_and_everyone_is_ranked_with_boards():
    driver = with_deck(GroupDriver(3), [4, 4, 4])
    for t in (1, 2, 3):
        driver.draw(t)
    for cell in (0, 1, 2):
        driver.place(101, cell, 4 + cell)  # three 4s in a row: 25 points
    driver.place(102, 0, 5)
    driver.place(102, 6, 6)  # two 4s on the diagonal... not adjacent in row: 10 + 15 on diag
    results = driver.end(20)
    by_player = {r.player_id: r for r in results}
    assert set(by_player) == {101, 102, 103}
    assert by_player[101].rank == 1
    assert by_player[103].score == 0 and by_player[103].rank == 3
    assert by_player[101].details["board"][:3] == [4, 4, 4]
    assert by_player[101].details["filled"] == 3
    assert "duration_s" not in by_player[101].details
    assert all(r.completed is False for r in results)


def test_results_share_ranks_for_equal_score_and_filled_cells():
    driver = with_deck(GroupDriver(3), [4, 4])
    driver.draw(1)
    driver.draw(2)
    for pid in (101, 102):
        driver.place(pid, 0, 3)
        driver.place(pid, 1, 4)
    driver.place(103, 0, 3)
    ranks = {r.player_id: r.rank for r in driver.end(10)}
    assert ranks == {101: 1, 102: 1, 103: 3}


def test_a_full_easy_game_completes_every_board():
    driver = GroupDriver(2, seed=7)
    t = 0.0
    while not driver.state["closed"]:
        t += 1
        card = driver.draw(t)["card"]
        for pid in driver.players:
            game = driver.view(pid)["game"]
            if game["finished_at"] is not None:
                continue
            cell = game["cells"].index(None)
            if card == 0:
                driver.act(pid, {"type": "use_joker", "cell": cell, "value": 1}, t + 0.5)
            else:
                driver.place(pid, cell, t + 0.5)
    results = driver.end(t + 1)
    assert all(r.completed for r in results)
    assert all(r.details["filled"] == 25 for r in results)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 400), st.integers(0, 25)), max_size=30))
def test_ranking_orders_by_score_then_filled_and_shares_equal_ranks(pairs):
    entries = [{"player_id": i, "score": s, "filled": f} for i, (s, f) in enumerate(pairs)]
    ranking = common.ranked(entries)
    keys = [(-e["score"], -e["filled"]) for e in ranking]
    assert keys == sorted(keys)
    for entry in ranking:
        better = sum(
            1 for e in entries if (e["score"], e["filled"]) > (entry["score"], entry["filled"])
        )
        assert entry["rank"] == better + 1


@settings(max_examples=40, deadline=None)
@given(
    seconds=st.integers(3, 30),
    gaps=st.lists(st.floats(0, 40), min_size=1, max_size=10),
    waits=st.lists(st.floats(0, 1), min_size=10, max_size=10),
)
def test_every_hard_deadline_is_its_own_and_equal_in_length(seconds, gaps, waits):
    """Whatever the host's pace, each number's clock starts when the player reached it
    (its draw, or the previous number) and lasts exactly ``seconds``; a number handled
    in time is never forfeited, and one left alone is forfeited at that deadline."""
    driver = with_deck(GroupDriver(2, difficulty="hard", seconds=seconds), list(range(1, 13)))
    t = 0.0
    for gap in gaps:
        t += gap
        driver.draw(t)
    now = 0.0
    for index, fraction in enumerate(waits[: len(gaps)]):
        handled_at = driver.seats[101]["handled_at"]
        reached = max(driver.state["dealt_at"][index], handled_at or 0.0)
        now = reached - BASE + fraction * seconds
        board = common.board_at(driver.state, driver.seats[101], BASE + now)
        assert board.hand is not None and board.deadline() == reached + seconds
        driver.place(101, index, now)
    assert driver.seats[101]["forfeited"] == 0
    # The idle player loses each number exactly at its own deadline, in order.
    idle = common.board_at(driver.state, driver.seats[102], BASE + t + 41 * seconds * len(gaps))
    assert idle.forfeited == len(gaps)
    expected = BASE
    for dealt in driver.state["dealt_at"]:
        expected = max(dealt, expected) + seconds
    assert idle.handled_at == expected
