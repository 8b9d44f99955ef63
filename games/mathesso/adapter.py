"""Mathesso in the rooms runtime: a thin translator to the pure rules engine.

Two modes are registered (see ``apps.py``):

- ``table``: 1-6 players at one table (open with a code/link/QR, or started by a
  teacher who splits a class into tables). The host plays too.
- ``solo``: solo practice, a one-seat room that starts at once and counts turns.

The room's state is the engine's ``GameState.to_dict()`` (secrets included;
it never leaves the server). Players see only ``rules.view``, which never
holds the face of a face-down tile. Engine player ids are the profile ids as
strings. The engine's layout seed is drawn from the room's ``rng``, which the
runtime derives from the room's secret ``rng_seed`` (``secrets.randbits``), so
the seed is unpredictable to clients and a replay of the event log rebuilds the
same table.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.mathesso import events, rules
from games.mathesso.rules import data
from games.mathesso.rules.tiles import VARIANT_BY_NAME, check_setup
from games.rooms.errors import RoomError
from games.rooms.ranking import ranks_by
from games.rooms.registry import Limits, Outcome, PlayerResult, RoomGame, SeatInfo

DEFAULT_VARIANT = "pico"

# The engine's refusals speak English for programs and logs; players read these,
# in the language the consumer activated for their socket.
MESSAGES = {
    "bad_action": gettext_lazy("This is not a Mathesso move."),
    "unknown_player": gettext_lazy("You do not sit at this table."),
    "game_over": gettext_lazy("The game is over."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "no_such_tile": gettext_lazy("There is no such tile on the table."),
    "tile_taken": gettext_lazy("This tile is already part of a pair."),
    "already_flipped": gettext_lazy("This tile is already face up."),
    "not_a_one": gettext_lazy(
        "To decide the order, flip a tile whose black-and-white side shows 1."
    ),
    "wrong_phase": gettext_lazy("You cannot do that in this part of the game."),
    "nothing_flipped": gettext_lazy("Flip at least one tile before you end your turn."),
    "nothing_to_turn_back": gettext_lazy("No tiles are waiting to be turned back."),
    "already_gone": gettext_lazy("This player has already left the table."),
}


def refusal(error: rules.IllegalMove) -> rules.IllegalMove:
    """The engine's refusal, same type and stable code, its message in the active
    language (the runtime answers the sender with both)."""
    message = MESSAGES.get(error.code)
    return rules.IllegalMove(error.code, str(message) if message else error.message)


PLAYING_ROLES = ("host", "player")


def clean_settings(settings: dict) -> dict:
    """Variant, extensions and points as the engine accepts them; RoomError if not."""
    variant = settings.get("variant", DEFAULT_VARIANT)
    extensions = settings.get("extensions", [])
    points = settings.get("points")
    if not isinstance(variant, str) or variant not in rules.VARIANT_NAMES:
        raise RoomError("bad_variant", _("Choose one of the variants."))
    if not isinstance(extensions, list | tuple) or not all(isinstance(e, str) for e in extensions):
        raise RoomError("bad_extensions", _("Choose extensions from the list."))
    try:
        chosen = check_setup(variant, extensions)
    except ValueError:
        raise RoomError(
            "bad_extensions", _("This extension cannot be played with this variant.")
        ) from None
    if points is not None and not isinstance(points, bool):
        raise RoomError("bad_points", _("Points are either on or off."))
    default = VARIANT_BY_NAME[variant].points_by_default
    return {
        "variant": variant,
        "extensions": list(chosen),
        "points": default if points is None else points,
    }


def order_notice(ordering: dict, me: str | None) -> str:
    """What the order procedure tells this viewer when players tied.

    Seed step 3: „Pokud více hráčů objeví na barevné straně stejné číslo,
    otočí tito hráči další kartičku s číslem 1 a postupují znovu podle kroku 2."
    """
    notices = []
    for tie in ordering["again"]:
        if me in tie["players"] and me in ordering["waiting"]:
            text = _(
                "Someone else found the same number as you (%(value)s): "
                "flip another tile showing 1."
            )
        else:
            text = _("Players with the same number (%(value)s) flip another tile showing 1.")
        notices.append(text % {"value": tie["value"]})
    return " ".join(notices)


class MathessoTable(RoomGame):
    """A table of 1-6 players playing in real time."""

    limits = Limits(max_players=data.MAX_PLAYERS, min_players=data.MIN_PLAYERS, spectators=True)
    rematch = True  # "Play again" after the game (games.rooms.lifecycle.rematch)
    messages = events.MESSAGES
    message_types = frozenset(messages)
    view_model = events.MathessoView
    events = events.EVENTS
    template_name = "mathesso/board.html"
    script = "mathesso/board.js"

    def clean_settings(self, settings: dict) -> dict:
        return clean_settings(settings)

    def start(
        self, *, settings: dict, seats: list[SeatInfo], rng: random.Random, now: datetime
    ) -> Outcome:
        players = [str(s.player_id) for s in seats if s.role in PLAYING_ROLES]
        if not data.MIN_PLAYERS <= len(players) <= data.MAX_PLAYERS:
            raise RoomError("bad_table", _("A Mathesso table seats 1 to 6 players."))
        settings = clean_settings(settings)
        seed = f"{rng.getrandbits(128):032x}"
        state = rules.new_game(
            players,
            settings["variant"],
            settings["extensions"],
            seed=seed,
            points=settings["points"],
        )
        public: list[dict] = [{"type": "game_started", "variant": state.variant}]
        if state.phase == "play":
            public.append({"type": "turn_started", "player": state.player, "round": 1})
        return Outcome(state=state.to_dict(), public=public)

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
        action: dict[str, Any] = {"type": message["type"], "player": str(player_id)}
        if message["type"] == "flip":
            action["tile"] = message.get("tile")
        game = rules.GameState.from_dict(state)
        try:
            game, events = rules.apply_action(game, action)
        except rules.IllegalMove as error:
            raise refusal(error) from error
        return Outcome(state=game.to_dict(), public=events, finished=game.phase == "over")

    def view(
        self,
        state: dict,
        *,
        player_id: int | None,
        role: str,
        seat_state: dict,
        now: datetime | None = None,
    ) -> dict:
        game = rules.GameState.from_dict(state)
        me = str(player_id) if player_id is not None else None
        shown = rules.view(game, me if me in game.seats else None)
        if state.get("ended") and shown["result"] is None:
            shown["result"] = {
                **rules.result(game),
                "breakdown": {
                    p: rules.score_breakdown(game.faces_of(p), game.points) for p in game.seats
                },
            }
        if shown["ordering"] and shown["ordering"]["again"]:
            shown["ordering"]["notice"] = order_notice(shown["ordering"], me)
        shown["ended"] = bool(state.get("ended"))
        return shown

    def player_removed(
        self, state: dict, *, player_id: int, now: datetime, rng: random.Random
    ) -> Outcome | None:
        """A player left or was removed: no more turns for them (``rules.remove_player``).

        A table left with one player is over; watchers and players already gone
        change nothing. Solo practice has one seat, its host, who is never removed.
        """
        if not state or state.get("ended"):
            return None
        game = rules.GameState.from_dict(state)
        player = str(player_id)
        if game.phase == "over" or player not in game.seats or player in game.gone:
            return None
        game, events = rules.remove_player(game, player)
        return Outcome(state=game.to_dict(), public=events, finished=game.phase == "over")

    def end(self, state: dict, *, now: datetime) -> dict:
        """The host ends the game early: it is scored as it stands, marked unfinished."""
        return {**state, "ended": True}

    def results(self, state: dict, seat_states: dict[int, dict]) -> list[PlayerResult]:
        game = rules.GameState.from_dict(state)
        scores = rules.scores(game)
        # players who left the table rank after everyone who stayed
        ranks = ranks_by({p: (p not in game.gone, s) for p, s in scores.items()})
        completed = game.phase == "over"
        return [
            PlayerResult(
                player_id=int(p),
                score=scores[p],
                rank=ranks[p],
                completed=completed and p not in game.gone,
                details={
                    "variant": game.variant,
                    "extensions": list(game.extensions),
                    "points": game.points,
                    "players": len(game.seats),
                    "pairs": len(game.pairs[p]),
                    "turns": game.turns[p],
                    "sheldons": rules.sheldons(game.faces_of(p)),
                    "left": p in game.gone,
                },
            )
            for p in game.seats
        ]


class MathessoSolo(MathessoTable):
    """Solo practice: one seat, started at once; the turn count is the challenge."""

    limits = Limits(max_players=1, min_players=1, spectators=False)
