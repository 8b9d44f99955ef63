"""A host and three players in separate browsers play a whole group game with a joker."""

from __future__ import annotations

import os
import re

import pytest
from django.conf import settings
from django.core import signing

from accounts import identity
from accounts.selectors import player_stats
from games.models import GameResult
from games.rooms import services
from games.rooms.models import Room
from tests.poker_room.live import rig_deck

pytestmark = [pytest.mark.browser, pytest.mark.live]

SHOTS = os.environ.get("POKER_ROOM_SCREENSHOTS")  # a directory, to look at the pages
PHONE = {"width": 390, "height": 844}


def _context(browser, server, player, *, phone: bool):
    options = {"base_url": server, "locale": "en-GB"}
    if phone:
        options.update(viewport=PHONE, is_mobile=True)
    context = browser.new_context(**options)
    context.add_cookies(
        [
            {
                "name": settings.PLAYER_COOKIE_NAME,
                "value": signing.dumps(player.token, salt=identity.SALT),
                "url": server,
            }
        ]
    )
    return context


def test_host_and_three_players_play_a_group_game_with_a_joker_to_the_final_ranking(
    transactional_db, browser, poker_server, make_player
):
    from playwright.sync_api import expect

    host = make_player("Pani učiteľka")
    players = [make_player(name) for name in ("Adam", "Bea", "Cyril")]
    room = services.create_room(game="poker", mode="group", host=host.profile, settings={})
    contexts = [_context(browser, poker_server, host, phone=False)]
    host_page = contexts[0].new_page()
    host_page.goto(f"/rooms/{room.code}/")
    expect(host_page.locator("[data-room-connection]")).to_have_text("Connected")
    pages = []
    for player in players:
        context = _context(browser, poker_server, player, phone=True)
        contexts.append(context)
        page = context.new_page()
        page.goto(f"/rooms/{room.code}/")
        page.get_by_role("button", name="Join the game").click()
        expect(page.locator("[data-room-connection]")).to_have_text("Connected")
        pages.append(page)
    expect(host_page.locator("[data-room-seats]")).to_contain_text("Cyril")
    host_page.get_by_role("button", name="Start the game").click()
    expect(host_page.locator("[data-testid=draw]")).to_be_enabled()
    numbers = [n for n in range(1, 14) for _ in range(4)]
    numbers.remove(4)
    rig_deck(Room.objects.get(pk=room.pk), [4, 0, *numbers, 0])
    adam, bea, cyril = pages

    def place_first_free(page):
        page.locator("[data-pr-board] .poker-cell:not(.is-filled)").first.click()
        expect(page.locator("#pr-root")).not_to_have_class(re.compile("is-busy"))

    for turn in range(25):
        host_page.keyboard.press("g")  # G draws for the host
        for page in pages:
            hand = page.locator("[data-pr-hand]")
            expect(hand).to_have_attribute("data-dealt", str(turn + 1))
        if turn == 1:  # the joker reaches everybody at once; each decides alone
            for page in pages:
                expect(page.locator("[data-pr-joker-dialog]")).to_be_visible()
            adam.locator("[data-pr-joker-dialog] [data-value='4']").click()
            place_first_free(adam)
            bea.locator("[data-pr-joker-dialog] [data-pr-keep]").click()
            expect(bea.locator("[data-pr-kept-count]")).to_have_text("1")
            cyril.locator("[data-pr-joker-dialog] [data-value='1']").click()
            place_first_free(cyril)
            continue
        if turn == 3:  # the projector shows the number, the history and the ranking
            projector = contexts[0].new_page()
            projector.goto(f"/poker/room/{room.code}/projector/")
            expect(projector.locator("[data-testid=projector-number]")).to_have_text(
                adam.locator("[data-pr-hand]").inner_text()
            )
            expect(projector.locator("[data-testid=projector-ranking] li")).to_have_count(3)
            expect(projector.locator("[data-pr-history] li")).to_have_count(4)
            if SHOTS:
                projector.screenshot(path=f"{SHOTS}/projector.png", full_page=True)
            projector.close()
        if turn == 3 and SHOTS:
            adam.screenshot(path=f"{SHOTS}/player.png", full_page=True)
            host_page.screenshot(path=f"{SHOTS}/host.png", full_page=True)
        if turn == 2:  # Bea places her kept joker while holding a number
            bea.locator("[data-pr-kept]").click()
            bea.locator("[data-pr-joker-dialog] [data-value='13']").click()
            place_first_free(bea)
            expect(bea.locator("[data-pr-kept-count]")).to_have_text("0")
        for page in pages:
            place_first_free(page)

    # Every board is full after 25 cards: the game ends and everyone sees the ranking.
    for page in [*pages, host_page]:
        expect(page.locator("[data-testid=final]")).to_be_visible(timeout=20000)
        expect(page.locator("[data-testid=final-ranking] > li")).to_have_count(3)
    if SHOTS:
        adam.screenshot(path=f"{SHOTS}/final.png", full_page=True)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    results = {r.player_id: r for r in GameResult.objects.filter(record=room.record)}
    assert set(results) == {p.id for p in players}
    for page, player in zip(pages, players, strict=True):
        assert results[player.id].details["filled"] == 25 and results[player.id].completed
        mine = page.locator(f"[data-testid=final-ranking] li[data-player-id='{player.id}']")
        expect(mine).to_contain_text(f"{results[player.id].score} points")
        mine.locator("summary").click()
        board = mine.locator(".poker-cell")
        expect(board).to_have_count(25)
        values = [int(text) for text in board.locator(".poker-value").all_inner_texts()]
        assert values == results[player.id].details["board"]
        stats = player_stats(player.profile)
        assert stats["games"]["poker"]["games"] == 1 and stats["games"]["poker"]["completed"] == 1
    assert results[players[0].id].details["board"][1] == 4  # Adam's joker, used as 4
    assert 1 in results[players[1].id].details["joker_cells"]  # Bea's kept joker, placed later
    ranks = sorted((r.rank, -r.score) for r in results.values())
    assert ranks[0][0] == 1
    for context in contexts:
        context.close()
