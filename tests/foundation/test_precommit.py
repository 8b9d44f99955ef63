"""The pre-commit configuration runs exactly the steps of ``make lint``, and
``jsconfig.json`` has tsc check every shipped JS file: none excluded, none
opted out with ``// @ts-nocheck``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import yaml

from tools import jsconfig

BASE = Path(__file__).resolve().parents[2]
VARIABLES = {
    "$(VENV)": ".venv",
    "$(PY)": ".venv/bin/python",
    "$(TSC)": "tools/js/node_modules/.bin/tsc",
}


def _lint_steps() -> list[str]:
    lines = (BASE / "Makefile").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("lint:"))
    steps = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        step = line.strip()
        if step.startswith("@"):  # the platform/__init__.py guard, a shell test
            continue
        for name, value in VARIABLES.items():
            step = step.replace(name, value)
        steps.append(step)
    return steps


def test_pre_commit_runs_the_steps_of_make_lint():
    config = yaml.safe_load((BASE / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert [hook["entry"] for hook in hooks] == _lint_steps()
    assert all(hook["language"] == "system" and not hook["pass_filenames"] for hook in hooks)


def _shipped_js() -> list[Path]:
    """Every .js file in a ``static`` folder of the project (what collectstatic ships)."""
    found = []
    for folder, dirs, files in os.walk(BASE):
        dirs[:] = [name for name in dirs if not name.startswith(".") and name != "node_modules"]
        here = Path(folder).relative_to(BASE)
        if "static" in here.parts:
            found += [here / name for name in files if name.endswith(".js")]
    return found


def test_jsconfig_is_written_from_the_static_folders():
    assert (BASE / "jsconfig.json").read_text(encoding="utf-8") == jsconfig.render(), (
        "run `python -m tools.jsconfig`"
    )
    roots = jsconfig.static_roots()
    assert roots[0] == "static" and all(root.endswith("/static") for root in roots[1:])


def test_tsc_checks_every_shipped_js_file():
    config = json.loads((BASE / "jsconfig.json").read_text(encoding="utf-8"))
    assert config["compilerOptions"]["checkJs"] is True
    assert not config.get("exclude"), "fix the type errors instead of excluding files"
    shipped = _shipped_js()
    assert len(shipped) > 50 and Path("games/abaku/static/abaku/data.js") in shipped
    roots = set(jsconfig.static_roots())
    # The include globs reach exactly the static folders rootDirs names.
    unreached = [
        str(path)
        for path in shipped
        if "/".join(path.parts[: path.parts.index("static") + 1]) not in roots
    ]
    assert not unreached, f"JS in a static folder jsconfig's globs do not reach: {unreached}"
    skipped = [
        str(path) for path in shipped if "@ts-nocheck" in (BASE / path).read_text(encoding="utf-8")
    ]
    assert not skipped, f"// @ts-nocheck in shipped JS: {skipped}"
