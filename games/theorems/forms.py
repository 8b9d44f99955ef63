"""The class page's Matematici settings."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _


class TableSettingsForm(forms.Form):
    no_burn = forms.BooleanField(
        label=_("Small-deck variant: no burning at the end of a turn"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def settings(self) -> dict:
        return {"burn": not self["no_burn"].value()}
