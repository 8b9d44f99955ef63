"""podman as this machine runs it (docs/operations.md "Podman"): runc, cgroupfs,
no default ulimits (platform/podman/containers.conf), images built by
platform/podman/images.sh (make images)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
PLATFORM = BASE_DIR / "platform"
VERSION = os.environ.get("MATIKA_VERSION", "2026.12.1")
ENV = {**os.environ, "CONTAINERS_CONF": str(PLATFORM / "podman" / "containers.conf")}
GLOBAL = ["--runtime", "runc", "--cgroup-manager", "cgroupfs"]


def available() -> str | None:
    """Why the container tests cannot run here, or None."""
    if not shutil.which("podman"):
        return "podman is not installed (apt-get install podman buildah debootstrap runc)"
    if os.geteuid() != 0:
        return "the container tests run podman as root"
    return None


def image(name: str) -> str:
    return f"localhost/{name}:{VERSION}"


def run(
    *args: str, check: bool = True, timeout: float = 600, **kwargs
) -> subprocess.CompletedProcess:
    result = subprocess.run(
        ["podman", *GLOBAL, *args],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=timeout,
        **kwargs,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"podman {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    return result


def image_exists(name: str) -> bool:
    return run("image", "exists", image(name), check=False).returncode == 0


def network(prefix: str) -> tuple[str, str]:
    """A new bridge network with DNS on a /24 of its own: (name, first three octets)."""
    for _attempt in range(20):
        octets = f"10.{random.randint(90, 250)}.{random.randint(0, 255)}"
        name = f"{prefix}-{os.getpid()}-{octets.replace('.', '-')}"
        result = run("network", "create", "--subnet", f"{octets}.0/24", name, check=False)
        if result.returncode == 0:
            return name, octets
    raise AssertionError(f"no free subnet for a podman network: {result.stderr}")


def logs(container: str, tail: int = 60) -> str:
    result = run("logs", "--tail", str(tail), container, check=False)
    return result.stdout + result.stderr


def wait_http(url: str, *, host: str = "localhost", status: int = 200, patience: float = 300,
              why=lambda: "") -> bytes:  # fmt: skip
    """GET ``url`` until it answers ``status``; patience, not a timing check."""
    deadline = time.monotonic() + patience
    last = ""
    while time.monotonic() < deadline:
        request = urllib.request.Request(url, headers={"Host": host})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                body = response.read()
                if response.status == status:
                    return body
                last = f"{response.status}"
        except urllib.error.HTTPError as error:
            last = f"{error.code} {error.read()[:300]!r}"
        except OSError as error:
            last = repr(error)
        time.sleep(2)
    raise AssertionError(f"{url} never answered {status} (last: {last})\n{why()}")


def inspect(container: str) -> dict:
    return json.loads(run("inspect", container).stdout)[0]
