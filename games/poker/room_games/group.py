"""The poker group game: a host draws, up to fifty players build their own boards.

Spec §4 "Group game". Room state (one row, locked only by the host's draw and
the runtime's host controls) holds the settings, the secret deck and the shared
sequence with the moment each card was drawn. Each player's board lives in
their own seat row and is changed by per-seat moves (``seat_message_types``), so
fifty players placing the same number at once never wait for one another.

A board never needs to be told about a draw: before any action, view or result
it is caught up with the shared sequence, every card dealt at its stored time,
and hard-mode forfeits follow from those times (``common.board_at``). A player
who reconnects, or a server that restarts, therefore sees exactly the deadlines
that were running.

A class member who comes after the host started plays too (a latecomer,
``admits_latecomers``): their board starts at the number in hand when they
joined, every number drawn before it counts as missed (a forfeited cell, shown
on their page and in the results), and in hard mode their clock for that
number starts when they came in.

The group ends when the host ends it (the runtime's ``end``; a host who leaves
ends the game that way too) or when every board is over -- which only the seat
rows know, so ``room_games/standings.py`` checks it when someone asks for the
standings and ends the room through the runtime (see docs/poker-group.md).
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any, ClassVar

from django.utils.translation import gettext as _
from pydantic import BaseModel

from games.rooms.errors import RoomError
from games.rooms.registry import (
    Limits,
    Outcome,
    PlayerResult,
    RoomGame,
    SeatInfo,
    SeatOutcome,
)

from .. import coach_seat
from . import common, events

MAX_PLAYERS = 50


def clean_group_settings(settings: dict) -> dict:
    cleaned = common.clean_common_settings(settings)
    host_plays = settings.get("host_plays", False)
    if isinstance(host_plays, str):
        host_plays = host_plays.lower() in ("1", "true", "on", "yes")
    cleaned["host_plays"] = bool(host_plays)
    coach_seat = settings.get("coach_seat", False)
    if isinstance(coach_seat, str):
        coach_seat = coach_seat.lower() in ("1", "true", "on", "yes")
    if coach_seat:  # only when asked: older rooms' settings stay as they were
        cleaned["coach_seat"] = True
    previous = settings.get("previous_room")
    if previous is not None:
        if type(previous) is not int:
            raise RoomError("bad_settings", _("These settings are not valid."))
        cleaned["previous_room"] = previous
    return cleaned


class GroupGame(RoomGame):
    """Adapter for ``poker/group``; pure translation to ``games.poker.rules``."""

    # The host only deals unless they choose to play, so the host does not take
    # one of the fifty places (a playing host makes 51 boards; see the docs).
    limits: ClassVar[Limits] = Limits(
        max_players=MAX_PLAYERS, min_players=1, spectators=False, host_plays=False
    )
    messages: ClassVar[dict[str, type[BaseModel]]] = events.GROUP_MESSAGES
    message_types: ClassVar[frozenset[str]] = frozenset({"draw"})
    seat_message_types: ClassVar[frozenset[str]] = frozenset(events.BOARD_MESSAGES)
    view_model: ClassVar[type[BaseModel] | None] = events.GroupView
    events: ClassVar[dict[str, type[BaseModel]]] = events.GROUP_EVENTS
    admits_latecomers: ClassVar[bool] = True
    template_name: ClassVar[str | None] = "poker/room/group.html"
    script: ClassVar[str | None] = "poker/room/group.js"

    def clean_settings(self, settings: dict) -> dict:
        return clean_group_settings(settings)

    # --- start -------------------------------------------------------------------

    def start(
        self, *, settings: dict, seats: list[SeatInfo], rng: random.Random, now: datetime
    ) -> Outcome:
        settings = clean_group_settings(settings)
        host = next(s for s in seats if s.role == "host")
        players = [
            [s.player_id, s.nickname]
            for s in seats
            if s.role == "player" or (s.role == "host" and settings["host_plays"])
        ]
        state = {
            "version": common.STATE_VERSION,
            "kind": "group",
            "settings": settings,
            "host_id": host.player_id,
            "players": players,
            "started_at": common.seconds(now),
            "ended_at": None,
            **common.new_sequence_state(settings, rng),
        }
        if settings.get("coach_seat"):
            # The coach's board lives in the room state (games/poker/coach_seat.py).
            state["coach"] = common.new_board(settings).to_dict()
        return Outcome(state=state, public=[{"type": "poker_started", **public_info(state)}])

    def initial_seat_state(self, state: dict, player_id: int) -> dict:
        if not is_player(state, player_id):
            return {}
        late = latecomer_entry(state, player_id)
        if late is not None:
            _pid, missed, at = late
            return common.late_board(state, missed=missed, at=at).to_dict()
        return common.new_board(state["settings"]).to_dict()

    def latecomer(self, state: dict, *, player_id: int, nickname: str, now: datetime) -> Outcome:
        if is_player(state, player_id) or state.get("ended_at") is not None:
            raise RoomError("already_started", _("The game has already started."))
        # Everything drawn before the number now in hand is missed.
        missed = max(0, len(state["sequence"]) - 1)
        state = {
            **state,
            "players": [*state["players"], [player_id, nickname]],
            "late": [*state.get("late", []), [player_id, missed, common.seconds(now)]],
        }
        return Outcome(state=state, public=[{"type": "latecomer", "player_id": player_id}])

    # --- the host draws ------------------------------------------------------------

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
        if message.get("type") != "draw":
            raise RoomError("unknown_type", _("This game does not accept that message."))
        if player_id != state["host_id"]:
            raise RoomError("not_host", _("Only the host draws the numbers."))
        state = dict(state, deck=list(state["deck"]))
        state["sequence"] = list(state["sequence"])
        state["dealt_at"] = list(state["dealt_at"])
        event = common.draw_card(state, common.seconds(now))
        if state.get("coach"):
            state["coach"] = coach_seat.play(state["coach"], state, common.seconds(now))
        return Outcome(state=state, public=[event])

    # --- a player acts on their own board ----------------------------------------------

    def apply_seat(
        self,
        state: dict,
        seat_state: dict,
        *,
        player_id: int,
        message: dict,
        now: datetime,
    ) -> SeatOutcome:
        if not is_player(state, player_id):
            raise RoomError("not_playing", _("You only deal in this game; you have no board."))
        at = common.seconds(now)
        caught_up: list[dict] = []
        game = common.board_at(state, seat_state, at, caught_up)
        events = common.act(game, message, at)
        stored = game.to_dict()
        # The ack is the answer: the page already shows the move on its mirror of the
        # board. Only when time decided something on the way (hard-mode forfeits the
        # page may not have applied yet) does the stored board go back to the player:
        # fifty private events per draw are the busiest traffic of a full server.
        timed = [e for e in caught_up if e["type"] in ("forfeited", "joker_expired")]
        private = []
        if timed:
            private = [{"type": "board", "game": stored, "events": timed + events}]
        return SeatOutcome(seat_state=stored, private=private)

    # --- what each one sees -----------------------------------------------------------

    def view(
        self,
        state: dict,
        *,
        player_id: int | None,
        role: str,
        seat_state: dict,
        now: datetime | None = None,
    ) -> dict:
        at = common.view_time(now)
        view = {**public_info(state), "server_now": at, "you_play": False, "game": None}
        if player_id is not None and is_player(state, player_id):
            end = state["ended_at"]
            game = common.board_at(state, seat_state, at if end is None else end)
            late = latecomer_entry(state, player_id)
            view.update(you_play=True, game=game.to_dict(), missed=late[1] if late else 0)
        return view

    # --- the end ---------------------------------------------------------------------------

    def end(self, state: dict, *, now: datetime) -> dict:
        return {**state, "ended_at": state.get("ended_at") or common.seconds(now)}

    def results(self, state: dict, seat_states: dict[int, dict]) -> list[PlayerResult]:
        # The coach seat is not among these: it has no result and no place among pupils.
        entries = standings(state, seat_states, state.get("ended_at"))
        stopped_early = not ran_out(state) and not all(entry["over"] for entry in entries)
        return [
            PlayerResult(
                player_id=entry["player_id"],
                score=entry["score"],
                rank=entry["rank"],
                completed=entry["completed"],
                details={**result_details(state, entry), "stopped_early": stopped_early},
            )
            for entry in entries
        ]


def ran_out(state: dict) -> bool:
    """Whether the deck ran out for the class: every number was drawn (the
    sequence closed) or as many cards as a board has cells were out, so every
    board had a card for each cell (a board that used jokers is full before the
    25th number). A game the host ends after that ran to its end, however far a
    lagging pupil got; only one stopped before it is unfinished in the reports
    (issue 37)."""
    return bool(state["closed"]) or len(state["sequence"]) >= common.CELLS


def unplaced_numbers(state: dict, entry: dict) -> int:
    """Numbers drawn that a board never took (a pupil still behind at the end):
    missed like a forfeited cell."""
    if entry["over"]:
        return 0
    return sum(1 for card in state["sequence"][entry["handled"] :] if card != common.JOKER)


def is_player(state: dict, player_id: int | None) -> bool:
    return any(pid == player_id for pid, _nickname in state["players"])


def latecomer_entry(state: dict, player_id: int | None) -> list | None:
    """``[player_id, numbers missed, joined at]`` of a player who came late, else None."""
    return next((entry for entry in state.get("late", []) if entry[0] == player_id), None)


def public_info(state: dict) -> dict[str, Any]:
    """What everyone in the room may know (never the undealt deck)."""
    return {
        "kind": "group",
        "settings": state["settings"],
        "host_id": state["host_id"],
        "players": [{"player_id": pid, "nickname": nick} for pid, nick in state["players"]],
        "sequence": list(state["sequence"]),
        "dealt_at": list(state["dealt_at"]),
        "closed": state["closed"],
        "ended": state.get("ended_at") is not None,
    }


def standings(
    state: dict, seat_states: dict, now: float | None, *, with_coach: bool = False
) -> list[dict[str, Any]]:
    """Every board brought up to ``now`` and ranked (score, then filled cells);
    ``with_coach`` adds the coach seat (the projector's ranking, never results)."""
    entries = []
    for player_id, nickname in state["players"]:
        stored = seat_states.get(player_id) or seat_states.get(str(player_id))
        game = common.board_at(state, stored, now)
        entries.append({"player_id": player_id, "nickname": nickname, **common.board_final(game)})
    coach = coach_seat.entry(state, now) if with_coach else None
    if coach is not None:
        entries.append(coach)
    return common.ranked(entries)


def result_details(state: dict, entry: dict) -> dict[str, Any]:
    """GameResult.details: the board, never ``duration_s`` (no fastest game here)."""
    late = latecomer_entry(state, entry["player_id"])
    unplaced = unplaced_numbers(state, entry)
    return {
        "board": entry["cells"],
        "missed": late[1] if late else 0,
        "joker_cells": entry["joker_cells"],
        "filled": entry["filled"],
        # Numbers missed: forfeited cells and numbers still waiting at the end.
        "forfeited": entry["forfeited"] + unplaced,
        "unplaced": unplaced,
        "table": state["settings"]["table"],
        "difficulty": state["settings"]["difficulty"],
        "players": len(state["players"]),
    }
