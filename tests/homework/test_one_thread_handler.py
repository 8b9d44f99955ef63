"""Issue 28: the ASGI handler (config/handlers.py) runs the middleware chain and
the view of a request in one thread hop, where Django's own handler crossed
between the event loop and the request's thread about eleven times for a
homework placement (async-capable middleware below sync-only ones, each
``process_request``/``process_response`` through ``sync_to_async``).

Pinned here, through the ASGI application itself (no test client, no
uvicorn): the site serves HTTP with this handler; a placement crosses into a
thread at most three times (``request_started``, the chain with its view, the
response's close), and the identity lookup and the placement's transaction run
in the same thread, off the event loop; and what a visitor gets is the same as
from Django's handler -- statuses and the security headers (CSP, frame
options, private caching, ``Vary``), a refused CSRF token, the placement's
answer. Times go to bench/RESULTS-homework.md."""

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import SyncToAsync
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler

from config.handlers import OneThreadASGIHandler
from games.poker.rules import JOKER

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = "h" * 32
#: request_started, the middleware chain with the view, the response's close
MOST_HOPS = 3
NO_GAME = "00000000-0000-0000-0000-000000000000"
SECURITY_HEADERS = (
    "Content-Security-Policy",
    "X-Frame-Options",
    "Cache-Control",
    "Vary",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
)


def call(
    app,
    method: str,
    path: str,
    *,
    body=None,
    cookie: str = "",
    csrf: bool = True,
    host="testserver",
):
    """One HTTP request to an ASGI app: (status, headers, body bytes); a bytes
    ``body`` is sent as it is."""
    data = body if isinstance(body, bytes) else b""
    if body is not None and not isinstance(body, bytes):
        data = json.dumps(body).encode()
    cookies = f"csrftoken={CSRF}; {cookie}" if csrf else cookie
    headers = [
        (b"host", host.encode()),
        (b"accept-language", b"en"),
        (b"cookie", cookies.encode()),
        (b"content-length", str(len(data)).encode()),
    ]
    if body is not None:
        headers.append((b"content-type", b"application/json"))
    if csrf:
        headers.append((b"x-csrftoken", CSRF.encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("10.28.0.1", 40000),
        "server": ("testserver", 80),
    }
    answer: dict = {"body": b""}

    async def run():
        delivered = False

        async def receive():
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": data, "more_body": False}
            await asyncio.Event().wait()  # no disconnect while answering

        async def send(message):
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["headers"] = {
                    name.decode().lower(): value.decode() for name, value in message["headers"]
                }
            elif message["type"] == "http.response.body":
                answer["body"] += message.get("body", b"")

        LOOP_THREAD[0] = threading.get_ident()
        await app(scope, receive, send)

    # The event loop runs in a thread of its own, as uvicorn's does: the
    # suite's session browser (Playwright's sync API) keeps a loop running in
    # the test's thread, where asyncio.run() refuses to start another.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()
    return answer["status"], answer["headers"], answer["body"]


#: the thread of the last call's event loop
LOOP_THREAD = [0]


def counted_hops(monkeypatch) -> list[int]:
    """Count every crossing from the event loop into a thread (``sync_to_async``)."""
    hops = [0]
    original = SyncToAsync.__call__

    async def counting(self, *args, **kwargs):
        hops[0] += 1
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counting)
    return hops


def cookie_of(client) -> str:
    return f"{settings.PLAYER_COOKIE_NAME}={client.cookies[settings.PLAYER_COOKIE_NAME].value}"


def next_action(game) -> dict:
    cell = next(i for i, value in enumerate(game["cells"]) if value is None)
    if game["hand"] == JOKER:
        return {"type": "use_joker", "cell": cell, "value": 7}
    return {"type": "place", "cell": cell}


def test_the_site_serves_http_with_the_one_thread_handler():
    from config.asgi import application

    assert isinstance(application.application_mapping["http"], OneThreadASGIHandler)


def test_a_request_crosses_into_a_thread_at_most_three_times(make_assignment, pupils, monkeypatch):
    from accounts.middleware import PlayerIdentityMiddleware
    from homework import gate

    client = pupils[0][0]
    cookie = cookie_of(client)
    assignment = make_assignment()
    ours, django_own = OneThreadASGIHandler(), ASGIHandler()

    threads: dict[str, int] = {}
    identify, begin = PlayerIdentityMiddleware._identify, gate.HomeworkGate.begin

    def identify_here(request, token):
        threads["identity"] = threading.get_ident()
        return identify(request, token)

    def begin_here(self, **kwargs):
        threads["start"] = threading.get_ident()
        return begin(self, **kwargs)

    monkeypatch.setattr(PlayerIdentityMiddleware, "_identify", staticmethod(identify_here))
    monkeypatch.setattr(gate.HomeworkGate, "begin", begin_here)
    hops = counted_hops(monkeypatch)
    start = {"mode": "assignment", "assignment": assignment["id"]}
    status, _headers, body = call(ours, "POST", "/poker/api/games/", body=start, cookie=cookie)
    assert status == 201, body
    # the start is a lean route (issue 41): no hop at all, a kept thread
    assert hops[0] == 0
    # the lookup and the start share the request's thread, never the loop's
    assert threads["identity"] == threads["start"] != LOOP_THREAD[0]
    # a request of no lean route (the game read back): the one-thread way
    game_id = json.loads(body)["game"]["id"]
    status, _headers, body = call(ours, "GET", f"/poker/api/games/{game_id}/", cookie=cookie)
    assert status == 200, body
    assert 1 <= hops[0] <= MOST_HOPS
    assert threads["identity"] != LOOP_THREAD[0]
    hops[0] = 0

    # Django's own handler, same stack, same kind of request: the contrast that
    # shows the count is real (it crosses far more often)
    ours_hops, hops[0] = hops[0], 0
    status, _headers, body = call(
        django_own, "POST", "/poker/api/games/", body=start, cookie=cookie
    )
    assert status == 200, body  # the same game, continued
    assert hops[0] > ours_hops + 2


def test_a_placement_is_answered_in_one_call_on_a_kept_thread(make_assignment, pupils, monkeypatch):
    """Issue 41: the placement's view is lean (config/handlers.py): request_started,
    the chain with the identity and the placement, and request_finished run in one
    call on a thread the handler keeps -- no sync_to_async hop, no new thread."""
    from accounts.middleware import PlayerIdentityMiddleware
    from games.poker.services import solo

    cookie = cookie_of(pupils[0][0])
    ours = OneThreadASGIHandler()
    start = {"mode": "assignment", "assignment": make_assignment()["id"]}
    status, _headers, body = call(ours, "POST", "/poker/api/games/", body=start, cookie=cookie)
    assert status == 201, body
    game = json.loads(body)["game"]

    seen: list[tuple[str, str]] = []
    identify, act = PlayerIdentityMiddleware._identify, solo.act_in_solo_game

    def identify_here(request, token):
        seen.append(("identity", threading.current_thread().name))
        return identify(request, token)

    def act_here(**kwargs):
        seen.append(("placement", threading.current_thread().name))
        return act(**kwargs)

    monkeypatch.setattr(PlayerIdentityMiddleware, "_identify", staticmethod(identify_here))
    monkeypatch.setattr("games.poker.views.act_in_solo_game", act_here)
    hops = counted_hops(monkeypatch)
    for placed in (1, 2):
        status, _headers, body = call(
            ours,
            "POST",
            f"/poker/api/games/{game['id']}/actions/",
            body=next_action(game),
            cookie=cookie,
        )
        assert status == 200, body
        game = json.loads(body)["game"]
        assert sum(cell is not None for cell in game["cells"]) == placed
    assert hops[0] == 0
    names = {name for _what, name in seen}
    assert [what for what, _name in seen] == ["identity", "placement"] * 2
    # one kept pool of the handler's, not a thread made for the request
    assert all(name.startswith("lean-http") for name in names), names


@pytest.mark.parametrize(
    ("method", "path", "with_body", "csrf"),
    [
        ("GET", "/", False, True),
        ("GET", "/livez", False, True),
        ("GET", f"/poker/api/games/{NO_GAME}/", False, True),
        ("POST", "/poker/api/games/", True, False),  # no CSRF token: refused
        ("POST", "/poker/api/games/", True, True),
        # a lean route (config/handlers.py): the same answers through the lean chain
        ("POST", f"/poker/api/games/{NO_GAME}/actions/", True, False),  # refused
        ("POST", f"/poker/api/games/{NO_GAME}/actions/", True, True),  # not an action
        ("POST", f"/poker/api/games/{NO_GAME}/actions/", "place", True),  # no such game
        ("POST", f"/poker/api/games/{NO_GAME}/actions/", "nested", True),  # hostile JSON
        ("POST", f"/poker/api/games/{NO_GAME}/actions/", "host", True),  # a foreign Host
    ],
)
def test_what_a_visitor_gets_is_what_djangos_handler_gave(pupils, method, path, with_body, csrf):
    from games.poker.models import SoloGame

    cookie = cookie_of(pupils[0][0])
    body = {"mode": "easy"} if with_body else None
    if with_body == "place":
        body = {"type": "place", "cell": 0}
    host = "evil.example" if with_body == "host" else "testserver"
    if with_body == "nested":
        body = b'{"a":' * 1000 + b"1" + b"}" * 1000
    answers = []
    for app in (ASGIHandler(), OneThreadASGIHandler()):
        before = SoloGame.objects.count()
        status, headers, content = call(
            app, method, path, body=body, cookie=cookie, csrf=csrf, host=host
        )
        created = SoloGame.objects.count() - before
        answers.append(
            (status, created, {name: headers.get(name.lower()) for name in SECURITY_HEADERS})
        )
    django_answer, our_answer = answers
    assert our_answer == django_answer
    status, created, headers = our_answer
    if host != "testserver":
        assert status == 400 and created == 0  # refused before the identity or the view
        return
    assert headers["Content-Security-Policy"] and headers["X-Frame-Options"]
    if method == "POST" and not csrf:
        assert status == 403 and created == 0
    if method == "POST" and csrf and path == "/poker/api/games/":
        assert status == 201 and created == 1
    if path.endswith("/actions/") and csrf:
        assert status == (404 if with_body == "place" else 400) and created == 0
    if with_body == "nested":
        assert json.loads(content)["code"] == "too_deep"
    if path.startswith(f"/poker/api/games/{NO_GAME}"):
        assert "private" in headers["Cache-Control"]
    if method == "GET" and path.startswith(f"/poker/api/games/{NO_GAME}"):
        assert status == 404


def test_the_lean_chain_is_built_without_changing_the_sites_settings(monkeypatch):
    """The lean chain is the site's middleware less ``LEAN_SKIPPED``, built from
    that list: ``settings.MIDDLEWARE`` is never set, even for a moment (another
    thread starting up would have read the lean list)."""
    from django.conf import LazySettings

    from config.handlers import LEAN_SKIPPED, LeanChain, lean_middleware

    written: list[str] = []
    setattr_ = LazySettings.__setattr__

    def recording(self, name, value):
        written.append(name)
        setattr_(self, name, value)

    monkeypatch.setattr(LazySettings, "__setattr__", recording)
    chain = LeanChain()
    assert "MIDDLEWARE" not in written
    # the hooks of the lean list's middleware, none of the skipped ones'
    hooks = chain._view_middleware + chain._exception_middleware
    owners = {type(getattr(hook, "__self__", hook)).__module__ for hook in hooks}
    assert owners and not any(path.rsplit(".", 1)[0] in owners for path in LEAN_SKIPPED)
    assert len(lean_middleware()) == len(settings.MIDDLEWARE) - len(LEAN_SKIPPED)
