"""Joins at the same moment: one roster name goes to one student; a double submit joins once."""

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
            services.join_classroom(
                classroom=classroom,
                player=player,
                member_id=member.pk,
                claim_code=member.claim_code,
            )
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


@pytest.mark.django_db(transaction=True)
def test_a_double_submitted_join_makes_one_membership():
    classroom = factories.make_class(roster="Adam Kováč\nBára Nová")
    adam, bara = classroom.members.order_by("roster_name")
    player = factories.make_player("Dvojklik")
    barrier = threading.Barrier(3)
    failures: list[Exception] = []

    def join(**choice):
        try:
            barrier.wait()
            services.join_classroom(classroom=classroom, player=player, **choice)
        except Exception as exc:  # any failure at all is the finding
            failures.append(exc)
        finally:
            connection.close()

    choices = [{"typed_name": "Adam"}, {"member_id": adam.pk}, {"member_id": bara.pk}]
    threads = [threading.Thread(target=join, kwargs=choice) for choice in choices]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert services.membership_of(classroom=classroom, player=player) is not None
    assert (
        classroom.members.filter(player=player).count()
        + classroom.members.filter(other_players=player).count()
        == 1
    )
