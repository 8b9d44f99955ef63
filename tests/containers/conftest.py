"""The container checks (issue 43): the shipped images, Kubernetes manifests and
compose files run for real with podman. A separate step (make container-test),
not part of make test: they need root, podman and the images (make images)."""

from __future__ import annotations

import os

import pytest

from tests.containers import podman


def pytest_collection_modifyitems(config, items):
    if os.environ.get("MATIKA_CONTAINER_TESTS") == "1":
        reason = podman.available()
        if reason is None:
            return
        if os.environ.get("CI") == "true":
            raise pytest.UsageError(f"container tests under CI=true: {reason}")
    else:
        reason = "container checks run by make container-test (MATIKA_CONTAINER_TESTS=1)"
    for item in items:
        if "tests/containers/" in str(item.fspath):
            item.add_marker(pytest.mark.skip(reason=reason))
