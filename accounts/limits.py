"""Limits that stop guessing codes and mass creation, but never a class.

Counters are django-ratelimit's (fixed windows in the cache, i.e. Redis). Who is
counted is decided here (docs/decisions.md, "Limits"):

- A request with a browser identity (a logged-in teacher, the browser's selected
  profile, or at least a known browser) is counted in its own bucket *at its
  address*: ``identity@address``. Thirty pupils behind one school address are
  thirty buckets, so one pupil's typos never touch another pupil.
- A request without any identity (a fresh browser, or an attacker dropping
  cookies) shares the address's bucket, whose ceiling is much higher (a whole
  class arrives without cookies at once).
- Code lookups count misses only: a valid code is never counted. A bucket over
  its limit is refused every lookup until its window ends, valid or not,
  otherwise the refusal would itself tell valid codes apart.
- A class or room *link* (the teacher's class link and QR, a room's share link
  and QR) carries a key: an HMAC over the object and its code
  (:func:`link_key`). A visit by a correctly keyed link is never counted and
  never refused, even past the address's ceiling, so someone burning a school's
  address cannot stop a class following the teacher's link. A wrong key is
  counted as a miss and otherwise answered like a typed code; a link without a
  key is a typed code.
- A code miss is counted per *browser* (not per selected profile: a browser
  switching among its profiles is one guesser) and, whoever made it, once more
  against the address's ceiling over all misses (``Limit.address_ceiling``):
  new browsers are cheap (a known profile code brings one without limit), the
  address is not. Members and keyed visits are never counted, so a class goes
  on past the ceiling.
- Creations (rooms, profiles, class joins) count what was created. What a
  correctly keyed class or room link creates counts in that class's or room's
  own budget (:func:`for_link`), not the address's: 300 profiles made at a
  school do not stop the next class following its teacher's QR code.
- Joins that wait for the teacher have a share of the class's waiting list per
  browser and per address (``class_pending``), so one guesser cannot fill it.
- When the store is down the limits fail open: the request is served and a
  warning is logged (a Redis outage must not take the class with it).

The address is ``REMOTE_ADDR`` as Django sees it: uvicorn sets it from
``X-Forwarded-For`` only for the deployment's own proxy (platform/), so a client
cannot choose it. IPv6 addresses are counted per /64 (one household or school).
"""

from __future__ import annotations

import base64
import ipaddress
import logging
import math
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils.crypto import constant_time_compare, salted_hmac
from django_ratelimit.core import get_usage

if TYPE_CHECKING:
    from django.http import HttpRequest

logger = logging.getLogger(__name__)

# The request being served (set by accounts.middleware), for services that limit
# what they create without being handed the request (``rooms.lifecycle``).
CURRENT_REQUEST: ContextVar = ContextVar("matika_limits_request", default=None)


@dataclass(frozen=True)
class Limit:
    """One kind of counted event: its group and the two rates (django-ratelimit syntax)."""

    group: str
    identity_rate: str  # per browser identity at one address
    address_rate: str  # per address, for requests that carry no identity
    # Count the browser itself, not whoever is selected in it: every new profile
    # is selected at once, so a per-profile count would never add up.
    per_browser: bool = False
    # A rate for every event at one address, identity or not (a ceiling on the sum).
    address_ceiling: str | None = None


def _rate(name: str, default: str) -> str:
    return getattr(settings, "MATIKA_LIMITS", {}).get(name, default)


def code_misses() -> Limit:
    """Wrong class, room and profile codes (one budget for all codes)."""
    return Limit(
        "code-misses",
        _rate("code_misses_identity", "10/15m"),
        _rate("code_misses_address", "100/15m"),
        per_browser=True,
        address_ceiling=_rate("code_misses_address_all", "200/15m"),
    )


def room_creations() -> Limit:
    return Limit(
        "room-creations",
        _rate("room_creations_identity", "60/h"),
        _rate("room_creations_address", "300/h"),
    )


def profile_creations() -> Limit:
    return Limit(
        "profile-creations",
        _rate("profile_creations_identity", "10/h"),
        _rate("profile_creations_address", "300/h"),
        per_browser=True,
    )


def room_creations_address() -> Limit:
    """Every room opened from one address, whoever opened it (a ceiling on the sum)."""
    return Limit("room-creations-all", "1/h", _rate("room_creations_address_all", "1000/h"))


def class_joins() -> Limit:
    return Limit(
        "class-joins",
        _rate("class_joins_identity", "10/h"),
        _rate("class_joins_address", "300/h"),
    )


def class_pending() -> Limit:
    """Joins of one class that wait for the teacher, per browser and per address:
    a share of the class's waiting list (``classrooms.services.MAX_PENDING``), so
    one guesser with the code cannot fill it. Count against :func:`for_object`."""
    return Limit(
        "class-pending",
        _rate("class_pending_browser", "5/h"),
        _rate("class_pending_address", "40/h"),
        per_browser=True,
        address_ceiling=_rate("class_pending_address", "40/h"),
    )


@dataclass(frozen=True)
class Client:
    """Who is asking, as far as the limits care: an identity (or None) and an address."""

    identity: str | None
    address: str
    browser: str | None = None  # the browser's own identity (``Limit.per_browser``)


def address_of(raw: str | None) -> str:
    """The counted address: IPv4 as is, IPv6 by its /64 prefix."""
    try:
        address = ipaddress.ip_address((raw or "").strip())
    except ValueError:
        return raw or "unknown"
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _identity(user: Any, player: Any, browser: Any) -> str | None:
    if user is not None and getattr(user, "is_authenticated", False):
        return f"u{user.pk}"
    # The selected profile before the browser: a known profile code can bring the
    # profile to any number of new browsers, but they all count as one.
    if player is not None:
        return f"p{player.pk}"
    if browser is not None:
        return f"b{browser.pk}"
    return None


def client_of(request: HttpRequest) -> Client:
    browser = getattr(request, "browser", None)
    return Client(
        identity=_identity(
            getattr(request, "user", None), getattr(request, "player", None), browser
        ),
        address=address_of(request.META.get("REMOTE_ADDR")),
        browser=f"b{browser.pk}" if browser is not None else None,
    )


def client_of_scope(
    scope: dict[str, Any], *, user: Any = None, player: Any = None, browser: Any = None
) -> Client:
    """The same for a WebSocket handshake (``scope["client"]`` is uvicorn's peer,
    already rewritten from the trusted proxy's ``X-Forwarded-For``)."""
    peer = scope.get("client") or (None, None)
    return Client(
        identity=_identity(user, player, browser),
        address=address_of(peer[0]),
        browser=f"b{browser.pk}" if browser is not None else None,
    )


def for_object(client: Client, kind: str, pk: int) -> Client:
    """The client's buckets for one object (a class): the same browser and address,
    counted apart from every other object."""
    return Client(
        identity=client.identity, address=f"{client.address}>{kind}:{pk}", browser=client.browser
    )


def for_link(client: Client, kind: str, pk: int) -> Client:
    """The client as counted for creations through a correctly keyed link of a
    class or room (``kind``, ``pk``): per browser as usual, but the object's own
    budget instead of the address's, which a busy school may have used up."""
    return Client(identity=client.identity, address=f"{kind}:{pk}", browser=client.browser)


def current_client(*, player: Any = None) -> Client | None:
    """The client of the request being served (``player`` as its identity when
    given), or None outside a request (tasks, shell, tests calling services)."""
    request = CURRENT_REQUEST.get()
    if request is None:
        return None
    client = client_of(request)
    if player is not None:
        return Client(identity=f"p{player.pk}", address=client.address, browser=client.browser)
    return client


def _buckets(limit: Limit, client: Client) -> list[tuple[str, str, str]]:
    """(group, key, rate) of every bucket an event of ``limit`` by ``client`` counts in."""
    identity = (client.browser or client.identity) if limit.per_browser else client.identity
    if identity is not None:
        buckets = [(limit.group, f"{identity}@{client.address}", limit.identity_rate)]
    else:
        buckets = [(limit.group, client.address, limit.address_rate)]
    if limit.address_ceiling is not None:
        buckets.append((f"{limit.group}-all", client.address, limit.address_ceiling))
    return buckets


def _usage(group: str, value: str, rate: str, *, increment: bool) -> dict | None:
    try:
        return get_usage(
            None,
            group=group,
            key=lambda _group, _request: value,
            rate=rate,
            increment=increment,
        )
    except Exception as exc:  # the store (Redis) is away: fail open
        logger.warning("limit %s not applied, store unavailable: %s", group, exc)
        return None


def _used_up(limit: Limit, client: Client) -> list[dict]:
    usages = [_usage(*bucket, increment=False) for bucket in _buckets(limit, client)]
    return [usage for usage in usages if usage is not None and usage["count"] >= usage["limit"]]


def blocked(limit: Limit, client: Client) -> bool:
    """Whether the client has used up ``limit`` in the current window (counts nothing)."""
    return bool(_used_up(limit, client))


def wait_minutes(limit: Limit, client: Client) -> int:
    """Whole minutes until a blocked client may try again (at least 1)."""
    seconds = max((usage.get("time_left", 0) for usage in _used_up(limit, client)), default=0)
    return max(1, math.ceil(seconds / 60))


def count(limit: Limit, client: Client) -> None:
    """Count one event (a miss, a creation) against the client's buckets."""
    for bucket in _buckets(limit, client):
        _usage(*bucket, increment=True)


# --- keyed links ---------------------------------------------------------------------

LINK_KEY_PARAM = "k"  # the query parameter that carries a link's key
_LINK_KEY_BYTES = 15  # 120 bits: 20 URL-safe characters, a small QR code


def link_key(kind: str, pk: int, code: str) -> str:
    """The key of a class or room link (``kind``: "class" or "room").

    It signs the object *and* its code, so a renewed class code or another room
    that later gets the same code invalidates old links. Only the server can
    make one (``SECRET_KEY``); it is not guessable like the 6-character code."""
    digest = salted_hmac(
        f"matika.links.{kind}", f"{pk}:{code.upper()}", algorithm="sha256"
    ).digest()
    return base64.urlsafe_b64encode(digest[:_LINK_KEY_BYTES]).decode("ascii")


def link_key_valid(kind: str, pk: int, code: str, key: str) -> bool:
    return constant_time_compare(link_key(kind, pk, code), (key or "")[:64])


def link_key_of(request: HttpRequest) -> str | None:
    """The key a request carries (query string, or the form a keyed page posted), or None."""
    key = request.GET.get(LINK_KEY_PARAM)
    if not key and request.method == "POST":
        key = request.POST.get(LINK_KEY_PARAM)
    return key or None
