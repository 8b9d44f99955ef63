"""Abandoned solo games: time decides what ended; what did not is deleted."""

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from ..models import SoloGame
from ..rules import PokerGame
from .clock import moment
from .solo import save

#: An unfinished game untouched this long is abandoned (``cleanup_abandoned_games``).
ABANDONED_AFTER = timedelta(hours=24)
CLEANUP_BATCH = 500


def _ids_in_batches(queryset: QuerySet[SoloGame]) -> Iterator[Any]:
    """Primary keys in ascending batches of ``CLEANUP_BATCH``, each one short query.

    Not ``.iterator()``: outside a transaction that keeps a server-side cursor
    open across statements, which PgBouncer in transaction mode may run on
    different server connections (``portal "_django_curs_..." does not exist``).
    """
    last: Any = 0
    while True:
        batch = list(
            queryset.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True)[:CLEANUP_BATCH]
        )
        yield from batch
        if len(batch) < CLEANUP_BATCH:
            return
        last = batch[-1]


def cleanup_abandoned_games(*, now: float) -> dict[str, int]:
    """Unfinished solo games untouched for ``ABANDONED_AFTER``: time is applied
    first (a hard game whose numbers all ran out ends and is recorded like any
    other); what is still unfinished then is deleted. A daily attempt stays
    used (its row keeps the day, the game goes)."""
    cutoff = moment(now) - ABANDONED_AFTER
    ended = deleted = 0
    stale = SoloGame.objects.filter(finished_at__isnull=True, updated_at__lt=cutoff)
    for game_id in _ids_in_batches(stale):
        with transaction.atomic():
            game = (
                SoloGame.objects.select_for_update(skip_locked=True)
                .filter(pk=game_id, finished_at__isnull=True, updated_at__lt=cutoff)
                .first()
            )
            if game is None:
                continue
            engine = PokerGame.from_dict(game.state)
            if engine.advance(now) and engine.over:
                save(game=game, engine=engine, now=now)
                ended += 1
            else:
                game.delete()
                deleted += 1
    return {"ended": ended, "deleted": deleted}
