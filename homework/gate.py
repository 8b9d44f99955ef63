"""The homework app's side of ``core.registry.AssignmentGate``: what a game
asks when a pupil starts an assignment game, and tells when it ends."""

from typing import Any

from django.utils import timezone

from core import registry

from . import services
from .models import Attempt


class HomeworkGate(registry.AssignmentGate):
    def begin(self, *, game: str, assignment_id: object, player: Any) -> registry.AssignmentTicket:
        return services.begin_attempt(
            game=game, assignment_id=assignment_id, player=player, now=timezone.now()
        )

    def attach(self, *, attempt_id: int, ref: str) -> None:
        services.attach_game(attempt_id=attempt_id, ref=ref)

    def finished(self, *, game: str, ref: str, result: Any) -> None:
        services.finish_attempt(game=game, ref=ref, result=result)

    def _attempt(self, game: str, ref: str) -> Attempt | None:
        return services.unique_or_none(
            Attempt.objects.select_related("assignment").filter(ref=ref, assignment__game=game)
        )

    def pupil_may_review(self, *, game: str, ref: str) -> bool:
        """The player's own review: when the teacher allows it, after the deadline
        and no more play (before, the review would show classmates the shared deck)."""
        attempt = self._attempt(game, ref)
        if attempt is None:
            return False
        assignment = attempt.assignment
        over = assignment.closed_at is not None or (
            assignment.due_at <= timezone.now() and not assignment.late
        )
        return bool(assignment.reviews_visible) and over

    def is_assignment(self, *, game: str, ref: str) -> bool:
        found: bool = Attempt.objects.filter(ref=ref, assignment__game=game).exists()
        return found

    def hints_allowed(self, *, game: str, ref: str) -> bool:
        attempt = self._attempt(game, ref)
        return attempt is not None and attempt.assignment.practice
