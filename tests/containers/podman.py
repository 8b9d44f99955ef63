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


REPLACED = {"command", "entrypoint", "test"}


def merge(base: dict, override: dict) -> dict:
    """``docker compose -f base -f override`` for what the kit's files use:
    mappings merged, ``command``/``entrypoint``/``test`` replaced, other lists joined."""
    merged = dict(base)
    for key, value in override.items():
        if key in merged and isinstance(merged[key], dict) and isinstance(value, dict):
            merged[key] = merge(merged[key], value)
        elif key in merged and isinstance(merged[key], list) and isinstance(value, list):
            merged[key] = value if key in REPLACED else merged[key] + value
        else:
            merged[key] = value
    return merged


def compose_for_podman(files: list[Path]) -> dict:
    """The compose files as one, in the form podman-compose 1.0 reads: it takes
    no per-network settings of a service (nginx's fixed address; the override
    makes the web containers trust the kit's network instead)."""
    import yaml

    merged: dict = {}
    for path in files:
        merged = merge(merged, yaml.safe_load(path.read_text()))
    for service in merged["services"].values():
        if isinstance(service.get("networks"), dict):
            service["networks"] = list(service["networks"])
    merged.pop("networks", None)  # pre-created: podman network create --subnet ...
    return {k: v for k, v in merged.items() if not k.startswith("x-")}
