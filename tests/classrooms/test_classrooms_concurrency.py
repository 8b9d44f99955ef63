"""Two students picking the same roster name at the same moment: exactly one gets it."""

import threading

import pytest
from django.db import connection

from classrooms import services
from classrooms.errors import ClassroomError
from tests.classrooms import factories


@pytest.mark.django_db(transaction=True)
def test_simultaneous_claims_of_one_roster_name_give_it_to_one_student():
    classroom = factories.make_class(roster="Adam Kováč")
    member = classroom.members.get()
    players = [factories.make_player(f"Súper {n}") for n in range(4)]
    barrier = threading.Barrier(len(players))
    outcomes: list[str] = []

    def claim(player):
        try:
            barrier.wait()
            services.join_classroom(classroom=classroom, player=player, member_id=member.pk)
            outcomes.append("won")
        except ClassroomError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["name_taken"] * 3 + ["won"]
    member.refresh_from_db()
    assert member.player in players
    assert classroom.members.count() == 1
