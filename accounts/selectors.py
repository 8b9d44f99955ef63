"""Reads about a player: consent state, stats, and the full export of their data."""

from datetime import date
from typing import Any

from accounts import privacy
from accounts.models import PlayerProfile, PublicationConsent
from core import registry as game_registry


def account_player(user: Any) -> PlayerProfile | None:
    """A logged-in teacher's own player profile (it hosts their class games).

    It comes from the session, never from the browser's identity cookie: it is
    not listed among the browser's profiles, and logging out ends it."""
    if user is None or not user.is_authenticated or not user.player_id:
        return None
    player = user.player
    return player if player.is_active else None


def current_consent(player: PlayerProfile) -> PublicationConsent | None:
    return player.consents.order_by("-created_at", "-pk").first()


def has_publication_consent(player: PlayerProfile | None) -> bool:
    if player is None:
        return False
    answer = current_consent(player)
    return bool(answer and answer.granted)


def player_stats(player: PlayerProfile, *, today: date | None = None) -> dict:
    """Stats per game -- the one source of them. ``games`` holds what every game
    has (count, best, average, completed); each registered game adds its own
    part under its slug (``GameSpec.profile_stats``; a game's hub reads
    ``stats[slug]``). The shared results answer through their privacy hook
    (``games.privacy.player_stats``)."""
    stats: dict = {"games": {}}
    for hooks in privacy.registered():
        if hooks.player_stats is not None:
            stats.update(hooks.player_stats(player, today))
    return stats


def profile_stats_sections(stats: dict) -> list[tuple[str, str, dict]]:
    """(game name, template, that game's stats) for the profile page, in catalogue order."""
    return [
        (str(spec.name), spec.profile_stats.template, stats[spec.slug])
        for spec in game_registry.games()
        if spec.profile_stats is not None and spec.slug in stats
    ]


# The export lives in accounts/export.py (generated from the models); these
# names stay for callers that import them from here.
def export_profile(player: PlayerProfile) -> dict:
    from accounts import export

    return export.export_profile(player)


def export_profile_csv(player: PlayerProfile) -> str:
    from accounts import export

    return export.export_profile_csv(player)
