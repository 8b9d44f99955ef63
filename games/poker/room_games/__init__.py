"""Poker in rooms: the group game (host draws, up to 50 boards) and the duel 1v1.

Adapters for the rooms runtime (``games.rooms.registry``); thin translators to
the pure rules engine in ``games.poker.rules``. See docs/poker-group.md.
"""

from .duel import DuelGame
from .group import GroupGame

__all__ = ["DuelGame", "GroupGame"]
