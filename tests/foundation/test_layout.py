import platform
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def test_standard_library_platform_module_is_not_shadowed():
    assert Path(platform.__file__).resolve().parent != BASE_DIR / "platform"
    assert not (BASE_DIR / "platform" / "__init__.py").exists()
    assert platform.system() == "Linux"


def test_platform_module_works_from_the_project_root():
    # Running from the project root puts it first on sys.path: a `platform`
    # package there would win over the standard library.
    result = subprocess.run(
        [sys.executable, "-c", "import platform; print(platform.system())"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "Linux"


def test_dependencies_are_pinned():
    locked = set()
    for lock in ("requirements/prod.lock", "requirements/dev.lock"):
        text = (BASE_DIR / lock).read_text()
        lines = [
            line
            for line in text.splitlines()
            if line and not line.startswith("#") and not line.lstrip().startswith("--hash=")
        ]
        assert lines, f"{lock} is empty"
        assert all("==" in line for line in lines), "every locked dependency needs an exact version"
        assert text.count("==") <= text.count("--hash=sha256:"), "every pin needs its hash"
        locked |= {line.split("==")[0].lower().replace("_", "-") for line in lines}
    for name in ("django", "channels", "channels-redis", "celery", "psycopg", "uvicorn"):
        assert name in locked
