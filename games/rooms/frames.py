"""Frames of the rooms socket: strict JSON within the protocol's limits (size,
depth, safe integers, storable text), refused with a stable code before any
service sees them. See docs/protocol.md."""

from __future__ import annotations

import json
import math
from typing import Any, NoReturn

from django.utils.translation import gettext as _

# The protocol's limit: 4,096 bytes of UTF-8 (not characters). uvicorn runs with
# --ws-max-size 4096 and closes a longer frame with 1009 before buffering it;
# the check here holds where another server runs the consumer.
MAX_MESSAGE_BYTES = 4096
MAX_ID_LENGTH = 64
# Deeper messages are refused: no game needs more, and every later step (the
# schema check, PostgreSQL's jsonb, json.dumps) would recurse through them.
MAX_DEPTH = 16
# Integers a browser represents exactly (and every id column can hold).
MAX_SAFE_INTEGER = 2**53 - 1


class Refused(ValueError):
    """A frame refused before any service sees it, with a stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses to inf
        raise ValueError("not a finite number")
    return value


def _safe_int(text: str) -> int:
    if len(text) > 17:  # longer than any safe integer: refuse before converting
        raise ValueError("integer too large")
    value = int(text)
    if abs(value) > MAX_SAFE_INTEGER:
        raise ValueError("integer too large")
    return value


def _loads(text: str) -> Any:
    """Strict JSON: no NaN/Infinity (Python accepts them, PostgreSQL does not), no
    infinite floats, only safe integers; raises ValueError or RecursionError."""
    return json.loads(text, parse_constant=_no_constant, parse_float=_finite, parse_int=_safe_int)


def _bad_text(value: str) -> bool:
    """NUL (PostgreSQL's jsonb cannot store it) or a lone surrogate (not UTF-8)."""
    if "\x00" in value:
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def parse_frame(text: str) -> Any:
    """The message in a text frame, or Refused (``bad_json``, ``bad_message``); never
    raises anything else, whatever the frame holds."""
    try:
        message = _loads(text)
    except (ValueError, RecursionError):
        raise Refused("bad_json", _("This message is not valid JSON.")) from None
    stack = [(message, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise Refused("bad_message", _("This message is nested too deeply."))
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str) and _bad_text(key):
                    raise Refused(
                        "bad_message", _("This message contains a character we cannot store.")
                    )
                stack.append((item, depth + 1))
        elif isinstance(value, str) and _bad_text(value):
            raise Refused("bad_message", _("This message contains a character we cannot store."))
    return message


def peek_id(text_data: str | None) -> str | None:
    """The ``id`` of a small, well-formed message, or None (never raises)."""
    if text_data is None or len(text_data.encode()) > MAX_MESSAGE_BYTES:
        return None
    try:
        message = parse_frame(text_data)
    except Refused:
        return None
    message_id = message.get("id") if isinstance(message, dict) else None
    if isinstance(message_id, str) and 0 < len(message_id) <= MAX_ID_LENGTH:
        return message_id
    return None
