"""Matika inside the LMS's frame, in headless Chromium (issue 29 §2).

The LMS (tests/lti/lms.py) serves its course pages on ``localhost``; Matika runs on
``127.0.0.1``: a different site, so the tool's frame is truly cross-site. A framed
launch gets a frame grant (lti/framing.py): the LMS's origin (only) may frame the
pages that browser reaches, and the frame's cookies are ``SameSite=None; Secure;
Partitioned``. Without a grant, every page keeps ``frame-ancestors 'none'`` and
``SameSite=Lax`` cookies.
"""

import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
from django.conf import settings
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from homework.models import Assignment
from lti import launch
from lti.framing import MARKER_COOKIE
from lti.models import FrameGrant, GradeSend
from tests.homework.test_homework_browser import _play_to_end  # works on a frame too
from tests.lti.test_lti_tool import _course_with, _deep_link, link_url

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 360, "height": 740}
#: The LMS's frame on a phone: its page is 360 px wide, the frame a little less.
PHONE_FRAME = "&frame=1&frame_width=340"
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def framed_lms(make_lms, asgi_server):
    """A registered LMS whose pages are on ``localhost`` (cross-site to the tool)."""
    lms = make_lms(host="localhost")
    assert lms.register(link_url(asgi_server)).ok
    return lms


@pytest.fixture
def other_site():
    """A page on another origin (``localhost`` on another port, same site as the LMS)
    that frames whatever URL it is given: ``other_site(url)`` → its address."""
    target = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):  # noqa: N802
            body = (
                "<!doctype html><title>Not the LMS</title><h1>Somebody else</h1>"
                f"<iframe id='tool' name='tool' src='{target['url']}' width='900' height='600'>"
                "</iframe>"
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()

    def serve(url: str) -> str:
        target["url"] = url
        return f"http://localhost:{server.server_address[1]}/"

    yield serve
    server.shutdown()
    server.server_close()


def _tool_frame(page, path_pattern: str):
    """The ``<iframe id="tool">`` of the LMS page, once it shows ``path_pattern``."""
    regex = re.compile(path_pattern)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        frame = page.frame(name="tool")
        if frame is not None and regex.search(frame.url):
            frame.wait_for_load_state("load")
            return frame
        page.wait_for_timeout(200)
    frame = page.frame(name="tool")
    raise AssertionError(f"the frame never showed {path_pattern}: {frame.url if frame else None}")


def _until(page, condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not condition():
        page.wait_for_timeout(200)


def _cookie(context, name: str) -> dict | None:
    return next((c for c in context.cookies() if c["name"] == name), None)


def _framed_instructor(lms, page):
    """A deep-linked poker homework, its instructor launched inside the LMS's frame at
    1280 px: the homework page's path and the frame showing it."""
    course, instructor, _pupils = _course_with(lms)
    assignment = _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    page.set_viewport_size(DESKTOP)
    homework = f"/classes/{assignment.classroom_id}/homework/{assignment.pk}/"
    page.goto(lms.launch_page_url(course, link, instructor) + "&frame=1")
    return homework, _tool_frame(page, re.escape(homework) + "$")


def _csp_refusals(page) -> list[str]:
    found: list[str] = []
    page.on(
        "console",
        lambda message: found.append(message.text) if "frame-ancestors" in message.text else None,
    )
    return found


# --- in Chromium -----------------------------------------------------------------------


def test_a_framed_learner_plays_in_the_lms_frame_and_the_score_reaches_the_gradebook(
    framed_lms, asgi_server, page, celery_worker_process
):
    lms = framed_lms
    course, instructor, pupils = _course_with(lms, learners=["Adam Kovář"])
    assignment = _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    page.set_viewport_size(PHONE)
    responses = []
    page.on("response", lambda r: responses.append(r) if "/lti/launch/" in r.url else None)
    page.goto(lms.launch_page_url(course, link, pupils[0]) + PHONE_FRAME)
    frame = _tool_frame(page, r"/poker/play/\?assignment=\d+")
    # The LMS page stays on top; Matika plays inside its frame.
    assert page.url.startswith(lms.base_url)
    assert frame.locator(f'[data-assignment="{assignment.pk}"]').count() == 1
    launch = responses[0]
    assert launch.request.all_headers().get("sec-fetch-dest") == "iframe"
    set_cookies = launch.headers_array()
    player_cookie = [
        h["value"]
        for h in set_cookies
        if h["name"].lower() == "set-cookie"
        and h["value"].startswith(settings.PLAYER_COOKIE_NAME + "=")
    ]
    assert player_cookie and "SameSite=None" in player_cookie[0]
    assert "Partitioned" in player_cookie[0] and "Secure" in player_cookie[0]
    # The page itself allows exactly the LMS as its frame parent.
    csp = frame.evaluate(
        "async () => (await fetch(location.href, {credentials: 'include'}))"
        ".headers.get('content-security-policy')"
    )
    assert re.search(r"frame-ancestors " + re.escape(lms.base_url) + r"(;|$)", csp), csp
    frame.locator("[data-testid=start-homework]").click()
    frame.wait_for_selector("#poker-game:not([hidden])")
    assert frame.evaluate("document.documentElement.scrollWidth") <= 340
    _play_to_end(frame)
    lms.wait_for(lambda: "Adam Kovář" in lms.gradebook(course), what="the framed pupil's score")
    # The LMS holds the score as soon as the worker's post lands; the worker marks the
    # row sent just after, so the row is awaited, not read at once.
    lms.wait_for(lambda: GradeSend.objects.get().status == "sent", what="the grade row marked sent")
    grant = FrameGrant.objects.get(role="learner")
    assert grant.ticket_used_at is not None  # the frame kept its cookie: the ticket is spent
    # No first-party player cookie was made: only the partitioned one in the LMS's frame.
    cookie = _cookie(page.context, settings.PLAYER_COOKIE_NAME)
    assert cookie is not None and cookie["sameSite"] == "None" and cookie["secure"]


def test_a_framed_instructor_uses_the_homework_pages_in_the_frame_and_logout_ends_it(
    framed_lms, asgi_server, page
):
    homework, frame = _framed_instructor(framed_lms, page)
    expect(frame.locator("[data-testid=homework-extra-link]")).to_be_visible()
    # A class page reached inside the frame works with the framed session.
    frame.locator("[data-testid=homework-extra-link]").click()
    frame = _tool_frame(page, r"/grades/$")
    expect(frame.locator("h1")).to_be_visible()
    assert _cookie(page.context, MARKER_COOKIE) is not None
    grant = FrameGrant.objects.get(role="instructor")
    assert grant.ended_at is None
    # Logging out inside the frame ends the grant and deletes its cookie.
    frame.locator("form[action$='/logout/'] button").click()
    _until(page, lambda: FrameGrant.objects.get(pk=grant.pk).ended_at is not None)
    assert FrameGrant.objects.get(pk=grant.pk).ended_at is not None
    # (The browser takes the answer's cookies a moment after the server has written it.)
    _until(page, lambda: _cookie(page.context, MARKER_COOKIE) is None)
    assert _cookie(page.context, MARKER_COOKIE) is None
    assert _cookie(page.context, settings.SESSION_COOKIE_NAME) is None
    # The homework page in the frame now is an ordinary page: refused as a frame.
    refusals = _csp_refusals(page)
    with pytest.raises(PlaywrightError, match="ERR_BLOCKED_BY_RESPONSE"):
        frame.goto(asgi_server + homework)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not refusals:
        page.wait_for_timeout(200)
    assert any("frame-ancestors 'none'" in text for text in refusals), refusals


def test_an_origin_other_than_the_registered_lms_cannot_frame_a_framed_session(
    framed_lms, asgi_server, page, other_site
):
    lms = framed_lms
    homework, _frame = _framed_instructor(lms, page)
    # Another origin of the same site (the same cookie partition: the framed session's
    # cookies go along) frames the same page: the browser refuses it by the CSP.
    refusals = _csp_refusals(page)
    page.goto(other_site(asgi_server + homework))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not refusals:
        page.wait_for_timeout(200)
    assert any(f"frame-ancestors {lms.base_url}" in text for text in refusals), refusals
    frame = page.frame(name="tool")
    assert frame is None or frame.locator("[data-testid=homework-extra-link]").count() == 0


def test_when_the_frame_keeps_no_cookie_a_new_window_signs_in_again(framed_lms, asgi_server, page):
    """The browser refuses the frame's cookies (Safari, or third-party cookies off),
    simulated by dropping the login's cookie on its way to the frame: the launch is
    not bound to this browser, so nobody is signed in there; the frame says so and
    its button opens a new window, which initiates the login again (issue 38 §2)."""
    lms = framed_lms
    course, instructor, pupils = _course_with(lms, learners=["Bára Nová"])
    assignment = _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    page.set_viewport_size(PHONE)
    dropped = []

    def refuse_cookies(route):
        answer = route.fetch(max_redirects=0)
        headers = {k: v for k, v in answer.headers.items() if k.lower() != "set-cookie"}
        dropped.append(answer.headers.get("set-cookie", ""))
        route.fulfill(response=answer, headers=headers)
        page.context.unroute(logins)  # only the frame's login: the new window keeps them

    logins = re.compile(r".*/lti/login/.*")
    page.context.route(logins, refuse_cookies)
    page.goto(lms.launch_page_url(course, link, pupils[0]) + PHONE_FRAME + "&in_frame=1")
    frame = _tool_frame(page, r"/lti/launch/$")
    assert dropped and dropped[0]
    button = frame.locator("[data-testid=lti-open-window]")
    expect(button).to_be_visible()
    assert frame.evaluate("document.documentElement.scrollWidth") <= 340
    assert _cookie(page.context, settings.PLAYER_COOKIE_NAME) is None  # nobody signed in
    with page.context.expect_page() as opened:
        button.click()
    window = opened.value
    window.wait_for_url(re.compile(r".*/poker/play/\?assignment=\d+"), timeout=60_000)
    assert window.locator(f'[data-assignment="{assignment.pk}"]').count() == 1
    # Signed in first-party: an ordinary Lax cookie, and the homework can start.
    cookie = _cookie(page.context, settings.PLAYER_COOKIE_NAME)
    assert cookie is not None and cookie["sameSite"] == "Lax"
    window.wait_for_load_state("load")
    window.locator("[data-testid=start-homework]").click()
    window.wait_for_selector("#poker-game:not([hidden])")


def test_a_frame_that_lost_the_login_cookie_binds_the_launch_through_the_lms_storage(
    framed_lms, asgi_server, page
):
    """The LMS offers its client-side storage (``lti_storage_target``): the login
    puts the binding there (``lti.put_data``), the launch that came without the
    cookie gets it back (``lti.get_data``) and is accepted in the frame."""
    lms = framed_lms
    course, instructor, pupils = _course_with(lms, learners=["Cyril Malý"])
    assignment = _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    page.set_viewport_size(DESKTOP)
    dropped = []
    prefix = re.compile("^" + re.escape(launch.STATE_COOKIE_PREFIX))

    def lose_binding_cookie(route):
        # Between the login and the launch the frame loses the login's cookie.
        dropped.extend(c["name"] for c in page.context.cookies() if prefix.match(c["name"]))
        page.context.clear_cookies(name=prefix)
        route.continue_()

    page.context.route(re.compile(r".*/auth\?.*"), lose_binding_cookie)
    page.goto(lms.launch_page_url(course, link, pupils[0]) + "&frame=1&in_frame=1&storage=1")
    frame = _tool_frame(page, r"/poker/play/\?assignment=\d+")
    assert frame.locator(f'[data-assignment="{assignment.pk}"]').count() == 1
    assert len(dropped) == 1
    assert not [c for c in page.context.cookies() if prefix.match(c["name"])]
    assert page.evaluate("window.ltiStorageLog") == ["lti.put_data", "lti.get_data"]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
def test_the_deep_linking_picker_auto_posts_back_to_the_lms_in_chromium(
    framed_lms, asgi_server, page, viewport
):
    lms = framed_lms
    course, instructor, _pupils = _course_with(lms)
    page.set_viewport_size(viewport)
    width = "&frame_width=340" if viewport is PHONE else ""
    page.goto(lms.deep_link_page_url(course, instructor) + "&frame=1" + width)
    frame = _tool_frame(page, r"/lti/launch/$")
    button = frame.locator("[data-game=poker]")
    expect(button).to_be_visible()
    assert frame.evaluate("document.documentElement.scrollWidth") <= min(viewport["width"], 1000)
    button.click()
    # The return page's script posts the signed answer to the LMS (no click).
    frame = _tool_frame(page, r"/mod/lti/contentitem_return\.php")
    expect(frame.locator("li[data-link-id]")).to_have_count(1)
    assert not lms.deep_link_errors
    returned = lms.deep_link_returns[-1]
    assert len(returned["links"]) == 1 and len(returned["lineitems"]) == 1
    assignment = Assignment.objects.get()
    assert assignment.game == "poker"
    assert lms.links[course.id][-1].custom.get("matika_assignment") == str(assignment.pk)


# --- over HTTP ---------------------------------------------------------------------------


def test_an_ordinary_launch_keeps_lax_cookies_and_no_framing(framed_lms, asgi_server):
    lms = framed_lms
    course, instructor, _pupils = _course_with(lms)
    session = requests.Session()
    landing = lms.launch(session, instructor, course)
    assert landing.status_code == 200
    assert "frame-ancestors 'none'" in landing.headers["Content-Security-Policy"]
    launch = landing.history[0]
    assert "/lti/launch/" in launch.url
    cookies = launch.raw.headers.getlist("Set-Cookie")
    assert cookies and all("SameSite=Lax" in c and "Partitioned" not in c for c in cookies)
    assert not any(c.startswith(MARKER_COOKIE) for c in cookies)
    assert not FrameGrant.objects.exists()


def test_a_framed_launch_of_a_browser_without_fetch_metadata_gets_the_ticket_page(
    framed_lms, asgi_server
):
    """``document_target: iframe`` and no ``Sec-Fetch-Dest``: framed. A client that
    sends no Secure cookie over http (like a browser refusing the frame's cookie)
    lands on the "open in a new window" page, framed by the LMS only."""
    lms = framed_lms
    course, instructor, _pupils = _course_with(lms)
    landing = lms.launch(requests.Session(), instructor, course, document_target="iframe")
    assert landing.status_code == 200
    assert 'data-testid="lti-open-window"' in landing.text
    csp = landing.headers["Content-Security-Policy"]
    assert f"frame-ancestors {lms.base_url};" in csp  # exactly the LMS: no 'self', nobody else
    cookies = landing.history[0].raw.headers.getlist("Set-Cookie")
    assert any(c.startswith(MARKER_COOKIE + "=") for c in cookies)
    assert all("SameSite=None; Partitioned" in c and "Secure" in c for c in cookies)
    open_url = re.search(r'href="([^"]+/open/)"', landing.text).group(1)
    # The ticket is no bearer sign-in (issue 38 §3): in another browser it signs
    # nobody in, it starts the LMS's login again (the LMS decides who that is) ...
    window = requests.Session()
    first = window.get(asgi_server + open_url, timeout=60)
    assert first.status_code == 200 and first.url.startswith(lms.authorization_endpoint)
    assert f"login_hint={instructor.sub}" in first.url
    assert settings.SESSION_COOKIE_NAME not in window.cookies
    assert settings.PLAYER_COOKIE_NAME not in window.cookies
    # ... and works once.
    assert window.get(asgi_server + open_url, timeout=60).status_code == 403
    # A forged marker is dropped and changes nothing.
    forged = requests.get(asgi_server + "/", cookies={MARKER_COOKIE: "1:forged"}, timeout=60)
    assert "frame-ancestors 'none'" in forged.headers["Content-Security-Policy"]


def test_a_framed_instructor_downloads_the_homework_table_inside_the_frame(
    framed_lms, asgi_server, page
):
    """ "Download CSV / Excel" inside the LMS frame (issue 37 §4): the file arrives with
    the framed session's cookie (the plain link's request lacked it: 403)."""
    _homework, frame = _framed_instructor(framed_lms, page)
    for testid, first_bytes in (("homework-csv", b"\xef\xbb\xbf"), ("homework-xlsx", b"PK")):
        with page.expect_download() as info:
            frame.locator(f"[data-testid={testid}]").click()
        download = info.value
        assert download.failure() is None
        with open(download.path(), "rb") as saved:
            content = saved.read()
        assert content.startswith(first_bytes), content[:200]
        if testid == "homework-csv":
            header = content.decode("utf-8-sig").splitlines()[0]
            assert "Surname" in header or "Příjmení" in header, header
