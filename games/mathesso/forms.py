"""The forms that open a Mathesso table or a solo practice game."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.errors import DomainError
from games.mathesso.adapter import clean_settings
from games.mathesso.presentation import EXTENSION_TITLES
from games.mathesso.rules import data, variant_faces
from games.rooms.errors import RoomError

POINTS_CHOICES = (
    ("default", _("usual for the variant")),
    ("on", _("by points")),
    ("off", _("by the number of pairs")),
)


def variant_choices() -> list[tuple[str, str]]:
    return [
        (
            v.name,
            ngettext(
                "%(title)s – %(pairs)s pair, numbers up to %(max)s",
                "%(title)s – %(pairs)s pairs, numbers up to %(max)s",
                len(variant_faces(v.name)),
            )
            % {"title": v.title, "pairs": len(variant_faces(v.name)), "max": v.max_value},
        )
        for v in data.VARIANTS
    ]


class GameForm(forms.Form):
    """Variant, extensions and scoring; ``settings()`` gives what the adapter accepts."""

    variant = forms.ChoiceField(label=_("Variant"), choices=variant_choices, initial="pico")
    extensions = forms.MultipleChoiceField(
        label=_("Extensions"),
        choices=[(e.name, EXTENSION_TITLES[e.name]) for e in data.EXTENSIONS],
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Factorial from Femto up, CJV from Pico up."),
    )
    points = forms.ChoiceField(
        label=_("Scoring"),
        choices=POINTS_CHOICES,
        initial="default",
        required=False,
        help_text=_("Usually Atto counts pairs and the other variants points."),
    )
    nickname = forms.CharField(label=_("Your nickname"), max_length=40, required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        assert cleaned is not None  # Form.clean returns the cleaned data
        if self.errors:
            return cleaned
        points = {"on": True, "off": False}.get(cleaned.get("points") or "default")
        try:
            cleaned["settings"] = clean_settings(
                {
                    "variant": cleaned["variant"],
                    "extensions": cleaned.get("extensions") or [],
                    "points": points,
                }
            )
        except RoomError as error:
            raise forms.ValidationError(error.message, code=error.code) from None
        return cleaned


class TableSettingsForm(GameForm):
    """The class page's Mathesso settings: this game's own form (variant,
    extensions, scoring) without the nickname, since the students are seated
    with their own profiles."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        del self.fields["nickname"]

    def settings(self) -> dict:
        if self.add_prefix("variant") not in self.data:
            return {}  # nothing chosen: the adapter's defaults
        if not self.is_valid():
            raise DomainError(
                "bad_settings", " ".join(str(e) for errors in self.errors.values() for e in errors)
            )
        return self.cleaned_data["settings"]
