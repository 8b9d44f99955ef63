"""The settings of a poker group game or duel, in one place for every page that opens one.

The poker page ``/poker/room/new/<mode>/`` and a teacher's class page both render
``poker/room/_settings_fields.html`` with this form and post the same field names.
The form only turns the posted fields into the settings dict; whether they are
acceptable is decided by the adapter's ``clean_settings`` when ``create_room``
runs, so both pages refuse the same input with the same message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.poker.presentation import table_context
from games.poker.rules import DEFAULT_TABLE, EASY, HARD
from games.poker.rules.state import MAX_SECONDS, MIN_SECONDS

from .room_games.common import DEFAULT_SECONDS


def _table_choices() -> list[tuple[str, str]]:
    return [(table["name"], table["label"]) for table in table_context()]


class RoomSettingsForm(forms.Form):
    difficulty = forms.ChoiceField(
        choices=((EASY, _("Easy: no clock")), (HARD, _("Hard: a time limit for each number"))),
        initial=EASY,
        required=False,
    )
    seconds = forms.CharField(initial=DEFAULT_SECONDS, required=False)
    table = forms.ChoiceField(choices=_table_choices, initial=DEFAULT_TABLE, required=False)
    host_plays = forms.BooleanField(initial=False, required=False)
    coach_seat = forms.BooleanField(initial=False, required=False)

    min_seconds = MIN_SECONDS
    max_seconds = MAX_SECONDS

    def __init__(
        self, data: Mapping[str, Any] | None = None, *, mode: str = "group", **kwargs: Any
    ) -> None:
        super().__init__(data, **kwargs)
        self.mode = mode
        if mode != "group":  # in a duel both play; there is no dealing host
            del self.fields["host_plays"]
            del self.fields["coach_seat"]

    @property
    def is_group(self) -> bool:
        return self.mode == "group"

    @property
    def chosen_difficulty(self) -> str:
        """The radio to check: hard only when hard was asked for."""
        return HARD if self["difficulty"].value() == HARD else EASY

    def settings(self) -> dict[str, Any]:
        """The settings for ``create_room`` (defaults for whatever was not posted)."""
        data = self.data if self.is_bound else {}
        settings: dict[str, Any] = {
            "table": data.get("table", DEFAULT_TABLE),
            "difficulty": data.get("difficulty", EASY),
        }
        if settings["difficulty"] == HARD:
            settings["seconds"] = (data.get("seconds") or "").strip() or DEFAULT_SECONDS
        if self.is_group:
            settings["host_plays"] = data.get("host_plays") == "on"
            settings["coach_seat"] = data.get("coach_seat") == "on"
        return settings
