"""Writes for Matematici: saving and deleting decks, checking table settings.

One transaction per intent. The rules engine's ``validate_deck`` decides what a
valid deck is; a refused intent raises ``TheoremsError`` and changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import PlayerProfile

from .adapter import TheoremsTable
from .errors import TheoremsError, refusal
from .models import SavedDeck
from .rules import IllegalMove, validate_deck

MAX_DECKS_PER_PLAYER = 50
MAX_NAME_LENGTH = 60


def clean_deck(*, name: object, mathematician: object, cards: object) -> tuple[str, str, list]:
    """The deck's name, mathematician and cards if the rules accept them."""
    if not isinstance(name, str) or not name.strip():
        raise TheoremsError("bad_deck_name", _("Give the deck a name."))
    name = " ".join(name.split())
    if len(name) > MAX_NAME_LENGTH:
        raise TheoremsError("bad_deck_name", _("A deck name has at most 60 characters."))
    try:
        validate_deck(mathematician, cards)
    except IllegalMove as error:
        raise refusal(error) from error
    assert isinstance(cards, list | tuple)  # validate_deck refused anything else
    return name, str(mathematician), list(cards)


@transaction.atomic
def save_deck(
    *,
    player: PlayerProfile,
    name: object,
    mathematician: object,
    cards: object,
    deck_id: int | None = None,
) -> SavedDeck:
    """Create a deck, or replace one of the player's own decks."""
    name, mathematician, cards = clean_deck(name=name, mathematician=mathematician, cards=cards)
    now = timezone.now()
    if deck_id is None:
        PlayerProfile.objects.select_for_update().filter(pk=player.pk).first()
        if SavedDeck.objects.filter(player=player).count() >= MAX_DECKS_PER_PLAYER:
            raise TheoremsError(
                "too_many_decks", _("You can keep at most 50 decks. Delete one first.")
            )
        created: SavedDeck = SavedDeck.objects.create(
            player=player,
            name=name,
            mathematician=mathematician,
            cards=cards,
            created_at=now,
            updated_at=now,
        )
        return created
    deck: SavedDeck | None = (
        SavedDeck.objects.select_for_update().filter(pk=deck_id, player=player).first()
    )
    if deck is None:
        raise TheoremsError("unknown_deck", _("This deck does not exist."))
    deck.name, deck.mathematician, deck.cards, deck.updated_at = name, mathematician, cards, now
    deck.save(update_fields=["name", "mathematician", "cards", "updated_at"])
    return deck


@transaction.atomic
def delete_deck(*, player: PlayerProfile, deck_id: int) -> None:
    deleted, _rows = SavedDeck.objects.filter(pk=deck_id, player=player).delete()
    if not deleted:
        raise TheoremsError("unknown_deck", _("This deck does not exist."))


def check_table(*, table_size: object, burn: object = True) -> None:
    """Refuse bad table settings before anything is created (the table's RoomError)."""
    TheoremsTable().clean_settings({"table_size": table_size, "burn": burn})
