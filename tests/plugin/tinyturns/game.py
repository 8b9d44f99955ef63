"""The tiny turn-based game: its engine (``engine.py``), its view and its template,
declared in one GameSpec. Everything else -- phases, seats, robots in empty
seats, their pacing, the turn clock, leavers, ranking, results -- is the rooms
runtime's turn table (``games.rooms.turntable``)."""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpResponse
from django.template import Template
from django.urls import path
from django.views.decorators.http import require_POST
from pydantic import StrictInt

from core.errors import DomainError
from core.registry import GameSpec
from games.rooms import opening
from games.rooms.errors import RoomError
from games.rooms.registry import Limits
from games.rooms.schemas import Event, Message, by_type
from games.rooms.turntable import Seat, TurnTable

from .engine import CountEngine

SLUG = "tinyturns"


class AddMessage(Message):
    """Add 1 or 2 to your count."""

    type: Literal["add"]
    by: StrictInt


class TableEvent(Event):
    """Who sits where."""

    type: Literal["table"]
    seats: list[dict[str, Any]]


class CountedEvent(Event):
    """A seat counted on."""

    type: Literal["counted"]
    seat: int
    by: int


class EndedEarlyEvent(Event):
    """Only robots were left."""

    type: Literal["ended_early"]


MESSAGES = by_type(AddMessage)
EVENTS = by_type(TableEvent, CountedEvent, EndedEarlyEvent)


class CountTable(TurnTable):
    engine = CountEngine()
    limits = Limits(max_players=3)
    messages = MESSAGES
    message_types = frozenset(MESSAGES)
    events = EVENTS
    template_name = Template('<p data-testid="tinyturns-board">Count to the goal</p>')  # type: ignore[assignment]
    min_seats = 2

    def clean_settings(self, settings: dict) -> dict:
        goal = settings.get("goal", 5)
        if not isinstance(goal, int) or not 1 <= goal <= 20:
            raise RoomError("bad_goal", "The goal is 1 to 20.")
        return {
            "goal": goal,
            "table_size": settings.get("table_size", 2),
            "robot_level": settings.get("robot_level", "slow"),
            "robot_delay_ms": settings.get("robot_delay_ms", 500),
            "turn_seconds": settings.get("turn_seconds"),
        }

    def robot_seat(self, number: int, settings: dict, rng) -> dict:
        return {"player_id": None, "nickname": None, "robot": settings["robot_level"]}

    def table_view(self, state: dict, seat: Seat | None, *, full: bool) -> dict:
        return {
            "phase": state["phase"],
            "you": seat,
            "seats": self.public_seats(state),
            "game": self.engine.view(self.engine.load(state["game"]), seat),
        }


def hub(request):
    return HttpResponse("<h1>Tiny turns</h1>")


@require_POST
def new_table(request):
    """Open a table from the game's page: the runtime's flow, configured."""
    raw = request.POST.get("goal", "")
    settings = {"goal": int(raw) if raw.isdigit() else raw}
    try:
        opened = opening.open_from_request(request, game=SLUG, mode="table", settings=settings)
    except DomainError as error:
        return HttpResponse(error.code, status=400)
    return opening.to_room(opened)


app_name = SLUG
urlpatterns = [path("", hub, name="index"), path("new/", new_table, name="new_table")]

SPEC = GameSpec(
    slug=SLUG,
    name="Tiny turns",
    tagline="Count to the goal, in turns.",
    players="2–3 players or robots",
    colour="#654321",
    index_url=f"{SLUG}:index",
    urls=("tests.plugin.tinyturns.game",),
    rooms={"table": CountTable()},
    mode_names={"table": "count table"},
    order=98,
)
