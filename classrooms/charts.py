"""Small line charts rendered on the server as SVG.

Server-side SVG needs no JavaScript library, passes the strict CSP (no inline
styles: colours come from CSS classes in classrooms.css), prints, and is
readable by screen readers through ``<title>``/``<desc>`` and the data table
that every chart sits next to. Series differ by marker shape and dash as well
as colour, so no information is carried by colour alone.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from math import floor, log10

from django.utils.formats import number_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH = 640
HEIGHT = 280
LEFT, RIGHT, TOP, BOTTOM = 48, 36, 16, 56
MARKERS = ("circle", "square", "diamond", "triangle")


@dataclass(frozen=True)
class Series:
    label: str
    values: Sequence[float | None]


def _nice_step(span: float) -> float:
    raw = span / 5 if span > 0 else 1
    magnitude = 10 ** floor(log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * magnitude:
            return factor * magnitude
    return 10 * magnitude


def _format(value: float) -> str:
    """A chart's number as the page's language writes it ("12,5" in Czech and
    Slovak, as the tables beside the chart do; "12.5" in English)."""
    if float(value).is_integer():
        return str(int(value))
    return str(number_format(value, decimal_pos=1))


def _marker(kind: str, x: float, y: float, css: str, tip: str) -> str:
    title = f"<title>{escape(tip)}</title>"
    if kind == "square":
        return f'<rect class="{css}" x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8">{title}</rect>'
    if kind == "triangle":
        points = f"{x:.1f},{y - 5:.1f} {x + 5:.1f},{y + 4:.1f} {x - 5:.1f},{y + 4:.1f}"
        return f'<polygon class="{css}" points="{points}">{title}</polygon>'
    if kind == "diamond":
        points = f"{x:.1f},{y - 5:.1f} {x + 5:.1f},{y:.1f} {x:.1f},{y + 5:.1f} {x - 5:.1f},{y:.1f}"
        return f'<polygon class="{css}" points="{points}">{title}</polygon>'
    return f'<circle class="{css}" cx="{x:.1f}" cy="{y:.1f}" r="4.5">{title}</circle>'


def line_chart(
    *, title: str, x_labels: list[str], series: list[Series], empty_text: str = ""
) -> SafeString:
    """An SVG line chart: one line per series over the same x labels (oldest first)."""
    values = [v for item in series for v in item.values if v is not None]
    if not values or not x_labels:
        return mark_safe(f'<p class="muted chart-empty">{escape(empty_text)}</p>')
    low = min(0.0, min(values))
    high = max(values)
    step = _nice_step(high - low)
    low = floor(low / step) * step
    top_value = low + step * max(1, -(-(high - low) // step))
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    count = len(x_labels)

    def x_at(index: int) -> float:
        return LEFT + (plot_w / 2 if count == 1 else plot_w * index / (count - 1))

    def y_at(value: float) -> float:
        return TOP + plot_h * (1 - (value - low) / (top_value - low))

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    tick = low
    while tick <= top_value + step / 2:
        y = y_at(tick)
        parts.append(
            f'<line class="chart-grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
        )
        parts.append(
            f'<text class="chart-axis" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{_format(tick)}</text>"
        )
        tick += step
    label_every = max(1, -(-count // 10))
    for index, label in enumerate(x_labels):
        if index % label_every == 0 or index == count - 1:
            # The outermost labels lean inwards, so a long one ("1. 12. 10:05") is not cut.
            anchor = "middle"
            if count > 1 and index == count - 1:
                anchor = "end"
            elif count > 1 and index == 0:
                anchor = "start"
            parts.append(
                f'<text class="chart-axis chart-x" x="{x_at(index):.1f}" '
                f'y="{HEIGHT - BOTTOM + 18}" text-anchor="{anchor}">{escape(label)}</text>'
            )
    for number, item in enumerate(series):
        css = f"chart-series chart-series-{number % len(MARKERS)}"
        points = [
            (x_at(index), y_at(value), value)
            for index, value in enumerate(item.values)
            if value is not None
        ]
        if len(points) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _value in points)
            parts.append(f'<polyline class="{css} chart-line" points="{path}"/>')
        kind = MARKERS[number % len(MARKERS)]
        for index, value in enumerate(item.values):
            if value is not None:
                tip = f"{item.label}, {x_labels[index]}: {_format(value)}"
                parts.append(_marker(kind, x_at(index), y_at(value), css, tip))
    legend_y = HEIGHT - 14
    legend_x = LEFT
    for number, item in enumerate(series):
        css = f"chart-series chart-series-{number % len(MARKERS)}"
        parts.append(_marker(MARKERS[number % len(MARKERS)], legend_x + 5, legend_y - 4, css, ""))
        parts.append(
            f'<text class="chart-legend" x="{legend_x + 14}" y="{legend_y}">'
            f"{escape(item.label)}</text>"
        )
        legend_x += 24 + 8 * len(item.label)
    parts.append("</svg>")
    return mark_safe("".join(parts))
