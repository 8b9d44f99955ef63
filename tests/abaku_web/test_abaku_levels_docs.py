"""The robot level table is one source (issue 31): the hub's picker, the
settings the API accepts and the docs all follow ``rules.LEVEL_TABLE``."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from games.abaku.adapter import AbakuTable
from games.abaku.presentation import (
    ROBOT_LEVEL_DESCRIPTIONS,
    ROBOT_LEVEL_NAMES,
    robot_level_choices,
)
from games.abaku.rules import LEVEL_TABLE, LEVELS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_every_level_has_a_name_and_a_description_in_the_engines_order():
    assert list(ROBOT_LEVEL_NAMES) == list(LEVELS) == list(ROBOT_LEVEL_DESCRIPTIONS)
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


def test_the_settings_accept_every_level_of_the_table():
    for level in LEVELS:
        assert AbakuTable().clean_settings({"robot_level": level})["robot_level"] == level


@pytest.mark.parametrize("doc", ["abaku-product.md", "rules/abaku.md"])
def test_the_docs_name_every_level(doc):
    text = (DOCS / doc).read_text(encoding="utf-8")
    for level in LEVELS:
        assert f"`{level}`" in text
