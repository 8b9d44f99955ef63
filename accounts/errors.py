from games.errors import DomainError


class AccountsError(DomainError):
    """A refused player action (``code``, ``message``; see ``games.errors``)."""
