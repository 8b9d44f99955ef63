"""The coach as a seat of a group game ("robot in the class").

The teacher ticks it when creating the group game; the coach's board then
lives in the room state (``state["coach"]``, an engine ``PokerGame`` dict)
and is played the moment the host draws a number: no seat row, no socket, no
waiting. It shows on the projector ranking marked as the robot and never
produces a ``GameResult`` (so it is never in class averages or profile
stats); the pupils' ranks in their results are counted without it.
"""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from .rules import JOKER, PokerGame
from .rules.coach import LIVE, QUICK, Search, choose_cell, choose_joker

#: The coach's entry in a ranking: no player has id 0.
COACH_ID = 0


def coach_name() -> str:
    return _("Coach (robot)")


def _offer_kept(game: PokerGame, at: float, search: Search = QUICK) -> None:
    while game.kept_jokers and None in game.cells and not game.over:
        seen = game.sequence[: game.handled]
        choice = choose_joker(
            game.cells, table=game.table, seen=seen, kept=game.kept_jokers - 1, search=search
        )
        if choice["action"] != "use":
            return
        game.place_kept_joker(int(choice["cell"]), int(choice["value"]), at)


def play(stored: Mapping[str, Any], state: Mapping[str, Any], at: float) -> dict[str, Any]:
    """Deal the coach every number drawn so far and let it place them all at ``at``:
    the first with the live search (``coach.LIVE``) (the usual case: one new number), any
    further ones with the quick search (a draw never waits for many searches)."""
    from .room_games import common

    game = PokerGame.from_dict(stored)
    common.catch_up(game, state)
    search = LIVE
    while not game.over and game.hand is not None:
        _offer_kept(game, at, search)
        if game.over or game.hand is None:
            break
        seen = game.sequence[: game.handled]
        if game.hand == JOKER:
            choice = choose_joker(
                game.cells, table=game.table, seen=seen, kept=game.kept_jokers, search=search
            )
            if choice["action"] == "use":
                game.use_joker(int(choice["cell"]), int(choice["value"]), at)
            else:
                game.keep_joker(at)
        else:
            cell = choose_cell(game.cells, game.hand, table=game.table, seen=seen, search=search)
            game.place(cell, at)
        search = QUICK
    if not game.over:
        _offer_kept(game, at)
    return game.to_dict()


def entry(state: Mapping[str, Any], now: float | None) -> dict[str, Any] | None:
    """The coach's line in the standings, or None when the class has no coach seat."""
    from .room_games import common

    stored = state.get("coach")
    if not stored:
        return None
    game = PokerGame.from_dict(stored)
    if now is not None and game.mode == "easy":
        game.advance(now)
    return {
        "player_id": COACH_ID,
        "nickname": coach_name(),
        "robot": True,
        **common.board_final(game),
    }
