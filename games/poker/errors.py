"""Refusals of the poker service layer: a stable ``code`` and a human ``message``."""

from django.utils.translation import gettext_lazy as _

from core.errors import DomainError

from .rules import ERROR_CODES

#: Human text for the engine's stable codes (the engine's own text is English only).
RULE_MESSAGES = {
    "game_over": _("The game has ended."),
    "no_card": _("There is no number in your hand yet."),
    "joker_in_hand": _("You hold a joker: give it a value or keep it."),
    "not_joker": _("The card in your hand is a number, not a joker."),
    "no_kept_joker": _("You have no kept joker."),
    "bad_cell": _("Choose one of the 25 cells."),
    "cell_taken": _("That cell is already filled."),
    "bad_value": _("A joker's value must be 1 to 13."),
    "bad_card": _("That card is not in the deck."),
    "sequence_closed": _("No more numbers will come."),
    "own_deck": _("This game deals its own numbers."),
    "unknown_action": _("Unknown action."),
}
assert set(RULE_MESSAGES) == set(ERROR_CODES), "every engine error code needs a message"


class PokerError(DomainError):
    """A refused request; ``status`` is the HTTP status the API answers with and
    ``extra`` further fields of the JSON answer (see ``core.errors``)."""
