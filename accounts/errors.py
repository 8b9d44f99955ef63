from core.errors import DomainError


class AccountsError(DomainError):
    """A refused player action (``code``, ``message``; see ``core.errors``)."""
