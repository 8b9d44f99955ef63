"""Poker's service worker is shipped JS too, but a Django template (it lists this
deployment's hashed static URLs), so jsconfig's globs cannot read it: rendered
by its own view, tsc checks it with the same options and the service-worker
library (issue 39 §3)."""

import json
import subprocess
from pathlib import Path

import pytest

from tools import jsconfig

pytestmark = pytest.mark.django_db

BASE = Path(__file__).resolve().parents[2]
TSC = BASE / "tools/js/node_modules/.bin/tsc"


def test_the_rendered_service_worker_passes_tsc(client, tmp_path):
    assert TSC.exists(), "tsc is missing: `make lint` installs it into tools/js/node_modules"
    response = client.get("/poker/sw.js")
    assert response.status_code == 200
    (tmp_path / "sw.js").write_text(response.content.decode(), encoding="utf-8")
    options = json.loads(jsconfig.render())["compilerOptions"]
    options.pop("rootDirs")
    options["lib"] = ["es2022", "webworker"]
    config = {"compilerOptions": options, "files": ["sw.js"]}
    (tmp_path / "tsconfig.json").write_text(json.dumps(config), encoding="utf-8")
    result = subprocess.run(
        [str(TSC), "-p", str(tmp_path / "tsconfig.json")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
