"""Reads for poker: a game as its player may see it, and the player's records."""

import uuid
from typing import Any

from django.db.models import Count, FloatField, Max, Min, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from accounts.models import PlayerProfile
from games.models import Game, GameResult

from .errors import PokerError
from .models import SoloGame
from .rules import PokerGame


def solo_game(*, game_id: object, player: PlayerProfile | None) -> SoloGame:
    """The player's own game, or ``not_found`` (another player's game looks absent)."""
    from django.utils.translation import gettext as _

    not_found = PokerError("not_found", _("This game does not exist or is not yours."), 404)
    if player is None:
        raise not_found
    try:
        return SoloGame.objects.get(pk=uuid.UUID(str(game_id)), player=player)
    except (SoloGame.DoesNotExist, ValueError):
        raise not_found from None


def solo_game_view(game: SoloGame, *, now: float) -> dict[str, Any]:
    """What the browser may see, with time applied up to ``now`` (read-only: the
    forfeits it shows are stored by the next action)."""
    engine = PokerGame.from_dict(game.state)
    engine.advance(now)
    return {"id": str(game.pk), "recorded": True, **engine.player_view()}


def player_stats(*, player: PlayerProfile) -> dict[str, Any]:
    """Spec §5: best score (any board), records per difficulty, completed games
    and the fastest completed game. Incomplete hard boards count for the best
    score only."""
    results = GameResult.objects.filter(player=player, record__game=Game.POKER)
    totals = results.aggregate(
        best=Max("score"),
        best_easy=Max("score", filter=Q(record__mode="easy")),
        best_hard=Max("score", filter=Q(record__mode="hard")),
        completed_games=Count("pk", filter=Q(completed=True)),
        fastest=Min(
            Cast(KT("details__duration"), FloatField()),
            filter=Q(completed=True, record__mode__in=["easy", "hard"]),
        ),
    )
    return totals
