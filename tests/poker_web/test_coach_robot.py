"""Solo games against the robot (beginner, greedy, coach): the robot plays the
same numbers after the player, the result counts as "vs robot" in the profile
stats and never reaches a public table; no hints there."""

import json

import pytest

from games.models import GameResult
from games.poker import coach_robot
from games.poker.models import LeaderboardEntry, SoloGame
from games.poker.rules import JOKER, score_board, seeded_deck
from games.poker.stats import profile_stats
from tests.poker_web.helpers import login_client

pytestmark = pytest.mark.django_db

API = "/poker/api/games/"


def post(client, url, data=None):
    return client.post(url, json.dumps(data or {}), content_type="application/json")


@pytest.mark.parametrize("level", coach_robot.LEVELS)
def test_a_game_against_each_robot_level(client, level):
    profile = login_client(client)
    response = post(client, API, {"mode": "robot", "level": level, "table": "matematico"})
    assert response.status_code == 201, response.content
    game = response.json()["game"]
    assert game["robot"]["level"] == level
    assert game["robot"]["cells"] == [None] * 25
    assert game["preview"] is False
    # No hint in a game against the robot.
    assert post(client, f"{API}{game['id']}/hint/").json()["code"] == "hint_not_allowed"
    for _ in range(60):
        if game["over"]:
            break
        free = game["cells"].index(None)
        action = (
            {"type": "use_joker", "cell": free, "value": 7}
            if game["hand"] == JOKER
            else {"type": "place", "cell": free}
        )
        game = post(client, f"{API}{game['id']}/actions/", action).json()["game"]
        robot = SoloGame.objects.get(pk=game["id"]).robot
        # The robot never handles a number before the player has.
        stored = SoloGame.objects.get(pk=game["id"]).state
        if not game["over"]:
            assert robot["handled"] <= stored["handled"]
            assert len([c for c in robot["cells"] if c is not None]) <= stored["handled"]
    assert game["over"]
    assert None not in game["robot"]["cells"]
    assert game["robot"]["score"] == score_board(game["robot"]["cells"], "matematico").total
    result = GameResult.objects.get(player=profile)
    assert result.record.mode == "robot"
    assert result.details["robot"] == level
    assert result.details["robot_score"] == game["robot"]["score"]
    mine, theirs = game["score"], game["robot"]["score"]
    expected = "win" if mine > theirs else "loss" if mine < theirs else "draw"
    assert result.details["outcome"] == expected
    stats = profile_stats(GameResult.objects.filter(player=profile), player=profile)
    assert stats["robot"][expected] == 1
    assert stats["duel"] == {"win": 0, "loss": 0, "draw": 0}
    assert LeaderboardEntry.objects.count() == 0


def test_an_unknown_robot_is_refused(client):
    login_client(client)
    response = post(client, API, {"mode": "robot", "level": "grandmaster"})
    assert response.json()["code"] == "bad_level"


def test_the_coach_robot_beats_the_greedy_robot_on_average():
    """The levels are ordered: over the same decks the coach scores more."""
    totals = {"greedy": 0, "coach": 0}
    for seed in range(6):
        deck = seeded_deck(seed, "matematico")
        for level in totals:
            robot = coach_robot.finish(
                coach_robot.new_robot(level), deck, table="matematico", seed=seed
            )
            assert None not in robot["cells"]
            totals[level] += coach_robot.score(robot, "matematico").total
    assert totals["coach"] > totals["greedy"]
