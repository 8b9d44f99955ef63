"""Matematický poker as the platform sees it (registered in ``apps.py``)."""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from core.registry import Assignable, ClassLaunch, GameSpec, ProfileStats

from . import assignments, demo, review_page, stats
from .forms import RoomSettingsForm
from .room_games import DuelGame, GroupGame
from .services import leaderboards


def _class_settings_form(
    data: Mapping[str, Any] | None = None, *, prefix: str | None = None
) -> RoomSettingsForm:
    # One group-game card per class page: the fields keep the names of
    # /poker/room/new/group/, so both pages post the same form.
    return RoomSettingsForm(data, mode="group")


SPEC = GameSpec(
    slug="poker",
    name=_("Mathematical poker"),
    tagline=_(
        "Place numbers into a 5×5 grid and build pairs, straights and full houses "
        "in rows, columns and diagonals."
    ),
    players=_("alone, in a duel or the whole class together"),
    colour="#2457c5",
    index_url="poker:index",
    urls=("games.poker.urls", "games.poker.room_urls"),
    rooms={"group": GroupGame(), "duel": DuelGame()},
    mode_names={"group": _("group game"), "duel": _("duel")},
    class_launch=ClassLaunch(
        mode="group",
        kind="group",
        settings_form=_class_settings_form,
        settings_template="poker/room/_settings_fields.html",
        scripts=("poker/room/settings-form.js",),
    ),
    profile_stats=ProfileStats(compute=stats.profile_stats, template="poker/_profile_stats.html"),
    staff_models=(("poker", "leaderboardentry"),),
    withdraw_public_data=leaderboards.withdraw_players,
    assignable=Assignable(
        clean_settings=assignments.clean_settings,
        setting_fields=assignments.setting_fields,
        review_response=review_page.review_response,
        play_url=assignments.play_url,
        pupil_review_url=assignments.pupil_review_url,
        full_marks=assignments.full_marks,
    ),
    demo=demo.played_group_games,
    order=10,
)
