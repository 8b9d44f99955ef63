from dataclasses import dataclass


@dataclass(frozen=True)
class ClassroomError(Exception):
    """A refused class action: a stable ``code`` for programs, a ``message`` for people."""

    code: str
    message: str

    def __str__(self) -> str:
        return self.message
