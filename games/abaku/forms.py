"""The class page's Abaku settings: turn time, robots in empty seats, the board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.abaku import adapter as abaku
from games.abaku.presentation import robot_levels

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise


def _turn_choices() -> list[tuple[str, str | _StrPromise]]:
    choices: list[tuple[str, str | _StrPromise]] = [("", _("no limit"))]
    for seconds in abaku.TURN_SECONDS_CHOICES:
        if seconds is not None:
            choices.append((str(seconds), _("%(seconds)s s") % {"seconds": seconds}))
    return choices


class TableSettingsForm(forms.Form):
    turn_seconds = forms.ChoiceField(
        label=_("Time for one turn"),
        choices=_turn_choices,
        initial=str(abaku.DEFAULT_TURN_SECONDS),
        required=False,
    )
    robot_level = forms.ChoiceField(
        label=_("Robots in empty seats"),
        choices=robot_levels,
        initial=abaku.DEFAULT_LEVEL,
        required=False,
        help_text=_("A robot joins only a student who would sit at a table alone."),
    )
    plain = forms.BooleanField(label=_("A board without premium squares"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def settings(self) -> dict:
        settings: dict[str, Any] = {"layout": "plain" if self["plain"].value() else "standard"}
        # What was not posted keeps the adapter's default; anything but a listed
        # number or level reaches the adapter as it came, to be refused there.
        if self.add_prefix("turn_seconds") in self.data:
            seconds = self.data[self.add_prefix("turn_seconds")].strip()
            settings["turn_seconds"] = int(seconds) if seconds.isdigit() else seconds or None
        if self.add_prefix("robot_level") in self.data:
            settings["robot_level"] = self.data[self.add_prefix("robot_level")]
        return settings
