"""The Abaku opponent card at 360 px (issue 31, Low: "the Abaku opponent card
clipped at 360 px"): every seat's card, the robot's included, lies whole inside
the players' row and the phone's viewport -- nothing cut off, nothing to scroll
sideways -- also with a long nickname and a long level name."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.live]

TIMEOUT = 30_000
PHONE = {"width": 360, "height": 740}


def _inside(inner: dict, outer: dict) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5
    )


@pytest.mark.parametrize("level", ["advanced", "strong"])
def test_the_opponent_card_is_whole_on_a_360_px_phone(transactional_db, page, level):
    page.set_viewport_size(PHONE)
    page.goto("/abaku/")
    page.fill("#ab-nickname-robot", "Maximiliána Dlouhá")
    page.check(f"#ab-level-robot-{level}")
    page.click('[data-testid="play-robot"]')
    page.wait_for_url(re.compile(r"/rooms/[A-Z0-9]+/$"))
    cards = page.locator("[data-ab-players] .ab-player")
    expect(cards).to_have_count(2, timeout=TIMEOUT)
    expect(page.locator('[data-ab-players] .ab-player[data-seat="1"]')).to_contain_text("Robot")
    row = page.locator("[data-ab-players]").bounding_box()
    assert row is not None
    assert row["x"] >= 0 and row["x"] + row["width"] <= PHONE["width"]
    viewport = {"x": 0, "y": row["y"], "width": PHONE["width"], "height": row["height"]}
    for seat in range(2):
        card = page.locator(f'[data-ab-players] .ab-player[data-seat="{seat}"]').bounding_box()
        assert card is not None
        assert _inside(card, row), f"seat {seat}'s card {card} sticks out of its row {row}"
        assert _inside(card, viewport), f"seat {seat}'s card {card} is cut by the screen"
    # the row does not hide part of a card behind a sideways scroll
    overflow = page.evaluate(
        "() => { const r = document.querySelector('[data-ab-players]');"
        " return r.scrollWidth - r.clientWidth; }"
    )
    assert overflow <= 0
    # and every card shows its whole text (no name cut inside the card)
    cut = page.evaluate(
        "() => [...document.querySelectorAll('[data-ab-players] .ab-player *')]"
        ".filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"
    )
    assert cut == []
