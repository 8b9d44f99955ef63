"""Dark mode: the best-cell preview is readable (issue 31).

Seen: with the system's dark preference (no theme picked on the site) the best
cell kept its light-green background under the dark theme's light-green gain
text: 1.57:1. The gain text is small, so it needs 4.5:1 -- in both ways of
being dark and in the light theme.
"""

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _rgb(css: str) -> tuple[int, int, int]:
    return tuple(int(v) for v in re.findall(r"\d+", css)[:3])


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(_rgb(a)), _luminance(_rgb(b))), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme,theme", [("dark", None), ("light", "dark"), ("light", None)])
def test_the_best_cell_preview_has_readable_contrast(page, asgi_server, scheme, theme):
    page.set_viewport_size({"width": 360, "height": 740})
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{asgi_server}/poker/scoresheet/")
    colours = page.evaluate(
        """(theme) => {
            if (theme) document.documentElement.dataset.theme = theme;
            // A cell of a playing board (the scoresheet's own cells are inputs).
            const board = document.createElement("div");
            board.className = "poker-board";
            const cell = document.createElement("button");
            cell.className = "poker-cell is-best";
            const gain = document.createElement("span");
            gain.className = "poker-gain";
            gain.textContent = "+5";
            cell.append(gain);
            board.append(cell);
            document.querySelector("main").append(board);
            return [getComputedStyle(gain).color, getComputedStyle(cell).backgroundColor];
        }""",
        theme,
    )
    assert _contrast(*colours) >= 4.5, colours
