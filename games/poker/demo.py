"""Poker's demo data for ``make run``'s demo class (declared in ``game.py``)."""

import random
from datetime import timedelta
from typing import Any

from django.utils import timezone

from games import services as results_service


def played_group_games(classroom: Any, rng: random.Random) -> None:
    """Three finished poker group games of the class, 14, 7 and 1 days ago."""
    players = [member.player for member in classroom.members.all()]
    for days_ago in (14, 7, 1):
        started = timezone.now() - timedelta(days=days_ago, hours=1)
        scores = sorted(((rng.randint(20, 90), p) for p in players), key=lambda x: -x[0])
        results_service.record_game(
            game="poker",
            mode="group",
            classroom=classroom,
            started_at=started,
            finished_at=started + timedelta(minutes=25),
            results=[
                results_service.Result(
                    player_id=player.pk,
                    score=score,
                    rank=rank,
                    details={"board": [rng.randint(1, 13) for _ in range(25)]},
                )
                for rank, (score, player) in enumerate(scores, start=1)
            ],
        )
