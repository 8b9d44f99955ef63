"""``podman kube play`` of the shipped web and worker Deployments (platform/k8s/),
with the built image and the manifests' restricted security contexts (numeric
user, no privilege escalation, no capabilities, RuntimeDefault seccomp):
the web pod answers ``/readyz`` with 200 (PostgreSQL, Redis and the worker's
heartbeat all seen)."""

from __future__ import annotations

import secrets

import pytest
import yaml

from tests.containers import podman

# Building up a whole kit on a busy 2-core machine: patience, not a timing check.
pytestmark = pytest.mark.timeout(1800)

K8S = podman.PLATFORM / "k8s"


def _documents(name: str) -> list[dict]:
    return [doc for doc in yaml.safe_load_all((K8S / name).read_text()) if doc]


def _for_podman(deployment: dict, image: str) -> dict:
    """The shipped Deployment with only what a podman host cannot have changed:
    the image's local name, the Secret as a ConfigMap (kube play reads
    ConfigMaps from the file), one replica."""
    deployment = yaml.safe_load(yaml.safe_dump(deployment))
    deployment["spec"]["replicas"] = 1
    deployment["metadata"].pop("namespace", None)
    for container in deployment["spec"]["template"]["spec"]["containers"]:
        container["image"] = image
        for source in container.get("envFrom", []):
            if "secretRef" in source:
                source["configMapRef"] = {"name": "matika-secret"}
                del source["secretRef"]
        # status.podIP is not known to podman: the probe hosts are the loopback ones.
        container["env"] = [
            v for v in container.get("env", []) if v["name"] not in ("POD_IP", "HEALTH_PROBE_HOSTS")
        ]
    return deployment


@pytest.fixture
def services(tmp_path):
    network, octets = podman.network("matika-kube")
    password = secrets.token_hex(12)
    started = []
    try:
        for name, ip, args in (
            ("postgres", f"{octets}.2", ["-e", f"POSTGRES_PASSWORD={password}",
                                         "-e", "POSTGRES_USER=matika", "-e", "POSTGRES_DB=matika"]),
            ("redis", f"{octets}.3", []),
        ):  # fmt: skip
            container = f"{network}-{name}"
            podman.run("run", "-d", "--name", container, "--network", network, "--ip", ip,
                       *args, podman.image(f"matika-{name}"))  # fmt: skip
            started.append(container)
        secret = {
            "SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": f"postgres://matika:{password}@{octets}.2:5432/matika",
            "REDIS_URL": f"redis://{octets}.3:6379/0",
            "METRICS_TOKEN": secrets.token_urlsafe(24),
        }
        yield network, secret, started
    finally:
        for container in started:
            podman.run("rm", "-f", "-t", "5", container, check=False)
        podman.run("network", "rm", "-f", network, check=False)


def test_the_web_deployment_answers_readyz_under_kube_play(services, tmp_path):
    network, secret, started = services
    image = podman.image("matika")
    config = next(d for d in _documents("config.yaml") if d["kind"] == "ConfigMap")
    config["metadata"].pop("namespace", None)
    # The migration Job's command, run once (kube play has no Jobs).
    migrate = next(d for d in _documents("migrate-job.yaml") if d["kind"] == "Job")
    command = migrate["spec"]["template"]["spec"]["containers"][0]["command"]
    environment = [f"{k}={v}" for k, v in {**config["data"], **secret}.items()]
    env_args = [arg for pair in environment for arg in ("-e", pair)]
    podman.run("run", "--rm", "--network", network, "--user", "10001:10001",
               "-e", "MATIKA_WAIT=database", *env_args, image, *command, timeout=900)  # fmt: skip
    web = next(d for d in _documents("web.yaml") if d["kind"] == "Deployment")
    worker = next(d for d in _documents("worker.yaml") if d["kind"] == "Deployment")
    play = tmp_path / "kube.yaml"
    play.write_text(
        yaml.safe_dump_all(
            [
                config,
                {
                    "apiVersion": "v1",
                    "kind": "ConfigMap",
                    "metadata": {"name": "matika-secret"},
                    "data": secret,
                },
                _for_podman(worker, image),
                _for_podman(web, image),
            ]
        )  # fmt: skip
    )
    podman.run("kube", "play", "--network", network, str(play), timeout=600)
    try:
        pods = podman.run("pod", "ps", "--format", "{{.Name}}").stdout.split()
        web_pod = next(p for p in pods if p.startswith("matika-web"))
        containers = podman.run(
            "ps", "--filter", f"pod={web_pod}", "--format", "{{.Names}}"
        ).stdout.split()
        web_container = next(c for c in containers if "infra" not in c)
        details = podman.inspect(web_container)
        assert details["Config"]["User"] in ("10001", "10001:10001")
        assert details["HostConfig"]["CapDrop"] or details["EffectiveCaps"] == []
        address = next(iter(details["NetworkSettings"]["Networks"].values()))["IPAddress"]
        body = podman.wait_http(
            f"http://{address}:8000/readyz", patience=420,
            why=lambda: podman.logs(web_container) + podman.logs(
                next(p for p in podman.run("ps", "--format", "{{.Names}}").stdout.split()
                     if p.startswith("matika-worker")), 20),
        )  # fmt: skip
        assert b'"status": "ok"' in body or b'"status":"ok"' in body
        processes = podman.run("top", web_container, "user", "args").stdout
        assert "root" not in processes.split("\n", 1)[1], processes
    finally:
        podman.run("kube", "play", "--down", str(play), check=False, timeout=300)
