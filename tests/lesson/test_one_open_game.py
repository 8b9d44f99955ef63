"""One open game per class launch (issue 31): a new group game or "New round"
closes the class's older lobby that never started and seats its pupils."""

from classrooms import launch
from games.poker.room_games import services as poker_services
from games.rooms import services as rooms
from games.rooms.models import Room, RoomEvent, Seat
from tests.classrooms import factories


def _pupil(classroom, name):
    return factories.add_member(classroom, roster_name=name).player


def test_a_new_class_game_closes_the_older_lobby_and_seats_its_pupils(db):
    teacher = factories.make_teacher("jedna@skola.sk")
    classroom = factories.make_class(teacher)
    adam = _pupil(classroom, "Adam Kováč")
    first = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    rooms.join_room(room=first, player=adam)
    second = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    first.refresh_from_db()
    assert first.status == Room.Status.FINISHED and first.record_id is None
    assert Seat.objects.filter(room=second, player=adam, status=Seat.Status.JOINED).exists()
    told = RoomEvent.objects.filter(room=first).order_by("-seq").first()
    assert told.public[0] == {"type": "rematch", "code": second.code}


def test_new_round_closes_a_stale_class_lobby_too(db):
    teacher = factories.make_teacher("kolo@skola.sk")
    classroom = factories.make_class(teacher)
    bara = _pupil(classroom, "Bára Nová")
    played = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    rooms.join_room(room=played, player=_pupil(classroom, "Cyril Pekný"))
    rooms.start_room(room=played, actor=played.host)
    rooms.end_room(room=played, actor=played.host)
    played.refresh_from_db()
    # A lobby opened by mistake meanwhile, with a pupil waiting in it.
    stale = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    rooms.join_room(room=stale, player=bara)
    fresh = poker_services.new_round(room=played, host=played.host)
    stale.refresh_from_db()
    assert stale.status == Room.Status.FINISHED
    assert Seat.objects.filter(room=fresh, player=bara, status=Seat.Status.JOINED).exists()
    assert list(Room.objects.filter(classroom=classroom, status=Room.Status.LOBBY)) == [fresh]


def test_a_started_game_and_other_classes_are_left_alone(db):
    teacher = factories.make_teacher("nech@skola.sk")
    classroom, other = factories.make_class(teacher), factories.make_class(teacher, name="6.B")
    running = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    rooms.join_room(room=running, player=_pupil(classroom, "Dana Malá"))
    rooms.start_room(room=running, actor=running.host)
    elsewhere = launch.start_group_game(classroom=other, user=teacher, game="poker")
    launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    running.refresh_from_db()
    elsewhere.refresh_from_db()
    assert running.status == Room.Status.RUNNING
    assert elsewhere.status == Room.Status.LOBBY
