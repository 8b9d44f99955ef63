"""The channel layer: channels_redis' pub/sub layer that notices a lost connection.

Redis pub/sub delivers a message to whoever is subscribed *now*: while a
process's subscriber connection is down (a Redis restart, a Sentinel failover),
everything published to its rooms is gone for it. redis-py reconnects and
subscribes again by itself, so before this module the sockets stayed open,
heard nothing of what was missed -- and a draw missed is a room stalled.

Here the shard connection counts its (re)connections. After a reconnection,
and after the receive loop failed and works again, every channel in the
process that asked for it (``resync_on_reconnect``) gets a ``room.resync``
message; the room consumer answers it with a fresh snapshot (``sync``), which
the client kit applies like the one it gets on connect (docs/protocol.md).

The publishing side has the same hole: a step stored in PostgreSQL whose
``group_send`` failed never reaches anybody. ``games.rooms.delivery`` then
keeps sending ``room.resync`` to the room's group until Redis takes it, so the
players of every process fetch what they missed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import decode_hosts

logger = logging.getLogger(__name__)

RESYNC = {"type": "room.resync"}
# The receive loop's pause after a failure, growing to the maximum while Redis is away.
RETRY_FIRST_S = 0.2
RETRY_MAX_S = 2.0


class ResyncingShardConnection(RedisSingleShardConnection):
    def __init__(self, host: Any, channel_layer: ResyncingLoopLayer) -> None:
        super().__init__(host, channel_layer)
        self.connects = 0
        self.resync_due = False
        self.watched: Any = None  # the redis connection whose (re)connects are counted

    def _on_connect(self, connection: Any) -> None:
        self.connects += 1
        if self.connects > 1:
            self.resync_due = True

    def _watch_connection(self) -> None:
        connection = getattr(self._pubsub, "connection", None)
        if connection is not None and connection is not self.watched:
            if self.watched is not None:  # a new connection object: a reconnection
                self.resync_due = True
            self.watched = connection
            self.connects = 1 if connection.is_connected else 0
            connection.register_connect_callback(self._on_connect)

    def _receive_message(self, message: Any) -> None:
        """As channels_redis does, through the layer's ``enqueue`` and ``to_group``
        (a group's events go straight to the sockets that take them now)."""
        if message is None:
            return
        name, data = message["channel"], message["data"]
        if isinstance(name, bytes):
            name = name.decode()
        layer = self.channel_layer
        if name in layer.channels:
            layer.enqueue(name, data)
        elif name in layer.groups:
            layer.to_group(name, data)

    async def _do_receiving(self) -> None:
        pause = RETRY_FIRST_S
        failing = False
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    self._watch_connection()
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    if failing:
                        failing = False
                        self.resync_due = True
                        logger.warning("channel layer: Redis is back; resynchronising sockets")
                    if self.resync_due:
                        self.resync_due = False
                        self.channel_layer.resync_local()
                    pause = RETRY_FIRST_S
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except Exception as exc:  # cancellation (a BaseException) ends the loop
                if not failing:
                    logger.warning(
                        "channel layer: lost the Redis subscription (%s); reconnecting",
                        type(exc).__name__,
                    )
                failing = True
                await asyncio.sleep(pause)
                pause = min(RETRY_MAX_S, pause * 2)


class Sink(Protocol):
    """A socket that takes a group's events straight from the layer (``register_sink``)."""

    queued: int  # its messages in the layer's queue not yet handled (kept by both sides)

    def deliver(self, text: str) -> bool:
        """Send ``text`` now, in order after everything sent before; False: queue it."""


def direct_text(message: Any) -> str | None:
    """The frame a group message sends as it is (a room event that closes nothing)."""
    if isinstance(message, dict) and message.get("type") == "room.event":
        text = message.get("text")
        if isinstance(text, str) and not message.get("close"):
            return text
    return None


def _delivered(sink: Sink, text: str) -> bool:
    try:
        return sink.deliver(text)
    except Exception:  # never the receive loop's failure: the queue takes it
        logger.exception("channel layer: a socket failed to take an event")
        return False


class ResyncingLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: list[Any] | None = None, **kwargs: Any) -> None:
        super().__init__(hosts=hosts, **kwargs)
        self._shards = [ResyncingShardConnection(host, self) for host in decode_hosts(hosts)]
        self.resync_channels: set[str] = set()
        self.sinks: dict[str, Sink] = {}

    def enqueue(self, channel: str, data: bytes) -> None:
        """Put a message in the channel's queue (the consumer dispatches it in turn)."""
        sink = self.sinks.get(channel)
        if sink is not None:
            sink.queued += 1
        self.channels[channel].put_nowait(data)

    def to_group(self, group_channel: str, data: bytes) -> None:
        """One message of a group to this process's channels in it.

        A room's events reach fifty sockets of the process at once: decoded once
        and sent to each socket right here, not queued fifty times to be decoded
        and dispatched fifty times (bench/RESULTS-placement-cpu.md). A socket that
        cannot take it now -- something of it still queued (the order must hold),
        reading a snapshot, a full send buffer -- gets it through its queue.
        """
        text: str | None | bool = False  # False: not decoded yet
        for channel in list(self.groups.get(group_channel, ())):
            if channel not in self.channels:
                continue
            sink = self.sinks.get(channel)
            if sink is not None and sink.queued <= 0:
                if text is False:
                    text = direct_text(self.channel_layer.deserialize(data))
                if isinstance(text, str) and _delivered(sink, text):
                    continue
            self.enqueue(channel, data)

    def register_sink(self, channel: str, sink: Sink) -> None:
        self.sinks[channel] = sink

    def unregister_sink(self, channel: str) -> None:
        self.sinks.pop(channel, None)

    def resync_on_reconnect(self, channel: str) -> None:
        self.resync_channels.add(channel)

    def resync_local(self) -> int:
        """Queue ``room.resync`` for every channel of this process that asked; how many."""
        message = self.channel_layer.serialize(RESYNC)
        sent = 0
        for channel in list(self.resync_channels):
            queue = self.channels.get(channel)
            if queue is None:  # the consumer is gone
                self.resync_channels.discard(channel)
                continue
            self.enqueue(channel, message)
            sent += 1
        if sent:
            logger.warning("channel layer: %d sockets asked to resynchronise", sent)
        return sent


class ResyncingPubSubChannelLayer(RedisPubSubChannelLayer):
    """``channels_redis.pubsub.RedisPubSubChannelLayer`` plus ``resync_on_reconnect``."""

    def _get_layer(self) -> ResyncingLoopLayer:
        loop = asyncio.get_running_loop()
        layer: ResyncingLoopLayer | None = self._layers.get(loop)
        if layer is None:
            layer = ResyncingLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            from channels_redis.utils import _wrap_close

            _wrap_close(self, loop)
        return layer

    def resync_on_reconnect(self, channel: str) -> None:
        """After this process's Redis connection comes back, ``channel`` receives
        ``{"type": "room.resync"}`` (call from the channel's event loop)."""
        self._get_layer().resync_on_reconnect(channel)

    def register_sink(self, channel: str, sink: Sink) -> None:
        """Let ``sink`` take its groups' room events straight from the layer
        (``ResyncingLoopLayer.to_group``; call from the channel's event loop)."""
        self._get_layer().register_sink(channel, sink)

    def unregister_sink(self, channel: str) -> None:
        self._get_layer().unregister_sink(channel)
