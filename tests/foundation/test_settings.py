import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
PROD_ENV = {
    "SECRET_KEY": "x" * 20 + "-production-test-key-" + "y" * 30,
    "ALLOWED_HOSTS": "matika.example.org",
    "DATABASE_URL": "postgres://matika@db.invalid:5432/matika",
    "REDIS_URL": "redis://redis.invalid:6379/0",
}


def _manage(args: list[str], env_update: dict, drop: tuple[str, ...] = ()):
    drop = (*drop, "DJANGO_ALLOW_ASYNC_UNSAFE")  # set by the browser fixture, test-only
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(env_update, DJANGO_SETTINGS_MODULE="config.settings.prod")
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )


def test_production_check_deploy_is_clean():
    result = _manage(["check", "--deploy", "--fail-level", "WARNING"], PROD_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_each_secret():
    for name in ("SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"):
        env = {k: v for k, v in PROD_ENV.items() if k != name}
        result = _manage(["check"], env, drop=(name,))
        assert result.returncode != 0, name
        assert name in result.stderr


def test_production_refuses_the_development_secret_key():
    result = _manage(["check"], {**PROD_ENV, "SECRET_KEY": "dev-only-insecure-key-change-me"})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
