"""The poker duel: two players, one sequence, auto-draw once both have placed.

Spec §4 "Duel 1v1". The duel starts by itself when the second player joins.
Only two boards, so the whole duel (both boards included)
lives in the room state and every move is room-wide: the auto-draw needs both
boards in one place, and two players cannot contend.

- A card is drawn automatically as soon as every unfinished board has nothing
  in hand; either player may draw earlier once their own hand is empty (the
  other catches up in order).
- Winner: higher score, then more filled cells, else a draw.
- A player who leaves the room or is removed by the host quits the duel.
- No duel result (win/loss/draw) is recorded when the duel ended early (a
  player quit or the host ended the room) or when a player placed no number;
  the game itself is still recorded for both.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any, ClassVar

from django.utils.translation import gettext as _
from pydantic import BaseModel

from games.poker.rules import PokerGame
from games.rooms.errors import RoomError
from games.rooms.registry import Limits, Outcome, PlayerResult, RoomGame, SeatInfo

from . import common, events

WIN, LOSS, DRAW = "win", "loss", "draw"


class DuelGame(RoomGame):
    limits: ClassVar[Limits] = Limits(max_players=2, min_players=2, spectators=False)
    messages: ClassVar[dict[str, type[BaseModel]]] = events.DUEL_MESSAGES
    message_types: ClassVar[frozenset[str]] = frozenset(messages)
    view_model: ClassVar[type[BaseModel] | None] = events.DuelView
    events: ClassVar[dict[str, type[BaseModel]]] = events.DUEL_EVENTS
    template_name: ClassVar[str | None] = "poker/room/duel.html"
    script: ClassVar[str | None] = "poker/room/duel.js"
    # The join that makes two starts the duel (games.rooms.lifecycle.join_room).
    starts_when_full: ClassVar[bool] = True

    def clean_settings(self, settings: dict) -> dict:
        return common.clean_common_settings(settings)

    def start(
        self, *, settings: dict, seats: list[SeatInfo], rng: random.Random, now: datetime
    ) -> Outcome:
        settings = common.clean_common_settings(settings)
        players = [[s.player_id, s.nickname] for s in seats if s.role in ("host", "player")]
        if len(players) != 2:
            raise RoomError("not_enough_players", _("A duel needs exactly two players."))
        at = common.seconds(now)
        state = {
            "version": common.STATE_VERSION,
            "kind": "duel",
            "settings": settings,
            "players": players,
            "boards": {str(pid): common.new_board(settings).to_dict() for pid, _n in players},
            "started_at": at,
            "ended_at": None,
            "early": False,
            "quit_by": None,
            **common.new_sequence_state(settings, rng),
        }
        boards = _boards(state)
        public = [{"type": "poker_started", "kind": "duel"}]
        public += _auto_draw(state, boards, at)
        _store(state, boards)
        return Outcome(state=state, public=public, private=_private(boards))

    def apply(
        self,
        state: dict,
        *,
        player_id: int,
        role: str,
        message: dict,
        now: datetime,
        rng: random.Random,
    ) -> Outcome:
        state = _copy(state)
        at = common.seconds(now)
        key = str(player_id)
        if key not in state["boards"]:
            raise RoomError("not_playing", _("You are not playing in this duel."))
        boards = _boards(state)
        for game in boards.values():
            game.advance(at)
        kind = message.get("type")
        public: list[dict] = []
        if kind == "quit":
            return self._quit(state, boards, player_id, at)
        mine = boards[key]
        if kind == "draw":
            if mine.over:
                raise common.rule_error_code("game_over")
            if mine.hand is not None:
                raise RoomError("hand_not_empty", _("Place the number in your hand first."))
            public.append(common.draw_card(state, at))
            for game in boards.values():
                game.deal(state["sequence"][-1], state["dealt_at"][-1])
                if state["closed"] and not game.closed:
                    game.close_sequence(at)
        else:
            common.act(mine, message, at)
        public += _auto_draw(state, boards, at)
        _store(state, boards)
        public.append(_progress(boards))
        if all(game.over for game in boards.values()):
            state["ended_at"] = at
            return self._finish(state, boards, public)
        return Outcome(state=state, public=public, private=_private(boards))

    def player_removed(
        self, state: dict, *, player_id: int, now: datetime, rng: random.Random
    ) -> Outcome | None:
        """A player who leaves the room (or is removed by the host) quits the duel."""
        if state.get("ended_at") is not None or str(player_id) not in state["boards"]:
            return None
        state, boards, at = _caught_up(state, now)
        return self._quit(state, boards, player_id, at)

    def _quit(
        self, state: dict, boards: dict[str, PokerGame], player_id: int, at: float
    ) -> Outcome:
        state["early"], state["quit_by"] = True, player_id
        state["ended_at"] = at
        _store(state, boards)
        return self._finish(state, boards, [{"type": "duel_quit", "player_id": player_id}])

    def _finish(self, state: dict, boards: dict[str, PokerGame], public: list) -> Outcome:
        public.append({"type": "duel_over", **final_info(state)})
        return Outcome(state=state, public=public, private=_private(boards), finished=True)

    def view(
        self,
        state: dict,
        *,
        player_id: int | None,
        role: str,
        seat_state: dict,
        now: datetime | None = None,
    ) -> dict:
        ended = state.get("ended_at")
        at = common.view_time(now)
        boards = _boards(state)
        for game in boards.values():
            game.advance(at if ended is None else ended)
        view = {
            "kind": "duel",
            "settings": state["settings"],
            "players": [{"player_id": pid, "nickname": nick} for pid, nick in state["players"]],
            "server_now": at,
            "dealt": len(state["sequence"]),
            "closed": state["closed"],
            "progress": {pid: common.board_public(game) for pid, game in boards.items()},
            "game": boards[str(player_id)].to_dict() if str(player_id) in boards else None,
            "ended": ended is not None,
        }
        if ended is not None:
            view["final"] = final_info(state)
        return view

    def next_deadline(self, state: dict) -> datetime | None:
        if state.get("ended_at") is not None:
            return None
        deadlines = [d for game in _boards(state).values() if (d := game.deadline()) is not None]
        return common.moment(min(deadlines)) if deadlines else None

    def tick(self, state: dict, *, now: datetime, rng: random.Random) -> Outcome | None:
        if state.get("ended_at") is not None:
            return None
        state = _copy(state)
        at = common.seconds(now)
        boards = _boards(state)
        changed = [game.advance(at) for game in boards.values()]
        if not any(changed):
            return None
        public = _auto_draw(state, boards, at)
        _store(state, boards)
        public.append(_progress(boards))
        if all(game.over for game in boards.values()):
            state["ended_at"] = at
            return self._finish(state, boards, public)
        return Outcome(state=state, public=public, private=_private(boards))

    def end(self, state: dict, *, now: datetime) -> dict:
        if state.get("ended_at") is not None:
            return state
        state, boards, at = _caught_up(state, now)
        _store(state, boards)
        state.update(ended_at=at, early=True)
        return state

    def results(self, state: dict, seat_states: dict[int, dict]) -> list[PlayerResult]:
        info = final_info(state)
        results = []
        for entry in info["ranking"]:
            details = {
                "board": entry["cells"],
                "joker_cells": entry["joker_cells"],
                "filled": entry["filled"],
                "forfeited": entry["forfeited"],
                "table": state["settings"]["table"],
                "difficulty": state["settings"]["difficulty"],
                "opponent": entry["opponent"],
            }
            if info["recorded"]:
                details["outcome"] = entry["outcome"]
            results.append(
                PlayerResult(
                    player_id=entry["player_id"],
                    score=entry["score"],
                    rank=entry["rank"],
                    completed=entry["completed"],
                    details=details,
                )
            )
        return results


def final_info(state: dict) -> dict[str, Any]:
    """The ranking of the two boards, each one's outcome, and whether it counts."""
    boards = _boards(state)
    entries = [
        {"player_id": pid, "nickname": nick, **common.board_final(boards[str(pid)])}
        for pid, nick in state["players"]
    ]
    ranking = common.ranked(entries)
    for entry in ranking:
        other = next(e for e in ranking if e["player_id"] != entry["player_id"])
        entry["opponent"] = other["player_id"]
        if entry["rank"] == other["rank"]:
            entry["outcome"] = DRAW
        else:
            entry["outcome"] = WIN if entry["rank"] < other["rank"] else LOSS
    idle = any(entry["filled"] == 0 for entry in ranking)
    recorded = not state.get("early") and not idle
    reason = "quit" if state.get("quit_by") else "ended" if state.get("early") else None
    if reason is None and idle:
        reason = "idle"
    return {
        "ranking": ranking,
        "recorded": recorded,
        "reason": reason,
        "quit_by": state.get("quit_by"),
    }


def _copy(state: dict) -> dict:
    copied = dict(state)
    for key in ("deck", "sequence", "dealt_at"):
        copied[key] = list(state[key])
    copied["boards"] = dict(state["boards"])
    return copied


def _caught_up(state: dict, now: datetime) -> tuple[dict, dict[str, PokerGame], float]:
    """A copy of the state, both boards advanced to ``now``, and ``now`` in seconds."""
    state = _copy(state)
    at = common.seconds(now)
    boards = _boards(state)
    for game in boards.values():
        game.advance(at)
    return state, boards, at


def _boards(state: dict) -> dict[str, PokerGame]:
    return {key: PokerGame.from_dict(value) for key, value in state["boards"].items()}


def _store(state: dict, boards: dict[str, PokerGame]) -> None:
    state["boards"] = {key: game.to_dict() for key, game in boards.items()}


def _auto_draw(state: dict, boards: dict[str, PokerGame], at: float) -> list[dict]:
    """Draw while every unfinished board waits with an empty hand."""
    events = []
    while not state["closed"] and state["deck"]:
        waiting = [game for game in boards.values() if not game.over]
        if not waiting or any(game.hand is not None for game in waiting):
            break
        event = common.draw_card(state, at)
        events.append(event)
        for game in boards.values():
            game.deal(event["card"], event["at"])
            if state["closed"] and not game.closed:
                game.close_sequence(event["at"])
    return events


def _progress(boards: dict[str, PokerGame]) -> dict:
    return {
        "type": "duel_progress",
        "progress": {key: common.board_public(game) for key, game in boards.items()},
    }


def _private(boards: dict[str, PokerGame]) -> dict[int, list[dict]]:
    return {int(key): [{"type": "board", "game": game.to_dict()}] for key, game in boards.items()}
