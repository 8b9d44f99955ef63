"""The one exception the Abaku rules raise for anything they do not allow."""


class IllegalMove(Exception):
    """A move or action the rules do not allow.

    ``code`` is stable, so servers and clients can branch on it and translate it;
    ``message`` is for humans and may change.
    """

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code
