"""The robot level table is one source (issues 31, 42): the hub's ladder, the
settings the API accepts and the docs all follow ``rules.LEVEL_TABLE``; the
ladder marks the levels a player beat on their own and suggests the next."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from games.abaku import assignments
from games.abaku.adapter import AbakuTable
from games.abaku.presentation import (
    next_level,
    robot_level_choices,
    robot_level_names,
    suggested_level,
)
from games.abaku.rules import LEVEL_TABLE, LEVELS
from games.abaku.stats import profile_stats
from games.models import GameRecord, GameResult
from tests.abaku_web.test_abaku_hint_record import browser

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_every_level_has_a_name_and_a_description_in_the_engines_order():
    assert list(robot_level_names()) == list(LEVELS)
    choices = robot_level_choices()
    assert [c["id"] for c in choices] == [level.id for level in LEVEL_TABLE]
    assert [c["number"] for c in choices] == list(range(1, len(LEVELS) + 1))
    assert all(c["name"] and c["description"] for c in choices)


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "cs", "sk"])
def test_the_hub_lists_every_level_with_its_name_and_description(language):
    page = Client(headers={"accept-language": language}).get("/abaku/").content.decode()
    with translation.override(language):
        choices = robot_level_choices()
    for number, choice in enumerate(choices, start=1):
        assert f'id="ab-level-robot-{choice["id"]}"' in page
        assert choice["name"] in page and choice["description"] in page
        assert f"{number}: {choice['name']}" in page
    assert 'value="easy" checked' in page  # a first game gets level 1
    assert page.count(' checked aria-describedby="ab-level-about-') == 1


@pytest.mark.parametrize("language", ["cs", "sk"])
def test_every_level_name_and_description_is_translated(language):
    """The names live in the rules (English); the catalogues carry them."""
    with translation.override(language):
        choices = robot_level_choices()
    for level, choice in zip(LEVEL_TABLE, choices, strict=True):
        assert choice["name"] != level.name, level.name
        assert choice["description"] != level.description, level.description


def test_the_next_level_is_one_step_up_the_ladder():
    assert next_level("easy") == LEVELS[1]
    assert next_level("medium") == LEVELS[LEVELS.index("medium") + 1]
    assert next_level("strong") is None and next_level("genius") is None
    assert suggested_level(set()) == "easy"
    assert suggested_level({"easy", LEVELS[1]}) == LEVELS[2]
    # the highest level beaten counts, not the first gap below it
    assert suggested_level({"easy", "medium"}) == next_level("medium")
    assert suggested_level({"strong"}) == "strong"


def _robot_result(profile, level: str, outcome: str, hints: int = 0) -> None:
    record = GameRecord.objects.create(game="abaku", mode="solo", settings={"robot_level": level})
    GameResult.objects.create(
        record=record,
        player=profile,
        score=100,
        details={
            "players": 2,
            "robots": 1,
            "robot_level": level,
            "outcome": outcome,
            "hints": hints,
        },
    )


@pytest.mark.django_db
def test_after_a_win_the_ladder_marks_the_level_beaten_and_suggests_the_next():
    profile, client = browser()
    second, third = LEVELS[1], LEVELS[2]
    _robot_result(profile, "easy", "win")
    _robot_result(profile, second, "win")
    _robot_result(profile, third, "win", hints=3)  # with hints: not beaten
    _robot_result(profile, LEVELS[5], "loss")
    page = client.get("/abaku/").content.decode()
    assert (
        f'value="{third}" checked' in page
        and page.count(' checked aria-describedby="ab-level-about-') == 1
    )
    assert page.count('data-testid="ab-level-beaten"') == 2
    assert page.count('data-testid="ab-level-next"') == 1
    ladder = page[page.index('class="ab-ladder"') :]
    suggested = ladder[ladder.index(f'data-level="{third}"') :]
    assert suggested.index('data-testid="ab-level-next"') < suggested.index("</li>")
    # the link after a won game names the level to play
    page = client.get(f"/abaku/?level={LEVELS[9]}").content.decode()
    assert (
        f'value="{LEVELS[9]}" checked' in page
        and page.count(' checked aria-describedby="ab-level-about-') == 1
    )
    # an unknown level in the link falls back to the suggestion
    page = client.get("/abaku/?level=genius").content.decode()
    assert f'value="{third}" checked' in page


@pytest.mark.django_db
def test_a_win_against_a_level_the_ladder_dropped_counts_for_the_kept_level_next_to_it():
    """Issue 42 went from 27 rungs to 22: a pupil's finished games keep the id
    they were played against, and a win against a dropped rung marks the kept
    level it now plays as (``OLD_LEVELS``), so the climb is not lost."""
    profile, client = browser()
    _robot_result(profile, "easy3", "win")  # a rung of the 27, now played as `easy2`
    _robot_result(profile, "easy9", "win")  # now `easy10`
    stats = profile_stats(GameResult.objects.filter(player=profile))
    by_id = {level["id"]: level for level in stats["levels"]}
    assert [lv["id"] for lv in stats["levels"]] == list(LEVELS)
    assert by_id["easy2"]["beaten"] and by_id["easy10"]["beaten"]
    assert by_id["easy2"]["games"] == by_id["easy10"]["games"] == 1
    page = client.get("/abaku/").content.decode()
    assert page.count('data-testid="ab-level-beaten"') == 2
    assert f'value="{next_level("easy10")}" checked' in page


@pytest.mark.django_db
def test_a_new_player_gets_level_1_and_no_marks():
    _profile, client = browser()
    page = client.get("/abaku/").content.decode()
    assert 'value="easy" checked' in page
    assert 'data-testid="ab-level-beaten"' not in page
    assert 'data-testid="ab-level-next"' not in page


def test_the_settings_accept_every_level_of_the_table():
    for level in LEVELS:
        assert AbakuTable().clean_settings({"robot_level": level})["robot_level"] == level
        homework = {"opponent": "robot", "robot_level": level}
        assert assignments.clean_settings(homework)["robot_level"] == level
    # a homework saved with a rung the ladder dropped plays the kept level next to it
    saved = {"opponent": "robot", "robot_level": "medium7"}
    assert assignments.clean_settings(saved)["robot_level"] == "medium6"


@pytest.mark.parametrize("doc", ["abaku-product.md", "rules/abaku.md"])
def test_the_docs_name_every_level(doc):
    text = (DOCS / doc).read_text(encoding="utf-8")
    for level in LEVELS:
        assert f"`{level}`" in text
