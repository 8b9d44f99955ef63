from core.errors import DomainError


class ClassroomError(DomainError):
    """A refused class action (``code``, ``message``; see ``core.errors``)."""
