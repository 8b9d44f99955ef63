"""A room event reaches the process's sockets straight from the channel layer (issue 41).

One group message of Redis used to become one queued message per socket of the
room, each decoded and dispatched by its own consumer; now the layer decodes it
once and hands the frame to every socket that can take it at once -- and queues
it, in order, for a socket that still has something queued.
"""

from __future__ import annotations

import asyncio

import pytest
from django.conf import settings

from games.rooms.layer import ResyncingPubSubChannelLayer
from tests.scale.topology import run_async


class Socket:
    """A consumer's side of ``register_sink``: what it was handed straight."""

    def __init__(self) -> None:
        self.queued = 0
        self.sent: list[str] = []

    def deliver(self, text: str) -> bool:
        self.sent.append(text)
        return True


def _layer() -> ResyncingPubSubChannelLayer:
    return ResyncingPubSubChannelLayer(**settings.CHANNEL_LAYERS["default"]["CONFIG"])


async def _settle(layer, channel: str, socket: Socket, count: int) -> None:
    """Wait until ``count`` messages reached ``socket`` or the channel's queue."""
    for _ in range(500):
        if len(socket.sent) + layer._get_layer().channels[channel].qsize() >= count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the group message never arrived")


def test_a_room_event_goes_straight_to_a_socket_with_nothing_queued():
    async def scenario():
        layer = _layer()
        direct, plain = await layer.new_channel(), await layer.new_channel()
        socket = Socket()
        layer.register_sink(direct, socket)
        for channel in (direct, plain):
            await layer.group_add("room.41", channel)
        await layer.group_send("room.41", {"type": "room.event", "text": "drawn 7", "close": None})
        await _settle(layer, direct, socket, 1)
        # The socket that registered got the frame itself, nothing queued; the other
        # channel (no sink) gets the message through its queue as before.
        assert socket.sent == ["drawn 7"]
        assert layer._get_layer().channels[direct].qsize() == 0
        assert (await asyncio.wait_for(layer.receive(plain), 10))["text"] == "drawn 7"
        await layer.flush()

    run_async(scenario())


def test_what_cannot_go_straight_keeps_its_order_in_the_queue():
    async def scenario():
        layer = _layer()
        channel = await layer.new_channel()
        socket = Socket()
        layer.register_sink(channel, socket)
        await layer.group_add("room.42", channel)
        # A closing event is the consumer's to handle: queued, and counted ...
        await layer.group_send("room.42", {"type": "room.event", "text": "end", "close": "expired"})
        await _settle(layer, channel, socket, 1)
        assert socket.sent == [] and socket.queued == 1
        # ... so the next event may not overtake it: queued behind it.
        await layer.group_send("room.42", {"type": "room.event", "text": "late", "close": None})
        await _settle(layer, channel, socket, 2)
        assert socket.sent == [] and socket.queued == 2
        assert (await layer.receive(channel))["text"] == "end"
        assert (await layer.receive(channel))["text"] == "late"
        socket.queued = 0  # the consumer handled both
        await layer.group_send("room.42", {"type": "room.event", "text": "next", "close": None})
        await _settle(layer, channel, socket, 1)
        assert socket.sent == ["next"]
        await layer.flush()

    run_async(scenario())


@pytest.mark.parametrize("writable", [True, False])
def test_send_now_writes_only_when_the_server_would_not_wait(writable):
    from games.rooms.direct import send_now

    class Server:
        def __init__(self) -> None:
            self.writable = asyncio.Event()
            self.frames: list[dict] = []

        async def send(self, message: dict) -> None:
            await self.writable.wait()
            self.frames.append(message)

    async def scenario():
        server = Server()
        if writable:
            server.writable.set()
        sent = send_now(server.send, {"type": "websocket.send", "text": "x"})
        assert sent is writable
        assert server.frames == ([{"type": "websocket.send", "text": "x"}] if writable else [])

    run_async(scenario())
