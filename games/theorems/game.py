"""Matematici as the platform sees it (registered in ``apps.py``)."""

from django.utils.translation import gettext_lazy as _

from core.registry import Assignable, ClassLaunch, GameSpec

from . import assignments
from .adapter import TheoremsTable
from .forms import TableSettingsForm


def _table_settings(chosen: dict, table: list) -> dict:
    """A class table is exactly as big as its students (at least two): the
    adapter fills seats up to ``table_size`` with robots."""
    return {**chosen, "table_size": max(2, len(table))}


SPEC = GameSpec(
    slug="theorems",
    name=_("Mathematicians"),
    tagline=_("A card game: famous mathematicians gather ideas and prove theorems."),
    players=_("2–4 players"),
    colour="#1e8a6a",
    index_url="theorems:index",
    urls=("games.theorems.urls",),
    rooms={"table": TheoremsTable(), assignments.MODE: assignments.TheoremsHomework()},
    mode_names={"table": _("table"), assignments.MODE: _("homework")},
    class_launch=ClassLaunch(
        mode="table",
        kind="tables",
        settings_form=TableSettingsForm,
        table_settings=_table_settings,
    ),
    assignable=Assignable(
        clean_settings=assignments.clean_settings,
        setting_fields=assignments.setting_fields,
        play_url=assignments.play_url,
        room_mode=assignments.MODE,
        full_marks=assignments.full_marks,
    ),
    order=40,
)
