"""The Abaku review says what a robot's lower-scoring turn is (issue 31).

Seen: 16 of 41 turns of the strong robot shown as "missed points" -- it leaves
the top score on purpose (for the stones it keeps and the reply it allows), as
the lower levels do to be beatable. Those turns are marked ``on_purpose`` with
the robot's level; the greedy robot, which always takes the top score, never is.
"""

from __future__ import annotations

import random

import pytest

from games.abaku import review as abaku_review
from games.abaku.adapter import AbakuSolo
from games.rooms.registry import SeatInfo
from tests.abaku_web.moves_once import list_moves_once
from tests.abaku_web.test_abaku_hint import NOW, _play_to_the_end


@pytest.fixture(autouse=True)
def moves_listed_once(monkeypatch):
    """Each position's moves listed once per test (tests/abaku_web/moves_once.py):
    it was nearly all of these tests' time (about 10 s each)."""
    list_moves_once(monkeypatch)


def _review(level: str, seed: int) -> list[dict]:
    table = AbakuSolo()
    rng = random.Random(seed)
    seats = [SeatInfo(player_id=5, nickname="Ada", role="host")]
    state = table.start(
        settings={"table_size": 2, "robot_level": level}, seats=seats, rng=rng, now=NOW
    ).state
    end = _play_to_the_end(table, state, human=5, rng=rng)
    return abaku_review.game_review(end, player_id=5)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_a_robot_that_leaves_points_on_purpose_is_said_so(level):
    turns = _review(level, seed=11)
    robot = [t for t in turns if t["player"] == 1 and t["action"] == "place"]
    below = [t for t in robot if t["missed"]]
    assert below, "the level never played below the top score in this game"
    assert all(t["on_purpose"] == level for t in below)
    assert not any(t.get("on_purpose") for t in robot if not t["missed"])
    # The player's own weaker moves stay what they are: missed points.
    assert not any(t.get("on_purpose") for t in turns if t["player"] == 0)


def test_the_greedy_robot_never_needs_the_excuse():
    turns = _review("greedy", seed=11)
    assert not any(t.get("on_purpose") for t in turns)
