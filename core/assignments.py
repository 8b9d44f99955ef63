"""What every game's homework settings check shares (``Assignable.clean_settings``):
the teacher's settings are an object of known names, else a ``bad_settings``
refusal; each game then checks its own values."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


def settings_object(settings: Any, names: Collection[str]) -> dict[str, Any]:
    """``settings`` when it is a dict whose keys are all in ``names``."""
    if not isinstance(settings, dict):
        raise ValidationError(_("The settings must be an object."), code="bad_settings")
    unknown = set(settings) - set(names)
    if unknown:
        raise ValidationError(
            _("Unknown settings: %(names)s") % {"names": ", ".join(sorted(map(str, unknown)))},
            code="bad_settings",
        )
    return settings
