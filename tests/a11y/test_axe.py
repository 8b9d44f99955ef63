"""axe-core over every page of the site crawl and every state of a game, in English
and Czech: no critical, serious or moderate violation of WCAG 2.2 A/AA.

The pages come from the site crawl (``tests/foundation/test_site_crawl.py``: each
visitor with the pages meant for them) plus the states the crawl does not reach:
the host's and the projector's views, games that ended, and homework pages of
every game for the teacher and the pupil. English is checked at a phone's width,
Czech at a desktop's, so both layouts are covered without doubling the pages.

Cheap by sharing: in English the crawl's visitors are audited in the same page
loads as the crawl's own checks at a phone's width (``crawl._crawl`` with axe as
its extra check; the crawl itself runs only the desktop width). In Czech, where
only the words differ from the English run, each kind of page is audited once:
the crawl's Czech pages, the teacher's and the pupil's pages and every game state,
not the player's rooms of every game mode again (the host's rooms of every game
are) nor the staff's dashboard.
"""

from __future__ import annotations

from datetime import timedelta
from typing import cast

import pytest
from django.utils import timezone

from accounts.models import PlayerProfile
from games.rooms import services as rooms
from homework import services as homework
from tests.a11y import axe
from tests.classrooms import factories
from tests.classrooms.login import session_cookie
from tests.foundation import test_site_crawl as crawl

pytestmark = [pytest.mark.browser, pytest.mark.live]

LANGUAGES = {"en": ("en-GB", crawl.WIDTHS["phone"]), "cs": ("cs-CZ", crawl.WIDTHS["desktop"])}


def _ended(game: str, mode: str, host, guests=()):
    room = crawl._room(game, mode, host, guests, started=True)
    rooms.end_room(room=room, actor=host)
    room.refresh_from_db()
    return room


def host() -> crawl.Visitor:
    """The host of running rooms and of rooms that ended, and the poker projector."""
    me, cookies = crawl._player_cookie("Bystrý Sokol")
    other, _ = crawl._player_cookie("Tichý Rys")
    running = [
        crawl._room(game, mode, me, [other], started=True)
        for game, mode in [("poker", "group"), ("mathesso", "table"), ("abaku", "table")]
    ]
    running.append(crawl._room("theorems", "table", me, [other], started=True))
    ended = [
        _ended("poker", "group", me, [other]),
        _ended("poker", "duel", me, [other]),
        _ended("mathesso", "table", me, [other]),
        _ended("mathesso", "solo", me),
        _ended("abaku", "table", me, [other]),
        _ended("abaku", "solo", me),
        _ended("theorems", "table", me, [other]),
    ]
    lobby = crawl._room("poker", "group", me)
    visits = [crawl._room_visit(room) for room in [*running, *ended]]
    for room, state in [(lobby, "lobby"), (running[0], "running"), (ended[0], "final")]:
        visits.append(
            crawl.Visit(f"/poker/room/{room.code}/projector/", label=f"poker projector ({state})")
        )
    return crawl.Visitor(cookies=cookies, visits=visits)


def _homework_class():
    teacher = factories.make_teacher("ucitel@skola.cz", name="Pan Učitel")
    classroom = factories.make_class(teacher, roster="Adam Kovář\nBára Nová")
    due = timezone.now() + timedelta(days=3)
    settings = {
        "poker": {"table": "matematico", "difficulty": "easy"},
        "mathesso": {},
        "abaku": {},
    }
    assignments = {
        game: homework.create_assignment(
            classroom=classroom,
            user=teacher,
            game=game,
            title=f"{game} do pátku",
            settings=game_settings,
            opens_at=None,
            due_at=due,
        )
        for game, game_settings in settings.items()
    }
    return teacher, classroom, assignments


def homework_teacher() -> crawl.Visitor:
    teacher, classroom, assignments = _homework_class()
    base = f"/classes/{classroom.pk}/homework"
    visits = [crawl.Visit(f"{base}/new/")]
    visits += [crawl.Visit(f"{base}/{a.pk}/") for a in assignments.values()]
    visits.append(crawl.Visit(f"{base}/{assignments['poker'].pk}/edit/"))
    return crawl.Visitor(cookies=session_cookie(teacher), visits=visits)


def homework_pupil() -> crawl.Visitor:
    _teacher, classroom, assignments = _homework_class()
    pupil, cookies = crawl._player_cookie("Adam")
    factories.add_member(classroom, cast(PlayerProfile, pupil), roster_name="Adam Kovář")
    visits = [crawl.Visit(f"/classes/{classroom.pk}/")]
    visits += [
        crawl.Visit(f"/poker/play/?assignment={assignments['poker'].pk}", label="poker homework"),
        crawl.Visit(f"/mathesso/homework/{assignments['mathesso'].pk}/"),
        crawl.Visit(f"/abaku/homework/{assignments['abaku'].pk}/"),
    ]
    return crawl.Visitor(cookies=cookies, visits=visits)


VISITORS = {
    **crawl.VISITORS,
    "host": host,
    "homework_teacher": homework_teacher,
    "homework_pupil": homework_pupil,
}


#: Pages that are not ours to fix: the API's reference is Swagger UI's own page, for
#: developers integrating with Matika (docs/accessibility.md says so).
NOT_OURS = {"/api/docs/"}


def _audit(browser, asgi_server: str, visitor: crawl.Visitor, language: str) -> list[str]:
    """axe's findings on each page of ``visitor`` (other page problems are the crawl's)."""
    locale, viewport = LANGUAGES[language]
    context = browser.new_context(base_url=asgi_server, viewport=viewport, locale=locale)
    context.set_default_timeout(crawl.TIMEOUT)
    cookies = {"matika_lang": language, **visitor.cookies}
    context.add_cookies([{"name": k, "value": v, "url": asgi_server} for k, v in cookies.items()])
    page = context.new_page()
    watcher = crawl.Watcher(page, asgi_server)
    found: list[str] = []
    try:
        for visit in visitor.visits:
            if visit.path in NOT_OURS:
                continue
            page.goto(asgi_server + visit.path)
            if visit.ready:
                page.wait_for_selector(visit.ready, state="attached")
            watcher.settle(page)
            found += axe.failing(page, visit.label or visit.path)
            if visit.before:
                visit.before(page)
    finally:
        context.close()
    return found


def _axe_check(page, visit: crawl.Visit) -> list[str]:
    return [] if visit.path in NOT_OURS else axe.failing(page, "axe")


#: In Czech (words only differ from the English run): each kind of page once.
CZECH = {
    "anyone": lambda visit: visit.path in crawl.CZECH_PATHS,
    "teacher": None,
    "student": None,
    "host": None,
    "homework_teacher": None,
    "homework_pupil": None,
}
RUNS = [(name, "en") for name in VISITORS] + [(name, "cs") for name in CZECH]


@pytest.mark.parametrize("visitor_name,language", RUNS)
def test_pages_have_no_wcag_violations(
    transactional_db, browser, asgi_server, visitor_name, language
):
    visitor = VISITORS[visitor_name]()
    if language == "en" and visitor_name in crawl.VISITORS:
        # the crawl's checks at a phone's width and axe, in one load of each page
        locale, viewport = LANGUAGES[language]
        problems = crawl._crawl(browser, asgi_server, visitor, viewport, locale, _axe_check)
    else:
        keep = CZECH.get(visitor_name) if language == "cs" else None
        if keep:
            visitor.visits = [visit for visit in visitor.visits if keep(visit)]
        problems = _audit(browser, asgi_server, visitor, language)
    assert not problems, "\n".join(problems)
