"""Keyboard helpers of the accessibility tests: Tab presses from the top of a page."""

from __future__ import annotations

from playwright.sync_api import expect

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}

# A focus starting point before everything (tabindex=-1: not itself a Tab stop), so
# the count starts where a visitor's first Tab starts on a freshly opened page.
TOP = """() => {
  let top = document.getElementById("a11y-top");
  if (!top) {
    top = document.createElement("span");
    top.id = "a11y-top";
    top.tabIndex = -1;
    document.body.prepend(top);
  }
  top.focus();
}"""


def tabs_to(page, selector: str, *, skip_link: bool = False, most: int = 40) -> int:
    """How many Tab presses from the top reach an element matching ``selector``
    (fails when ``most`` do not). With ``skip_link`` the first Tab's skip link is
    followed (Enter) and counted as that one press. No modal dialog may be open: it
    makes the page behind it inert, so the count would run inside the dialog."""
    modal = page.evaluate("() => document.querySelector('dialog:modal')?.outerHTML.slice(0, 120)")
    assert modal is None, f"a modal dialog is open: {modal}"
    page.evaluate(TOP)
    page.keyboard.press("Tab")
    if not page.evaluate("() => document.activeElement.matches('.skip-link')"):
        raise AssertionError(f"the first Tab does not reach the skip link: {focused(page)}")
    if skip_link:
        page.keyboard.press("Enter")
    for presses in range(1, most + 1):
        if presses > 1:
            page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return presses
    raise AssertionError(f"{most} Tab presses do not reach {selector}")


def tab_until(page, selector: str, *, back: bool = False, most: int = 15) -> int:
    """Tab (Shift+Tab with ``back``) from the focus until it is on ``selector``."""
    for presses in range(1, most + 1):
        page.keyboard.press("Shift+Tab" if back else "Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return presses
    raise AssertionError(f"{most} presses do not reach {selector}: {focused(page)}")


def focused(page) -> dict:
    """The focused element: its name (aria-label or text) and data attributes."""
    return page.evaluate(
        """() => {
          const el = document.activeElement;
          return {
            label: el.getAttribute("aria-label") || el.textContent.trim(),
            data: { ...el.dataset },
            tag: el.tagName.toLowerCase(),
          };
        }"""
    )


def answer_joker(page) -> None:
    """A joker dealt first opens its value dialog at once (modal: the page behind it is
    inert and no Tab reaches the board): the focused first value is chosen with Enter."""
    if page.locator("dialog[open] [data-value]").count():
        page.keyboard.press("Enter")
        expect(page.locator("dialog[open]")).to_have_count(0)


def poker_started(open_page, viewport):
    page = open_page("/poker/play/", viewport)
    page.wait_for_load_state("networkidle")  # the page's modules are in, Start is theirs
    page.click("#poker-start")
    expect(page.locator("#poker-game")).to_be_visible()
    answer_joker(page)
    return page
