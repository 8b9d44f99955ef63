"""Latecomers join the running poker group game (issue 31, "Latecomers").

A pupil who comes after the host started plays from the number in hand; the
numbers drawn before it count as missed (forfeited cells, in the view and in
the results). The runtime admits them only where the game says it can.
"""

from __future__ import annotations

import pytest

from games.poker.room_games.group import GroupGame
from games.rooms import selectors, services
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat
from tests.poker_room.drivers import GroupDriver, at, roundtrip
from tests.rooms.conftest import Player
from tests.rooms.testgame import GAME

LATE = 500


def _late(driver: GroupDriver, t: float, pid: int = LATE) -> None:
    outcome = driver.adapter.latecomer(driver.state, player_id=pid, nickname="Late", now=at(t))
    driver.state = roundtrip(outcome.state)
    driver.seats[pid] = roundtrip(driver.adapter.initial_seat_state(driver.state, pid))
    assert outcome.public == [{"type": "latecomer", "player_id": pid}]


def test_a_latecomer_plays_the_number_in_hand_and_the_earlier_ones_count_as_missed():
    driver = GroupDriver(2)
    driver.state["deck"] = [3, 7, 11, 5, 9]
    for t in (1, 2, 3):
        driver.draw(t)
    _late(driver, 10)
    view = driver.view(LATE)
    assert view["you_play"] is True and view["missed"] == 2
    game = view["game"]
    assert game["sequence"] == [3, 7, 11]
    assert game["handled"] == 2 and game["forfeited"] == 2
    assert game["cells"] == [None] * 25
    driver.place(LATE, 12, 11)  # the 11 in hand
    driver.draw(12)
    driver.place(LATE, 13, 13)
    assert driver.view(LATE)["game"]["cells"][12:14] == [11, 5]
    assert driver.view(101)["missed"] == 0


def test_a_latecomer_in_hard_mode_gets_the_whole_time_for_the_number_in_hand():
    driver = GroupDriver(1, difficulty="hard", seconds=5)
    driver.state["deck"] = [3, 7, 11]
    driver.draw(1)
    driver.draw(2)
    _late(driver, 30)  # the 7 was drawn 28 s ago; the latecomer still has 5 s
    driver.place(LATE, 0, 34)
    assert driver.view(LATE)["game"]["cells"][0] == 7


def test_a_missed_joker_costs_no_cell():
    driver = GroupDriver(1)
    driver.state["deck"] = [0, 4, 6]
    for t in (1, 2, 3):
        driver.draw(t)
    _late(driver, 4)
    assert driver.view(LATE)["game"]["forfeited"] == 1  # the 4; the joker is simply gone


def test_a_latecomer_before_the_first_draw_misses_nothing():
    driver = GroupDriver(1)
    _late(driver, 1)
    assert driver.view(LATE)["missed"] == 0
    assert driver.seats[LATE] == GroupGame().initial_seat_state(driver.state, 101)


def test_the_results_say_how_many_numbers_a_latecomer_missed():
    driver = GroupDriver(1)
    driver.state["deck"] = [3, 7, 11, 5]
    for t in (1, 2, 3):
        driver.draw(t)
    _late(driver, 4)
    driver.place(LATE, 0, 5)
    results = {r.player_id: r for r in driver.end(6)}
    assert results[LATE].details["missed"] == 2
    assert results[LATE].details["filled"] == 1
    assert results[101].details["missed"] == 0


def test_nobody_joins_a_group_game_twice_or_after_its_end():
    driver = GroupDriver(1)
    with pytest.raises(RoomError) as twice:
        driver.adapter.latecomer(driver.state, player_id=101, nickname="P101", now=at(1))
    assert twice.value.code == "already_started"
    driver.end(2)
    with pytest.raises(RoomError) as ended:
        driver.adapter.latecomer(driver.state, player_id=LATE, nickname="Late", now=at(3))
    assert ended.value.code == "already_started"


# --- through the runtime ------------------------------------------------------------


@pytest.fixture
def running_group(db):
    teacher, pupil = Player("Teacher"), Player("Early")
    room = services.create_room(
        game="poker", mode="group", host=teacher.profile, settings={"table": "contiguous"}
    )
    services.join_room(room=room, player=pupil.profile)
    services.start_room(room=room, actor=teacher.profile)
    for turn in range(3):
        services.submit(
            room_id=room.pk, player=teacher.profile, client_id=f"d{turn}", message={"type": "draw"}
        )
    room.refresh_from_db()
    return room, teacher, pupil


def test_the_runtime_seats_a_latecomer_in_a_running_group_game(running_group):
    room, _teacher, _pupil = running_group
    late = Player("Late")
    seat = services.join_room(room=room, player=late.profile)
    room.refresh_from_db()
    assert (seat.role, seat.status) == (Seat.Role.PLAYER, Seat.Status.JOINED)
    assert [late.id, "Late"] in room.state["players"]
    missed_numbers = [card for card in seat.state["sequence"][:2] if card != 0]
    assert seat.state["handled"] == 2 and seat.state["forfeited"] == len(missed_numbers)
    snapshot = selectors.snapshot(room_id=room.pk, player=late.profile)
    assert snapshot["view"]["you_play"] and snapshot["view"]["missed"] == 2


def test_the_event_log_replays_a_latecomer(running_group):
    room, _teacher, _pupil = running_group
    late = Player("Late")
    services.join_room(room=room, player=late.profile)
    room.refresh_from_db()
    state, seat_states = selectors.rebuild_state(room)
    assert state == room.state
    assert seat_states[late.id] == Seat.objects.get(room=room, player=late.profile).state


def test_a_player_who_left_the_running_game_does_not_come_back_to_play(running_group):
    room, _teacher, pupil = running_group
    services.leave_room(room=room, player=pupil.profile)
    with pytest.raises(RoomError) as refused:
        services.join_room(room=room, player=pupil.profile)
    assert refused.value.code == "already_started"


def test_a_locked_group_game_admits_no_latecomer(running_group):
    room, teacher, _pupil = running_group
    Room.objects.filter(pk=room.pk).update(locked=True)
    with pytest.raises(RoomError) as refused:
        services.join_room(room=room, player=Player("Late").profile)
    assert refused.value.code == "room_locked"


def test_games_that_cannot_admit_latecomers_still_refuse_them(db):
    host = Player("Host")
    room = services.create_room(game=GAME, mode="duel", host=host.profile, settings={})
    services.start_room(room=room, actor=host.profile)
    with pytest.raises(RoomError) as refused:
        services.join_room(room=room, player=Player().profile)
    assert refused.value.code == "already_started"
