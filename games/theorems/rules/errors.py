"""The one exception the engine raises for anything a player may not do."""


class IllegalMove(Exception):
    """An action (or a deck) the rules do not allow.

    ``code`` is stable, so servers and clients can branch on it and translate it;
    ``message`` is for humans and may change.
    """

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code
