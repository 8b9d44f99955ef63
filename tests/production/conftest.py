"""One ``collectstatic`` under the production settings for the whole session.

The static pipeline test and the production smoke test both need the files as
the image builds them; collecting them takes long (hashing, rewriting module
imports, compressing), and its output depends on the static sources and the
storage settings only -- not on the secret key, hosts or database of a test --
so it runs once and both read the same folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
PROD_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.prod",
    "SECRET_KEY": "static-pipeline-test-" + "k" * 40,
    "ALLOWED_HOSTS": "matika.example.org",
    "DATABASE_URL": "postgres://matika@db.invalid:5432/matika",
    "REDIS_URL": "redis://redis.invalid:6379/0",
}


@dataclass(frozen=True)
class Collected:
    root: Path
    manifest: dict[str, str]


@pytest.fixture(scope="session")
def prod_static(tmp_path_factory) -> Collected:
    """``manage.py collectstatic`` under ``config.settings.prod`` into a fresh folder."""
    root = tmp_path_factory.mktemp("prod-static")
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(PROD_ENV, STATIC_ROOT=str(root))
    result = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    return Collected(root, manifest)
