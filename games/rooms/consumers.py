"""The one WebSocket consumer for every game: ``/ws/rooms/<code>/``.

Thin by design: it identifies the player from the identity cookie sent with
the handshake, checks the envelope of each message (size, JSON, id, type,
rate), hands the intent to ``moves.submit`` and relays what the channel
layer delivers. The protocol is written down in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import limits
from accounts import sessions as account_sessions
from accounts.models import PlayerProfile
from core import metrics
from games.rooms import delivery, groupcommit, hostsessions, moves, registry, selectors, sockets
from games.rooms.admission import admit_by_session, scope_cookies, scope_language
from games.rooms.dbcalls import DB_THREADS, in_db_thread, unavailable, unavailable_text
from games.rooms.direct import send_now, unwrapped_send
from games.rooms.errors import RoomError
from games.rooms.frames import MAX_ID_LENGTH, MAX_MESSAGE_BYTES, Refused, parse_frame, peek_id

if TYPE_CHECKING:
    from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
    from channels.consumer import _ChannelScope

logger = logging.getLogger(__name__)

# Token bucket per connection: a burst of 20, then 10 messages a second.
RATE_BURST = 20
RATE_PER_SECOND = 10.0
# A client that keeps flooding or sending garbage after this many refusals is cut off.
ABUSE_LIMIT = 100
ENVELOPE_ERRORS = {"rate_limited", "bad_json", "bad_message", "bad_id", "too_large"}
# While PostgreSQL (or Redis) is unreachable, a new socket waits this long for it.
ADMIT_PATIENCE_S = 60.0
CLOSE_TRY_AGAIN = 1013  # "try again later": the client reconnects with backoff


class ClientGone(StopConsumer):
    """The client's connection ended while it was being answered: stop quietly
    (``RoomConsumer.__call__`` releases what the socket held)."""


CLOSE_REFUSED = 4403
CLOSE_EXPIRED = 4410
CLOSE_ABUSIVE = 4429
# Idle for too long (``ROOM_SOCKET_IDLE_SECONDS``): the page reconnects if still there.
CLOSE_IDLE = 4408


class RoomConsumer(AsyncWebsocketConsumer):
    room_id: int | None = None
    player: PlayerProfile | None = None
    # (session key, user id) when the socket acts by a teacher's session: every
    # action re-checks that the session still lives (``_session_ended``).
    by_session: tuple[str | None, int] | None = None
    # Set when the session ended: nothing more is sent to or handled for this socket.
    session_over = False
    admission: asyncio.Task[None] | None = None  # retrying admission while services are away
    idle_watch: asyncio.Task[None] | None = None  # closes the socket nobody speaks on
    # Room events straight from the channel layer (``layer.ResyncingLoopLayer.to_group``):
    # only while nothing of this socket waits in its queue (``queued``: counted by
    # the layer when it queues, here when a queued message was handled) and no
    # snapshot is being read, so every frame keeps its order.
    queued = 0
    direct = False
    base_send: Any  # the server's send (Channels sets it in ``__call__``)

    async def connect(self) -> None:
        # Accept first so a refusal can say why (a rejected handshake cannot).
        await self.accept()
        self.base_send = unwrapped_send(self.base_send)
        self._take_events_straight()  # before joining any group: every message counted
        metrics.socket_opened()
        self.counted_open = True
        cookies = scope_cookies(self.scope)
        self.language = scope_language(self.scope, cookies)
        self.tokens = float(RATE_BURST)
        self.refill_at = time.monotonic()
        self.refusals = 0
        self.cookies = cookies
        self.admission = None
        self.idle_watch = None
        self.last_heard = time.monotonic()
        self.held_sockets: list[str] = []
        address = limits.address_of((self.scope.get("client") or [None])[0])
        if not await self._hold(sockets.address_key(address), settings.ROOM_SOCKETS_PER_ADDRESS):
            with translation.override(self.language):
                text = _("Too many game connections from this network. Try again later.")
            await self._send(
                {"type": "error", "id": None, "code": "too_many_sockets", "message": text}
            )
            await self.close(code=CLOSE_ABUSIVE)
            return
        if not await self._enter():
            with translation.override(self.language):
                await self._unavailable_error(None)
            self.admission = asyncio.create_task(self._enter_when_back())

    def _take_events_straight(self) -> None:
        """Let the channel layer hand this socket its room events directly
        (``layer.ResyncingLoopLayer.to_group``; against Channels' queue per socket
        it costs less CPU and half the fan-out latency: bench/RESULTS-placement-cpu.md).
        A layer without ``register_sink`` delivers everything through the queue."""
        register_sink = getattr(self.channel_layer, "register_sink", None)
        if register_sink is not None:
            register_sink(self.channel_name, self)

    async def _enter(self) -> bool:
        """Admit the player, join the groups, send the snapshot.

        False when PostgreSQL or Redis cannot be reached right now (the caller
        tries again later); a refusal is sent and the socket closed (True).
        """
        code = self.scope["url_route"]["kwargs"]["code"]
        try:
            room, player, by_session, browser_id = await self._db(
                admit_by_session, code, self.cookies, self.scope.get("user"), self.scope
            )
            self.by_session = by_session
            key = sockets.player_key(room.pk, player.pk)
            if not await self._hold(key, settings.ROOM_SOCKETS_PER_PLAYER):
                raise RoomError(
                    "too_many_sockets",
                    _("This room is open in too many tabs. Close some and reload."),
                )
            # One pupil cannot hold the school's sockets: caps per player and per
            # browser over all rooms (the address's cap is only a far ceiling).
            held_everywhere = await self._hold(
                sockets.player_all_key(player.pk), settings.ROOM_SOCKETS_PER_PLAYER_ALL
            ) and (
                browser_id is None
                or await self._hold(
                    sockets.browser_key(browser_id), settings.ROOM_SOCKETS_PER_BROWSER
                )
            )
            if not held_everywhere:
                raise RoomError(
                    "too_many_sockets",
                    _("Too many games are open in this browser. Close some and reload."),
                )
            self.groups_joined = [
                delivery.room_group(room.pk),
                delivery.player_group(room.pk, player.pk),
            ]
            if by_session is not None:
                # The end of the session is pushed to these (``hostsessions``).
                self.groups_joined += [
                    hostsessions.session_group(by_session[0]),
                    hostsessions.teacher_group(by_session[1]),
                ]
            for group in self.groups_joined:
                await self.channel_layer.group_add(group, self.channel_name)
            # A lost and regained Redis connection sends ``room.resync`` (games/rooms/layer.py).
            resync_on_reconnect = getattr(self.channel_layer, "resync_on_reconnect", None)
            if resync_on_reconnect is not None:
                resync_on_reconnect(self.channel_name)
            if by_session is not None and not await self._db(
                account_sessions.session_alive, *by_session, refresh=False
            ):  # ended between the admission's check and joining its group
                raise RoomError(
                    "session_ended", _("Your login has ended. Log in again to go on hosting.")
                )
            # Joined the groups before reading: nothing committed after this read is missed.
            snapshot = await self._db(selectors.snapshot, room_id=room.pk, player=player)
        except RoomError as error:
            await self._send({"type": "error", "id": None, **error.as_dict()})
            await self.close(code=CLOSE_REFUSED)
            return True
        except Exception as exc:
            if not unavailable(exc):
                raise
            logger.warning("room %s: cannot admit now (%s)", code, type(exc).__name__)
            return False
        if self.session_over:  # pushed while a retried admission was reading
            return True
        self.player, self.code = player, room.code
        self.adapter = registry.get(room.game, room.mode)
        self.room_id = room.pk  # from here on, messages are handled
        await self._send(snapshot)
        self.direct = True
        self.idle_watch = asyncio.create_task(self._close_when_idle())
        return True

    async def _close_when_idle(self) -> None:
        """Close the socket once nothing came from the client for
        ``ROOM_SOCKET_IDLE_SECONDS``. The page's socket sends a heartbeat every
        20 s, so only a socket nobody reads (held open to use up the caps) or a
        frozen tab is closed; the latter reconnects when it wakes (``CLOSE_IDLE``
        is not a final close for the client)."""
        idle = settings.ROOM_SOCKET_IDLE_SECONDS
        while (wait := self.last_heard + idle - time.monotonic()) > 0:
            await asyncio.sleep(wait)
        self.room_id = None  # nothing more is handled on this socket
        try:
            # No error frame: a page that wakes up just reconnects, nothing to show.
            await self.close(code=CLOSE_IDLE)
        except OSError:
            pass  # gone already; the consumer lets go of it

    async def _enter_when_back(self) -> None:
        """Try to admit again with backoff while the services are away; then give up
        with "try again later" so the client reconnects on its own schedule."""
        deadline = time.monotonic() + ADMIT_PATIENCE_S
        delay = 0.5
        while time.monotonic() < deadline:
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
            if await self._enter():
                return
        await self.close(code=CLOSE_TRY_AGAIN)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Like Channels' dispatch, minus closing old database connections per message.

        Channels does that in its single per-process sync thread for every
        message, so one step fanned out to fifty sockets meant fifty thread hops
        in a row. This consumer never uses that thread's connection: its database
        work runs in ``_db_write``, which cleans up its own thread's connections.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        if message["type"].startswith("websocket."):
            await handler(message)
            return
        try:
            await handler(message)
        finally:  # a message of the layer's queue handled (``deliver``)
            self.queued -= 1

    def deliver(self, text: str) -> bool:
        """A room event straight from the layer: sent now, or False (queue it)."""
        if not self.direct or self.session_over:
            return False
        return send_now(self.base_send, {"type": "websocket.send", "text": text})

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        self.direct = False  # nothing more straight from the layer to a closing socket
        await super().close(code=code, reason=reason)

    async def _send_snapshot(self, message_id: str | None = None) -> None:
        """Read the room as this player sees it and send it. Nothing comes straight
        from the layer meanwhile: what arrives is queued and sent after it."""
        direct, self.direct = self.direct, False
        try:
            snapshot = await self._db(selectors.snapshot, room_id=self.room_id, player=self.player)
            await self._send(snapshot if message_id is None else {**snapshot, "id": message_id})
        finally:
            self.direct = direct

    async def _hold(self, key: str, cap: int) -> bool:
        """Count this socket under ``key`` (once); False when ``cap`` is reached."""
        if key in self.held_sockets:
            return True
        held = await DB_THREADS.run(sockets.acquire, key, cap)
        if held:
            self.held_sockets.append(key)
        return held is not False

    async def __call__(
        self,
        scope: _ChannelScope,
        receive: ASGIReceiveCallable,
        send: ASGISendCallable,
    ) -> None:
        """Run the socket; whatever ends it lets go of what it holds.

        A client whose connection is reset (tab killed, Wi-Fi lost: no close
        frame) while the server answers it makes that answer fail, which ends
        the consumer without ``disconnect``; the counted places and group
        memberships are given back here all the same."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._let_go()

    async def disconnect(self, code: int) -> None:
        await self._let_go()

    async def _let_go(self) -> None:
        """Release the counted sockets and leave the groups (once; safe to repeat)."""
        if getattr(self, "counted_open", False):
            self.counted_open = False
            metrics.socket_closed()
        for task in (getattr(self, "admission", None), getattr(self, "idle_watch", None)):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        held, self.held_sockets = getattr(self, "held_sockets", []), []
        if held:
            await DB_THREADS.run(sockets.release_all, held)
        self.direct = False
        unregister_sink = getattr(self.channel_layer, "unregister_sink", None)
        if unregister_sink is not None and getattr(self, "channel_name", None):
            unregister_sink(self.channel_name)
        groups, self.groups_joined = getattr(self, "groups_joined", []), []
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception as exc:  # Redis away: the membership expires by itself
                if not unavailable(exc):
                    raise

    async def _db(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Run a read in a worker thread (see ``_db_write``)."""
        result, outbox = await self._db_write(function, *args, **kwargs)
        await self._deliver(outbox)
        return result

    async def _db_write(
        self, function: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> tuple[Any, list[Any]]:
        """Run a service in a worker thread; return its result and what it committed.

        Not thread-sensitive: the threads of ``DB_THREADS`` (each with its own
        database connection) serve many sockets at once instead of one thread
        per process serialising every room's database work. Deliveries are
        collected (``delivery.OUTBOX``) and sent from the event loop by the
        caller, after it has answered the sender.
        """
        language = getattr(self, "language", settings.LANGUAGE_CODE)
        outbox: list[Any] = []
        try:
            return await in_db_thread(outbox, language, function, args, kwargs), outbox
        except BaseException:
            await self._deliver(outbox)  # whatever committed before the failure
            raise

    async def _seat_write(self, message_id: str, body: dict[str, Any]) -> tuple[Any, list[Any]]:
        """A per-seat move in the process's next group commit (``groupcommit``)."""
        assert self.room_id is not None and self.player is not None
        move = groupcommit.Move(self.room_id, self.player, message_id, body, self.language)
        try:
            return await groupcommit.submit(move)
        except BaseException:
            await self._deliver(move.outbox)  # whatever committed before the failure
            raise

    async def _deliver(self, outbox: list[Any]) -> None:
        for group, message in outbox:
            try:
                await self.channel_layer.group_send(group, message)
            except Exception as exc:  # stored anyway: the room resyncs once Redis is back
                if not unavailable(exc):
                    logger.exception("room broadcast to %s failed", group)
                else:
                    logger.warning("room broadcast to %s failed (%s)", group, type(exc).__name__)
                delivery.resync_later(self.channel_layer, [group])

    async def _send(self, message: dict[str, Any]) -> None:
        try:
            await self.base_send(
                {"type": "websocket.send", "text": json.dumps(message, separators=(",", ":"))}
            )
        except OSError as exc:  # the connection is gone (uvicorn's ClientDisconnected)
            raise ClientGone from exc

    async def _error(self, message_id: str | None, code: str, text: str) -> None:
        error: dict[str, Any] = {"type": "error", "id": message_id, "code": code, "message": text}
        if code == "unavailable":
            error["retry"] = True  # nothing happened; send the same message again later
        await self._send(error)

    async def _unavailable_error(self, message_id: str | None) -> None:
        await self._error(message_id, "unavailable", unavailable_text())

    def _allowed(self) -> bool:
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.refill_at) * RATE_PER_SECOND)
        self.refill_at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        self.last_heard = time.monotonic()
        if self.room_id is None:
            if self.admission is not None and not self.admission.done():
                # Still waiting for the database: say so, and answer pings.
                with translation.override(self.language):
                    await self._waiting(text_data)
            return
        started = time.monotonic()
        with translation.override(self.language):
            try:
                refusal = await self._check(text_data, bytes_data)
            except ClientGone:
                raise
            except Exception:  # a bug must not cost the player the socket
                logger.exception("room %s: a frame failed", self.room_id)
                refusal = (
                    peek_id(text_data),
                    "server_error",
                    _("Something went wrong. Nothing was changed."),
                )
        metrics.message_handled(
            "accepted" if refusal is None else refusal[1], time.monotonic() - started
        )
        if refusal is None:
            return
        message_id, code, text = refusal
        self.refusals += code in ENVELOPE_ERRORS
        await self._error(message_id, code, text)
        if self.refusals >= ABUSE_LIMIT:
            await self.close(code=CLOSE_ABUSIVE)

    async def _waiting(self, text_data: str | None) -> None:
        try:
            message = parse_frame(text_data) if text_data is not None else None
        except Refused:
            message = None
        if isinstance(message, dict) and message.get("type") == "ping":
            message_id = message.get("id")
            await self._send(
                {"type": "pong", "id": message_id if isinstance(message_id, str) else None}
            )
        elif self._allowed():
            await self._unavailable_error(peek_id(text_data))

    async def _check(
        self, text_data: str | None, bytes_data: bytes | None
    ) -> tuple[Any, ...] | None:
        """Handle one frame; return (id, code, message) when it is refused."""
        if not self._allowed():
            # Name the refused message when it is readable, so the client can resend it.
            return peek_id(text_data), "rate_limited", _("Too many messages. Slow down.")
        if text_data is None:
            return None, "bad_message", _("Messages must be JSON text.")
        if len(text_data.encode()) > MAX_MESSAGE_BYTES:
            return None, "too_large", _("This message is too long.")
        try:
            message = parse_frame(text_data)
        except Refused as refused:
            return None, refused.code, refused.message
        if not isinstance(message, dict):
            return None, "bad_message", _("A message must be a JSON object.")
        kind, message_id = message.get("type"), message.get("id")
        if kind == "ping":
            await self._send(
                {"type": "pong", "id": message_id if isinstance(message_id, str) else None}
            )
            return None
        if not isinstance(message_id, str) or not 0 < len(message_id) <= MAX_ID_LENGTH:
            return None, "bad_id", _("Every message needs a short text id.")
        if not isinstance(kind, str):
            return message_id, "bad_message", _("Every message needs a type.")
        if "room" in message and message["room"] != self.code:
            return message_id, "wrong_room", _("This message is for another room.")
        # A socket acting by a teacher's session (never a pupil's: no extra query
        # for their frames) acts only while the session lives; ticks are anyone's.
        if self.by_session is not None and kind != "tick":
            if await self._session_ended(message_id, self.by_session):
                return None
        if kind == "sync":
            try:
                await self._send_snapshot(message_id)
            except Exception as exc:
                if not unavailable(exc):
                    raise
                logger.warning("room %s: sync unavailable (%s)", self.room_id, type(exc).__name__)
                return message_id, "unavailable", unavailable_text()
            return None
        known = (
            registry.RESERVED_TYPES | self.adapter.message_types | self.adapter.seat_message_types
        )
        if kind not in known:
            return message_id, "unknown_type", _("Unknown message type.")
        body = {k: v for k, v in message.items() if k not in ("id", "room")}
        try:
            if kind in self.adapter.seat_message_types and groupcommit.window_ms() > 0:
                answer, outbox = await self._seat_write(message_id, body)
            else:
                answer, outbox = await self._db_write(
                    moves.submit,
                    room_id=self.room_id,
                    player=self.player,
                    client_id=message_id,
                    message=body,
                )
        except RoomError as error:
            return message_id, error.code, error.message
        except Exception as exc:
            if unavailable(exc):
                logger.warning(
                    "room %s: %r unavailable (%s)", self.room_id, kind, type(exc).__name__
                )
                return message_id, "unavailable", unavailable_text()
            logger.exception("room %s: message %r failed", self.room_id, kind)
            return message_id, "server_error", _("Something went wrong. Nothing was changed.")
        await self._send(answer)  # the sender first, then everybody
        await self._deliver(outbox)
        if kind == "leave":
            await self.close()
        return None

    async def _session_ended(self, message_id: str, by_session: tuple[str | None, int]) -> bool:
        """False while the socket's teacher session lives (the action counts as the
        teacher's activity: ``accounts.sessions.session_alive``); otherwise answer
        ``session_ended``, stop handling this socket and close it (True)."""
        session_key, user_id = by_session
        try:
            alive = await self._db(account_sessions.session_alive, session_key, user_id)
        except Exception as exc:
            if not unavailable(exc):
                raise
            logger.warning(
                "room %s: session check unavailable (%s)", self.room_id, type(exc).__name__
            )
            await self._unavailable_error(message_id)
            return True
        if alive:
            return False
        self.session_over = True
        self.room_id = None  # nothing more is handled on this socket
        await self._error(
            message_id,
            "session_ended",
            _("Your login has ended. Log in again to go on hosting."),
        )
        await self.close(code=CLOSE_REFUSED)
        return True

    async def room_session_ended(self, event: dict[str, Any]) -> None:
        """The teacher session this socket acts by has ended (``reason`` "class":
        the teacher is no longer a teacher of the room's class): say so, handle
        nothing more, close with 4403. Pushed by ``hostsessions``; a socket
        already closing or not acting by a session ignores it."""
        if self.by_session is None or self.session_over:
            return
        self.session_over = True
        self.room_id = None  # nothing more is handled on this socket
        with translation.override(self.language):
            if event.get("reason") == "class":
                code, text = "not_class_teacher", _("You are no longer a teacher of this class.")
            else:
                code, text = (
                    "session_ended",
                    _("Your login has ended. Log in again to go on hosting."),
                )
        await self._error(None, code, text)
        await self.close(code=CLOSE_REFUSED)

    async def room_session_check(self, event: dict[str, Any]) -> None:
        """Some sessions of this socket's account may have ended (a new password, a
        deactivated or deleted account): check this one (not counted as activity)
        and close the socket if it is gone. Unreachable services leave it to the
        next action's check."""
        if self.by_session is None or self.session_over:
            return
        try:
            alive = await self._db(account_sessions.session_alive, *self.by_session, refresh=False)
        except Exception as exc:
            if not unavailable(exc):
                raise
            return
        if not alive:
            await self.room_session_ended({})

    async def room_event(self, event: dict[str, Any]) -> None:
        if self.session_over:
            return  # a logged-out teacher's socket hears nothing more
        await self.base_send({"type": "websocket.send", "text": event["text"]})
        if event.get("close") == "expired":
            await self.close(code=CLOSE_EXPIRED)

    async def room_resync(self, event: dict[str, Any]) -> None:
        """Messages for this room may have been lost (the channel layer lost Redis,
        or a broadcast failed): push a fresh snapshot, which the client applies like
        the one on connect. Without the database now, close with "try again later"
        so the client reconnects and gets its snapshot then."""
        if self.room_id is None or self.session_over:
            return
        try:
            await self._send_snapshot()
        except Exception as exc:
            if not unavailable(exc):
                raise
            logger.warning("room %s: resync unavailable (%s)", self.room_id, type(exc).__name__)
            await self.close(code=CLOSE_TRY_AGAIN)

    async def room_kicked(self, event: dict[str, Any]) -> None:
        with translation.override(self.language):
            text = _("The host removed you from this room.")
        await self._send({"type": "kicked", "message": text})
        await self.close(code=CLOSE_REFUSED)
