"""How long an Abaku hint and a whole-game review take (issue 19, item 5).

Plays N seeded games of a human seat that takes the median-scoring legal move
against the greedy robot through the table adapter (as the site does), then times
``adapter.hint`` on every position the human faced and ``adapter.game_review``
on each finished game. Pure Python, no database.

    .venv/bin/python bench/abaku_hint_review_bench.py [games]
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django  # noqa: E402

django.setup()

from games.abaku import adapter  # noqa: E402
from games.abaku.rules import GameState, all_moves  # noqa: E402
from games.rooms.registry import SeatInfo  # noqa: E402

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def one_game(seed: int) -> tuple[list[float], float, int]:
    table = adapter.AbakuSolo()
    rng = random.Random(seed)
    seats = [SeatInfo(player_id=1, nickname="H", role="host")]
    state = table.start(
        settings={"table_size": 2, "robot_level": "greedy"}, seats=seats, rng=rng, now=NOW
    ).state
    now, hints = NOW, []
    while state["phase"] == "playing":
        now += timedelta(seconds=1)
        game = GameState.from_dict(state["game"])
        if state["seats"][game.turn]["robot"]:
            state = table.tick(state, now=now + timedelta(seconds=5), rng=rng).state
            continue
        started = time.perf_counter()
        adapter.hint(state, player_id=1)
        hints.append(time.perf_counter() - started)
        moves = sorted(all_moves(game.board, game.players[game.turn].rack), key=lambda m: m.score)
        message = (
            {"type": "place", "placements": [list(p) for p in moves[len(moves) // 2].placements]}
            if moves
            else {"type": "skip"}
        )
        state = table.apply(
            state, player_id=1, role="host", message=message, now=now, rng=rng
        ).state
    started = time.perf_counter()
    adapter.game_review(state, player_id=1)
    return hints, time.perf_counter() - started, len(state["actions"])


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    hints, reviews, turns = [], [], []
    for seed in range(games):
        h, r, n = one_game(seed)
        hints += h
        reviews.append(r)
        turns.append(n)
    ms = lambda xs: f"median {statistics.median(xs) * 1000:.0f} ms, max {max(xs) * 1000:.0f} ms"  # noqa: E731
    print(
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"
    )
    print(f"{games} games, {len(hints)} hints: {ms(hints)}")
    print(f"reviews ({statistics.median(turns):.0f} turns median): {ms(reviews)}")


if __name__ == "__main__":
    main()
