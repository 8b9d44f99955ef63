"""The board client's copy of the premium layout is the engine's (data.py)."""

import re
from pathlib import Path

from games.abaku.rules.data import LAYOUTS, PREMIUMS

TABLE_JS = Path(__file__).resolve().parents[2] / "games" / "abaku" / "static" / "abaku" / "table.js"


def _js_layouts() -> dict[str, list[str]]:
    source = TABLE_JS.read_text(encoding="utf-8")
    block = re.search(r"const LAYOUTS = \{(.*?)\n\};", source, re.S)
    assert block, "games/abaku/static/abaku/table.js no longer defines LAYOUTS"
    layouts = {}
    for name, rows in re.findall(r"(\w+): \[(.*?)\]", block.group(1), re.S):
        layouts[name] = re.findall(r'"([^"]*)"', rows)
    return layouts


def test_js_premium_layout_is_the_engines() -> None:
    js = _js_layouts()
    assert js["standard"] == list(LAYOUTS["standard"])
    # layouts the client does not list are drawn without premiums: only "plain" may be missing
    for name in set(LAYOUTS) - set(js):
        assert set("".join(LAYOUTS[name])) == {"."}


def test_js_styles_every_premium_letter() -> None:
    source = TABLE_JS.read_text(encoding="utf-8")
    styled = re.search(r"const PREMIUM_CLASS = \{(.*?)\};", source, re.S)
    assert styled
    letters = set(re.findall(r'(?:"(\S)"|\b(\w)): "ab-', styled.group(1)))
    assert {a or b for a, b in letters} == set(PREMIUMS) - {"."}
