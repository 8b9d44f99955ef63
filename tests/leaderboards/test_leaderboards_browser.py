"""A daily challenge played end to end in headless Chromium with the consent dialog."""

import pytest
from django.utils import translation
from playwright.sync_api import expect

from accounts import consent
from accounts.models import PublicationConsent
from games.models import GameResult
from games.poker.models import DailyAttempt, SoloGame

pytestmark = [pytest.mark.browser, pytest.mark.live]

END = "#poker-end-dialog"
JOKER = "#poker-joker-dialog"


def _day_text(day) -> str:
    """The date as the English page writes it: "7 December 2026"."""
    return f"{day.day} {day.strftime('%B')} {day.year}"


def play_to_end(page) -> None:
    """Fill free cells in order (a joker becomes 7) until the end dialog opens."""
    for _ in range(80):
        if page.locator(f"{END}[open]").count():
            return
        if page.locator(f"{JOKER}[open]").count():
            page.locator(f"{JOKER} [data-value='7']").click()
        target = page.locator(".poker-cell:not([disabled])").first
        if target.count():
            before = page.locator(".poker-cell.is-filled").count()
            target.click()
            expect(page.locator(".poker-cell.is-filled, dialog[open]")).not_to_have_count(before)
    raise AssertionError("the game did not end")


def test_daily_challenge_end_to_end_with_consent_share_and_replay(player_page):
    page = player_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/poker/daily/")
    expect(page.get_by_test_id("daily-intro")).to_contain_text("Daily challenge")
    page.get_by_test_id("start-daily").click()

    dialog = page.get_by_test_id("consent-dialog")
    expect(dialog).to_be_visible()
    # The page follows the browser's language (en-GB), whatever this process has active.
    with translation.override("en"):
        question = consent.question()
        stored = consent.stored_text(granted=True, language="en")
    expect(dialog.locator("#poker-consent-text")).to_have_text(question)
    # A yes waits for the age sentence (GDPR Art. 8): the tick box has the focus.
    expect(page.get_by_test_id("consent-age")).to_be_focused()
    expect(page.get_by_test_id("consent-yes")).to_be_disabled()
    page.get_by_test_id("consent-age").check()
    page.get_by_test_id("consent-yes").click()

    expect(page.locator("#poker-game")).to_be_visible()
    expect(page.get_by_test_id("day-record")).to_have_text("Nobody has set a record today yet.")
    expect(page.locator("#poker-preview-toggle")).to_be_hidden()
    first_card = page.inner_text("#poker-hand")
    play_to_end(page)

    expect(page.get_by_test_id("end-daily")).to_contain_text("Place 1 of the day · streak 1")
    expect(page.get_by_test_id("end-record")).to_contain_text("published on the table of the day")
    score = page.inner_text("[data-testid=end-score]")
    page.get_by_test_id("share").click()
    share = page.locator("#poker-share-text")
    expect(share).to_be_visible()
    expect(share).to_have_value(
        # the day written in the page's language (issue 40 §3): "7 December 2026"
        f"Matika daily challenge {_day_text(DailyAttempt.objects.get().day)}: {score} points, "
        f"place 1 of the day, streak 1. {page.url.split('?')[0]}"
    )

    answer = PublicationConsent.objects.get(player=page.profile)
    assert answer.granted and answer.age_confirmed
    assert answer.text == stored and answer.language == "en"
    attempt = DailyAttempt.objects.get(player=page.profile)
    assert attempt.published and attempt.score == int(score)
    assert GameResult.objects.get(player=page.profile).details["day"] == attempt.day.isoformat()

    # The same numbers again, for oneself: not recorded.
    page.locator("#poker-again").click()
    expect(page.locator(f"{END}[open]")).to_have_count(0)
    expect(page.locator("#poker-hand")).to_have_text(first_card)
    play_to_end(page)
    expect(page.get_by_test_id("end-record")).to_have_text(
        "A replay of today's numbers: not recorded."
    )
    assert GameResult.objects.filter(player=page.profile).count() == 1
    assert SoloGame.objects.filter(player=page.profile, replay=True).count() == 1

    # Back on the page: the attempt is used; the day's record is ours.
    page.goto("/poker/daily/")
    expect(page.get_by_test_id("daily-done")).to_be_visible()
    expect(page.get_by_test_id("day-record-intro")).to_contain_text(f"{score} (Denná Sova)")
    expect(page.get_by_test_id("start-daily")).to_have_count(0)


def test_declining_publication_plays_on_and_publishes_nothing(player_page):
    page = player_page
    page.goto("/poker/ranked/")
    page.click("#poker-start")
    page.get_by_test_id("consent-no").click()
    expect(page.locator("#poker-game")).to_be_visible()
    expect(page.locator("#poker-info")).to_contain_text("not published")
    play_to_end(page)
    expect(page.get_by_test_id("end-record")).to_contain_text("not published")
    assert not PublicationConsent.objects.get(player=page.profile).granted
    assert not SoloGame.objects.filter(published=True).exists()
