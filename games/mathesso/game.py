"""Mathesso as the platform sees it (registered in ``apps.py``)."""

from django.utils.translation import gettext_lazy as _

from core.registry import Assignable, ClassLaunch, GameSpec

from . import assignments
from .adapter import MathessoSolo, MathessoTable
from .forms import TableSettingsForm

SPEC = GameSpec(
    slug="mathesso",
    name=_("Mathesso"),
    tagline=_("A memory game: find the tiles that show the same number in different forms."),
    players=_("1–6 players"),
    colour="#c53d8e",
    index_url="mathesso:index",
    urls=("games.mathesso.urls",),
    rooms={"table": MathessoTable(), "solo": MathessoSolo()},
    mode_names={"table": _("table"), "solo": _("solo practice")},
    class_launch=ClassLaunch(mode="table", kind="tables", settings_form=TableSettingsForm),
    assignable=Assignable(
        clean_settings=assignments.clean_settings,
        setting_fields=assignments.setting_fields,
        play_url=assignments.play_url,
        room_mode=assignments.MODE,
        score=assignments.homework_score,
        full_marks=assignments.full_marks,
    ),
    order=20,
)
