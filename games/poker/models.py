"""A solo poker game led by the server (easy or hard).

The whole engine state, including the secret rest of the deck, is one JSON
document (``PokerGame.to_dict``): the rules engine owns its shape, the row only
adds who plays and when. The finished game is written to the shared
``games.GameRecord``/``GameResult`` tables, which profile stats read.
"""

import uuid

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import PlayerProfile
from games.models import GameRecord


class SoloGame(models.Model):
    class Mode(models.TextChoices):
        EASY = "easy", _("easy")
        HARD = "hard", _("hard")

    #: Random and public: the browser addresses its game by it.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(
        PlayerProfile,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="poker_solo_games",
    )
    mode = models.CharField(_("mode"), max_length=8, choices=Mode.choices)
    table = models.CharField(_("scoring table"), max_length=16)
    seconds_per_card = models.PositiveSmallIntegerField(_("seconds per number"), null=True)
    #: ``PokerGame.to_dict()``: holds the undealt deck, never sent to the browser.
    state = models.JSONField(_("state"))
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    record = models.OneToOneField(
        GameRecord,
        verbose_name=_("played game"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="poker_solo_game",
    )

    class Meta:
        verbose_name = _("solo poker game")
        verbose_name_plural = _("solo poker games")
        indexes = [models.Index(fields=["player", "created_at"])]

    def __str__(self) -> str:
        return f"{self.player} · {self.mode} · {self.created_at:%Y-%m-%d %H:%M}"
