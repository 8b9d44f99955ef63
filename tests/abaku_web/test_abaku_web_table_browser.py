"""A real-time table in two browsers: two people and a robot, plus what each one sees.

The host opens a table of three from the hub, a guest joins by the link, the host
starts; the robot takes the empty seat. The host places a move by dragging stones
(desktop), the guest sees it on their board and in the log, the guest exchanges a
stone, the robot answers on a tick. Then the host ends the room: the game is
recorded as not completed.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games.abaku.rules import DEFAULT_LEVEL, GameState, all_moves, evaluate_move
from games.models import GameResult
from games.rooms.models import Room

pytestmark = [pytest.mark.browser, pytest.mark.live]

TIMEOUT = 20_000


def wait_for_state(room_pk: int, predicate, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        state = Room.objects.get(pk=room_pk).state
        if predicate(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError("the server state did not change")
        time.sleep(0.05)


def test_two_people_and_a_robot_play_at_one_table(transactional_db, browser, asgi_server):
    errors: list[str] = []
    contexts = [browser.new_context(base_url=asgi_server, locale="en-GB") for _ in range(2)]
    host, guest = (context.new_page() for context in contexts)
    for page in (host, guest):
        page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    try:
        host.goto("/abaku/")
        host.check('input[name="table_size"][value="3"]')
        host.select_option("#ab-turn-seconds", "")
        host.fill("#ab-nickname-table", "Ada Host")
        host.click('[data-testid="open-table"]')
        host.wait_for_url(re.compile(r"/rooms/[A-Z0-9]+/$"))
        code = host.locator('[data-testid="room-code"]').inner_text().strip()
        room = Room.objects.get(code=code, status="lobby")
        assert room.mode == "table" and room.settings["turn_seconds"] is None

        guest.goto(f"/rooms/{code}/")
        guest.fill("#join-nickname", "Bob Guest")
        guest.click('button[name="role"][value="player"]')
        guest.wait_for_selector("[data-room-live]")
        host.locator("[data-room-seats]").get_by_text("Bob Guest").wait_for(timeout=TIMEOUT)
        host.click('[data-room-action="start"]')
        for page in (host, guest):
            expect(page.locator("[data-ab-players] .ab-player")).to_have_count(3, timeout=TIMEOUT)
        expect(guest.locator("[data-ab-players]")).to_contain_text("Robot 3")
        state = wait_for_state(room.pk, lambda s: bool(s.get("game")))
        assert [s["robot"] for s in state["seats"]] == [
            None,
            None,
            DEFAULT_LEVEL,
        ]  # a first game: the easiest robot

        # the host (seat 0) drags a legal move onto the board, or exchanges without one
        expect(host.locator("[data-abaku-table]")).to_have_attribute("data-turn", "mine")
        expect(guest.locator("[data-abaku-table]")).to_have_attribute("data-turn", "other")
        game = GameState.from_dict(state["game"])
        rack = list(game.players[0].rack)
        moves = [m for m in all_moves(game.board, rack) if not any(p.joker for p in m.placements)]
        if moves:
            move = max(moves, key=lambda m: m.score)
            used: set[int] = set()
            for p in move.placements:
                index = next(i for i, k in enumerate(rack) if k == p.digit and i not in used)
                used.add(index)
                host.drag_and_drop(
                    f'[data-ab-rack] [data-index="{index}"]',
                    f'[data-ab-board] [data-row="{p.row}"][data-col="{p.col}"]',
                )
            expect(host.locator("[data-ab-preview]")).to_contain_text(
                f"This move scores {move.score} points", timeout=TIMEOUT
            )
            host.click("[data-ab-confirm]")
            p = move.placements[0]
            cell = guest.locator(f'[data-ab-board] [data-row="{p.row}"][data-col="{p.col}"]')
            expect(cell).to_have_text(str(p.digit), timeout=TIMEOUT)
            first = evaluate_move(game.board, move.placements).examples[0].text
            expect(guest.locator("[data-ab-log]")).to_contain_text(
                f"Ada Host: {first}", timeout=TIMEOUT
            )
        else:
            host.click("[data-ab-skip]")
            host.locator("dialog[open] >> text=Yes").click()
        wait_for_state(room.pk, lambda s: s["game"]["turn"] == 1)

        # the guest exchanges one stone: the log tells everybody only how many
        expect(guest.locator("[data-abaku-table]")).to_have_attribute("data-turn", "mine")
        guest.click("[data-ab-exchange]")
        guest.click('[data-ab-rack] [data-index="0"]')
        guest.click("[data-ab-exchange]")
        expect(host.locator("[data-ab-log]")).to_contain_text(
            "Bob Guest exchanged 1 stone.", timeout=TIMEOUT
        )
        # the robot answers on a tick and the turn comes back to the host
        wait_for_state(room.pk, lambda s: s["game"]["turn"] == 0, timeout=30)
        expect(host.locator("[data-abaku-table]")).to_have_attribute(
            "data-turn", "mine", timeout=TIMEOUT
        )
        expect(host.locator("[data-ab-bag]")).to_contain_text("Stones in the bag")

        host.click('[data-room-action="end"]')
        host.locator("dialog[open] >> text=Yes").click()
        expect(guest.locator("[data-ab-turn]")).to_have_text(
            "The host ended the game.", timeout=TIMEOUT
        )
        expect(host.locator("[data-ab-turn]")).to_have_text("You ended the game for everybody.")
        results = GameResult.objects.filter(record__game="abaku")
        wait_for_state(room.pk, lambda s: s.get("phase") == "ended")
        assert {r.player.nickname for r in results} == {"Ada Host", "Bob Guest"}
        assert not any(r.completed for r in results)
        assert errors == []
    finally:
        for context in contexts:
            context.close()
