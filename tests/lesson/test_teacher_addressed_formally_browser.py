"""Teachers are addressed with vy (issue 31): the home page's teacher block, the
host's room page and the projector, in Czech and Slovak, at 1280 and 1920 px.

Seen: "Vytvoř třídu", "Pozvi hráče", "Otevři řádek", "Klávesou G vytáhneš" and a
"ty" badge after the teacher's own name. Until the lead merges the pending
translations these texts show in English; either way, never in the ty form.
"""

import pytest
from playwright.sync_api import expect

from classrooms import launch
from tests.classrooms import factories
from tests.classrooms.login import log_in

pytestmark = [pytest.mark.browser, pytest.mark.live]

INFORMAL = {
    "cs": ["Vytvoř třídu", "Pozvi hráče", "Otevři řádek", "Klávesou G vytáhneš"],
    "sk": ["Vytvor triedu", "Pozvi hráčov", "Otvor riadok", "Klávesom G vytiahneš"],
}
FORMAL = {
    "cs": {"home": "Vytvořte třídu", "invite": "Pozvěte hráče", "keys": "Klávesa G"},
    "sk": {"home": "Vytvorte triedu", "invite": "Pozvite hráčov", "keys": "Kláves G"},
}
ENGLISH = {"home": "Create a class", "invite": "Invite players", "keys": "The G key"}


def _formal_or_english(text: str, language: str, key: str) -> None:
    assert FORMAL[language][key] in text or ENGLISH[key] in text, (language, key, text)


def test_a_teacher_reads_vy_on_the_home_page_room_page_and_projector(
    transactional_db, browser, asgi_server
):
    """Both languages on one teacher, class and room (the pages only read): the
    language cookie switches between them."""
    teacher = factories.make_teacher("vy@skola.sk")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    context = browser.new_context(
        base_url=asgi_server, viewport={"width": 1280, "height": 800}, locale="cs"
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in(page, teacher)
    for language in ("cs", "sk"):
        try:
            _pages_in(page, asgi_server, room, language)
        except AssertionError as failure:
            failure.add_note(f"in {language}")
            raise
    context.close()


def _pages_in(page, asgi_server: str, room, language: str) -> None:
    page.context.add_cookies([{"name": "matika_lang", "value": language, "url": asgi_server}])
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    home = page.locator(".for-teachers").inner_text()
    _formal_or_english(home, language, "home")
    page.goto(f"/rooms/{room.code}/")
    expect(page.locator("[data-room-connection]")).to_have_attribute("data-state", "online")
    invite = page.locator("#room-invite-title").inner_text()
    _formal_or_english(invite, language, "invite")
    own = page.locator("[data-room-seats] li .badge").all_inner_texts()
    assert "ty" not in own and "vy" not in own, own
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/poker/room/{room.code}/projector/")
    keys = page.locator("[data-testid=projector-keys]").inner_text()
    _formal_or_english(keys, language, "keys")
    for url in ("/", f"/rooms/{room.code}/", f"/poker/room/{room.code}/projector/"):
        page.goto(url)
        text = page.locator("body").inner_text()
        for informal in INFORMAL[language]:
            assert informal not in text, (url, informal)
