"""Abaku as the platform sees it (registered in ``apps.py``)."""

from django.utils.translation import gettext_lazy as _

from core.registry import Assignable, ClassLaunch, GameSpec, ProfileStats

from . import assignments, stats
from .adapter import AbakuSolo, AbakuTable
from .forms import TableSettingsForm

SPEC = GameSpec(
    slug="abaku",
    name=_("Abaku"),
    tagline=_("Like Scrabble, with digits: lay stones that form correct arithmetic examples."),
    players=_("1–4 players or against the robot"),
    colour="#d98a00",
    index_url="abaku:index",
    urls=("games.abaku.urls",),
    rooms={"table": AbakuTable(), "solo": AbakuSolo()},
    mode_names={"table": _("table"), "solo": _("solo game")},
    class_launch=ClassLaunch(mode="table", kind="tables", settings_form=TableSettingsForm),
    profile_stats=ProfileStats(compute=stats.profile_stats, template="abaku/_profile_stats.html"),
    assignable=Assignable(
        clean_settings=assignments.clean_settings,
        setting_fields=assignments.setting_fields,
        play_url=assignments.play_url,
        review_response=assignments.review_response,
        room_mode=assignments.MODE,
        full_marks=assignments.full_marks,
    ),
    order=30,
)
