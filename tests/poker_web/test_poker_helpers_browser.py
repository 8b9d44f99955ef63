"""Scoresheet, number picker, rules and the installable offline app in Chromium."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.live]


def line(page, index):
    return page.locator(f".poker-line[data-line='{index}']")


def sheet_cell(page, index):
    return page.locator(f".poker-input[data-cell='{index}']")


def test_scoresheet_scores_lines_live_and_arrow_keys_move(player_page):
    page = player_page
    page.goto("/poker/scoresheet/")
    sheet_cell(page, 0).click()
    page.keyboard.type("5")
    page.keyboard.press("ArrowRight")
    expect(sheet_cell(page, 1)).to_be_focused()
    page.keyboard.type("5")
    expect(line(page, 0)).to_have_text("15")
    expect(page.locator("#poker-total")).to_have_text("15")
    page.keyboard.press("ArrowDown")
    expect(sheet_cell(page, 6)).to_be_focused()
    page.keyboard.type("5")
    expect(line(page, 6)).to_have_text("15")
    expect(line(page, 10)).to_have_text("15")  # cells 0 and 6 begin the main diagonal
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowUp")
    expect(sheet_cell(page, 0)).to_be_focused()
    page.keyboard.press("ArrowUp")  # stays on the board's edge
    expect(sheet_cell(page, 0)).to_be_focused()
    sheet_cell(page, 24).fill("14")
    expect(sheet_cell(page, 24)).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#poker-status")).to_contain_text("not scored")
    page.select_option("#poker-sheet-table", "school")
    expect(line(page, 0)).to_have_text("10")
    page.reload()
    expect(sheet_cell(page, 6)).to_have_value("5")


def test_number_picker_deck_survives_a_reload_until_reshuffled(player_page):
    page = player_page
    page.goto("/poker/picker/")
    expect(page.locator("[data-testid=card]")).to_have_text("–")
    page.click("#poker-picker-draw")
    page.locator("body").press("g")
    page.locator("h1").click()
    page.keyboard.press(" ")
    expect(page.locator("#poker-history li")).to_have_count(3)
    history = page.locator("#poker-history li").all_inner_texts()
    remaining = sum(int(t) for t in page.locator("#poker-remaining td").all_inner_texts())
    assert remaining == 51
    expect(page.locator("[data-testid=drawn-count]")).to_have_text("3 drawn, 51 left")
    page.reload()
    expect(page.locator("#poker-history li")).to_have_count(3)
    assert page.locator("#poker-history li").all_inner_texts() == history
    expect(page.locator("[data-testid=card]")).to_have_text(history[-1])
    page.click("#poker-picker-reshuffle")
    expect(page.locator("#poker-reshuffle-dialog[open]")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#poker-history li")).to_have_count(3)
    page.click("#poker-picker-reshuffle")
    page.click("#poker-reshuffle-confirm")
    expect(page.locator("#poker-history li")).to_have_count(0)
    page.reload()
    expect(page.locator("[data-testid=drawn-count]")).to_have_text("0 drawn, 54 left")


def test_rules_page_and_printable_board(player_page, artifacts):
    page = player_page
    page.goto("/poker/rules/")
    expect(page.locator(".poker-score-table")).to_have_count(3)
    page.goto("/poker/rules/print/")
    page.select_option("#print-table", "matematico")
    expect(page).to_have_url(re.compile(r"table=matematico"))
    expect(page.locator(".poker-score-table")).to_have_count(1)
    page.emulate_media(media="print")
    page.screenshot(path=str(artifacts / "print-board.png"), full_page=True)
    expect(page.locator(".poker-nav")).to_be_hidden()
    pdf = artifacts / "print-board.pdf"
    page.pdf(path=str(pdf), format="A4")
    assert pdf.read_bytes().count(b"/Type /Page\n") + pdf.read_bytes().count(b"/Type /Page ") <= 1


def test_the_app_is_installable_and_works_offline(player_page):
    page = player_page
    page.goto("/poker/")
    manifest = page.locator("link[rel=manifest]").get_attribute("href")
    assert manifest == "/poker/manifest.webmanifest"
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.reload()
    expect(page.locator("body")).to_be_visible()
    expect(page.locator("#poker-offline-note")).to_be_hidden()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    for url, text in [
        ("/poker/scoresheet/", "Scoresheet"),
        ("/poker/picker/", "Number picker"),
        ("/poker/rules/", "Rules of mathematical poker"),
    ]:
        page.goto(url)
        expect(page.locator("h1")).to_have_text(text)
        expect(page.locator("#poker-offline-note")).to_be_visible()
    page.goto("/poker/ranked/")
    expect(page.locator("[data-testid=offline-page]")).to_contain_text("needs the server")
    page.goto("/poker/play/?mode=easy")
    page.click("#poker-start")
    expect(page.locator("#poker-info")).to_contain_text("not recorded")
    from tests.poker_web.test_poker_browser import play_to_end

    play_to_end(page)
    expect(page.locator("[data-testid=end-record]")).to_contain_text("not recorded")
    page.context.set_offline(False)
