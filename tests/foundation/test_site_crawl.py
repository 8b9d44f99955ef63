"""Every user-facing page, in a real headless Chromium, as the visitor who uses it.

Each page is opened at a phone width and at a desktop width by the kind of
visitor it is meant for (anyone, a player with a profile, a student who joined
a class by its code, the class's teacher, a staff member) and must:

- answer with the expected status, and load every script, style sheet, image and
  font of our own origin;
- log no JavaScript error, throw no page error and break no CSP rule (Chromium
  reports CSP violations as console errors);
- fit the window (no horizontal scrolling);
- name its language in ``<html lang>``, have exactly one ``<h1>``, an ``alt`` on
  every image, a label on every form control and a name on every button and link.

A representative subset is also opened in Czech: the page says it is Czech and
the navigation speaks Czech.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.conf import settings
from django.core import signing

from accounts import identity
from accounts import services as account_services
from games.rooms import services as rooms
from tests.classrooms import factories
from tests.classrooms.login import session_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live]

WIDTHS = {
    "phone": {"width": 360, "height": 740},
    "desktop": {"width": 1280, "height": 800},
}
# Sub-resources whose failure breaks the page (fetches are the page's own business).
CHECKED_RESOURCES = {"script", "stylesheet", "image", "font"}
TIMEOUT = 15_000

# Runs in the page; returns a list of human-readable problems.
PAGE_CHECKS = """
() => {
  const problems = [];
  const describe = (el) => el.outerHTML.replace(/\\s+/g, " ").slice(0, 140);
  const text = (el) => (el ? el.textContent.replace(/\\s+/g, " ").trim() : "");
  const labelledBy = (el) =>
    (el.getAttribute("aria-labelledby") || "")
      .split(/\\s+/)
      .map((id) => text(document.getElementById(id)))
      .join(" ")
      .trim();

  const lang = document.documentElement.getAttribute("lang");
  if (!lang) problems.push("<html> has no lang");
  const h1s = document.querySelectorAll("h1").length;
  if (h1s !== 1) problems.push(`${h1s} <h1> elements instead of one`);
  const overflow = document.documentElement.scrollWidth - window.innerWidth;
  if (overflow > 1) {
    // Name the innermost elements sticking out (outside any scrolling box).
    const sticksOut = (el) => el.getBoundingClientRect().right > window.innerWidth + 1;
    const scrolled = (el) => {
      for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== "visible") return true;
      }
      return false;
    };
    const wide = [...document.querySelectorAll("body *")]
      .filter((el) => sticksOut(el) && !scrolled(el) && ![...el.children].some(sticksOut))
      .slice(0, 3)
      .map(describe);
    problems.push(`horizontal overflow of ${overflow}px: ${wide.join(" | ")}`);
  }
  for (const img of document.querySelectorAll("img")) {
    if (!img.hasAttribute("alt")) problems.push(`image without alt: ${describe(img)}`);
  }
  const controls = document.querySelectorAll(
    "input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image]), select, textarea"
  );
  for (const control of controls) {
    const named =
      (control.labels && [...control.labels].some((label) => text(label))) ||
      (control.getAttribute("aria-label") || "").trim() ||
      labelledBy(control);
    if (!named) problems.push(`form control without a label: ${describe(control)}`);
  }
  const actions = document.querySelectorAll(
    "a[href], button, [role=button], input[type=submit], input[type=button], input[type=reset]"
  );
  for (const action of actions) {
    const named =
      (action.getAttribute("aria-label") || "").trim() ||
      labelledBy(action) ||
      text(action) ||
      (action.getAttribute("title") || "").trim() ||
      (action.matches("input") && (action.value || "").trim()) ||
      [...action.querySelectorAll("img[alt], svg title")].some((el) => (el.alt || el.textContent).trim());
    if (!named) problems.push(`button or link without a name: ${describe(action)}`);
  }
  return problems;
}
"""


@dataclass
class Visit:
    """One page to open; ``ready`` is a selector the page holds once its scripts ran (it may
    be folded away, as a running room's connection line is on a phone)."""

    path: str
    status: int = 200
    ready: str | None = None
    before: Callable | None = None  # a step in the page (e.g. submitting a form) once checked
    label: str = ""  # what the report calls the page when its path does not say it


@dataclass
class Visitor:
    """A browser profile: cookies to start with and the pages this visitor opens."""

    cookies: dict[str, str] = field(default_factory=dict)
    visits: list[Visit] = field(default_factory=list)
    downloads: list[str] = field(default_factory=list)  # files (exports, CSV) fetched at the end


class Watcher:
    """Collects console errors, page errors and failed sub-requests of one page."""

    def __init__(self, page, origin: str) -> None:
        self.origin = origin
        self.document_url = ""
        self.expected_status = 200
        self.problems: list[str] = []
        self.in_flight: set = set()
        page.on("request", lambda request: self.in_flight.add(request))
        page.on("requestfinished", lambda request: self.in_flight.discard(request))
        page.on("requestfailed", lambda request: self.in_flight.discard(request))
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("response", self._response)
        page.on("requestfailed", self._failed)

    def start(self, url: str, status: int) -> None:
        self.document_url = url
        self.expected_status = status
        self.problems = []

    def settle(self, page) -> None:
        """Wait until no request has been open for a moment: the page's scripts have run.

        Cheaper than Playwright's "networkidle" (half a second of silence per page),
        which would double the crawl's time.
        """
        quiet = 0
        for _tick in range(100):
            quiet = 0 if self.in_flight else quiet + 1
            if quiet >= 3:
                return
            page.wait_for_timeout(50)

    def _console(self, message) -> None:
        if message.type != "error":
            return
        location = message.location.get("url", "")
        expected = self.expected_status >= 400 and location.split("?")[0] == self.document_url
        if expected and message.text.startswith("Failed to load resource"):
            return  # the page itself answers 404 on purpose
        self.problems.append(f"console error: {message.text} ({location})")

    def _response(self, response) -> None:
        request = response.request
        if (
            request.resource_type in CHECKED_RESOURCES
            and response.url.startswith(self.origin)
            and response.status >= 400
        ):
            self.problems.append(f"{response.status} for {request.resource_type} {response.url}")

    def _failed(self, request) -> None:
        if request.resource_type in CHECKED_RESOURCES and request.url.startswith(self.origin):
            self.problems.append(f"failed {request.resource_type} {request.url}: {request.failure}")


def _player_cookie(nickname: str) -> tuple[object, dict[str, str]]:
    player, token = account_services.create_profile(browser_token=None, nickname=nickname)
    return player, {settings.PLAYER_COOKIE_NAME: signing.dumps(token, salt=identity.SALT)}


def _room(game: str, mode: str, host, guests=(), *, started: bool = False, **game_settings):
    room = rooms.create_room(game=game, mode=mode, host=host, settings=game_settings)
    for guest in guests:
        rooms.join_room(room=room, player=guest)
    room.refresh_from_db()
    if started and room.status == "lobby":  # a full duel started at the last join
        rooms.start_room(room=room, actor=host)
        room.refresh_from_db()
    return room


def _room_visit(room) -> Visit:
    return Visit(
        f"/rooms/{room.code}/",
        ready="[data-room-connection][data-state=online]",
        label=f"room {room.game} {room.mode} ({room.status})",
    )


def anyone() -> Visitor:
    pages = [
        "/",
        "/privacy/",
        "/poker/",
        "/poker/play/",
        "/poker/ranked/",
        "/poker/daily/",
        "/poker/leaderboard/",
        "/poker/daily/table/",
        "/poker/scoresheet/",
        "/poker/picker/",
        "/poker/rules/",
        "/poker/rules/print/",
        "/poker/offline/",
        "/poker/room/new/group/",
        "/poker/room/new/duel/",
        "/mathesso/",
        "/mathesso/rules/",
        "/mathesso/rules/standart/",
        "/abaku/",
        "/abaku/rules/",
        "/theorems/",
        "/theorems/rules/",
        "/theorems/decks/new/",
        "/rooms/",
        "/classes/join/",
        "/accounts/player/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/accounts/password/reset/sent/",
        "/accounts/password/reset/MQ/bad-token/",
    ]
    host, _ = _player_cookie("Hostitel")
    guest, _ = _player_cookie("Host")
    open_room = _room("mathesso", "table", host)
    full_room = _room("poker", "duel", host, [guest], started=True)
    visits = [Visit(path) for path in pages]
    visits += [
        Visit(f"/rooms/{open_room.code}/", label="room to join (lobby)"),
        Visit(f"/rooms/{full_room.code}/", label="room to join (running)"),
        Visit("/api/docs/", ready=".swagger-ui .info .title"),
    ]
    visits.append(Visit("/this-page-does-not-exist/", status=404))
    return Visitor(visits=visits)


def player() -> Visitor:
    """A player with a profile: their profile, the competitions and a room of every game mode."""
    me, cookies = _player_cookie("Bystrý Sokol")
    other, _ = _player_cookie("Tichý Rys")
    third, _ = _player_cookie("Modrá Sova")
    lobby = [
        _room("poker", "group", me),
        _room("poker", "duel", me),
        _room("mathesso", "table", me),
        _room("mathesso", "solo", me),
        _room("abaku", "table", me),
        _room("abaku", "solo", me),
        _room("theorems", "table", me),
    ]
    # In running rooms of more players the visitor is a guest, so both views are covered.
    running = [
        _room("poker", "group", other, [me, third], started=True),
        _room("poker", "duel", other, [me], started=True),
        _room("mathesso", "table", other, [me], started=True),
        _room("mathesso", "solo", me, started=True),
        _room("abaku", "table", other, [me], started=True),
        _room("abaku", "solo", me, started=True),
        _room("theorems", "table", other, [me], started=True),
    ]
    dealing = _room("poker", "group", me, [other, third], started=True)
    visits = [
        Visit("/accounts/player/"),
        Visit("/poker/ranked/"),
        Visit("/poker/daily/"),
        Visit("/poker/leaderboard/"),
        Visit("/theorems/decks/new/"),
        Visit("/rooms/"),
    ]
    visits += [_room_visit(room) for room in [*lobby, *running, dealing]]
    visits.append(Visit(f"/poker/room/{dealing.code}/projector/", label="poker projector"))
    downloads = ["/accounts/player/export.json", "/accounts/player/export.csv"]
    return Visitor(cookies=cookies, visits=visits, downloads=downloads)


def _class_with_results():
    teacher = factories.make_teacher("ucitelka@skola.cz", name="Paní Učitelka")
    classroom = factories.make_class(teacher, roster="Adam Kovář\nBára Nová\nCyril Pekný")
    members = [factories.add_member(classroom, roster_name=name) for name in ("Adam", "Bára")]
    record = factories.play(classroom, {members[0].player: 30, members[1].player: 12})
    return teacher, classroom, members, record


def teacher() -> Visitor:
    user, classroom, members, record = _class_with_results()
    base = f"/classes/{classroom.pk}"
    pages = [
        "/classes/",
        "/classes/new/",
        f"{base}/",
        f"{base}/edit/",
        f"{base}/qr/",
        f"{base}/members/",
        f"{base}/members/{members[0].pk}/",
        f"{base}/results/",
        f"{base}/sessions/{record.pk}/",
        "/accounts/password/change/",
        "/accounts/player/",
    ]
    downloads = [
        f"{base}/results/sessions.csv",
        f"{base}/results/participation.csv",
        f"{base}/members/{members[0].pk}/results.csv",
        f"{base}/sessions/{record.pk}/results.csv",
    ]
    return Visitor(
        cookies=session_cookie(user), visits=[Visit(path) for path in pages], downloads=downloads
    )


def student() -> Visitor:
    """A student without a profile joins the class by its code, then opens the class page."""
    _teacher, classroom, _members, _record = _class_with_results()
    code = classroom.join_code

    claim_code = classroom.members.get(roster_name="Cyril Pekný").claim_code

    def join(page) -> None:
        # pupils see first names and initials; the printed claim code lets them in at once
        page.click("label.roster-choice:has-text('Cyril P.')")
        page.fill("#id_claim_code", claim_code)
        with page.expect_navigation():
            page.click("main button[type=submit]")

    return Visitor(
        visits=[
            Visit("/classes/join/"),
            Visit(f"/classes/join/{code}/", before=join),
            Visit(f"/classes/{classroom.pk}/"),
            Visit("/classes/"),
            Visit("/accounts/player/"),
        ],
        downloads=[f"/classes/{classroom.pk}/my-results.csv", "/accounts/player/export.json"],
    )


def staff() -> Visitor:
    user = factories.make_teacher("spravce@matika.cz", is_staff=True)
    return Visitor(
        cookies=session_cookie(user),
        visits=[Visit("/staff/"), Visit("/classes/")],
    )


VISITORS = {
    "anyone": anyone,
    "player": player,
    "student": student,
    "teacher": teacher,
    "staff": staff,
}


def _summarised(path: str, problems: list[str]) -> list[str]:
    """One line per kind of problem: a board of 25 unnamed cells is one finding, not 25."""
    counts = Counter(re.sub(r'(data-\w+)="\d+"', r'\1="#"', problem) for problem in problems)
    return [f"{path}: {kind}" + (f" (x{n})" if n > 1 else "") for kind, n in counts.items()]


def _crawl(
    browser,
    asgi_server: str,
    visitor: Visitor,
    viewport: dict,
    locale: str,
    extra_checks: Callable | None = None,
) -> list[str]:
    language = locale.split("-")[0]
    context = browser.new_context(base_url=asgi_server, viewport=viewport, locale=locale)
    context.set_default_timeout(TIMEOUT)
    cookies = {settings.LANGUAGE_COOKIE_NAME: language, **visitor.cookies}
    context.add_cookies([{"name": k, "value": v, "url": asgi_server} for k, v in cookies.items()])
    page = context.new_page()
    watcher = Watcher(page, asgi_server)
    found: list[str] = []
    try:
        for visit in visitor.visits:
            url = asgi_server + visit.path
            watcher.start(url, visit.status)
            response = page.goto(url)
            status = response.status if response else None
            if status != visit.status:
                watcher.problems.append(f"status {status} instead of {visit.status}")
            if visit.ready:
                page.wait_for_selector(visit.ready, state="attached")
            watcher.settle(page)
            problems = watcher.problems + page.evaluate(PAGE_CHECKS)
            if extra_checks:
                problems += extra_checks(page, visit)
            found += _summarised(visit.label or visit.path, problems)
            if visit.before:
                visit.before(page)
        for path in visitor.downloads:
            download = context.request.get(asgi_server + path)
            kind = download.headers.get("content-type", "")
            if download.status != 200 or kind.startswith("text/html"):
                found.append(f"{path}: download answered {download.status} {kind}")
    finally:
        context.close()
    return found


# The phone width runs in tests/a11y/test_axe.py: this crawl and axe in one load of each page.
@pytest.mark.parametrize("width", ["desktop"])
@pytest.mark.parametrize("visitor_name", VISITORS)
def test_every_page_is_clean_for_its_visitor(
    transactional_db, browser, asgi_server, visitor_name, width
):
    visitor = VISITORS[visitor_name]()
    problems = _crawl(browser, asgi_server, visitor, WIDTHS[width], "en-GB")
    assert not problems, "\n".join(problems)


CZECH_PATHS = {
    "/",
    "/poker/",
    "/poker/play/",
    "/poker/rules/",
    "/mathesso/",
    "/abaku/",
    "/theorems/",
    "/rooms/",
    "/classes/join/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/player/",
    "/privacy/",
}
CZECH_NAVIGATION = ("Hry", "Třídy", "Soukromí")
# The page's own words: headings, controls, links and paragraphs of <main>.
UI_TEXTS = """
() => [...document.querySelectorAll(
  "main :is(h1, h2, h3, legend, label, button, a, p, li, th, option, summary)"
)].map((el) => el.textContent.replace(/\\s+/g, " ").trim()).filter(Boolean)
"""


def _english_phrases(text: str) -> bool:
    """Text that could only be an untranslated English phrase: two or more plain
    words of three or more letters and nothing Czech. Names of games, nicknames
    and codes do not qualify."""
    words = re.findall(r"[^\W\d_]{3,}", text)
    return len(words) >= 2 and text.isascii()


def test_czech_pages_speak_czech(transactional_db, browser, asgi_server):
    """At a phone width, where longer Czech words are the likeliest to break a layout."""
    visitor = anyone()
    visitor.visits = [visit for visit in visitor.visits if visit.path in CZECH_PATHS]
    english: dict[str, set[str]] = {}
    context = browser.new_context(base_url=asgi_server, viewport=WIDTHS["phone"], locale="en-GB")
    context.add_cookies([{"name": "matika_lang", "value": "en", "url": asgi_server}])
    page = context.new_page()
    for visit in visitor.visits:
        page.goto(visit.path)
        english[visit.path] = set(page.evaluate(UI_TEXTS))
    context.close()

    def czech(page, visit: Visit) -> list[str]:
        problems = []
        if page.get_attribute("html", "lang") != "cs":
            problems.append(f"<html lang> is {page.get_attribute('html', 'lang')!r}")
        chrome = page.text_content("header") + page.text_content("footer")
        missing = [word for word in CZECH_NAVIGATION if word not in chrome]
        if missing:
            problems.append(f"the navigation lacks {missing}")
        same = set(page.evaluate(UI_TEXTS)) & english[visit.path]
        problems += [
            f"English text left: {text!r}" for text in sorted(same) if _english_phrases(text)
        ]
        return problems

    problems = _crawl(browser, asgi_server, visitor, WIDTHS["phone"], "cs-CZ", czech)
    assert not problems, "\n".join(problems)
