"""Nickname rules and a friendly nickname generator.

A nickname is public (leaderboards, projector view), so it is checked for
length, characters, a small cs/sk/en word filter and uniqueness among active
profiles (case-insensitive). Every rejection has a stable code and a message.
"""

import json
import random
import re
import unicodedata
from functools import cache
from pathlib import Path

from django.utils.translation import gettext as _

from accounts.errors import AccountsError

MIN_LENGTH = 2
MAX_LENGTH = 24
DATA_FILE = Path(__file__).parent / "data" / "nicknames.json"


class NicknameError(AccountsError):
    pass


@cache
def _data() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


def normalise(raw: str) -> str:
    """Trim and collapse inner whitespace; NFC so 'á' is one character."""
    return " ".join(unicodedata.normalize("NFC", raw or "").split())


def _fold(text: str) -> str:
    """Lower-case without diacritics and with common digit-for-letter swaps."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return plain.translate(str.maketrans("013457@$", "oieastas"))


def contains_blocked_word(nickname: str) -> bool:
    folded = _fold(nickname)
    squashed = re.sub(r"[^a-z]", "", folded)
    words = set(re.split(r"[^a-z]+", folded))
    for word in _data()["blocked"]:
        if word in words:
            return True
        # Glued spellings ("xfuckx"): substrings for longer words, prefixes for
        # four-letter ones; shorter words only as whole words (Scunthorpe problem).
        if (len(word) >= 5 and word in squashed) or (len(word) == 4 and squashed.startswith(word)):
            return True
    return False


def check_characters(nickname: str) -> None:
    if len(nickname) < MIN_LENGTH:
        raise NicknameError("too_short", _("A nickname needs at least 2 characters."))
    if len(nickname) > MAX_LENGTH:
        raise NicknameError("too_long", _("A nickname can have at most 24 characters."))
    if not all(ch.isalnum() or ch in " -_." for ch in nickname):
        raise NicknameError(
            "bad_characters",
            _("Use only letters, digits, spaces and the characters - _ ."),
        )
    if not any(ch.isalnum() for ch in nickname):
        raise NicknameError("no_letters", _("A nickname needs at least one letter or digit."))
    if contains_blocked_word(nickname):
        raise NicknameError("not_allowed", _("Please choose a different nickname."))


def generate(rng: random.Random | None = None, language: str = "en") -> str:
    """A friendly 'Adjective Animal 12' nickname in the given language."""
    rng = rng or random.SystemRandom()
    words = _data()["generator"].get(language) or _data()["generator"]["en"]
    adjective, animal = rng.choice(words["pairs"])
    return f"{adjective} {animal} {rng.randint(1, 99)}"
