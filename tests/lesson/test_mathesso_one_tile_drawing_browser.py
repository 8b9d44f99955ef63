"""Mathesso's tile picture is drawn in one place (issue 26's leftover, issue 31),
checked on a 360 px phone.

Seen: the rules page drew a tile's coloured side in Python
(``presentation.face_svg``) and the board drew it again in JavaScript
(``tiles.js``), two drawings to keep alike by hand. Now the catalogue carries
the server's drawing and the board adopts it.
"""

import re
from pathlib import Path

import pytest

from games.mathesso.presentation import face_svg, localised_catalogue, with_pictures

pytestmark = [pytest.mark.browser, pytest.mark.live]

TILES_JS = Path(__file__).resolve().parents[2] / "games/mathesso/static/mathesso/tiles.js"

SAME_PICTURE = """
([face, markup]) => {
  const tile = document.querySelector(`.mt-tile[data-face="${face}"] svg.mt-face`);
  const template = document.createElement("template");
  template.innerHTML = markup;
  const clean = (svg) => {
    const copy = svg.cloneNode(true);
    for (const node of copy.querySelectorAll("[id]")) node.removeAttribute("id");
    for (const node of copy.querySelectorAll("[fill^='url(']")) node.setAttribute("fill", "url()");
    copy.removeAttribute("aria-label");
    copy.removeAttribute("class");  // the board adds is-turning while it flips
    return copy;
  };
  return clean(tile).isEqualNode(clean(template.content.firstElementChild));
}
"""


def test_the_catalogue_carries_the_rules_pages_drawing():
    box = with_pictures(localised_catalogue())
    for face in box["faces"].values():
        for look in face["tiles"]:
            assert look["svg"] == str(face_svg(look, "mtf"))
    # The board's script draws nothing of its own any more.
    script = TILES_JS.read_text(encoding="utf-8")
    assert "linearGradient" not in script and "mt-plate" not in script


def test_the_board_shows_the_servers_drawing_of_a_flipped_tile(
    transactional_db, browser, asgi_server
):
    context = browser.new_context(
        base_url=asgi_server,
        locale="en-GB",
        viewport={"width": 360, "height": 740},
        has_touch=True,
        is_mobile=True,
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto("/mathesso/")
    page.select_option("#id_solo-variant", "atto")
    page.fill("#id_solo-nickname", "Kreslic")
    page.click('[data-testid="start-solo"]')
    page.wait_for_url(re.compile(r"/rooms/[A-Z0-9]+/$"))
    page.locator(".mt-tile.is-playable").first.click()
    flipped = page.locator(".mt-tile[data-face] svg.mt-face").first
    flipped.wait_for()
    face = page.locator(".mt-tile[data-face]").first.get_attribute("data-face")
    box = page.request.get("/mathesso/catalogue.json").json()
    looks = box["faces"][face]["tiles"]
    assert any(page.evaluate(SAME_PICTURE, [face, look["svg"]]) for look in looks), face
    # Every drawing has ids of its own (two copies of a face share no gradient).
    ids = page.evaluate("[...document.querySelectorAll('svg.mt-face [id]')].map((n) => n.id)")
    assert len(ids) == len(set(ids))
    assert not errors, errors
    context.close()
