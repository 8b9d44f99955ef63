"""The one refused-intent error of every app: a stable ``code`` and a human ``message``.

It sits at the bottom (beside ``core.registry`` and the shared models), so
``accounts``, the rooms runtime, the games and ``classrooms`` all raise and
catch the same type: a service that calls another app's service lets its
refusal pass through unchanged (``except DomainError``), with no mapping of
one app's error into another's. Each app keeps a named subclass
(``AccountsError``, ``RoomError``, ``ClassroomError`` and one per game that
needs it) for readers and for catching only its own refusals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class DomainError(Exception):
    """A refused intent: ``code`` for programs, ``message`` for people.

    ``status`` is the HTTP status a JSON API answers with; ``extra`` holds
    further fields of that answer (e.g. the id of the attempt to continue).
    """

    code: str
    message: str
    status: int = 400
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return str(self.message)

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": str(self.message)}
