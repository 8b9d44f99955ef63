"""Keyboard helpers of the accessibility tests: Tab presses from the top of a page."""

from __future__ import annotations

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


def tabs_to(page, selector: str, *, skip_link: bool = False, most: int = 40) -> int | None:
    """How many Tab presses from the top reach an element matching ``selector``
    (None: not within ``most``). With ``skip_link`` the first Tab's skip link is
    followed (Enter) and counted as that one press."""
    page.evaluate(TOP)
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        if skip_link and presses == 1:
            assert page.evaluate("() => document.activeElement.matches('.skip-link')")
            page.keyboard.press("Enter")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return presses
    return None


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
