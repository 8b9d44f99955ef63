"""The pre-commit configuration runs exactly the steps of ``make lint``, and
``jsconfig.json`` checks every shipped JS file it does not list as not yet clean."""

from __future__ import annotations

import json
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


def test_jsconfig_is_written_from_the_static_folders():
    assert (BASE / "jsconfig.json").read_text(encoding="utf-8") == jsconfig.render(
        json.loads((BASE / "jsconfig.json").read_text(encoding="utf-8"))["exclude"]
    ), "run `python -m tools.jsconfig`"
    roots = jsconfig.static_roots()
    assert roots[0] == "static" and all(root.endswith("/static") for root in roots[1:])
