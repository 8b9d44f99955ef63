"""The coach for a solo game: the hint for the card in hand, the stored review."""

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import PlayerProfile

from .. import coach_advice, coach_review
from ..assignments import hints_allowed
from ..errors import RULE_MESSAGES, PokerError
from ..models import SoloGame
from ..rules import PokerGame
from .solo import locked_game


def hint_for_game(*, game_id: object, player: PlayerProfile | None) -> dict[str, Any]:
    """The coach's hint for the card in hand of an easy solo game, counted on the game.

    Only easy games may ask: ranked, daily (and, elsewhere, group and duel)
    games are refused with ``hint_not_allowed`` whatever the browser shows.
    """
    with transaction.atomic():
        game = locked_game(game_id=game_id, player=player)
        if game.mode != SoloGame.Mode.EASY and not _homework_hints(game):
            raise PokerError(
                "hint_not_allowed", _("Hints are only for easy games and the scoresheet."), 403
            )
        engine = PokerGame.from_dict(game.state)
        if engine.over:
            raise PokerError("game_over", str(RULE_MESSAGES["game_over"]), 409)
        advice = coach_advice.hint(
            engine.cells,
            engine.hand,
            table=engine.table,
            seen=engine.sequence[: engine.handled],
            kept=engine.kept_jokers,
        )
        if advice["action"] != "draw":
            game.hints += 1
            game.save(update_fields=["hints"])
    return advice


def _homework_hints(game: SoloGame) -> bool:
    """Homework allows hints only in the teacher's practice mode."""
    return game.mode == SoloGame.Mode.HOMEWORK and hints_allowed(game)


def ensure_review(*, game: SoloGame) -> dict[str, Any]:
    """The finished game's review: computed once (the first time it is asked
    for) and stored on the game row; two requests at once may both compute it,
    the result is the same (the coach is deterministic)."""
    stored: dict[str, Any] | None = game.review
    if stored is not None and stored.get("version") == coach_review.REVIEW_VERSION:
        return stored
    review = coach_review.build_review(moves=game.moves, state=game.state, table=game.table)
    SoloGame.objects.filter(pk=game.pk).update(review=review)
    game.review = review
    return review
