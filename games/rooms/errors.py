from dataclasses import dataclass


@dataclass(frozen=True)
class RoomError(Exception):
    """A refused room action: a stable ``code`` for programs, a ``message`` for people."""

    code: str
    message: str

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}
