"""What every game page must offer, checked on one open page at a phone's and a
desktop's width (one page load per game, not one per check):

- the page's one live region is the shared announcer of ``templates/base.html``;
- every cell, tile and card is at least 24 x 24 CSS px and what the child plays
  is in view at 360 x 740 (WCAG 2.5.8);
- the first playable element is reached in at most 6 plain Tab presses from the
  top (the skip link not followed), at both widths.

And a record of what the announcer says, so a test can count messages per event.
"""

from __future__ import annotations

from tests.a11y.keyboard import DESKTOP, PHONE, tabs_to

MOST_TABS = 6
MIN_TARGET = 24

# Every element that announces its changes (aria-live other than off; the roles
# status, log, alert and <output> are live unless told off; a timer is off).
LIVE_REGIONS = """() => [...document.querySelectorAll(
  "[aria-live], [role=status], [role=log], [role=alert], output"
)].filter((el) => el.getAttribute("aria-live") !== "off")
 .map((el) => el.getAttribute("data-testid") || el.className || el.tagName)"""

# The boxes of the visible targets and of the play area, as the page lays them out.
MEASURE = """([targets, area]) => {
  const shown = [...document.querySelectorAll(targets)].filter((el) => el.getClientRects().length);
  const boxes = shown.map((el) => el.getBoundingClientRect());
  const box = document.querySelector(area).getBoundingClientRect();
  return {
    count: boxes.length,
    small: boxes.filter((b) => b.width < 23.99 || b.height < 23.99).length,
    smallest: boxes.length ? Math.min(...boxes.map((b) => Math.min(b.width, b.height))) : null,
    top: box.top,
    bottom: box.bottom,
    height: window.innerHeight,
  };
}"""

# Every message the announcer says from now on, in order (its words are in a closed
# shadow root, its data-said attribute repeats each message).
LISTEN = """() => {
  window.a11ySaid = [];
  const region = document.getElementById("announcer");
  new MutationObserver(() => window.a11ySaid.push(region.dataset.said)).observe(region, {
    attributes: true,
    attributeFilter: ["data-said"],
  });
}"""


def check_page(page, *, playable: str, targets: str, area: str, in_view: str = "whole") -> None:
    """The checks above on ``page`` (opened at the phone's size); leaves it at the phone's size.

    ``in_view``: "whole" (the area's bottom is on the first screen), "top" (the area
    starts on it with room to spare, for a hand that may grow) or "" (not checked)."""
    regions = page.evaluate(LIVE_REGIONS)
    assert regions == ["announcer"], f"live regions besides the shared announcer: {regions}"
    found = page.evaluate(MEASURE, [targets, area])
    assert found["count"] and found["small"] == 0, found
    if in_view == "whole":
        assert found["bottom"] <= found["height"], found
    elif in_view == "top":
        assert found["top"] < found["height"] - 200, found
    for viewport in (PHONE, DESKTOP):
        page.set_viewport_size(viewport)
        tabs = tabs_to(page, playable, most=MOST_TABS)
        assert tabs <= MOST_TABS, (viewport, tabs)
    page.set_viewport_size(PHONE)


def listen(page) -> None:
    page.evaluate(LISTEN)


def said(page) -> list[str]:
    return page.evaluate("() => window.a11ySaid")


def assert_read_out(page, message: str) -> None:
    """Chromium's accessibility tree (what a screen reader gets) has ``message`` as
    text inside a polite live region: the announcer's closed shadow root is read."""
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    session.detach()
    by_id = {node["nodeId"]: node for node in nodes}

    def live(node) -> bool:
        props = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}
        return props.get("live") == "polite"

    for node in nodes:
        if node.get("name", {}).get("value", "").strip() != message.strip():
            continue
        parent = node
        while parent:
            if live(parent):
                return
            parent = by_id.get(parent.get("parentId", ""))
    raise AssertionError(f"{message!r} is not text of a live region in the accessibility tree")
