"""What every game leaves behind: a record of each played game and each player's result.

All four games and all modes write here when a game ends, so profile stats,
class reports and the staff dashboard read one place. Deleting a player
profile keeps the result row with ``player=NULL`` (anonymised) so class
statistics stay consistent.
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core import registry


class GameRecord(models.Model):
    # A registered game's slug (core/registry.py): validated at run time, so a
    # new game needs no migration of this table.
    game = models.CharField(_("game"), max_length=16, validators=[registry.validate_slug])
    mode = models.CharField(_("mode"), max_length=24)
    classroom = models.ForeignKey(
        "classrooms.Classroom",
        verbose_name=_("class"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="game_records",
    )
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("played game")
        verbose_name_plural = _("played games")
        indexes = [models.Index(fields=["game", "started_at"])]

    def __str__(self) -> str:
        return f"{self.game_name} · {self.mode} · {self.started_at:%Y-%m-%d %H:%M}"

    @property
    def game_name(self) -> str:
        return registry.name(self.game)


class GameResult(models.Model):
    record = models.ForeignKey(
        GameRecord, verbose_name=_("played game"), on_delete=models.CASCADE, related_name="results"
    )
    player = models.ForeignKey(
        "accounts.PlayerProfile",
        verbose_name=_("player"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="results",
    )
    score = models.IntegerField(_("score"))
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    completed = models.BooleanField(_("completed"), default=True)
    details = models.JSONField(_("details"), default=dict, blank=True)
    finished_at = models.DateTimeField(_("finished"), default=timezone.now)

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        indexes = [models.Index(fields=["player", "finished_at"])]

    def __str__(self) -> str:
        return f"{self.player or '—'}: {self.score}"
