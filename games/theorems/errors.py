"""Refusals of the Matematici product, with messages in the player's language.

The rules engine raises ``IllegalMove`` with a stable code and an English
message; here every code gets a translated message, so the deck builder and the
table speak the page's language while programs keep branching on the code.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from core.errors import DomainError

from .rules import IllegalMove

MESSAGES = {
    # decks
    "malformed_deck": _("A deck is a list of card ids."),
    "not_a_mathematician": _("Choose a mathematician for the deck."),
    "unknown_card": _("The deck contains a card that does not exist."),
    "mathematician_in_deck": _("A mathematician is not part of the deck."),
    "duplicate_card": _("No card may be in a deck more than once."),
    "deck_too_small": _("A deck needs at least 10 cards."),
    "deck_too_large": _("A deck may have at most 20 cards."),
    "invalid_players": _("A game needs 2 to 4 players."),
    "malformed_seed": _("This game cannot be dealt."),
    # moves
    "malformed_action": _("This is not a move of this game."),
    "unknown_action": _("This is not a move of this game."),
    "game_over": _("The game is over."),
    "not_your_turn": _("It is not your turn."),
    "decision_pending": _("First finish the choice the game is waiting for."),
    "no_decision": _("There is nothing to choose now."),
    "invalid_choice": _("This is not one of the options."),
    "no_actions_left": _("You have no actions left this turn."),
    "card_not_in_hand": _("This card is not in your hand."),
    "definition_phase_over": _(
        "A free definition can only be laid before the first action of the turn."
    ),
    "not_a_definition": _("Only a definition can be laid for free."),
    "already_in_play": _("This card is already on your table."),
    "hand_limit": _("Your hand is full: you cannot draw with the Draw action."),
    "nothing_to_draw": _("Both your piles are empty."),
    "nothing_to_repeat": _("Recursion needs another event you played this turn."),
    "theorem_not_in_play": _("This theorem is not on your table."),
    "not_provable": _("The Prove action cannot target this theorem."),
    "already_proved_this_turn": _("You already proved this theorem this turn."),
    "tool_not_in_play": _("This tool is not on your table."),
    "tool_already_used": _("Each tool can be used once per turn."),
    "cost_not_payable": _("You cannot pay the cost of this tool now."),
}


class TheoremsError(DomainError):
    """A refused intent of the Matematici product (``code``, ``message``)."""


def refusal(error: IllegalMove) -> TheoremsError:
    """The engine's refusal with its message in the active language."""
    message = MESSAGES.get(error.code)
    return TheoremsError(error.code, str(message) if message else error.message)
