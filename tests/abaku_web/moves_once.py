"""Each Abaku position's moves listed once in a test that plays whole games.

A test that plays a game to its end and then reviews it lists the same positions'
moves several times: the player's move (``_play_to_the_end`` in test_abaku_hint.py
takes the weakest), the robot's choice, the review's best move. ``all_moves`` is
pure (the same board and rack give the same list, in the same order), so
``list_moves_once(monkeypatch)`` makes those callers share one listing per
position for the test. Listing moves was nearly all of those tests' time.
"""

from __future__ import annotations

import importlib


def list_moves_once(monkeypatch) -> None:
    from games.abaku.rules import movegen, robot
    from tests.abaku_web import test_abaku_hint

    # the module, not the function the rules package exports under the same name
    rules_review = importlib.import_module("games.abaku.rules.review")
    generate = movegen.all_moves
    listed: dict[tuple, list] = {}

    def all_moves(board, rack):
        key = (board.layout, board._cells, tuple(rack))
        if key not in listed:
            listed[key] = generate(board, rack)
        return list(listed[key])

    for module in (rules_review, robot, test_abaku_hint):
        monkeypatch.setattr(module, "all_moves", all_moves)
