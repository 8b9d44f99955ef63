"""Every digit colour reads on its tile at WCAG AA (4.5:1), in light and dark themes.

Issue 18: „Yellow, brown, violet and dark-blue digits are hard to read on the
grey tiles, and the number behind a black zero is nearly invisible. Required:
WCAG AA contrast for every digit colour on its tile, in light and dark themes."

Two checks: the palette as written in mathesso.css (pure), and the colours the
browser actually paints (getComputedStyle of every digit, stop and mark of every
face in the catalogue, against its plate, in both colour schemes).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parents[2] / "games/mathesso/static/mathesso/mathesso.css"
AA = 4.5
RULER_NUMBERS = range(1, 11)


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def hex_rgb(value: str) -> tuple[int, int, int]:
    value = value.lstrip("#")
    return tuple(int(value[i : i + 2], 16) for i in (0, 2, 4))


def css_rgb(value: str) -> tuple[int, int, int]:
    numbers = re.findall(r"[\d.]+", value)
    assert len(numbers) >= 3, value
    return tuple(round(float(n)) for n in numbers[:3])


def palettes() -> dict[str, dict[str, str]]:
    """The ink blocks of mathesso.css: the light one first, then the dark one(s)."""
    text = CSS.read_text()
    blocks = re.findall(r"\{([^{}]*--mt-plate:[^{}]*)\}", text)
    found = []
    for block in blocks:
        found.append(dict(re.findall(r"--mt-([\w-]+):\s*(#[0-9a-fA-F]{6})", block)))
    assert len(found) == 3, "light, dark by choice, dark by system preference"
    assert found[1] == found[2], "both dark blocks hold the same palette"
    return {"light": found[0], "dark": found[1]}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_ruler_ink_reaches_aa_on_its_plate(theme):
    palette = palettes()[theme]
    plate = hex_rgb(palette["plate"])
    for name in [f"ink-{n}" for n in RULER_NUMBERS] + ["ink-plain"]:
        ratio = contrast(hex_rgb(palette[name]), plate)
        assert ratio >= AA, (theme, name, palette[name], round(ratio, 2))
    assert contrast(hex_rgb(palette["behind"]), (0, 0, 0)) >= AA


def test_dark_and_light_inks_are_told_apart_from_their_neighbours():
    """Red 2, green 5 and dark green 6 stay distinct colours, not one ink."""
    for palette in palettes().values():
        inks = [palette[f"ink-{n}"].lower() for n in RULER_NUMBERS]
        assert len(set(inks)) == len(inks)


PAIRS_OF = """
function pairsOf(svg, fallback) {
  const plate = svg.querySelector(".mt-plate");
  const back = plate ? getComputedStyle(plate).fill : fallback;
  const pairs = [];
  for (const node of svg.querySelectorAll("tspan, .mt-mark")) {
    const fill = getComputedStyle(node).fill;
    if (fill.startsWith("url")) {
      const id = fill.match(/#([^"')]+)/)[1];
      for (const stop of svg.getElementById(id).querySelectorAll("stop")) {
        pairs.push(["stop", getComputedStyle(stop).stopColor]);
      }
    } else pairs.push([node.classList.contains("mt-mark") ? "mark" : "digit", fill]);
  }
  const behind = svg.querySelector(".mt-behind");
  if (behind) pairs.push(["behind", getComputedStyle(behind).fill]);
  return { back, pairs, marks: svg.querySelectorAll(".mt-mark").length };
}
"""

RULES_PAGE = (
    "() => {"
    + PAIRS_OF
    + """
  return [...document.querySelectorAll("svg.mt-face")].map((svg) => {
    const rect = svg.querySelector("rect");
    return { face: svg.getAttribute("aria-label"), ...pairsOf(svg, getComputedStyle(rect).fill) };
  });
}"""
)

MEASURE = """
async () => {
  const src = [...document.scripts].map((s) => s.src).find((s) => s.includes("mathesso/board"));
  const tiles = await import(src.replace(/board[^/]*\\.js.*/, "tiles.js"));
  const catalogue = await (await fetch(document.querySelector("[data-mathesso]").dataset.catalogueUrl)).json();
  tiles.useRuler(catalogue.ruler);
  const holder = document.createElement("div");
  holder.dataset.contrastProbe = "";
  document.querySelector("[data-mathesso]").append(holder);
  const out = [];
  for (const [face, entry] of Object.entries(catalogue.faces)) {
    for (const look of entry.tiles) {
      const svg = tiles.faceSvg(look, face);
      holder.append(svg);
      const plate = svg.querySelector(".mt-plate");
      const back = plate ? getComputedStyle(plate).fill : look.background_hex[0];
      const pairs = [];
      for (const node of svg.querySelectorAll("tspan, .mt-mark")) {
        const fill = getComputedStyle(node).fill;
        if (fill.startsWith("url")) {
          const id = fill.match(/#([^"')]+)/)[1];
          for (const stop of svg.getElementById(id).querySelectorAll("stop")) {
            pairs.push(["stop", getComputedStyle(stop).stopColor]);
          }
        } else pairs.push([node.classList.contains("mt-mark") ? "mark" : "digit", fill]);
      }
      const behind = svg.querySelector(".mt-behind");
      if (behind) pairs.push(["behind", getComputedStyle(behind).fill]);
      out.push({ face, back, pairs, marks: svg.querySelectorAll(".mt-mark").length });
    }
  }
  holder.remove();
  return out;
}
"""


def assert_readable(scheme: str, faces: list[dict]) -> int:
    checked = 0
    for face in faces:
        back = hex_rgb(face["back"]) if face["back"].startswith("#") else css_rgb(face["back"])
        for kind, colour in face["pairs"]:
            if kind == "mark":
                continue
            ratio = contrast(css_rgb(colour), (0, 0, 0) if kind == "behind" else back)
            assert ratio >= AA, (scheme, face["face"], kind, colour, round(ratio, 2))
            checked += 1
    return checked


@pytest.mark.browser
@pytest.mark.live
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_rules_page_draws_its_tiles_as_readable_as_the_board(
    transactional_db, browser, asgi_server, scheme
):
    context = browser.new_context(base_url=asgi_server, locale="en-GB")
    page = context.new_page()
    try:
        page.emulate_media(color_scheme=scheme)
        page.goto("/mathesso/")
        page.goto(page.locator(".mathesso-variant-links a").last.get_attribute("href"))
        page.wait_for_selector("svg.mt-face")
        faces = page.evaluate(RULES_PAGE)
        assert assert_readable(scheme, faces) > 40
        assert sum(bool(f["marks"]) for f in faces) > 10
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.live
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_rendered_digits_reach_aa_on_their_tiles(transactional_db, browser, asgi_server, scheme):
    from games.rooms import services
    from tests.mathesso.live import Player

    player = Player("Reader")
    room = services.create_room(
        game="mathesso",
        mode="solo",
        host=player.profile,
        settings={"variant": "standart", "extensions": ["factorial", "cjv"]},
    )
    services.start_room(room=room, actor=player.profile)
    context = browser.new_context(
        base_url=asgi_server, locale="en-GB", viewport={"width": 360, "height": 740}
    )
    context.add_cookies([{"name": "matika_player", "value": player.signed, "url": asgi_server}])
    page = context.new_page()
    try:
        page.emulate_media(color_scheme=scheme)
        page.goto(f"/rooms/{room.code}/")
        page.wait_for_selector("[data-game]:not([hidden]) .mt-tile", timeout=15_000)
        page.wait_for_function(
            "getComputedStyle(document.querySelector('.mt-tile')).position === 'absolute'"
        )
        faces = page.evaluate(MEASURE)
        checked = 0
        marked = 0
        for face in faces:
            back = hex_rgb(face["back"]) if face["back"].startswith("#") else css_rgb(face["back"])
            for kind, colour in face["pairs"]:
                if kind == "behind":
                    back_of = (0, 0, 0)
                else:
                    back_of = back
                ratio = contrast(css_rgb(colour), back_of)
                if kind != "mark":
                    assert ratio >= AA, (scheme, face["face"], kind, colour, round(ratio, 2))
                    checked += 1
            marked += bool(face["marks"])
        assert len(faces) > 100 and checked > 150
        assert marked > 40  # every product and square carries its colours' shapes
        ruler = page.locator(".mathesso-ruler-field .mathesso-mark")
        marks = ruler.all_inner_texts()
        assert len(marks) == 10 and len(set(marks)) == 10
    finally:
        context.close()
