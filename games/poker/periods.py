"""Leaderboard periods in Europe/Bratislava time: today, this week, this month, all time.

A period is named by a short key (``day:2026-11-29``, ``week:2026-11-23`` for
the week starting that Monday, ``month:2026-11``, ``all``) so a result belongs
to exactly four keys and a board is one equality lookup. Pure: time comes in.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from .rules import DAILY_TIMEZONE

PERIODS = ("day", "week", "month", "all")
ALL_TIME = "all"


def local_date(moment: datetime) -> date:
    """The Bratislava calendar day of an aware moment."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("moment must be timezone-aware")
    return moment.astimezone(DAILY_TIMEZONE).date()


def period_key(period: str, moment: datetime) -> str:
    """The key of ``period`` that contains ``moment``."""
    day = local_date(moment)
    if period == "day":
        return f"day:{day.isoformat()}"
    if period == "week":
        return f"week:{(day - timedelta(days=day.weekday())).isoformat()}"
    if period == "month":
        return f"month:{day.year:04d}-{day.month:02d}"
    if period == ALL_TIME:
        return ALL_TIME
    raise ValueError(f"unknown period {period!r}")


def period_keys(moment: datetime) -> dict[str, str]:
    """All four keys a result finished at ``moment`` competes in."""
    return {period: period_key(period, moment) for period in PERIODS}


def period_bounds(key: str) -> tuple[datetime | None, datetime | None]:
    """The [start, end) of a key as aware moments (None for all time)."""
    if key == ALL_TIME:
        return None, None
    kind, _, value = key.partition(":")
    if kind == "day":
        start = date.fromisoformat(value)
        end = start + timedelta(days=1)
    elif kind == "week":
        start = date.fromisoformat(value)
        end = start + timedelta(days=7)
    elif kind == "month":
        start = date.fromisoformat(value + "-01")
        end = date(start.year + start.month // 12, start.month % 12 + 1, 1)
    else:
        raise ValueError(f"unknown period key {key!r}")
    return _midnight(start), _midnight(end)


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=DAILY_TIMEZONE)
