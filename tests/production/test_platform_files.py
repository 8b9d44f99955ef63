"""The shipped deployment files, read as they ship (no Docker, no cluster).

Issue 16 §2: "in the shipped deployment the limits key on the client-supplied
`X-Forwarded-For` (uvicorn `--forwarded-allow-ips "*"` with nginx appending),
so an attacker resets them at will". Required: "trust forwarded addresses only
from the deployment's own proxy (fix `platform/`: uvicorn flags, nginx
`X-Forwarded-For`/`real_ip`)". The smoke test (test_smoke.py) shows the effect
on a running stack; these tests fail on any shipped file that would trust a
client-supplied address again.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import subprocess
import sys

import kubernetes_validate
import pytest

from tests.production import shipped

PROXY_TRUST_ENV = "FORWARDED_ALLOW_IPS"


@pytest.fixture(scope="module")
def prod_settings() -> dict:
    """ALLOWED_HOSTS and SECURE_REDIRECT_EXEMPT as config.settings.prod computes them."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        SECRET_KEY="platform-files-test-" + "k" * 40,
        ALLOWED_HOSTS="matika.example.org",
        DATABASE_URL="postgres://matika@db.invalid:5432/matika",
        REDIS_URL="redis://redis.invalid:6379/0",
    )
    code = (
        # Reading a setting imports the settings module; no app is needed (no django.setup()).
        "import json; from django.conf import settings as s; "
        "print(json.dumps({'hosts': s.ALLOWED_HOSTS, 'exempt': s.SECURE_REDIRECT_EXEMPT}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=shipped.BASE_DIR, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _nginx_directives(text: str) -> list[list[str]]:
    """Directives (name + arguments) of an nginx file, comments removed."""
    text = re.sub(r"#[^\n]*", "", text)
    return [statement.split() for statement in re.split(r"[;{}]", text) if statement.strip()]


def _forwarded_allow_ips_values() -> list[tuple[str, str]]:
    values = []
    for where, argv in shipped.uvicorn_commands():
        if "--forwarded-allow-ips" in argv:
            values.append((where, argv[argv.index("--forwarded-allow-ips") + 1]))
        joined = " ".join(argv)
        for match in re.finditer(r"--forwarded-allow-ips[= ](\S+)", joined):
            values.append((where, match.group(1).strip("'\"")))
    for name, service in shipped.compose()["services"].items():
        environment = service.get("environment") or {}
        if isinstance(environment, dict) and PROXY_TRUST_ENV in environment:
            values.append((f"compose {name}", str(environment[PROXY_TRUST_ENV])))
    for doc in shipped.k8s_documents():
        if doc["kind"] == "ConfigMap" and PROXY_TRUST_ENV in doc.get("data", {}):
            values.append(
                (f"k8s ConfigMap {doc['metadata']['name']}", doc["data"][PROXY_TRUST_ENV])
            )
    for where, container in shipped.k8s_containers():
        for variable in container.get("env", []):
            if variable["name"] == PROXY_TRUST_ENV:
                values.append((f"k8s {where}", variable.get("value", "")))
    env_example = (shipped.PLATFORM / "env.example").read_text()
    for match in re.finditer(rf"^{PROXY_TRUST_ENV}=(.*)$", env_example, re.MULTILINE):
        values.append(("env.example", match.group(1)))
    return values


def test_the_web_server_never_trusts_forwarded_headers_from_everyone():
    commands = shipped.uvicorn_commands()
    assert any(where == "Dockerfile CMD" for where, _argv in commands)
    assert "--proxy-headers" in shipped.dockerfile_cmd()
    for where, value in _forwarded_allow_ips_values():
        for item in value.split(","):
            item = item.strip()
            assert item != "*", f"{where} trusts forwarded addresses from everyone"
            network = ipaddress.ip_network(item, strict=False)
            assert network.prefixlen >= 8, f"{where} trusts a whole range: {item}"


def test_compose_trusts_exactly_the_address_it_gives_nginx():
    services = shipped.compose()["services"]
    nginx_address = services["nginx"]["networks"]["default"]["ipv4_address"]
    assert services["web"]["environment"][PROXY_TRUST_ENV] == nginx_address


def test_nginx_sets_the_forwarded_address_from_the_connection_never_from_the_client():
    directives = _nginx_directives(shipped.NGINX_CONF.read_text())
    forwarded_for = [d for d in directives if d[:2] == ["proxy_set_header", "X-Forwarded-For"]]
    assert forwarded_for, "nginx must set X-Forwarded-For itself"
    for directive in forwarded_for:
        # $proxy_add_x_forwarded_for appends to what the client sent; only the
        # address of the connection itself is nginx's own knowledge.
        assert directive[2] == "$remote_addr", directive
    proxied = [d for d in directives if d[0] == "proxy_pass"]
    assert len(forwarded_for) == len(proxied), "every proxied location sets X-Forwarded-For"
    for directive in directives:
        assert "$http_x_forwarded_for" not in directive, directive
        if directive[0] == "set_real_ip_from":
            network = ipaddress.ip_network(directive[1], strict=False)
            assert network.prefixlen >= 8, f"real_ip trusted from a whole range: {directive}"
    if any(d[0] == "real_ip_header" for d in directives):
        assert any(d[0] == "set_real_ip_from" for d in directives)


def test_nginx_serves_tls_and_sends_plain_http_to_https():
    directives = _nginx_directives(shipped.NGINX_CONF.read_text())
    listens = [d for d in directives if d[0] == "listen"]
    assert ["listen", "443", "ssl"] in listens
    assert any(d[0] == "ssl_certificate" for d in directives)
    assert any(d[0] == "ssl_certificate_key" for d in directives)
    assert ["return", "301", "https://$host$request_uri"] in directives
    assert "ports" in shipped.compose()["services"]["nginx"]
    assert "443:443" in shipped.compose()["services"]["nginx"]["ports"]


def test_nginx_looks_the_web_containers_up_while_it_runs():
    """A restarted web container gets a new address: nginx must resolve ``web`` at
    request time (a resolver and a variable in proxy_pass), not once at start
    (an ``upstream`` naming it: 502 until nginx restarts). The resolver is the
    container's own DNS, filled in by the image's entrypoint from the template."""
    text = shipped.NGINX_CONF.read_text()
    resolver = re.search(r"^resolver \$\{NGINX_LOCAL_RESOLVERS\} valid=\d+s\b", text, re.M)
    assert resolver, "nginx must look web up while it runs (resolver ${NGINX_LOCAL_RESOLVERS})"
    directives = _nginx_directives(text)
    assert not [d for d in directives if d[0] == "upstream"]
    assert ["set", "$matika_web", "web:8000"] in directives
    proxied = [d for d in directives if d[0] == "proxy_pass"]
    assert proxied and all(d[1] == "http://$matika_web" for d in proxied), proxied
    nginx = shipped.compose()["services"]["nginx"]
    assert nginx["environment"]["NGINX_ENTRYPOINT_LOCAL_RESOLVERS"] == "1"
    mounts = [v.split(":")[:2] for v in nginx["volumes"]]
    assert ["./nginx/matika.conf", "/etc/nginx/templates/default.conf.template"] in mounts


def test_the_web_healthcheck_probes_an_exempt_path_on_an_allowed_host(prod_settings):
    test = shipped.compose()["services"]["web"]["healthcheck"]["test"]
    probe = test if isinstance(test, str) else " ".join(test)
    match = re.search(r"http://(127\.0\.0\.1|localhost):8000(/\w+)", probe)
    assert match, probe
    host, path = match.groups()
    assert host in prod_settings["hosts"]
    assert any(re.search(pattern, path.lstrip("/")) for pattern in prod_settings["exempt"])


def test_secrets_stay_out_of_git_and_out_of_the_image():
    gitignore = (shipped.BASE_DIR / ".gitignore").read_text().splitlines()
    assert "platform/.env" in gitignore
    dockerignore = (shipped.BASE_DIR / ".dockerignore").read_text().splitlines()
    for entry in (".venv", ".data", "platform/.env", ".git", "platform/certs"):
        assert entry in dockerignore, entry


@pytest.mark.parametrize("path", sorted(shipped.K8S_DIR.glob("*.yaml")), ids=lambda p: p.name)
def test_kubernetes_manifests_validate_against_the_bundled_schemas(path):
    # kubernetes-validate ships the JSON schemas; nothing is fetched.
    for doc in shipped.k8s_documents_of(path):
        kubernetes_validate.validate(doc, kubernetes_validate.latest_version(), strict=True)


def test_kubernetes_runs_web_worker_and_a_single_beat_like_compose():
    deployments = {
        doc["metadata"]["name"]: doc
        for doc in shipped.k8s_documents()
        if doc["kind"] == "Deployment"
    }
    # (plus the optional PgBouncer of platform/k8s/pgbouncer.yaml)
    assert set(deployments) - {"matika-pgbouncer"} == {"matika-web", "matika-worker", "matika-beat"}
    beat = deployments["matika-beat"]["spec"]
    assert beat["replicas"] == 1 and beat["strategy"]["type"] == "Recreate"
    containers = dict(shipped.k8s_containers())
    assert containers["matika-web"]["args"] == shipped.dockerfile_cmd()
    services = shipped.compose()["services"]
    assert containers["matika-worker"]["command"] == services["worker"]["command"]
    assert containers["matika-beat"]["command"] == services["beat"]["command"]
    assert any(doc["kind"] == "Job" for doc in shipped.k8s_documents())  # migrations


def test_kubernetes_probes_reach_exempt_paths_with_an_allowed_host(prod_settings):
    web = dict(shipped.k8s_containers())["matika-web"]
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        get = web[probe]["httpGet"]
        assert any(re.search(p, get["path"].lstrip("/")) for p in prod_settings["exempt"])
        hosts = [h["value"] for h in get.get("httpHeaders", []) if h["name"].lower() == "host"]
        assert hosts and hosts[0] in prod_settings["hosts"], probe


def test_every_shipped_web_server_caps_websocket_frames():
    """The server drops oversized frames before buffering them, at "the
    protocol's 4 KiB" (issue 16 §2): 4,096 bytes of UTF-8, the consumer's limit."""
    from games.rooms.consumers import MAX_MESSAGE_BYTES

    commands = shipped.uvicorn_commands()
    assert commands
    for where, argv in commands:
        if "config.asgi:application" not in argv:
            continue
        assert "--ws-max-size" in argv, f"{where} does not cap WebSocket frames"
        size = int(argv[argv.index("--ws-max-size") + 1])
        assert size == MAX_MESSAGE_BYTES == 4096, (where, size)
