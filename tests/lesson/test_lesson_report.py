"""A lesson's class report against what was played (issue 31, "Reports that tell the truth").

Three group games run through the rooms runtime on a fake clock (no sleeps, no
real deadlines): an easy game with a latecomer, a slow pupil and a guest who
joined by QR; a hard game (5 s per number) in which nobody fills the board; and
a game the host stops early. The report must count both games that ran to their
end for every member who played, mark incomplete boards with how far they got,
keep the guest apart, and call only the stopped game unfinished. The expected
numbers are scored here from the boards themselves, not read from the results.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest

from classrooms import launch
from games.models import GameRecord
from games.poker.rules import score_board
from games.rooms import services as rooms
from games.rooms.models import Room, Seat
from tests.classrooms import factories

NUMBERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] * 2  # no joker: plain placements


class Clock:
    """The runtime's ``timezone.now``, moved on by the test."""

    def __init__(self) -> None:
        self.moment = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


@pytest.fixture
def clock():
    fake = Clock()
    with mock.patch("django.utils.timezone.now", fake):
        yield fake


class Lesson:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.teacher = factories.make_teacher("lekce@skola.sk")
        self.classroom = factories.make_class(self.teacher)
        self.members = {
            name: factories.add_member(self.classroom, roster_name=name)
            for name in ("Adam Kováč", "Bára Nová", "Cyril Pekný")
        }
        self.guest = factories.make_player("Host z QR")

    def player(self, name: str):
        return self.members[name].player

    def start(self, settings: dict, players: list) -> Room:
        room = launch.start_group_game(
            classroom=self.classroom, user=self.teacher, game="poker", settings=settings
        )
        for player in players:
            rooms.join_room(room=room, player=player)
        rooms.start_room(room=room, actor=room.host)
        room.refresh_from_db()
        room.state["deck"] = list(NUMBERS)
        Room.objects.filter(pk=room.pk).update(state=room.state)
        return room

    def draw(self, room: Room, turn: int) -> None:
        rooms.submit(
            room_id=room.pk, player=room.host, client_id=f"d{turn}", message={"type": "draw"}
        )

    def place(self, room: Room, player, cell: int) -> None:
        rooms.submit(
            room_id=room.pk,
            player=player,
            client_id=f"p{player.pk}-{cell}",
            message={"type": "place", "cell": cell},
        )

    def end(self, room: Room) -> None:
        rooms.end_room(room=room, actor=room.host)

    def board(self, room: Room, player) -> list:
        return Seat.objects.get(room=room, player=player).state["cells"]


def _csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8")[1:])))


def test_the_class_report_counts_what_was_played(db, clock, client):
    lesson = Lesson(clock)
    adam, bara, cyril = (lesson.player(n) for n in ("Adam Kováč", "Bára Nová", "Cyril Pekný"))
    guest = lesson.guest

    # --- game 1, easy: Cyril comes at the 5th number, Bára is slow, a guest plays ---
    easy = lesson.start({"table": "contiguous"}, [adam, bara, guest])
    for turn in range(25):
        clock.advance(10)
        lesson.draw(easy, turn)
        if turn == 4:  # a latecomer: the 5th number in hand, the first four missed
            rooms.join_room(room=easy, player=cyril)
        clock.advance(1)
        for player in (adam, guest) + ((cyril,) if turn >= 4 else ()):
            lesson.place(easy, player, turn)
        if turn < 20:  # Bára is slow: the last five numbers are still in her hand
            lesson.place(easy, bara, turn)
    lesson.end(easy)  # every number is out: the game ran to its end

    # --- game 2, hard (5 s a number): nobody fills the board ----------------------------
    hard = lesson.start({"table": "contiguous", "difficulty": "hard", "seconds": 5}, [adam, bara])
    for turn in range(25):
        lesson.draw(hard, turn)
        clock.advance(1)
        if turn % 5:  # Adam lets every fifth number run out
            lesson.place(hard, adam, turn)
        if turn % 2:  # Bára every second one
            lesson.place(hard, bara, turn)
        clock.advance(9)
    lesson.end(hard)

    # --- game 3: the host stops after three numbers --------------------------------------
    stopped = lesson.start({"table": "contiguous"}, [adam, bara])
    for turn in range(3):
        lesson.draw(stopped, turn)
        lesson.place(stopped, adam, turn)
    lesson.end(stopped)

    for room in (easy, hard, stopped):
        room.refresh_from_db()
    played = {
        room.pk: {
            p.pk: lesson.board(room, p)
            for p in (adam, bara, cyril, guest)
            if Seat.objects.filter(room=room, player=p).exists()
        }
        for room in (easy, hard, stopped)
    }
    scores = {
        room_id: {pid: score_board(cells, "contiguous").total for pid, cells in boards.items()}
        for room_id, boards in played.items()
    }
    filled = {
        room_id: {pid: sum(cell is not None for cell in cells) for pid, cells in boards.items()}
        for room_id, boards in played.items()
    }
    assert filled[easy.pk] == {adam.pk: 25, bara.pk: 20, cyril.pk: 21, guest.pk: 25}
    assert filled[hard.pk] == {adam.pk: 20, bara.pk: 12}

    # --- the report ---------------------------------------------------------------------
    client.force_login(lesson.teacher)
    page = client.get(f"/classes/{lesson.classroom.pk}/results/", headers={"accept-language": "en"})
    sessions = {record.pk: record for record in page.context["sessions"]}
    assert set(sessions) == {easy.record_id, hard.record_id}  # the stopped game is apart
    assert page.context["unfinished"] == 1
    members = (adam.pk, bara.pk, cyril.pk)
    for room in (easy, hard):
        record = sessions[room.record_id]
        mine = [score for pid, score in scores[room.pk].items() if pid in members]
        assert record.player_count == len(mine)
        assert record.guest_count == (1 if room is easy else 0)
        assert record.average_score == pytest.approx(sum(mine) / len(mine))
        assert record.best_score == max(mine)
    participation = {
        row.member.player_id: (row.games, share, row.best)
        for row, share in page.context["participation"]
    }
    assert participation == {
        adam.pk: (2, 100, max(scores[easy.pk][adam.pk], scores[hard.pk][adam.pk])),
        bara.pk: (2, 100, max(scores[easy.pk][bara.pk], scores[hard.pk][bara.pk])),
        cyril.pk: (1, 50, scores[easy.pk][cyril.pk]),
    }

    # The easy game's ranking: the slow pupil and the latecomer marked, the guest apart.
    session = client.get(
        f"/classes/{lesson.classroom.pk}/sessions/{easy.record_id}/",
        headers={"accept-language": "en"},
    )
    assert {row.result.player_id for row in session.context["ranking"]} == set(members)
    assert [row.result.player_id for row in session.context["guests"]] == [guest.pk]
    html = session.content.decode()
    assert "board not completed: 20 cells filled" in html  # Bára
    assert "board not completed: 21 cells filled, 4 numbers missed" in html  # Cyril
    rows = _csv(
        client.get(
            f"/classes/{lesson.classroom.pk}/sessions/{easy.record_id}/results.csv",
            headers={"accept-language": "en"},
        )
    )
    nick = rows[0].index("Nickname")  # after the surname, first name and ID columns
    notes = {row[nick]: row[-1] for row in rows[1:]}
    assert notes[guest.nickname] == "guest, not in the class"
    assert notes[cyril.nickname] == "board not completed: 21 cells filled, 4 numbers missed"
    # Bára's last five numbers were still in her hand when the teacher ended the game.
    assert notes[bara.nickname] == "board not completed: 20 cells filled, 5 numbers missed"
    assert rows[-1][nick] == guest.nickname  # guests after the class

    # The hard game counts though nobody filled the board; the stopped one does not.
    hard_rows = _csv(
        client.get(
            f"/classes/{lesson.classroom.pk}/sessions/{hard.record_id}/results.csv",
            headers={"accept-language": "en"},
        )
    )
    assert {row[nick]: row[-1] for row in hard_rows[1:]} == {
        adam.nickname: "board not completed: 20 cells filled, 5 numbers missed",
        bara.nickname: "board not completed: 12 cells filled, 13 numbers missed",
    }
    assert GameRecord.objects.get(pk=stopped.record_id).results.filter(player=adam).exists()
    all_sessions = _csv(
        client.get(
            f"/classes/{lesson.classroom.pk}/results/sessions.csv?all=1",
            headers={"accept-language": "en"},
        )
    )
    assert [row[-1] for row in all_sessions[1:]] == ["not finished", "", ""]
    assert all_sessions[0][2] == "Mode" and all_sessions[1][2] == "group game"
