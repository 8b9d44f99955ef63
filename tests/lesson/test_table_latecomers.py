"""Latecomers at a class's tables (issue 31): a turn-based table cannot admit a
player mid-game, so a latecomer watches -- and is seated in the next round by
itself when the table plays again."""

from classrooms import launch
from games.rooms import services as rooms
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat
from tests.classrooms import factories


def test_a_latecomer_watches_a_running_table_and_is_seated_in_the_next_round(db):
    teacher = factories.make_teacher("stoly@skola.sk")
    classroom = factories.make_class(teacher)
    for name in ("Adam Kováč", "Bára Nová"):
        factories.add_member(classroom, roster_name=name)
    (table,) = launch.start_tables(classroom=classroom, game="abaku", size=4)
    rooms.start_room(room=table, actor=table.host)
    late = factories.add_member(classroom, roster_name="Cyril Pekný").player

    try:
        rooms.join_room(room=table, player=late)
    except RoomError as refused:
        assert refused.code == "already_started"
    else:  # pragma: no cover - a turn-based table admitting a player mid-game
        raise AssertionError("a running table admitted a new player")
    watching = rooms.join_room(room=table, player=late, role="spectator")
    assert watching.role == Seat.Role.SPECTATOR

    rooms.end_room(room=table, actor=table.host)
    table.refresh_from_db()
    following = rooms.rematch(room=table, actor=table.host)
    seat = Seat.objects.get(room=following, player=late)
    assert (seat.role, seat.status) == (Seat.Role.PLAYER, Seat.Status.JOINED)
    assert following.status == Room.Status.RUNNING


def test_outside_a_class_a_watcher_stays_a_watcher(db):
    host = factories.make_player("Hostitel")
    watcher = factories.make_player("Divák")
    player = factories.make_player("Hráčka")
    room = rooms.create_room(game="abaku", mode="table", host=host, settings={"table_size": 2})
    rooms.join_room(room=room, player=player)
    rooms.start_room(room=room, actor=host)
    rooms.join_room(room=room, player=watcher, role="spectator")
    rooms.end_room(room=room, actor=host)
    room.refresh_from_db()
    following = rooms.rematch(room=room, actor=host)
    assert not Seat.objects.filter(room=following, player=watcher).exists()
