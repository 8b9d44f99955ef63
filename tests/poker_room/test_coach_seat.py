"""The coach as a seat of the group game ("robot in the class"): it places every
number the moment the host draws it, is ranked with the class on the
projector, and never gets a result (so never counts in class averages)."""

from __future__ import annotations

from games.poker import coach_seat
from games.poker.room_games import group
from tests.poker_room.drivers import GroupDriver

NUMBERS = [n for n in range(1, 14)] * 4


def test_the_coach_seat_is_only_there_when_the_teacher_asks():
    assert "coach_seat" not in GroupDriver(2).settings
    assert "coach" not in GroupDriver(2).state
    driver = GroupDriver(2, coach_seat="on")
    assert driver.settings["coach_seat"] is True
    assert driver.state["coach"]["cells"] == [None] * 25


def test_the_coach_places_each_number_when_it_is_drawn_and_stays_out_of_results():
    driver = GroupDriver(2, coach_seat=True)
    driver.state["deck"] = list(NUMBERS)
    for turn in range(25):
        driver.draw(turn * 10.0)
        coach = driver.state["coach"]
        # Instantly: every drawn number is already on the coach's board.
        assert coach["handled"] == turn + 1
        assert sum(c is not None for c in coach["cells"]) == turn + 1
        for pid in driver.players:
            driver.place(pid, driver.seats[pid]["cells"].index(None), turn * 10.0 + 1)
    ranking = group.standings(driver.state, driver.seats, 999.0, with_coach=True)
    robots = [e for e in ranking if e.get("robot")]
    assert len(robots) == 1
    assert robots[0]["player_id"] == coach_seat.COACH_ID
    assert robots[0]["filled"] == 25
    assert [e["rank"] for e in ranking] == sorted(e["rank"] for e in ranking)
    # It writes no result, and the pupils' ranks are counted without it.
    state = driver.adapter.end(driver.state, now=driver_time(999))
    results = driver.adapter.results(state, driver.seats)
    assert {r.player_id for r in results} == set(driver.players)
    pupils = group.standings(driver.state, driver.seats, 999.0)
    assert {r.player_id: r.rank for r in results} == {e["player_id"]: e["rank"] for e in pupils}
    assert min(r.rank for r in results) == 1


def driver_time(seconds):
    from tests.poker_room.drivers import at

    return at(seconds)
