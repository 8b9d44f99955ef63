"""The shared announcer is heard while a modal dialog is open.

A modal <dialog> makes the rest of the page inert, and inert content is hidden from
screen readers: the announcer of base.html too, unless it goes into the dialog. On
poker's page a joker dealt opens its dialog in the same moment as "Joker in hand" is
said; on the old code that message never reached the accessibility tree.
"""

from __future__ import annotations

import pytest

from tests.a11y.keyboard import PHONE
from tests.a11y.pages import assert_read_out, listen, said

pytestmark = [pytest.mark.browser, pytest.mark.live]

# A line that announces its changes, and a confirmation dialog of the kit, opened
# without waiting for its answer (window.answer holds the promise).
OPEN_DIALOG = """async () => {
  const line = document.createElement("p");
  line.dataset.announce = "";
  line.id = "test-line";
  document.querySelector("main").append(line);
  const { confirmDialog } = await import("/static/js/kit/dialog.js");
  window.answer = confirmDialog("Give up this game?");
}"""


def _say(page, text: str) -> None:
    before = len(said(page))
    page.evaluate("(text) => { document.getElementById('test-line').textContent = text; }", text)
    page.wait_for_function(f"() => window.a11ySaid.length > {before}")
    assert said(page)[-1] == text


def test_the_announcer_is_heard_while_a_modal_dialog_is_open(transactional_db, open_page):
    page = open_page("/", PHONE)
    listen(page)
    page.evaluate(OPEN_DIALOG)
    page.locator("dialog[open]").wait_for()
    _say(page, "Joker in hand")
    assert_read_out(page, "Joker in hand")
    # the dialog answered and removed: the announcer is back on the page, still one, still heard
    page.keyboard.press("Escape")
    page.locator("dialog").wait_for(state="detached")
    assert page.evaluate("() => document.querySelectorAll('#announcer').length") == 1
    assert page.evaluate("() => document.getElementById('announcer').closest('dialog')") is None
    _say(page, "Your turn")
    assert_read_out(page, "Your turn")
