"""Production's SITE_URL (issue 27 §5: "production should not accept
`Host: localhost` for mail links"): mails build their links from it
(accounts/mail_links.py); it is never a loopback name, although ALLOWED_HOSTS
lists those for the health probes."""

import os
import subprocess
import sys

from tests.production import shipped

PROD_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings.prod",
    "SECRET_KEY": "site-url-test-" + "k" * 40,
    "ALLOWED_HOSTS": "matika.example.org,www.matika.example.org",
    "DATABASE_URL": "postgres://matika@db.invalid:5432/matika",
    "REDIS_URL": "redis://redis.invalid:6379/0",
}
# Reading a setting imports config.settings.prod, whose checks run on import;
# django.setup() would also import every app for nothing these tests look at.
CODE = "from django.conf import settings as s; print(s.SITE_URL); print(','.join(s.ALLOWED_HOSTS))"


def _prod(**env: str) -> subprocess.CompletedProcess:
    full = {
        k: v for k, v in os.environ.items() if k not in {"DJANGO_ALLOW_ASYNC_UNSAFE", "SITE_URL"}
    }
    full.update(PROD_ENV, **env)
    return subprocess.run(
        [sys.executable, "-c", CODE], cwd=shipped.BASE_DIR, env=full, capture_output=True, text=True
    )


def test_site_url_defaults_to_https_and_the_first_public_name():
    result = _prod()
    assert result.returncode == 0, result.stderr
    site_url, allowed = result.stdout.strip().splitlines()[-2:]
    assert site_url == "https://matika.example.org"
    assert "localhost" in allowed.split(",")  # for the probes, never for mails


def test_site_url_from_the_environment():
    result = _prod(SITE_URL="https://hry.skola.example/")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-2] == "https://hry.skola.example"


def test_a_site_url_that_is_not_a_scheme_and_host_stops_production():
    for bad in ("matika.example.org", "https://matika.example.org/path", "https://*"):
        result = _prod(SITE_URL=bad)
        assert result.returncode != 0
        assert "SITE_URL" in result.stderr
    assert _prod(ALLOWED_HOSTS=".example.org").returncode != 0
