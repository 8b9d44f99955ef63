"""The distribution of an assignment's scores as a small SVG bar chart, in the
manner of ``classrooms.charts`` (server-side SVG, CSS classes for colour, a
``<title>`` per bar, no inline style, readable next to the table it sums up)."""

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classrooms.charts import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH

BINS = 8


def bins(scores: list[int], count: int = BINS) -> list[tuple[int, int, int]]:
    """(low, high, how many) in ``count`` equal ranges from the lowest to the highest score."""
    if not scores:
        return []
    low, high = min(scores), max(scores)
    width = max(1, -(-(high - low + 1) // count))
    edges = []
    start = low
    while start <= high:
        end = start + width - 1
        edges.append((start, end, sum(1 for s in scores if start <= s <= end)))
        start = end + 1
    return edges


def distribution(scores: list[int], *, title: str) -> SafeString:
    groups = bins(scores)
    if not groups:
        empty = _("No finished game yet.")  # outside the f-string: xgettext reads it here
        return mark_safe(f'<p class="muted chart-empty">{escape(empty)}</p>')
    tallest = max(n for _low, _high, n in groups)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / len(groups)
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="hw-chart-title"><title id="hw-chart-title">{escape(title)}</title>',
        f'<line class="chart-grid" x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" '
        f'y2="{TOP + plot_h}"/>',
    ]
    for index, (low, high, n) in enumerate(groups):
        height = plot_h * n / tallest
        x = LEFT + index * step + step * 0.1
        y = TOP + plot_h - height
        label = f"{low}" if low == high else f"{low}–{high}"
        tip = ngettext("%(range)s: %(n)d pupil", "%(range)s: %(n)d pupils", n) % {
            "range": label,
            "n": n,
        }
        parts.append(
            f'<rect class="chart-bar chart-series-0" x="{x:.1f}" y="{y:.1f}" width="{step * 0.8:.1f}" '
            f'height="{height:.1f}"><title>{escape(tip)}</title></rect>'
        )
        parts.append(
            f'<text class="chart-axis" x="{x + step * 0.4:.1f}" y="{TOP + plot_h + 18}" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
        if n:
            parts.append(
                f'<text class="chart-axis" x="{x + step * 0.4:.1f}" y="{y - 4:.1f}" '
                f'text-anchor="middle">{n}</text>'
            )
    parts.append("</svg>")
    return mark_safe("".join(parts))
