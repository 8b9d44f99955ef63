"""The tiny game's declaration: everything the platform needs, in one GameSpec."""

from __future__ import annotations

from typing import Literal

from django import forms
from django.http import HttpResponse
from django.template import Template
from django.urls import path

from core.registry import ClassLaunch, GameSpec, ProfileStats
from games.rooms.errors import RoomError
from games.rooms.registry import Limits, Outcome, PlayerResult, RoomGame
from games.rooms.schemas import Event, Message, by_type

SLUG = "tinygame"
GOAL = 3


class StepMessage(Message):
    """Take one step."""

    type: Literal["step"]


class StepsEvent(Event):
    """Everybody's steps so far."""

    type: Literal["steps"]
    steps: dict[str, int]


MESSAGES = by_type(StepMessage)
EVENTS = by_type(StepsEvent)


class StepTable(RoomGame):
    limits = Limits(max_players=3)
    messages = MESSAGES
    message_types = frozenset(MESSAGES)
    events = EVENTS

    def start(self, *, settings, seats, rng, now) -> Outcome:
        steps = {str(seat.player_id): 0 for seat in seats}
        state = {"steps": steps, "goal": settings.get("goal", GOAL)}
        return Outcome(state=state, public=[{"type": "steps", "steps": steps}])

    def apply(self, state, *, player_id, role, message, now, rng) -> Outcome:
        if str(player_id) not in state["steps"]:
            raise RoomError("not_playing", "Only players step.")
        steps = {**state["steps"], str(player_id): state["steps"][str(player_id)] + 1}
        state = {**state, "steps": steps}
        finished = steps[str(player_id)] >= state["goal"]
        return Outcome(state, public=[{"type": "steps", "steps": steps}], finished=finished)

    def view(self, state, *, player_id, role, seat_state, now=None) -> dict:
        return {"steps": state.get("steps", {})}

    def results(self, state, seat_states) -> list[PlayerResult]:
        ordered = sorted(state["steps"].items(), key=lambda item: -item[1])
        return [
            PlayerResult(player_id=int(pid), score=score, rank=rank)
            for rank, (pid, score) in enumerate(ordered, start=1)
        ]


class SettingsForm(forms.Form):
    goal = forms.IntegerField(min_value=1, max_value=9, required=False)

    def settings(self) -> dict:
        raw = self.data.get(self.add_prefix("goal"))
        return {"goal": int(raw)} if raw and raw.isdigit() else {}


def hub(request):
    return HttpResponse("<h1>Tiny game</h1>")


app_name = SLUG
urlpatterns = [path("", hub, name="index")]


def profile_stats(results, *, player, today=None) -> dict:
    return {"steps_total": sum(results.values_list("score", flat=True))}


SPEC = GameSpec(
    slug=SLUG,
    name="Tiny game",
    tagline="Three steps to win.",
    players="1–3 players",
    colour="#123456",
    index_url=f"{SLUG}:index",
    urls=("tests.plugin.tinygame.game",),
    rooms={"table": StepTable()},
    mode_names={"table": "step table"},
    class_launch=ClassLaunch(mode="table", kind="tables", settings_form=SettingsForm),
    profile_stats=ProfileStats(
        compute=profile_stats,
        template=Template('<p data-testid="tiny-steps">{{ game_stats.steps_total }}</p>'),
    ),
    order=99,
)
