"""A duel player who leaves the room, or whom the host removes, quits the duel."""

from __future__ import annotations

import pytest

from games.models import GameResult
from games.poker.room_games import DuelGame
from games.rooms import selectors, services
from games.rooms.models import Room, RoomEvent
from tests.poker_room.drivers import DuelDriver, at


def test_player_removed_quits_the_duel_and_records_no_duel_result():
    driver = DuelDriver()
    outcome = driver.adapter.player_removed(driver.state, player_id=driver.b, now=at(3), rng=None)
    assert outcome.finished
    assert [e["type"] for e in outcome.public] == ["duel_quit", "duel_over"]
    assert outcome.public[0]["player_id"] == driver.b
    driver.state = outcome.state
    assert driver.state["quit_by"] == driver.b and driver.state["early"]
    results = driver.results()
    assert len(results) == 2 and all("outcome" not in r.details for r in results)


def test_player_removed_after_the_end_or_for_a_stranger_changes_nothing():
    driver = DuelDriver()
    adapter = DuelGame()
    assert adapter.player_removed(driver.state, player_id=999, now=at(1), rng=None) is None
    ended = adapter.end(driver.state, now=at(2))
    assert adapter.player_removed(ended, player_id=driver.b, now=at(3), rng=None) is None


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["leave", "kick"])
def test_leaving_or_removed_opponent_ends_a_running_duel(make_player, how):
    anna, boris = make_player("Anna"), make_player("Boris")
    room = services.create_room(game="poker", mode="duel", host=anna.profile, settings={})
    services.join_room(room=room, player=boris.profile)  # the second player starts the duel
    if how == "leave":
        services.leave_room(room=room, player=boris.profile)
    else:
        services.kick(room=room, actor=anna.profile, player_id=boris.profile.pk)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    last = RoomEvent.objects.filter(room=room).order_by("-seq").first()
    first_type = "player_left" if how == "leave" else "player_kicked"
    assert [e["type"] for e in last.public][:2] == [first_type, "duel_quit"]
    assert GameResult.objects.filter(record__game="poker", record__mode="duel").count() == 2
    state, _seats = selectors.rebuild_state(room)
    assert state == room.state
