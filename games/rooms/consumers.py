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
import math
import time

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.core import signing
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connections
from django.http.cookie import parse_cookie
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import identity, limits
from accounts import selectors as accounts_selectors
from accounts import sessions as account_sessions
from accounts.models import Browser, PlayerProfile
from config import metrics
from games.rooms import (
    dbthreads,
    delivery,
    hostsessions,
    lookups,
    moves,
    registry,
    selectors,
    sockets,
)
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat

logger = logging.getLogger(__name__)

# The protocol's limit: 4,096 bytes of UTF-8 (not characters). uvicorn runs with
# --ws-max-size 4096 and closes a longer frame with 1009 before buffering it;
# the check here holds where another server runs the consumer.
MAX_MESSAGE_BYTES = 4096
MAX_ID_LENGTH = 64
# Token bucket per connection: a burst of 20, then 10 messages a second.
RATE_BURST = 20
RATE_PER_SECOND = 10.0
# A client that keeps flooding or sending garbage after this many refusals is cut off.
ABUSE_LIMIT = 100
ENVELOPE_ERRORS = {"rate_limited", "bad_json", "bad_message", "bad_id", "too_large"}
# Deeper messages are refused: no game needs more, and every later step (the
# schema check, PostgreSQL's jsonb, json.dumps) would recurse through them.
MAX_DEPTH = 16
# Integers a browser represents exactly (and every id column can hold).
MAX_SAFE_INTEGER = 2**53 - 1
# While PostgreSQL (or Redis) is unreachable, a new socket waits this long for it.
ADMIT_PATIENCE_S = 60.0
CLOSE_TRY_AGAIN = 1013  # "try again later": the client reconnects with backoff


class ClientGone(StopConsumer):
    """The client's connection ended while it was being answered: stop quietly
    (``RoomConsumer.__call__`` releases what the socket held)."""


class Refused(ValueError):
    """A frame refused before any service sees it, with a stable code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _no_constant(name: str):
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


def _loads(text: str):
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


def parse_frame(text: str):
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


def _peek_id(text_data: str | None) -> str | None:
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


def _db_threads() -> int:
    """Threads for the rooms' database work: half of the connection pool.

    The work is round trips to PostgreSQL (the GIL is free meanwhile), so the
    number of threads, not the CPU, bounds how many moves are in flight; asyncio's
    default executor has only CPUs + 4. Each thread keeps the connection it took
    (see ``_before_service``), so the other half stays for pages.
    """
    options = settings.DATABASES["default"].get("OPTIONS", {})
    pool = options.get("pool")
    size = pool.get("max_size", 16) if isinstance(pool, dict) else 16
    return getattr(settings, "ROOMS_DB_THREADS", None) or max(1, size // 2)


DB_THREADS = dbthreads.DatabaseThreads(_db_threads())


# A rooms DB thread keeps its PostgreSQL connection between messages: taken from
# the pool once, not borrowed, checked (one round trip) and given back for every
# message. A kept connection that PostgreSQL closed meanwhile (a restart, a
# terminated backend) fails on its first query; the service then runs once more
# on a fresh connection from the pool, which checks it. Running it again is safe:
# nothing was applied on the dead connection, and a message applied just before
# the connection died is answered from its stored answer (``moves.submit``).
# The pool is sized for these threads plus the pages (``_db_threads``).


# A restart leaves every kept connection dead; the pool lends only checked ones,
# but one may die between the check and the query: a few attempts, not one.
LOST_CONNECTION_ATTEMPTS = 3


def _before_service() -> bool:
    """Whether this thread already holds a connection (kept from an earlier message)."""
    conn = connections[DEFAULT_DB_ALIAS]
    if conn.connection is None:
        return False
    conn.health_check_done = True  # no check per message; a dead one is replaced below
    return True


def _connection_lost() -> bool:
    raw = connections[DEFAULT_DB_ALIAS].connection
    return raw is None or getattr(raw, "closed", False)


def _after_service() -> None:
    for conn in connections.all(initialized_only=True):
        if conn.connection is None:
            continue
        if conn.in_atomic_block:  # never left open by a service; do not keep it
            conn.close()
            continue
        conn.close_at = None  # kept by this thread
        conn.close_if_unusable_or_obsolete()  # closed when it failed and is unusable


def _run_service(outbox: list, language: str, function, args: tuple, kwargs: dict):
    kept = _before_service()
    delivery.OUTBOX.set(outbox)  # in this call's own copy of the context
    try:
        with translation.override(language):
            for attempt in range(1, LOST_CONNECTION_ATTEMPTS + 1):
                try:
                    return function(*args, **kwargs)
                except (OperationalError, InterfaceError) as exc:
                    if not (kept and _connection_lost()) or attempt == LOST_CONNECTION_ATTEMPTS:
                        raise
                    logger.warning(
                        "rooms: a kept database connection was lost (%s); reconnecting", exc
                    )
                    connections[DEFAULT_DB_ALIAS].close()
    finally:
        _after_service()


async def _in_db_thread(outbox: list, language: str, function, args: tuple, kwargs: dict):
    """Run a service in a rooms DB thread, in a copy of the caller's context.

    Not asgiref's SyncToAsync (thread-sensitive contexts, per-call executors,
    closing old connections before and after) nor run_in_executor: the hop was
    the largest single cost per move in the group-game benchmark (bench/).
    """
    return await DB_THREADS.run(_run_service, outbox, language, function, args, kwargs)


def _unavailable(exc: BaseException) -> bool:
    """PostgreSQL or Redis cannot be reached (restart, failover, exhausted pool)."""
    if isinstance(exc, OperationalError | InterfaceError | ConnectionError | TimeoutError):
        return True
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:  # pragma: no cover - channels_redis brings redis
        return False
    return isinstance(exc, RedisConnectionError | RedisTimeoutError)


def _unavailable_text() -> str:
    return _("The game cannot be reached for a moment. Try again.")


CLOSE_REFUSED = 4403
CLOSE_EXPIRED = 4410
CLOSE_ABUSIVE = 4429
# Idle for too long (``ROOM_SOCKET_IDLE_SECONDS``): the page reconnects if still there.
CLOSE_IDLE = 4408


def _cookies(scope: dict) -> dict[str, str]:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            return parse_cookie(value.decode("latin-1"))
    return {}


def browser_from_cookies(cookies: dict[str, str]) -> Browser | None:
    """The browser whose identity cookie came with the handshake (with its selection)."""
    if cookies.get(settings.STORAGE_COOKIE_NAME) == "off":
        return None
    raw = cookies.get(settings.PLAYER_COOKIE_NAME)
    if not raw:
        return None
    try:
        token = signing.loads(raw, salt=identity.SALT)
    except signing.BadSignature:
        return None
    return (
        Browser.objects.select_related("selected")
        .filter(token_hash=identity.hash_token(token))
        .first()
    )


def _selected(browser: Browser | None) -> PlayerProfile | None:
    if browser is None or browser.selected is None or not browser.selected.is_active:
        return None
    return browser.selected


def player_from_cookies(cookies: dict[str, str]) -> PlayerProfile | None:
    """The selected profile of the browser whose identity cookie came with the handshake."""
    return _selected(browser_from_cookies(cookies))


def _language(scope: dict, cookies: dict[str, str]) -> str:
    supported = {code for code, _name in settings.LANGUAGES}
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen in supported:
        return chosen
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            for lang, _q in translation.trans_real.parse_accept_lang_header(value.decode()):
                if lang.split("-")[0] in supported:
                    return lang.split("-")[0]
    return settings.LANGUAGE_CODE


def _admit(
    code: str, cookies: dict[str, str], user=None, scope: dict | None = None
) -> tuple[Room, PlayerProfile, int | None]:
    """The room, who acts in it and the browser's id (None without an identity
    cookie), or a RoomError.

    To anyone not in the room, an unknown code, a finished room, an expired room
    and a live room answer alike: ``no_identity`` without a profile, else
    ``not_in_room`` (``lookups``, which also counts the misses, per browser)."""
    browser = browser_from_cookies(cookies)
    cookie_player = _selected(browser)
    account_player = accounts_selectors.account_player(user)
    found = lookups.find(
        code,
        client=limits.client_of_scope(
            scope or {}, user=user, player=cookie_player, browser=browser
        ),
        player_for=lambda room: selectors.acting_player(
            room, cookie_player=cookie_player, account_player=account_player
        ),
    )
    room, player = found.room, found.player
    if room is None or not lookups.is_member(room, player):
        if cookie_player is None and account_player is None:
            raise RoomError("no_identity", _("Choose a nickname on the join page first."))
        raise RoomError("not_in_room", _("Join the room on its page first."))
    if room.status == Room.Status.EXPIRED:
        raise RoomError("room_expired", _("This room has expired."))
    registry.get(room.game, room.mode)  # a game no longer installed: unknown_game
    seat = selectors.seat_for(room, player)
    if seat is None or seat.status == Seat.Status.LEFT:
        raise RoomError("not_in_room", _("Join the room on its page first."))
    if seat.status == Seat.Status.KICKED:
        raise RoomError("kicked", _("The host removed you from this room."))
    return room, player, browser.pk if browser is not None else None


def _admit_by_session(
    code: str, cookies: dict[str, str], user=None, scope: dict | None = None
) -> tuple[Room, PlayerProfile, tuple[str | None, int] | None, int | None]:
    """``_admit``, and the session the socket acts by: (session key, user id) when
    the acting profile is the logged-in teacher's own (host rights from the
    session), else None (a nickname profile from the identity cookie)."""
    room, player, browser_id = _admit(code, cookies, user, scope)
    account = accounts_selectors.account_player(user)
    if account is None or account.pk != player.pk:
        return room, player, None, browser_id
    session_key = getattr((scope or {}).get("session"), "session_key", None)
    # The session middleware checked the login, not the idle timeout (page requests do).
    if not account_sessions.session_alive(session_key, user.pk):
        raise RoomError("session_ended", _("Your login has ended. Log in again to go on hosting."))
    return room, player, (session_key, user.pk), browser_id


class RoomConsumer(AsyncWebsocketConsumer):
    room_id: int | None = None
    player: PlayerProfile | None = None
    # (session key, user id) when the socket acts by a teacher's session: every
    # action re-checks that the session still lives (``_session_ended``).
    by_session: tuple[str | None, int] | None = None
    # Set when the session ended: nothing more is sent to or handled for this socket.
    session_over = False
    admission: asyncio.Task | None = None  # retrying admission while services are away

    async def connect(self) -> None:
        # Accept first so a refusal can say why (a rejected handshake cannot).
        await self.accept()
        metrics.socket_opened()
        self.counted_open = True
        cookies = _cookies(self.scope)
        self.language = _language(self.scope, cookies)
        self.tokens = float(RATE_BURST)
        self.refill_at = time.monotonic()
        self.refusals = 0
        self.cookies = cookies
        self.admission = None
        self.idle_watch = None
        self.last_heard = time.monotonic()
        self.held_sockets = []
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

    async def _enter(self) -> bool:
        """Admit the player, join the groups, send the snapshot.

        False when PostgreSQL or Redis cannot be reached right now (the caller
        tries again later); a refusal is sent and the socket closed (True).
        """
        code = self.scope["url_route"]["kwargs"]["code"]
        try:
            room, player, by_session, browser_id = await self._db(
                _admit_by_session, code, self.cookies, self.scope.get("user"), self.scope
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
            if not _unavailable(exc):
                raise
            logger.warning("room %s: cannot admit now (%s)", code, type(exc).__name__)
            return False
        if self.session_over:  # pushed while a retried admission was reading
            return True
        self.player, self.code = player, room.code
        self.adapter = registry.get(room.game, room.mode)
        self.room_id = room.pk  # from here on, messages are handled
        await self._send(snapshot)
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

    async def dispatch(self, message: dict) -> None:
        """Like Channels' dispatch, minus closing old database connections per message.

        Channels does that in its single per-process sync thread for every
        message, so one step fanned out to fifty sockets meant fifty thread hops
        in a row. This consumer never uses that thread's connection: its database
        work runs in ``_db_write``, which cleans up its own thread's connections.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def _hold(self, key: str, cap: int) -> bool:
        """Count this socket under ``key`` (once); False when ``cap`` is reached."""
        if key in self.held_sockets:
            return True
        held = await DB_THREADS.run(sockets.acquire, key, cap)
        if held:
            self.held_sockets.append(key)
        return held is not False

    async def __call__(self, scope, receive, send) -> None:
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
        for key in held:
            await DB_THREADS.run(sockets.release, key)
        groups, self.groups_joined = getattr(self, "groups_joined", []), []
        for group in groups:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception as exc:  # Redis away: the membership expires by itself
                if not _unavailable(exc):
                    raise

    async def _db(self, function, *args, **kwargs):
        """Run a read in a worker thread (see ``_db_write``)."""
        result, outbox = await self._db_write(function, *args, **kwargs)
        await self._deliver(outbox)
        return result

    async def _db_write(self, function, *args, **kwargs) -> tuple:
        """Run a service in a worker thread; return its result and what it committed.

        Not thread-sensitive: the threads of ``DB_THREADS`` (each with its own
        database connection) serve many sockets at once instead of one thread
        per process serialising every room's database work. Deliveries are
        collected (``delivery.OUTBOX``) and sent from the event loop by the
        caller, after it has answered the sender.
        """
        language = getattr(self, "language", settings.LANGUAGE_CODE)
        outbox: list = []
        try:
            return await _in_db_thread(outbox, language, function, args, kwargs), outbox
        except BaseException:
            await self._deliver(outbox)  # whatever committed before the failure
            raise

    async def _deliver(self, outbox: list) -> None:
        for group, message in outbox:
            try:
                await self.channel_layer.group_send(group, message)
            except Exception as exc:  # stored anyway: the room resyncs once Redis is back
                if not _unavailable(exc):
                    logger.exception("room broadcast to %s failed", group)
                else:
                    logger.warning("room broadcast to %s failed (%s)", group, type(exc).__name__)
                delivery.resync_later(self.channel_layer, [group])

    async def _send(self, message: dict) -> None:
        try:
            await self.send(text_data=json.dumps(message, separators=(",", ":")))
        except OSError as exc:  # the connection is gone (uvicorn's ClientDisconnected)
            raise ClientGone from exc

    async def _error(self, message_id, code: str, text: str) -> None:
        error = {"type": "error", "id": message_id, "code": code, "message": text}
        if code == "unavailable":
            error["retry"] = True  # nothing happened; send the same message again later
        await self._send(error)

    async def _unavailable_error(self, message_id) -> None:
        await self._error(message_id, "unavailable", _unavailable_text())

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
                    _peek_id(text_data),
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
            await self._unavailable_error(_peek_id(text_data))

    async def _check(self, text_data, bytes_data) -> tuple | None:
        """Handle one frame; return (id, code, message) when it is refused."""
        if not self._allowed():
            # Name the refused message when it is readable, so the client can resend it.
            return _peek_id(text_data), "rate_limited", _("Too many messages. Slow down.")
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
            if await self._session_ended(message_id):
                return None
        if kind == "sync":
            try:
                snapshot = await self._db(
                    selectors.snapshot, room_id=self.room_id, player=self.player
                )
            except Exception as exc:
                if not _unavailable(exc):
                    raise
                logger.warning("room %s: sync unavailable (%s)", self.room_id, type(exc).__name__)
                return message_id, "unavailable", _unavailable_text()
            await self._send({**snapshot, "id": message_id})
            return None
        known = (
            registry.RESERVED_TYPES | self.adapter.message_types | self.adapter.seat_message_types
        )
        if kind not in known:
            return message_id, "unknown_type", _("Unknown message type.")
        body = {k: v for k, v in message.items() if k not in ("id", "room")}
        try:
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
            if _unavailable(exc):
                logger.warning(
                    "room %s: %r unavailable (%s)", self.room_id, kind, type(exc).__name__
                )
                return message_id, "unavailable", _unavailable_text()
            logger.exception("room %s: message %r failed", self.room_id, kind)
            return message_id, "server_error", _("Something went wrong. Nothing was changed.")
        await self._send(answer)  # the sender first, then everybody
        await self._deliver(outbox)
        if kind == "leave":
            await self.close()
        return None

    async def _session_ended(self, message_id) -> bool:
        """False while the socket's teacher session lives (the action counts as the
        teacher's activity: ``accounts.sessions.session_alive``); otherwise answer
        ``session_ended``, stop handling this socket and close it (True)."""
        session_key, user_id = self.by_session
        try:
            alive = await self._db(account_sessions.session_alive, session_key, user_id)
        except Exception as exc:
            if not _unavailable(exc):
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

    async def room_session_ended(self, event: dict) -> None:
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

    async def room_session_check(self, event: dict) -> None:
        """Some sessions of this socket's account may have ended (a new password, a
        deactivated or deleted account): check this one (not counted as activity)
        and close the socket if it is gone. Unreachable services leave it to the
        next action's check."""
        if self.by_session is None or self.session_over:
            return
        try:
            alive = await self._db(account_sessions.session_alive, *self.by_session, refresh=False)
        except Exception as exc:
            if not _unavailable(exc):
                raise
            return
        if not alive:
            await self.room_session_ended({})

    async def room_event(self, event: dict) -> None:
        if self.session_over:
            return  # a logged-out teacher's socket hears nothing more
        await self.send(text_data=event["text"])
        if event.get("close") == "expired":
            await self.close(code=CLOSE_EXPIRED)

    async def room_resync(self, event: dict) -> None:
        """Messages for this room may have been lost (the channel layer lost Redis,
        or a broadcast failed): push a fresh snapshot, which the client applies like
        the one on connect. Without the database now, close with "try again later"
        so the client reconnects and gets its snapshot then."""
        if self.room_id is None or self.session_over:
            return
        try:
            snapshot = await self._db(selectors.snapshot, room_id=self.room_id, player=self.player)
        except Exception as exc:
            if not _unavailable(exc):
                raise
            logger.warning("room %s: resync unavailable (%s)", self.room_id, type(exc).__name__)
            await self.close(code=CLOSE_TRY_AGAIN)
            return
        await self._send(snapshot)

    async def room_kicked(self, event: dict) -> None:
        with translation.override(self.language):
            text = _("The host removed you from this room.")
        await self._send({"type": "kicked", "message": text})
        await self.close(code=CLOSE_REFUSED)
