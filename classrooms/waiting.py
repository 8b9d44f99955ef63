"""The waiting list of a class, grouped into waves for the teacher's bulk actions.

Joins that arrive close together form one *wave*: a class following the
teacher's QR code arrives within a minute or two, and so does a flood of junk
joins from someone who has the code. Grouping the list lets the teacher approve
or remove one wave in one confirmed step, so the real pupils of another wave
stay where they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from classrooms.models import Membership

# A join more than this long after the previous one starts a new wave.
WAVE_GAP = timedelta(minutes=2)


@dataclass
class Wave:
    members: list[Membership] = field(default_factory=list)

    @property
    def first(self) -> datetime:
        return self.members[0].joined_at

    @property
    def last(self) -> datetime:
        return self.members[-1].joined_at

    @property
    def member_ids(self) -> list[int]:
        return [member.pk for member in self.members]


def waves(pending: Iterable[Membership], gap: timedelta = WAVE_GAP) -> list[Wave]:
    """The waiting joins in waves, oldest wave first, each in order of arrival."""
    grouped: list[Wave] = []
    for member in sorted(pending, key=lambda member: (member.joined_at, member.pk)):
        if not grouped or member.joined_at - grouped[-1].last > gap:
            grouped.append(Wave())
        grouped[-1].members.append(member)
    return grouped
