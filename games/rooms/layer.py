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
from typing import Any

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


class ResyncingLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: list[Any] | None = None, **kwargs: Any) -> None:
        super().__init__(hosts=hosts, **kwargs)
        self._shards = [ResyncingShardConnection(host, self) for host in decode_hosts(hosts)]
        self.resync_channels: set[str] = set()

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
            queue.put_nowait(message)
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
