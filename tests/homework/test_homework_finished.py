"""Homework, finished (issue 37 §5): the teacher's page speaks the page's
language, the teacher's review of a pupil's game speaks to the teacher, the
end-of-game review link never leads to a refusal, retries deal the class's next
deck, a game finished after closing is marked so."""

import re

import pytest
from django.test import Client

from tests.homework.conftest import GAMES, play_to_end, start

pytestmark = pytest.mark.django_db

ENGLISH = (
    "No finished game yet",
    "seconds_per_card",
    "difficulty:",
    "table:",
    "None",
    "Scoring table",
    "Difficulty",
    "Next to each other",
)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("cs", ("Bodovací tabulka: Vedle sebe", "Obtížnost: lehká", "Zatím žádná dohraná hra")),
        ("sk", ("Bodovacia tabuľka: Vedľa seba", "Zatiaľ žiadna dohraná hra")),
    ],
)
def test_the_teachers_homework_page_in_czech_and_slovak_has_no_english(
    teacher, classroom, make_assignment, language, words
):
    assignment = make_assignment(settings={"table": "contiguous", "difficulty": "easy"})
    client = Client(headers={"accept-language": language})
    client.force_login(teacher)
    page = client.get(f"/classes/{classroom.pk}/homework/{assignment['id']}/")
    assert page.status_code == 200
    text = page.content.decode()
    settings = re.search(r'data-testid="homework-settings">([^<]*)<', text)
    assert settings and settings.group(1).strip(), text[:2000]
    for english in ENGLISH:
        assert english not in text, english
    for word in words:
        assert word in text, word


def _results(teacher_client, assignment_id):
    rows = teacher_client.get(f"/api/assignments/{assignment_id}/results/").json()["rows"]
    return {row["roster_name"]: row for row in rows}


def _deal(game_id) -> list[int]:
    from games.poker.models import SoloGame

    state = SoloGame.objects.get(pk=game_id).state
    return [*state["sequence"], *state["deck"]]


def test_the_teachers_review_of_a_pupils_game_names_the_pupil_formally_with_a_way_back(
    make_assignment, pupils, teacher, classroom
):
    assignment = make_assignment()
    client = pupils[0][0]
    play_to_end(client, start(client, assignment["id"]).json()["game"])
    czech = Client(headers={"accept-language": "cs"})
    czech.force_login(teacher)
    rows = czech.get(f"/api/assignments/{assignment['id']}/results/").json()["rows"]
    url = next(row["review_url"] for row in rows if row["roster_name"] == "Adam Kovář")
    page = czech.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Adam Kovář" in text
    assert "Tvůj tah" not in text and "Tvoje body" not in text and "tvoje pole" not in text
    assert f'href="/classes/{classroom.pk}/homework/{assignment["id"]}/"' in text
    assert 'data-testid="review-back"' in text


def test_the_end_of_game_review_link_is_offered_only_when_the_review_opens(
    make_assignment, pupils, teacher_client
):
    hidden = make_assignment(reviews_visible=False)
    shown = make_assignment(reviews_visible=True, title="S rozborem")
    client = pupils[0][0]
    for assignment in (hidden, shown):
        game = play_to_end(client, start(client, assignment["id"]).json()["game"])
        # during the homework the review answers 404: the end offers no link to it
        assert game["reviewable"] is False
        assert client.get(f"/poker/review/{game['id']}/").status_code == 404
        post_close = teacher_client.post(f"/api/assignments/{assignment['id']}/close/")
        assert post_close.status_code == 200
        again = client.get(f"{GAMES}{game['id']}/").json()["game"]
        review = client.get(f"/poker/review/{game['id']}/").status_code
        assert again["reviewable"] is (review == 200)
        assert review == (200 if assignment is shown else 404)


@pytest.mark.parametrize("policy", ["best", "last"])
def test_attempt_k_of_every_pupil_deals_the_classs_kth_deck(make_assignment, pupils, policy):
    assignment = make_assignment(attempts=policy)
    (adam, _p, _m), (bara, _q, _n) = pupils[0], pupils[1]
    deals = {}
    for name, client in (("adam", adam), ("bara", bara)):
        for number in (1, 2, 3):
            game = start(client, assignment["id"]).json()["game"]
            deals[name, number] = _deal(game["id"])
            play_to_end(client, game)
    # a retry is never a replay (the old code dealt attempt 1's numbers again)
    assert len({tuple(deals["adam", n]) for n in (1, 2, 3)}) == 3
    # and attempt k is the same game for the whole class
    for number in (1, 2, 3):
        assert deals["adam", number] == deals["bara", number]


def test_the_form_says_that_every_attempt_deals_new_numbers(teacher_client, classroom):
    page = teacher_client.get(f"/classes/{classroom.pk}/homework/new/").content.decode()
    assert "second game is the class&#x27;s second deal" in page or (
        "second game is the class's second deal" in page
    )


def test_a_game_started_before_closing_and_finished_after_is_marked_late(
    make_assignment, pupils, teacher_client
):
    assignment = make_assignment()
    client = pupils[2][0]
    game = start(client, assignment["id"]).json()["game"]
    assert teacher_client.post(f"/api/assignments/{assignment['id']}/close/").status_code == 200
    finished = play_to_end(client, game)
    assert finished["over"]
    row = _results(teacher_client, assignment["id"])["Cyril Malý"]
    assert row["status"] == "late" and row["score"] == finished["score"]


def test_the_teachers_abaku_review_names_the_pupil_with_a_way_back(teacher, classroom, pupils):
    from datetime import timedelta

    from django.utils import timezone

    from games.rooms import services as rooms
    from games.rooms.models import Room
    from tests.homework.conftest import post

    czech = Client(headers={"accept-language": "cs"})
    czech.force_login(teacher)
    body = {
        "game": "abaku",
        "title": "Abaku",
        "settings": {"opponent": "none"},
        "due_at": (timezone.now() + timedelta(days=3)).isoformat(),
    }
    homework = post(czech, f"/api/classes/{classroom.pk}/assignments/", body).json()
    adam, profile, _member = pupils[0]
    started = post(adam, "/abaku/api/games/", {"mode": "assignment", "assignment": homework["id"]})
    room = Room.objects.get(code=started.json()["room"]["code"])
    rooms.end_room(room=room, actor=profile)
    rows = czech.get(f"/api/assignments/{homework['id']}/results/").json()["rows"]
    url = next(row["review_url"] for row in rows if row["roster_name"] == "Adam Kovář")
    text = czech.get(url).content.decode()
    assert "Adam Kovář" in text
    assert f'href="/classes/{classroom.pk}/homework/{homework["id"]}/"' in text
