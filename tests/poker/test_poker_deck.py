"""Deck, seeded shuffle and the daily challenge's deck."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from datetime import UTC, date, datetime

import pytest

from games.poker.rules import (
    JOKER,
    build_deck,
    daily_date,
    daily_deck,
    daily_seed,
    seeded_deck,
    shuffle,
)


def test_deck_has_54_cards_four_of_each_value_and_two_jokers():
    deck = build_deck("contiguous")
    assert len(deck) == 54
    counts = Counter(deck)
    assert counts[JOKER] == 2
    assert all(counts[value] == 4 for value in range(1, 14))
    assert build_deck("school") == deck


def test_matematico_is_played_with_52_cards_and_no_joker():
    deck = build_deck("matematico")
    assert len(deck) == 52
    assert JOKER not in deck


def test_shuffle_is_a_permutation_and_leaves_the_input_alone():
    deck = build_deck()
    shuffled = shuffle(deck, random.Random(3))
    assert deck == build_deck()
    assert sorted(shuffled) == sorted(deck)
    assert shuffled != deck


def test_shuffle_depends_only_on_the_seed():
    assert shuffle(build_deck(), random.Random(11)) == shuffle(build_deck(), random.Random(11))
    assert shuffle(build_deck(), random.Random(11)) != shuffle(build_deck(), random.Random(12))
    assert seeded_deck(11) == shuffle(build_deck(), random.Random(11))


def test_shuffle_reaches_every_order_of_a_small_deck():
    rng = random.Random(5)
    orders = Counter(tuple(shuffle([1, 2, 3], rng)) for _ in range(6000))
    assert len(orders) == 6
    assert min(orders.values()) > 800  # about 1000 each


def test_seeded_deck_rejects_a_negative_seed():
    with pytest.raises(ValueError, match="seed"):
        seeded_deck(-1)


def test_daily_seed_is_the_hmac_of_the_iso_date():
    expected = hmac.new(b"s3cret", b"poker-daily:2026-11-29", hashlib.sha256).digest()
    assert daily_seed(date(2026, 11, 29), "s3cret") == int.from_bytes(expected, "big")
    assert daily_seed("2026-11-29", b"s3cret") == daily_seed(date(2026, 11, 29), "s3cret")


def test_daily_deck_is_the_same_for_everyone_on_a_day_and_changes_daily():
    today = daily_deck(date(2026, 11, 29), "s3cret")
    assert today == daily_deck("2026-11-29", "s3cret")
    assert today != daily_deck(date(2026, 11, 30), "s3cret")
    assert today != daily_deck(date(2026, 11, 29), "other secret")
    assert sorted(today) == sorted(build_deck())
    assert len(daily_deck(date(2026, 11, 29), "s3cret", "matematico")) == 52


def test_daily_deck_refuses_an_empty_secret_and_a_datetime():
    with pytest.raises(ValueError, match="secret"):
        daily_deck(date(2026, 11, 29), "")
    with pytest.raises(ValueError, match="date"):
        daily_deck(datetime(2026, 11, 29, tzinfo=UTC), "s3cret")  # type: ignore[arg-type]


def test_the_challenge_day_turns_at_midnight_in_bratislava():
    # 23:30 UTC in winter is 00:30 the next day in Bratislava (UTC+1).
    assert daily_date(datetime(2026, 11, 29, 23, 30, tzinfo=UTC)) == date(2026, 11, 30)
    assert daily_date(datetime(2026, 11, 29, 22, 59, tzinfo=UTC)) == date(2026, 11, 29)
    # Summer time: UTC+2.
    assert daily_date(datetime(2026, 7, 1, 22, 0, tzinfo=UTC)) == date(2026, 7, 2)
    with pytest.raises(ValueError, match="aware"):
        daily_date(datetime(2026, 11, 29, 12, 0))
