"""Saved decks of Matematici: a player's own deck, reusable at every table.

A deck is data (a mathematician and 10–20 card ids); the rules engine's
``validate_deck`` is the only judge of what is valid, called by the service that
saves it, so an invalid deck never reaches the table.
"""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import PlayerProfile


class SavedDeck(models.Model):
    player = models.ForeignKey(
        PlayerProfile,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="theorem_decks",
    )
    name = models.CharField(_("name"), max_length=60)
    mathematician = models.CharField(_("mathematician"), max_length=40)
    #: Card ids in the order the player added them (the order does not matter in play).
    cards = models.JSONField(_("cards"), default=list)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)

    class Meta:
        verbose_name = _("saved deck")
        verbose_name_plural = _("saved decks")
        ordering = ["-updated_at", "-pk"]
        indexes = [models.Index(fields=["player", "updated_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.player})"
