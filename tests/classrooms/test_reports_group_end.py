"""Issue 37 §2: a group game the teacher ends after every number was drawn,
while a pupil lags, counts for every pupil who played (page, CSV, .xlsx); the
lagging board is marked incomplete with cells filled and numbers missed.
"Unfinished" is only a game stopped before the deck ran out."""

import csv
import io

import pytest
from openpyxl import load_workbook

from games.rooms import services
from games.rooms.models import Room
from tests.classrooms import factories
from tests.poker_room.live import rig_deck
from tests.rooms.conftest import Player

pytestmark = pytest.mark.django_db

DECK = [n for n in range(1, 14)] * 2


def _class_group(classroom, teacher_player, pupils, deck=DECK):
    room = services.create_room(
        game="poker", mode="group", host=teacher_player, settings={}, classroom=classroom
    )
    for pupil in pupils:
        services.join_room(room=room, player=pupil.profile)
    services.start_room(room=room, actor=teacher_player)
    rig_deck(room, deck)
    return room


def _submit(room, who, message, tag):
    services.submit(room_id=room.pk, player=who, client_id=tag, message=message)


@pytest.fixture
def pupils(classroom):
    adam, bara = Player("Sokol"), Player("Liska")
    for name, player in (("Adam Kováč", adam), ("Bára Nová", bara)):
        member = classroom.members.get(roster_name=name)
        member.player = player.profile
        member.save()
    return adam, bara


def _play(classroom, teacher, pupils, *, draws: int, lagger_places: int, deck=DECK):
    host = factories.make_player("Učitel")
    room = _class_group(classroom, host, pupils, deck)
    adam, bara = pupils
    for turn in range(draws):
        _submit(room, host, {"type": "draw"}, f"d{turn}")
        move = {"type": "place", "cell": turn}
        if deck[turn] == 0:
            move = {"type": "use_joker", "cell": turn, "value": 5}
        _submit(room, adam.profile, move, f"a{turn}")
        if turn < lagger_places:
            _submit(room, bara.profile, {"type": "place", "cell": turn}, f"b{turn}")
    services.end_room(room=Room.objects.get(pk=room.pk), actor=host)
    return Room.objects.get(pk=room.pk).record


def test_a_game_ended_after_the_last_number_counts_for_the_pupil_who_lags(
    teacher_client, classroom, teacher, pupils
):
    record = _play(classroom, teacher, pupils, draws=25, lagger_places=20)
    page = teacher_client.get(f"/classes/{classroom.pk}/results/")
    assert [s.pk for s in page.context["sessions"]] == [record.pk]
    assert page.context["unfinished"] == 0
    games = {row.member.roster_name: row.games for row, _share in page.context["participation"]}
    assert games == {"Adam Kováč": 1, "Bára Nová": 1, "Cyril Pekný": 0}

    text = teacher_client.get(
        f"/classes/{classroom.pk}/sessions/{record.pk}/results.csv"
    ).content.decode("utf-8")
    rows = list(csv.reader(io.StringIO(text[1:])))
    lagging = next(row for row in rows if "Nová" in " ".join(row))
    assert "20 cells filled, 5 numbers missed" in lagging[-1]
    assert "not finished" not in text

    text = teacher_client.get(f"/classes/{classroom.pk}/results/participation.csv").content.decode(
        "utf-8"
    )
    table = list(csv.reader(io.StringIO(text[1:])))
    games_column = table[0].index("Games")
    assert {row[games_column] for row in table[1:] if "Cyril" not in " ".join(row)} == {"1"}

    sheet = load_workbook(
        io.BytesIO(
            teacher_client.get(f"/classes/{classroom.pk}/results/participation.xlsx").content
        )
    ).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    games_column = values[0].index("Games")
    assert sorted(row[games_column] for row in values[1:]) == [0, 1, 1]


def test_a_game_stopped_before_the_deck_ran_out_is_unfinished(
    teacher_client, classroom, teacher, pupils
):
    _play(classroom, teacher, pupils, draws=12, lagger_places=12)
    page = teacher_client.get(f"/classes/{classroom.pk}/results/")
    assert page.context["sessions"] == [] and page.context["unfinished"] == 1


def test_a_game_ended_when_every_cell_had_its_card_counts_though_jokers_kept_numbers_back(
    teacher_client, classroom, teacher, pupils
):
    """25 cards with two jokers: the pupils who used them are done, the deck is not
    "closed" (23 numbers), a pupil lags, the teacher ends: the game counts."""
    deck = DECK[:21] + [0, 0] + DECK[21:25]
    record = _play(classroom, teacher, pupils, draws=25, lagger_places=18, deck=deck)
    page = teacher_client.get(f"/classes/{classroom.pk}/results/")
    assert [s.pk for s in page.context["sessions"]] == [record.pk]
    games = {row.member.roster_name: row.games for row, _share in page.context["participation"]}
    assert games == {"Adam Kováč": 1, "Bára Nová": 1, "Cyril Pekný": 0}
    lagging = record.results.get(completed=False)
    # 18 placed; 3 numbers, then 2 jokers (not numbers), then 2 numbers never placed.
    assert (lagging.details["filled"], lagging.details["forfeited"]) == (18, 5)
