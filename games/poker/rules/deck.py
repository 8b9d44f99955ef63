"""The deck, its shuffle and the daily challenge's deck.

Cards are ints: 1..13 are numbers and ``JOKER`` (0) is a joker, so a deck is a
plain JSON list. Randomness always comes from an explicit ``random.Random``.

The shuffle is our own Fisher–Yates over ``Random.getrandbits`` (rejection
sampling), not ``Random.shuffle``: it then depends only on the Mersenne Twister
output for an int seed, which is stable across Python versions and which the
JavaScript twin (``games/poker/static/poker/deck.js``) reproduces, so the browser and the
server deal the same order from the same seed.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence
from datetime import date, datetime
from zoneinfo import ZoneInfo

from .tables import DEFAULT_TABLE, get_table

JOKER = 0
#: The daily challenge changes at midnight in Bratislava (spec §4).
DAILY_TIMEZONE = ZoneInfo("Europe/Bratislava")
DAILY_PREFIX = "poker-daily:"


def build_deck(table: str = DEFAULT_TABLE) -> list[int]:
    """The unshuffled deck for ``table``: values 1..13 four times each, in
    ascending order, then the jokers (54 cards; 52 for ``matematico``)."""
    spec = get_table(table)
    deck = [value for value in range(1, spec.values + 1) for _ in range(spec.copies)]
    return deck + [JOKER] * spec.jokers


def randbelow(rng: random.Random, n: int) -> int:
    """A uniform int in ``0..n-1`` from the fewest bits that can hold ``n-1``
    (rejection sampling; the JS twin's ``PyRandom.below`` is the same)."""
    bits = (n - 1).bit_length()
    while True:
        candidate = rng.getrandbits(bits)
        if candidate < n:
            return candidate


def shuffle(cards: Sequence[int], rng: random.Random) -> list[int]:
    """Return a Fisher–Yates shuffled copy of ``cards`` (the input is untouched)."""
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def seeded_deck(seed: int, table: str = DEFAULT_TABLE) -> list[int]:
    """The full shuffled deck for an int seed (what a stored game needs to replay)."""
    if type(seed) is not int or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    return shuffle(build_deck(table), random.Random(seed))


def daily_seed(day: date | str, secret: bytes | str) -> int:
    """HMAC-SHA256(secret, "poker-daily:" + ISO date) as a big-endian int.

    Without the server secret the order cannot be computed in advance from the
    public code (spec §4, daily challenge).
    """
    if isinstance(day, datetime):
        raise ValueError("pass the challenge's date, not a datetime (see daily_date)")
    iso = date.fromisoformat(day).isoformat() if isinstance(day, str) else day.isoformat()
    key = secret.encode("utf-8") if isinstance(secret, str) else secret
    if not key:
        raise ValueError("the daily secret must not be empty")
    digest = hmac.new(key, (DAILY_PREFIX + iso).encode("ascii"), hashlib.sha256).digest()
    return int.from_bytes(digest, "big")


def daily_deck(day: date | str, secret: bytes | str, table: str = DEFAULT_TABLE) -> list[int]:
    """The deck of the daily challenge for ``day``: the same for every player."""
    return seeded_deck(daily_seed(day, secret), table)


def daily_date(now: datetime) -> date:
    """The challenge day an aware ``now`` belongs to (midnight Europe/Bratislava)."""
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be timezone-aware")
    return now.astimezone(DAILY_TIMEZONE).date()
