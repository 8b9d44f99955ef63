"""How Mathesso looks to people: translated names and tile pictures, from the engine's data.

The engine (``rules``) keeps its names in English only; this module adds the
translations and draws a tile's coloured side as SVG (presentation attributes,
no ``style=``, so the strict CSP holds). That drawing is the only one: the
board's JavaScript adopts the pictures the catalogue carries (:func:`with_pictures`,
games/mathesso/static/mathesso/tiles.js).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.mathesso.rules import catalogue, data

GROUP_TITLES = {
    "mult": _("small multiplication table"),
    "square": _("second powers"),
    "prime": _("primes"),
    "fib": _("Fibonacci numbers"),
    "fact": _("factorials"),
    "zero": _("zeros"),
    "cjv": _("Cooper–Janeček variety"),
}

# How to get from the b/w side to the coloured side, per group (rules page).
GROUP_HOWTO = {
    "mult": _(
        "The two tiles of a pair show the factors a and b; the coloured side shows a·b, "
        "its digits in the ruler colours of a and b."
    ),
    "square": _(
        "Both tiles show the base b; the coloured side shows b² on a circle, in the ruler "
        "colour of b."
    ),
    "prime": _("Both tiles show a prime p; the coloured side shows p on yellow."),
    "fib": _("Both tiles show a Fibonacci number f; the coloured side shows f on orange."),
    "fact": _(
        "One tile shows n, the other “!”; the coloured side shows n! on a rainbow with a "
        "small “n!” hint."
    ),
    "zero": _(
        "Both tiles show the same number; the coloured side is a 0 on black with the number "
        "faintly behind it. A zero pair scores nothing by itself but counts in its number’s "
        "multiplier."
    ),
    "cjv": _(
        "One tile shows 12, the other 21; the 12-tile shows 21 and the 21-tile shows 12 on "
        "yellow-blue. There are two designs; one pair of each design is a Sheldon."
    ),
}

BACKGROUND_NAMES = {
    "grey": _("grey"),
    "circle": _("circle"),
    "yellow": pgettext_lazy("tile background", "yellow"),
    "orange": pgettext_lazy("tile background", "orange"),
    "rainbow": _("rainbow"),
    "black": _("black"),
    "yellow-blue": _("yellow-blue"),
}

COLOUR_NAMES = {
    "pink": _("pink"),
    "red": _("red"),
    "orange": pgettext_lazy("ruler colour", "orange"),
    "yellow": pgettext_lazy("ruler colour", "yellow"),
    "green": _("green"),
    "dark green": _("dark green"),
    "light blue": _("light blue"),
    "dark blue": _("dark blue"),
    "violet": _("violet"),
    "brown": _("brown"),
}

EXTENSION_TITLES = {"factorial": _("Factorial"), "cjv": _("CJV")}

# The colour-blind aid: one shape per ruler colour (by its number), drawn under a
# coloured digit and beside the ruler's swatch (the board reads it from the catalogue).
RULER_MARKS = {1: "●", 2: "▲", 3: "■", 4: "◆", 5: "★", 6: "✚", 7: "▼", 8: "✱", 9: "✖", 10: "◯"}


def localised_catalogue(
    variant: str | None = None, extensions: Iterable[str] = ()
) -> dict[str, Any]:
    """The engine's catalogue with names in the active language added as ``label``."""
    data = catalogue(variant, extensions)
    for colour in data["ruler"]:
        colour["label"] = str(COLOUR_NAMES.get(colour["name"], colour["name"]))
        colour["mark"] = RULER_MARKS[colour["number"]]
    for group in data["groups"]:
        group["label"] = str(GROUP_TITLES.get(group["name"], group["title"]))
        group["background_label"] = str(
            BACKGROUND_NAMES.get(group["background"], group["background"])
        )
    for extension in data["extensions"]:
        extension["label"] = str(EXTENSION_TITLES.get(extension["name"], extension["title"]))
    return data


def _background(look: dict, uid: str) -> tuple[str, str]:
    """SVG defs and shapes for a tile's background."""
    colours = look["background_hex"]
    kind = look["background"]
    if kind == "circle":
        return "", format_html(
            '<rect width="100" height="100" rx="10" fill="{}"/>'
            '<circle cx="50" cy="50" r="40" fill="none" stroke="{}" stroke-width="6"/>',
            colours[0],
            colours[1],
        )
    if len(colours) == 1:
        return "", format_html('<rect width="100" height="100" rx="10" fill="{}"/>', colours[0])
    step = 100 / len(colours)
    stops = format_html_join(
        "",
        '<stop offset="{}%" stop-color="{}"/><stop offset="{}%" stop-color="{}"/>',
        ((round(i * step, 2), c, round((i + 1) * step, 2), c) for i, c in enumerate(colours)),
    )
    direction = 'x2="0" y2="1"' if kind == "rainbow" else 'x2="1" y2="1"'
    defs = format_html(
        '<linearGradient id="{}-bg" x1="0" y1="0" {}>{}</linearGradient>',
        uid,
        mark_safe(direction),
        stops,
    )
    return defs, format_html('<rect width="100" height="100" rx="10" fill="url(#{}-bg)"/>', uid)


_RULER_BY_HEX = {colour.hex.lower(): str(colour.number) for colour in data.RULER}


def _ink(hex_colour: str) -> str:
    """The ink class of a digit colour: its ruler number, white (on black) or plain."""
    lower = hex_colour.lower()
    return _RULER_BY_HEX.get(lower) or ("white" if lower == "#ffffff" else "plain")


# The id prefix of the pictures the board adopts (``with_pictures``): its tiles.js
# renames it per drawing, so two copies of one face never share a gradient id.
BOARD_UID = "mtf"


def with_pictures(data: dict[str, Any]) -> dict[str, Any]:
    """The catalogue with each look's picture drawn (``svg``): the board adopts
    these, so a tile is drawn by :func:`face_svg` alone, here and on the rules page."""
    for face in data["faces"].values():
        for look in face["tiles"]:
            look["svg"] = str(face_svg(look, BOARD_UID))
    return data


def face_svg(look: dict, uid: str, *, label: str = "") -> SafeString:
    """A tile's coloured side as an inline SVG (viewBox 100x100), from its ``look``."""
    defs, background = _background(look, uid)
    parts = [background]
    digits = look["digits"]
    black = look["background"] == "black"
    size = 58 if len(digits) == 1 else 46 if len(digits) == 2 else 36
    # Digits sit on a plate in the theme's inks (mathesso.css), as on the board.
    if not black:
        parts.append(
            mark_safe('<rect class="mt-plate" x="12" y="14" width="76" height="76" rx="14"/>')
        )
    if look.get("behind") is not None:
        parts.append(
            format_html(
                '<text class="mt-behind" x="50" y="64" text-anchor="middle" font-size="44" '
                'font-weight="700">{}</text>',
                look["behind"],
            )
        )
    spans = []
    marks: list[int] = []
    for index, digit in enumerate(digits):
        inks = [_ink(colour) for colour in digit["colours"]]
        if len(inks) == 2:
            gid = f"{uid}-d{index}"
            defs += format_html(
                '<linearGradient id="{}" x1="0" y1="0" x2="1" y2="0">'
                '<stop offset="50%" class="mt-stop-{}"/><stop offset="50%" class="mt-stop-{}"/>'
                "</linearGradient>",
                gid,
                inks[0],
                inks[1],
            )
            spans.append(format_html('<tspan fill="url(#{})">{}</tspan>', gid, digit["digit"]))
        else:
            spans.append(
                format_html('<tspan class="mt-ink-{}">{}</tspan>', inks[0], digit["digit"])
            )
        marks.extend(int(ink) for ink in inks if ink.isdigit())
    parts.append(
        format_html(
            '<text class="{}" x="50" y="{}" text-anchor="middle" font-size="{}" '
            'font-weight="800">{}</text>',
            "mt-digits is-on-black" if black else "mt-digits",
            (50 if black else 44) + size * 0.36,
            size,
            mark_safe("".join(spans)),
        )
    )
    if not black:
        for index, number in enumerate(marks):
            parts.append(
                format_html(
                    '<text class="mt-mark mt-ink-{}" x="{}" y="84" text-anchor="middle" '
                    'font-size="12" aria-hidden="true">{}</text>',
                    number,
                    50 + (index - (len(marks) - 1) / 2) * 15,
                    RULER_MARKS[number],
                )
            )
    dots = look.get("dots") or 0
    for index in range(dots):  # tells the two black 12s apart: they do not pair
        parts.append(
            format_html(
                '<circle class="mt-dot" cx="{}" cy="88" r="5" fill="#ffffff"/>',
                50 + (index - (dots - 1) / 2) * 16,
            )
        )
    if look.get("hint"):
        parts.append(
            format_html(
                '<text class="mt-ink-plain" x="76" y="84" text-anchor="middle" '
                'font-size="14">{}</text>',
                look["hint"],
            )
        )
    if look.get("design"):
        parts.append(
            format_html(
                '<text x="14" y="20" text-anchor="middle" font-size="14" fill="#111111">{}</text>',
                "I" * look["design"],
            )
        )
    return format_html(
        '<svg class="mt-face" viewBox="0 0 100 100" role="img" aria-label="{}">'
        "<defs>{}</defs>{}</svg>",
        label or str(look["value"]),
        mark_safe(defs),
        mark_safe("".join(parts)),
    )
