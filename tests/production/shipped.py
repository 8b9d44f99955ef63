"""Read the shipped deployment files (platform/) so tests run exactly what ships."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

BASE_DIR = Path(__file__).resolve().parents[2]
PLATFORM = BASE_DIR / "platform"
DOCKERFILE = PLATFORM / "Dockerfile"
COMPOSE = PLATFORM / "compose.yaml"
NGINX_CONF = PLATFORM / "nginx" / "matika.conf"
K8S_DIR = PLATFORM / "k8s"


def dockerfile_cmd() -> list[str]:
    """The image's CMD (exec form, possibly continued over several lines)."""
    text = DOCKERFILE.read_text()
    match = re.search(r"^CMD\s+(\[.*?\])\s*$", text.replace("\\\n", " "), re.MULTILINE | re.DOTALL)
    assert match, "platform/Dockerfile has no exec-form CMD"
    return json.loads(match.group(1))


def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text())


def k8s_documents_of(path: Path) -> list[dict]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def k8s_documents() -> list[dict]:
    docs = []
    for path in sorted(K8S_DIR.glob("*.yaml")):
        docs.extend(k8s_documents_of(path))
    return docs


def k8s_containers() -> list[tuple[str, dict]]:
    found = []
    for doc in k8s_documents():
        spec = doc.get("spec", {})
        template = spec.get("template") or spec.get("jobTemplate", {}).get("spec", {}).get(
            "template"
        )
        if not template:
            continue
        for container in template["spec"].get("containers", []) + template["spec"].get(
            "initContainers", []
        ):
            found.append((doc["metadata"]["name"], container))
    return found


def uvicorn_commands() -> list[tuple[str, list[str]]]:
    """Every shipped way the web server is started: (where, argv)."""
    commands = [("Dockerfile CMD", dockerfile_cmd())]
    for name, service in compose()["services"].items():
        command = service.get("command")
        if isinstance(command, list) and "uvicorn" in " ".join(command):
            commands.append((f"compose {name}", command))
    for name, container in k8s_containers():
        argv = [*container.get("command", []), *container.get("args", [])]
        if "uvicorn" in " ".join(argv):
            commands.append((f"k8s {name}", argv))
    return commands


def with_host_and_port(argv: list[str], host: str, port: int) -> list[str]:
    """The same argv with only --host and --port replaced."""
    out = list(argv)
    for flag, value in (("--host", host), ("--port", str(port))):
        index = out.index(flag)
        out[index + 1] = value
    return out


def nginx_for_test(*, upstream: str, http_port: int, https_port: int, directory: Path) -> str:
    """The shipped nginx site with only addresses and file locations changed,
    wrapped in a main configuration that runs as a child of the test."""
    site = NGINX_CONF.read_text()
    replacements = [
        (r"set \$matika_web web:8000;", f"set $matika_web {upstream};"),
        (r"\$\{NGINX_LOCAL_RESOLVERS\}", "127.0.0.1"),  # the official image's entrypoint
        (r"listen 80;", f"listen 127.0.0.1:{http_port};"),
        (r"listen \[::\]:80;", ""),
        (r"listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;"),
        (r"listen \[::\]:443 ssl;", ""),
        (r"/etc/nginx/certs/", f"{directory}/certs/"),
        (r"/var/www/acme", f"{directory}/acme"),
        (r"/var/log/nginx/access.log", f"{directory}/access.log"),
    ]
    for pattern, new in replacements:
        site, count = re.subn(pattern, new, site)
        assert count, f"platform/nginx/matika.conf no longer contains {pattern!r}"
    import os

    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}worker_processes 1;\n"
        f"pid {directory}/nginx.pid;\n"
        f"error_log {directory}/error.log warn;\n"
        "daemon off;\n"
        "events { worker_connections 512; }\n"
        "http {\n"
        f"  access_log {directory}/access.log;\n"
        f"  client_body_temp_path {directory}/tmp/body;\n"
        f"  proxy_temp_path {directory}/tmp/proxy;\n"
        f"  fastcgi_temp_path {directory}/tmp/fastcgi;\n"
        f"  uwsgi_temp_path {directory}/tmp/uwsgi;\n"
        f"  scgi_temp_path {directory}/tmp/scgi;\n"
        f"{site}\n"
        "}\n"
    )
