from core.errors import DomainError


class RoomError(DomainError):
    """A refused room action (``code``, ``message``; see ``core.errors``)."""
