"""Time for the poker writes: ``now`` comes in as epoch seconds."""

from datetime import UTC, datetime


def moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, tz=UTC)
