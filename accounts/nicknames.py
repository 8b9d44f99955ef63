"""Nickname rules and a friendly nickname generator.

A nickname is public (leaderboards, projector view), so it is checked for
length, characters, a small cs/sk/en word filter and uniqueness among active
profiles. Every rejection has a stable code and a message.

Uniqueness and the word filter work on a *skeleton* (Unicode TR39 style): NFKC,
then every character is replaced by the representative of its class of
confusable characters (Unicode's confusables data as shipped by the maintained
``confusable_homoglyphs`` package), case-folded, without diacritics and with the
separators ``-_.`` read as a space. So ``Dеmo Tеаcher`` with Cyrillic letters,
``Dem0 Teacher`` and ``Demo_Teacher`` all have the skeleton of ``Demo Teacher``,
and ``Kurvа`` with a Cyrillic ``а`` meets the filter like ``Kurva``. A nickname
that mixes Latin with another script's letters is refused as well.

Letters can also be faked by *several* characters (TR39's multi-character
prototypes): ``rn`` reads as ``m``, ``cl`` as ``d``, ``vv`` as ``w``. The
skeleton contracts those sequences, so ``Derno Teacher`` meets ``Demo
Teacher`` (issue 27 §5). The word filter additionally reads ``i`` and ``l`` as one
letter (``Hltler``): a capital ``I`` is an ``l`` to the skeleton, so a lower-case
``i`` and an ``l`` are one letter to a reader of a case-insensitive name.

A pupil's nickname must not pass for a teacher (issue 38 §4): besides equal
skeletons, a new or renamed profile is refused when, without spaces and
separators, it equals a teacher's name or own nickname (``DemoTeacher``), or
differs from one of 6 letters or more by one letter or two swapped neighbours
(``Demo Teacner``) -- names of other lengths (``Jan Novák 7``) stay free.
The word filter's list is in ``data/nicknames.json``.
"""

import json
import random
import re
import unicodedata
from collections.abc import Iterable
from functools import cache, lru_cache
from pathlib import Path

from confusable_homoglyphs import confusables as unicode_confusables
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


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> one representative of its class.

    The package lists, for each character, the characters it can be mistaken
    for (Unicode's confusables.txt). Classes are the connected groups of that
    relation; the representative prefers an ASCII lower-case letter, then an
    ASCII digit, so skeletons of ordinary Latin names stay readable."""
    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        while parent.setdefault(ch, ch) != ch:
            parent[ch] = parent[parent[ch]]
            ch = parent[ch]
        return ch

    for char, entries in unicode_confusables.confusables_data.items():
        if len(char) != 1:
            continue
        for entry in entries:
            other = entry["c"].replace("\u200e", "")
            if len(other) == 1:
                parent[find(other)] = find(char)
    groups: dict[str, list[str]] = {}
    for char in list(parent):
        groups.setdefault(find(char), []).append(char)

    def rank(ch: str) -> tuple:
        return (not ("a" <= ch <= "z"), not ch.isascii() or not ch.isdigit(), not ch.isascii(), ch)

    table: dict[str, str] = {}
    for members in groups.values():
        representative = min(members, key=rank)
        for member in members:
            if member != representative:
                table[member] = representative
    return table


# Sequences of ASCII letters that read as one letter, beyond Unicode's data
# (whose only ASCII one is ``rn`` for ``m``, added from the data below).
EXTRA_MULTI_CHARACTER_PROTOTYPES = {"cl": "d", "vv": "w"}


@cache
def _multi_character_prototypes() -> tuple[re.Pattern[str], dict[str, str]]:
    """A pattern of the look-alike sequences (longest first) and the letter each reads as."""
    table = dict(EXTRA_MULTI_CHARACTER_PROTOTYPES)
    for char, entries in unicode_confusables.confusables_data.items():
        if len(char) == 1 and "a" <= char <= "z":
            for entry in entries:
                sequence = entry["c"].replace("\u200e", "")
                if len(sequence) > 1 and re.fullmatch(r"[a-z]+", sequence):
                    table[sequence] = char
    ordered = sorted(table, key=lambda sequence: (-len(sequence), sequence))
    return re.compile("|".join(map(re.escape, ordered))), table


def _contract_sequences(text: str) -> str:
    pattern, table = _multi_character_prototypes()
    return pattern.sub(lambda match: table[match.group(0)], text)


def skeleton(nickname: str) -> str:
    """What the nickname looks like: equal skeletons are refused as duplicates."""
    table = _prototypes()
    text = unicodedata.normalize("NFKC", nickname or "")
    text = "".join(table.get(ch, ch) for ch in text).casefold()
    text = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    # Unicode keeps O and 0 apart (only their capitals are listed together).
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).replace("0", "o")
    return " ".join(_contract_sequences(re.sub(r"[-_.\s]+", " ", text)).split())


def _scripts(nickname: str) -> set[str]:
    """The scripts of the nickname's letters (digits and separators belong to none).

    Compatibility forms count as the letters they stand for (NFKC first): ``ª`` is
    an ``a`` and a full-width ``Ａ`` an ``A``, so neither makes a Latin name "mixed".
    """
    scripts = set()
    for ch in unicodedata.normalize("NFKC", nickname):
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            scripts.add(name.split(" ")[0] if name else "UNKNOWN")
    return scripts


def contains_blocked_word(nickname: str) -> bool:
    folded = _fold(skeleton(nickname))
    blocked = _data()["blocked"]
    return _contains_blocked_word_in(folded, blocked) or _contains_blocked_word_in(
        folded.replace("i", "l"), [word.replace("i", "l") for word in blocked]
    )


def _contains_blocked_word_in(folded: str, blocked: list[str]) -> bool:
    squashed = re.sub(r"[^a-z]", "", folded)
    words = set(re.split(r"[^a-z]+", folded))
    for word in blocked:
        if word in words:
            return True
        # Glued spellings ("xfuckx"): substrings for longer words, prefixes for
        # four-letter ones; shorter words only as whole words (Scunthorpe problem).
        if (len(word) >= 5 and word in squashed) or (len(word) == 4 and squashed.startswith(word)):
            return True
    return False


@lru_cache(maxsize=100_000)
def _loose(text: str) -> str:
    """The skeleton without spaces and separators (``DemoTeacher`` = ``Demo Teacher``)."""
    return re.sub(r"[^0-9a-z]", "", _fold(skeleton(text)))


def looks_like(nickname: str, name: str) -> bool:
    """Whether ``nickname`` can pass for ``name``: the same loose skeleton, or for
    6 letters or more the same length and one letter changed or two neighbours
    swapped."""
    a, b = _loose(nickname), _loose(name)
    if not a or not b:
        return False
    if a == b:
        return True
    if len(a) != len(b) or len(a) < 6:
        return False
    diffs = [i for i in range(len(a)) if a[i] != b[i]]
    if len(diffs) == 1:
        return True
    return (
        len(diffs) == 2
        and diffs[1] == diffs[0] + 1
        and (a[diffs[0]], a[diffs[1]]) == (b[diffs[1]], b[diffs[0]])
    )


def look_alike_keys(*values: str | None) -> list[str]:
    """Index keys of ``values`` (a teacher's name and own nickname): two strings
    share a key exactly when ``looks_like`` holds between them. The loose
    skeleton itself; from 6 letters on also each position wildcarded (one letter
    changed) and each pair of neighbours as a sorted pair (two swapped), written
    with characters a loose skeleton never has so the kinds cannot meet. The
    accounts store them in an indexed array (``User.name_keys``), so the check
    reads the few teachers sharing a key, not every teacher."""
    keys: set[str] = set()
    for value in values:
        loose = _loose(value) if value else ""
        if not loose:
            continue
        keys.add(loose)
        if len(loose) >= 6:
            for i in range(len(loose)):
                keys.add(f"{loose[:i]}*{loose[i + 1 :]}")
            for i in range(len(loose) - 1):
                pair = "".join(sorted(loose[i : i + 2]))
                keys.add(f"{loose[:i]}[{pair}]{loose[i + 2 :]}")
    return sorted(keys)


def check_not_like_a_teacher(nickname: str, teacher_names: Iterable[str | None]) -> None:
    """Refuse a pupil's nickname that can pass for one of ``teacher_names`` (the
    teachers' names and own nicknames, read by ``accounts.services``)."""
    if any(value and looks_like(nickname, value) for value in teacher_names):
        raise NicknameError(
            "like_a_teacher",
            _("This nickname looks like a teacher's name. Please choose another one."),
        )


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
    if len(_scripts(nickname)) > 1:
        raise NicknameError(
            "mixed_scripts", _("Write the nickname in one alphabet, without mixing letters.")
        )
    if contains_blocked_word(nickname):
        raise NicknameError("not_allowed", _("Please choose a different nickname."))


def generate(rng: random.Random | None = None, language: str = "en") -> str:
    """A friendly 'Adjective Animal 12' nickname in the given language."""
    rng = rng or random.SystemRandom()
    words = _data()["generator"].get(language) or _data()["generator"]["en"]
    adjective, animal = rng.choice(words["pairs"])
    return f"{adjective} {animal} {rng.randint(1, 99)}"
