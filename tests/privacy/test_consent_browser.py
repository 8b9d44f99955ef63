"""The consent dialog for minors in a real browser, in Czech, Slovak and English
(issue 17 §4).

"Before a first public result the consent dialog asks whether the player is old
enough or has a parent's agreement (recorded with the consent text version),
says in plain words for a child what becomes public, and that withdrawing
erases the published places for good."
"""

import pytest
from django.conf import settings
from django.utils import translation
from playwright.sync_api import expect

from accounts import consent
from accounts.models import PublicationConsent

pytestmark = [pytest.mark.browser, pytest.mark.live]


@pytest.mark.parametrize(("language", "age"), [("cs", 15), ("sk", 16), ("en", 16)])
def test_the_consent_dialog_asks_about_age_in_the_pages_language(
    transactional_db, page, asgi_server, language, age
):
    from tests.poker_web.helpers import player_cookie

    profile, cookie = player_cookie("Malá Sova")
    page.context.add_cookies(
        [
            {"name": settings.PLAYER_COOKIE_NAME, "value": cookie, "url": asgi_server},
            {"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": asgi_server},
        ]
    )
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    with translation.override(language):
        question = consent.question()
        statement = consent.age_statement(language)
        stored = consent.stored_text(granted=True, language=language)
    page.goto("/poker/ranked/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.click("#poker-start")
    dialog = page.get_by_test_id("consent-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#poker-consent-text")).to_have_text(question)
    expect(dialog.locator("#poker-consent-age-text")).to_have_text(statement)
    assert str(age) in statement
    # Without the age sentence a yes cannot be given; a no always can.
    yes = page.get_by_test_id("consent-yes")
    expect(yes).to_be_disabled()
    page.get_by_test_id("consent-age").check()
    expect(yes).to_be_enabled()
    yes.click()
    expect(dialog).to_be_hidden()
    expect(page.locator("#poker-game")).to_be_visible()
    answer = PublicationConsent.objects.get(player=profile)
    assert answer.granted and answer.age_confirmed is True
    assert answer.text_version == consent.VERSION
    assert answer.language == language
    assert answer.text == stored
    assert not errors
