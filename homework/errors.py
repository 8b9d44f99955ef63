"""Refusals of the homework app: a stable ``code``, a human ``message`` and the HTTP status."""

from dataclasses import dataclass


@dataclass(frozen=True)
class HomeworkError(Exception):
    code: str
    message: str
    status: int = 400

    def __str__(self) -> str:
        return self.message
