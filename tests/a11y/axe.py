"""axe-core in a page: the rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA.

axe-core is pinned in ``tools/js/package.json`` (``make`` installs it with the
type checker). It is evaluated through the browser's debugging protocol, which
the pages' Content-Security-Policy does not govern, so the pages run unchanged.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "tools/js/node_modules/axe-core/axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
#: Every impact but "minor" fails a page.
FAILING = {"critical", "serious", "moderate"}

RUN = """
async (tags) => {
  const results = await axe.run(document, {
    runOnly: { type: "tag", values: tags },
    resultTypes: ["violations"],
  });
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " " + n.failureSummary.replace(/\\s+/g, " ")),
    count: v.nodes.length,
  }));
}
"""


@cache
def source() -> str:
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: run `make lint` (npm ci --prefix tools/js)")
    return AXE.read_text(encoding="utf-8")


def violations(page) -> list[dict]:
    """axe's violations of the page as it is now (axe is injected once per document)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source())
    return page.evaluate(RUN, TAGS)


def failing(page, where: str) -> list[str]:
    """One line per failing rule of the page: impact, rule, count and the first elements."""
    return [
        f"{where}: {v['impact']} {v['id']} x{v['count']} ({v['help']}): " + " | ".join(v["nodes"])
        for v in violations(page)
        if v["impact"] in FAILING
    ]
