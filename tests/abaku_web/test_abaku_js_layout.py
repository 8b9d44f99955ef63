"""The board client reads the engine's premium layout (data.py) through the
generated ``static/abaku/data.js``; it keeps no copy of its own."""

import re
from pathlib import Path

from games.abaku import jsdata
from games.abaku.rules.data import LAYOUTS, PREMIUMS

STATIC = Path(__file__).resolve().parents[2] / "games" / "abaku" / "static" / "abaku"
TABLE_JS = STATIC / "table.js"


def _table_source() -> str:
    """The table's client: ``table.js`` and the modules it is split into (``table/``)."""
    files = [TABLE_JS, *sorted((STATIC / "table").glob("*.js"))]
    return "\n".join(path.read_text(encoding="utf-8") for path in files)


def test_the_generated_data_module_is_up_to_date() -> None:
    assert jsdata.JS_FILE == STATIC / "data.js"
    assert jsdata.JS_FILE.read_text(encoding="utf-8") == jsdata.render(), (
        "stale: run `python -m games.abaku.jsdata` and commit the result"
    )


def test_the_data_module_holds_every_layout_of_the_engine() -> None:
    source = jsdata.JS_FILE.read_text(encoding="utf-8")
    for rows in LAYOUTS.values():
        for row in rows:
            assert f'"{row}"' in source


def test_the_board_client_imports_the_layout_and_keeps_no_copy() -> None:
    source = _table_source()
    assert re.search(r'import \{[^}]*\bLAYOUTS\b[^}]*\} from "\.\.?/data\.js"', source)
    assert "const LAYOUTS" not in source
    assert not re.search(r'"[.dtDT*]{15}"', source)


def test_js_styles_every_premium_letter() -> None:
    source = _table_source()
    styled = re.search(r"const PREMIUM_CLASS = \{(.*?)\};", source, re.S)
    assert styled
    letters = set(re.findall(r'(?:"(\S)"|\b(\w)): "ab-', styled.group(1)))
    assert {a or b for a, b in letters} == set(PREMIUMS) - {"."}


def test_robot_levels_are_named_once_for_every_engine_level() -> None:
    from games.abaku.presentation import robot_level_names
    from games.abaku.rules import LEVELS

    assert list(robot_level_names()) == list(LEVELS)
    source = _table_source()
    assert "const LEVEL_NAMES = root" in source  # from the page, not a copy
    for level in LEVELS:
        assert f"{level}:" not in source
    hub = (STATIC.parents[1] / "templates" / "abaku" / "index.html").read_text(encoding="utf-8")
    assert '<option value="greedy"' not in hub  # the choices come from the names
