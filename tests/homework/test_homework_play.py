"""Pupils play homework through the poker API (issue 28): the same deck for
everyone and never a card before it is dealt, the attempts policies, late play,
a game continued on another device, hints only in practice mode."""

import json
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from games.poker.assignments import assignment_deck
from games.poker.models import SoloGame
from games.poker.rules import JOKER
from homework.models import Assignment, Attempt
from tests.classrooms import factories
from tests.homework.conftest import GAMES, play_to_end, post, pupil_client, start

pytestmark = pytest.mark.django_db

#: Names a pupil must never read anywhere: the order of the cards to come.
SECRET_KEYS = {"deck", "seed", "order", "sequence", "key", "deck_key", "secret", "rest"}


def _keys(value):
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _contains_run(text: str, cards: list[int]) -> bool:
    """Whether the next cards appear in a row in ``text`` (any separator)."""
    import re

    numbers = [int(n) for n in re.findall(r"-?\d+", text)]
    run = cards[:4]
    return any(numbers[i : i + len(run)] == run for i in range(len(numbers)))


def _results(teacher_client, assignment_id):
    rows = teacher_client.get(f"/api/assignments/{assignment_id}/results/").json()["rows"]
    return {row["roster_name"]: row for row in rows}


def test_every_pupil_gets_the_same_deck_and_another_assignment_another(make_assignment, pupils):
    first, second = make_assignment(), make_assignment(title="Druhý")
    games = [start(client, first["id"]).json()["game"] for client, _p, _m in pupils]
    assert len({game["id"] for game in games}) == 3
    decks = [SoloGame.objects.get(pk=game["id"]).state for game in games]
    orders = [[*state["sequence"], *state["deck"]] for state in decks]
    assert orders[0] == orders[1] == orders[2]
    assert orders[0] == assignment_deck(f"assignment:{first['id']}", "matematico")
    other = start(pupils[0][0], second["id"]).json()["game"]
    state = SoloGame.objects.get(pk=other["id"]).state
    assert [*state["sequence"], *state["deck"]] != orders[0]


def test_no_response_or_page_a_pupil_reads_carries_a_card_before_it_is_dealt(
    make_assignment, pupils, classroom
):
    assignment = make_assignment()
    client = pupils[0][0]
    response = start(client, assignment["id"])
    assert response.status_code == 201
    game = response.json()["game"]
    texts = [response.content.decode()]
    payloads = [response.json()]
    for _ in range(6):
        stored = SoloGame.objects.get(pk=game["id"]).state
        upcoming = stored["deck"]
        for text in texts[-1:]:
            assert not _contains_run(text, upcoming), "the undealt cards leaked"
        free = game["cells"].index(None)
        action = (
            {"type": "use_joker", "cell": free, "value": 7}
            if game["hand"] == JOKER
            else {"type": "place", "cell": free}
        )
        response = post(client, f"{GAMES}{game['id']}/actions/", action)
        texts.append(response.content.decode())
        payloads.append(response.json())
        game = response.json()["game"]
    for url in (
        f"{GAMES}{game['id']}/",
        f"/classes/{classroom.pk}/",
        f"/poker/play/?assignment={assignment['id']}",
        "/poker/sw.js",
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        texts.append(page.content.decode())
        if page["Content-Type"].startswith("application/json"):
            payloads.append(page.json())
    upcoming = SoloGame.objects.get(pk=game["id"]).state["deck"]
    for text in texts[-4:]:
        assert not _contains_run(text, upcoming)
    for payload in payloads:
        assert not (set(_keys(payload)) & SECRET_KEYS), set(_keys(payload)) & SECRET_KEYS
    assert f"assignment:{assignment['id']}" not in "".join(texts)


def test_a_non_member_gets_404_a_pending_member_too_and_nothing_is_created(
    make_assignment, classroom
):
    assignment = make_assignment()
    stranger, _profile = pupil_client("Cizí")
    response = start(stranger, assignment["id"])
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    waiting, profile = pupil_client("Čekající")
    factories.add_member(classroom, profile, status="pending")
    assert start(waiting, assignment["id"]).status_code == 404
    for bad in ("1", None, [assignment["id"]], 10**9):
        response = post(stranger, GAMES, {"mode": "assignment", "assignment": bad})
        assert response.status_code == 404, bad
    anonymous = Client(headers={"accept-language": "en"})
    response = start(anonymous, assignment["id"])
    assert response.status_code == 403 and response.json()["code"] == "no_profile"
    assert not Attempt.objects.exists() and not SoloGame.objects.exists()


def test_before_it_opens_and_after_the_deadline_without_late_it_is_closed(make_assignment, pupils):
    client = pupils[0][0]
    later = make_assignment(opens_at=(timezone.now() + timedelta(hours=2)).isoformat())
    response = start(client, later["id"])
    assert response.status_code == 409 and response.json()["code"] == "assignment_closed"
    past = make_assignment()
    Assignment.objects.filter(pk=past["id"]).update(due_at=timezone.now() - timedelta(minutes=1))
    response = start(client, past["id"])
    assert response.status_code == 409 and response.json()["code"] == "assignment_closed"
    assert not Attempt.objects.exists() and not SoloGame.objects.exists()


def test_late_play_is_allowed_when_the_teacher_says_so_and_marked_late(
    make_assignment, pupils, teacher_client
):
    assignment = make_assignment(late=True)
    Assignment.objects.filter(pk=assignment["id"]).update(
        due_at=timezone.now() - timedelta(minutes=1)
    )
    client = pupils[0][0]
    response = start(client, assignment["id"])
    assert response.status_code == 201
    play_to_end(client, response.json()["game"])
    assert _results(teacher_client, assignment["id"])["Adam Kovář"]["status"] == "late"


def test_first_counts_a_second_start_is_refused_without_practice(
    make_assignment, pupils, teacher_client
):
    assignment = make_assignment(attempts="first")
    client = pupils[0][0]
    finished = play_to_end(client, start(client, assignment["id"]).json()["game"])
    response = start(client, assignment["id"])
    assert response.status_code == 409 and response.json()["code"] == "attempt_used"
    assert Attempt.objects.count() == 1
    row = _results(teacher_client, assignment["id"])["Adam Kovář"]
    assert row["score"] == finished["score"] and row["attempts"] == 1


def test_first_counts_extra_attempts_in_practice_mode_are_recorded_never_counted(
    make_assignment, pupils, teacher_client
):
    assignment = make_assignment(attempts="first", practice=True)
    client = pupils[0][0]
    first = play_to_end(client, start(client, assignment["id"]).json()["game"])
    again = start(client, assignment["id"])
    assert again.status_code == 201
    second = play_to_end(client, again.json()["game"], first_free=False)
    attempts = list(Attempt.objects.order_by("pk"))
    assert [a.counted for a in attempts] == [True, False]
    assert attempts[1].score == second["score"]  # recorded ...
    row = _results(teacher_client, assignment["id"])["Adam Kovář"]
    assert row["score"] == first["score"] and row["attempts"] == 2  # ... never counted


@pytest.mark.parametrize("policy", ["best", "last"])
def test_best_and_last_count_as_the_policy_says(make_assignment, pupils, teacher_client, policy):
    assignment = make_assignment(attempts=policy)
    client = pupils[1][0]
    scores = []
    for first_free in (True, False, True):
        game = play_to_end(
            client, start(client, assignment["id"]).json()["game"], first_free=first_free
        )
        scores.append(game["score"])
    row = _results(teacher_client, assignment["id"])["Bára Nová"]
    assert row["attempts"] == 3 and row["status"] == "done"
    assert row["score"] == (max(scores) if policy == "best" else scores[-1])


def test_an_interrupted_game_continues_on_another_device_of_the_same_profile(
    make_assignment, pupils
):
    assignment = make_assignment()
    client, profile, _member = pupils[0]
    game = start(client, assignment["id"]).json()["game"]
    post(client, f"{GAMES}{game['id']}/actions/", {"type": "place", "cell": 12})
    # the other device: the same profile (its profile code) in a new browser
    phone = Client(headers={"accept-language": "en"})
    phone.cookies[settings.PLAYER_COOKIE_NAME] = client.cookies[settings.PLAYER_COOKIE_NAME].value
    response = start(phone, assignment["id"])
    assert response.status_code == 200
    continued = response.json()["game"]
    assert continued["id"] == game["id"] and continued["cells"][12] is not None
    assert Attempt.objects.count() == 1 and SoloGame.objects.count() == 1


def test_hints_are_off_in_homework_unless_practice_mode(make_assignment, pupils):
    strict, practice = make_assignment(), make_assignment(practice=True, title="Cvičení")
    client = pupils[2][0]
    game = start(client, strict["id"]).json()["game"]
    response = post(client, f"{GAMES}{game['id']}/hint/")
    assert response.status_code == 403 and response.json()["code"] == "hint_not_allowed"
    game = start(client, practice["id"]).json()["game"]
    response = post(client, f"{GAMES}{game['id']}/hint/")
    assert response.status_code == 200 and "hint" in response.json()


def test_a_homework_review_is_the_pupils_only_after_the_deadline_when_allowed(
    make_assignment, pupils, teacher_client, classroom
):
    assignment = make_assignment(reviews_visible=True)
    client = pupils[0][0]
    game = play_to_end(client, start(client, assignment["id"]).json()["game"])
    review = f"/poker/review/{game['id']}/"
    assert client.get(review).status_code == 404  # before the deadline: classmates still play
    assert pupils[1][0].get(review).status_code == 404
    post(teacher_client, f"/api/assignments/{assignment['id']}/close/")
    assert client.get(review).status_code == 200
    assert pupils[1][0].get(review).status_code == 404  # never another pupil's
    row = _results(teacher_client, assignment["id"])["Adam Kovář"]
    assert teacher_client.get(row["review_url"]).status_code == 200


def test_the_class_page_shows_the_pupil_open_homework_and_then_the_score(
    make_assignment, pupils, classroom
):
    assignment = make_assignment(title="Poker na víkend")
    client = pupils[0][0]
    page = client.get(f"/classes/{classroom.pk}/").content.decode()
    assert "Poker na víkend" in page and f'data-assignment="{assignment["id"]}"' in page
    assert f"/poker/play/?assignment={assignment['id']}" in page
    game = play_to_end(client, start(client, assignment["id"]).json()["game"])
    page = client.get(f"/classes/{classroom.pk}/").content.decode()
    assert f'data-testid="homework-score">{game["score"]}<' in page


def test_json_errors_never_trace(pupils):
    client = pupils[0][0]
    response = client.post(GAMES, b"{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "bad_json"
    response = client.post(
        GAMES, json.dumps({"mode": "assignment"}), content_type="application/json"
    )
    assert response.status_code == 404
