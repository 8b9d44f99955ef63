"""The teacher's "New homework" form: the game, its settings, the dates, the
rules and the optional marks.

Dates are read and shown in the teacher's time zone: ``form.js`` fills the
hidden ``time_zone`` field from the browser (``Intl.DateTimeFormat``), the
dates typed are read in that zone and stored in UTC, and the zone is kept on
the assignment (its pages show the dates in it). Without a script the zone is
the assignment's or the one the teacher's browser reported last (session),
else Europe/Prague.
"""

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, cast
from zoneinfo import ZoneInfo

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core import registry

from . import services
from .errors import HomeworkError
from .models import Assignment

#: The default zone (the school's) when the browser reported none.
SCHOOL_ZONE = ZoneInfo(services.DEFAULT_TIME_ZONE)
LOCAL_FORMAT = "%Y-%m-%dT%H:%M"
#: The session key of the zone the teacher's browser reported last.
SESSION_ZONE = "homework_time_zone"


class LocalDateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"
    zone = SCHOOL_ZONE

    def format_value(self, value: object) -> str | None:
        if isinstance(value, datetime):
            return value.astimezone(self.zone).strftime(LOCAL_FORMAT)
        return None if value is None else str(value)

    def get_context(self, name: str, value: object, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        if isinstance(value, datetime):
            # the moment itself, so the page's script can show it in the
            # browser's zone when that is not the one the server assumed
            context["widget"]["attrs"]["data-utc"] = value.astimezone(UTC).isoformat()
        shown: dict[str, Any] = context
        return shown


class LocalDateTimeField(forms.DateTimeField):
    """A wall-clock time without a zone; the form attaches the teacher's zone."""

    widget = LocalDateTimeInput
    input_formats = [LOCAL_FORMAT, "%Y-%m-%d %H:%M"]

    def to_python(self, value: Any) -> datetime | None:
        moment: datetime | None = super().to_python(value)
        if moment is None:
            return None
        return moment.replace(tzinfo=None)


def zone_or_default(name: object) -> str:
    try:
        return services.clean_time_zone(name)
    except HomeworkError:
        return services.DEFAULT_TIME_ZONE


def _setting_key(game: str, name: str) -> str:
    return f"{game}__{name}"


class AssignmentForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=120)
    game = forms.ChoiceField(label=_("Game"))
    opens_at = LocalDateTimeField(
        label=_("Opens at"), required=False, help_text=_("Empty: now. In your time zone.")
    )
    due_at = LocalDateTimeField(label=_("Due at"), help_text=_("In your time zone."))
    time_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    attempts = forms.ChoiceField(
        label=_("Which attempt counts"),
        choices=Assignment.Attempts.choices,
        initial=Assignment.Attempts.FIRST,
        help_text=_(
            "Every attempt deals new numbers: each pupil's second game is the class's "
            "second deal, the third game the third deal, and so on, the same for "
            "everybody on the same attempt."
        ),
    )
    practice = forms.BooleanField(
        label=_("Practice mode: hints and extra attempts that do not count"), required=False
    )
    late = forms.BooleanField(label=_("Late play allowed (marked late)"), required=False)
    table_visible = forms.BooleanField(
        label=_("Pupils see the class table after the deadline"), required=False
    )
    reviews_visible = forms.BooleanField(
        label=_("Pupils see the coach's review of their game after the deadline"),
        required=False,
    )
    mail_summary = forms.BooleanField(
        label=_("Send me a summary e-mail at the deadline"), required=False
    )
    full_marks = forms.IntegerField(
        label=_("Full marks from score"),
        required=False,
        min_value=1,
        max_value=services.FULL_MARKS_MAX,
        help_text=_(
            "The score that counts as full marks in the school's gradebook (LMS); a higher "
            "score counts as full marks too. Empty: the game's default, shown on the "
            "homework's page."
        ),
    )
    mark_1 = forms.IntegerField(label=_("Mark 1 from score"), required=False)
    mark_2 = forms.IntegerField(label=_("Mark 2 from score"), required=False)
    mark_3 = forms.IntegerField(label=_("Mark 3 from score"), required=False)
    mark_4 = forms.IntegerField(
        label=_("Mark 4 from score"),
        required=False,
        help_text=_(
            "Optional: the lowest score for each mark, falling; a lower score is a 5. "
            "The marks appear in the class table and the downloads. Leave all four "
            "empty for no marks."
        ),
    )

    MARK_FIELDS = ("mark_1", "mark_2", "mark_3", "mark_4")

    def __init__(self, *args: Any, zone: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        reported = self.data.get("time_zone") if self.is_bound else None
        self.zone_name = zone_or_default(reported or zone)
        self.zone = ZoneInfo(self.zone_name)
        self.fields["time_zone"].initial = self.zone_name
        for name in ("opens_at", "due_at"):
            self.fields[name].widget.zone = self.zone
        specs = registry.assignable_games()
        game_field = cast(forms.ChoiceField, self.fields["game"])
        game_field.choices = [(spec.slug, spec.name) for spec in specs]
        self.setting_names: dict[str, list[str]] = {}
        for spec in specs:
            assert spec.assignable is not None
            names = []
            for name, label, choices, default in spec.assignable.setting_fields():
                key = _setting_key(spec.slug, name)
                # not required: the other games' fields are disabled (not posted)
                # by form.js; the chosen game's ``clean_settings`` fills defaults
                field: forms.Field
                if choices is None:
                    field = forms.IntegerField(label=label, initial=default, required=False)
                else:
                    field = forms.ChoiceField(
                        label=label, choices=choices, initial=default, required=False
                    )
                field.widget.attrs["data-game"] = spec.slug
                self.fields[key] = field
                names.append(name)
            self.setting_names[spec.slug] = names
        if not self.is_bound:
            self.fields["due_at"].initial = (timezone.now() + timedelta(days=7)).replace(
                second=0, microsecond=0
            )

    def clean_time_zone(self) -> str:
        try:
            return services.clean_time_zone(self.cleaned_data.get("time_zone"))
        except HomeworkError as error:
            raise forms.ValidationError(error.message, code=error.code) from None

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] | None = super().clean()
        assert data is not None  # Form.clean returns the cleaned data
        zone = ZoneInfo(data.get("time_zone") or self.zone_name)
        for name in ("opens_at", "due_at"):
            if data.get(name) is not None:
                data[name] = data[name].replace(tzinfo=zone)
        marks = [data.get(name) for name in self.MARK_FIELDS]
        if all(value is None for value in marks):
            data["mark_thresholds"] = None
        elif any(value is None for value in marks):
            for name, value in zip(self.MARK_FIELDS, marks, strict=True):
                if value is None:
                    self.add_error(name, _("Fill in the lowest score for this mark too."))
            self.add_error(None, _("Fill in all four marks, or leave all four empty."))
        else:
            given: list[int] = [value for value in marks if value is not None]  # all four
            try:
                data["mark_thresholds"] = services.clean_marks(given)
            except HomeworkError as error:
                for name, (higher, lower) in zip(
                    self.MARK_FIELDS[1:], zip(given, given[1:], strict=False), strict=True
                ):
                    if lower >= higher:
                        self.add_error(name, _("Must be lower than the score for the mark above."))
                self.add_error(None, error.message)
        return data

    def mark_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.MARK_FIELDS]

    def game_settings(self) -> dict[str, Any]:
        game = self.cleaned_data["game"]
        values = {
            name: self.cleaned_data.get(_setting_key(game, name))
            for name in self.setting_names.get(game, [])
        }
        return {name: value for name, value in values.items() if value not in (None, "")}

    def setting_fields(self) -> list[forms.BoundField]:
        return [field for field in self if "__" in field.name]

    @staticmethod
    def marks_initial(thresholds: Sequence[int] | None) -> dict[str, int]:
        if not thresholds:
            return {}
        return {f"mark_{n}": value for n, value in enumerate(thresholds, start=1)}

    def main_fields(self, names: str) -> list[forms.BoundField]:
        return [self[name] for name in names.split()]
