"""Abaku's part of a player's profile statistics (``GameSpec.profile_stats``).

Per robot level (the rules' ``LEVELS``, easiest first): games against it, wins
on one's own and wins with hints. Only a win without hints counts as beating
the level (``beaten``): hints show the best move, so a game won with them says
what the hint found, not what the player can (issue 31).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from .presentation import robot_levels
from .rules import current_level


def profile_stats(results: QuerySet, **_kwargs: Any) -> dict:
    rows = results.filter(completed=True, details__robots__gt=0).values_list("details", flat=True)
    per_level: dict[str | None, dict[str, int]] = {}
    for details in rows:
        if not isinstance(details, dict) or details.get("players", 0) - details["robots"] != 1:
            continue  # only games of one person against robots
        level = current_level(details.get("robot_level"))
        entry = per_level.setdefault(level, {"games": 0, "wins": 0, "assisted_wins": 0})
        entry["games"] += 1
        if details.get("outcome") == "win":
            key = "assisted_wins" if details.get("hints") else "wins"
            entry[key] += 1
    levels = []
    for level, name in robot_levels():
        entry = per_level.get(level, {"games": 0, "wins": 0, "assisted_wins": 0})
        levels.append({"id": level, "name": name, **entry, "beaten": entry["wins"] > 0})
    return {
        "levels": levels,
        "highest_beaten": next((lv["name"] for lv in reversed(levels) if lv["beaten"]), None),
    }


def beaten_levels(player: Any) -> set[str]:
    """The robot levels ``player`` (a profile, or ``None``) has beaten on their own."""
    if player is None or not getattr(player, "pk", None):
        return set()
    from games.models import GameResult

    results = GameResult.objects.filter(player=player, record__game="abaku")
    return {level["id"] for level in profile_stats(results)["levels"] if level["beaten"]}
