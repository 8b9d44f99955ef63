"""Sending a room socket's frames with less machinery per frame (issue 41).

Both helpers stay with what the consumer's ``send`` would do: the same frames,
in the same order, to the same server ``send``; they leave out layers that do
nothing for a WebSocket frame (bench/RESULTS-placement-cpu.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from channels.sessions import InstanceSessionWrapper


def unwrapped_send(send: Callable[[dict[str, Any]], Awaitable[None]]) -> Any:
    """The server's own ``send`` under Channels' session middleware.

    ``AuthMiddlewareStack`` wraps every message a socket sends in a check whether
    the session must be saved, which it never is for WebSocket messages (only
    for ``http.response.start``); a room socket sends a frame per event to
    every player, so it sends past that check (bench/RESULTS-placement-cpu.md).
    """
    wrapper = getattr(send, "__self__", None)
    if isinstance(wrapper, InstanceSessionWrapper) and not {
        "websocket.send",
        "websocket.close",
    } & set(wrapper.save_message_types):
        return wrapper.real_send
    return send


def send_now(send: Callable[[dict[str, Any]], Awaitable[None]], message: dict[str, Any]) -> bool:
    """Run the server's ``send`` of ``message`` to its end without yielding to the loop.

    uvicorn's WebSocket ``send`` awaits only its ``writable`` event (cleared while
    the client does not read); with it set, the frame is written when the call
    returns. False when it is not set, or the server is not one whose send can
    be run so: the caller sends through the consumer's queue instead.
    """
    writable = getattr(getattr(send, "__self__", None), "writable", None)
    if not isinstance(writable, asyncio.Event) or not writable.is_set():
        return False
    step = send(message)
    try:
        step.send(None)  # type: ignore[attr-defined]
    except StopIteration:
        return True
    except OSError:  # the client is gone; its consumer hears of it and ends
        return True
    except Exception:  # e.g. closing already: the queued way meets it as before
        return False
    # It waited after all (only ever before writing): nothing was sent.
    step.close()  # type: ignore[attr-defined]
    return False
