"""Add ``--hash`` lines to requirements.lock, so installs refuse any file that differs.

    python tests/tools/hash_lock.py requirements.lock      # rewrites it in place

``pip download`` fetches every pinned distribution for this platform (CPython
3.11, Linux x86_64 -- the image's ``python:3.11-slim-bookworm`` on amd64) into a
temporary folder, without dependencies (the lock pins them all); ``pip hash``
gives each file's SHA-256. With hashes in the file pip switches to
hash-checking mode by itself: ``pip install -r requirements.lock`` (make
install) and ``pip install --require-hashes -r requirements.lock`` (the image)
install exactly these files. ``make lock`` runs this after ``pip freeze``. Pins that already carry hashes keep
them; only new or changed pins are downloaded. ``--known OLD.lock`` (repeatable) also
takes the hashes of unchanged pins from the previous locks, so a re-lock downloads
only what moved; ``--pins LOCK...`` prints the bare ``name==version`` lines of locks
(make lock's constraints: today's versions stay unless an .in file needs another).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def known_hashes(lock: Path) -> dict[str, list[str]]:
    """``name==version`` -> its ``--hash`` values, for the pins that already have them."""
    found: dict[str, list[str]] = {}
    current = None
    for line in lock.read_text().splitlines():
        line = line.strip().rstrip("\\").strip()
        if line.startswith("--hash="):
            if current:
                found.setdefault(current, []).append(line.removeprefix("--hash="))
        elif "==" in line and not line.startswith("#"):
            current = line.split()[0]
    return found


def pins(lock: Path) -> list[str]:
    """``name==version`` lines, without hashes or continuation lines."""
    found = []
    for line in lock.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "--")) and "==" in line:
            found.append(line.split()[0].rstrip("\\").strip())
    return found


def _key(pin: str) -> str:
    name, _sep, version = pin.partition("==")
    return f"{_name(name)}=={version}"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--pins"]:
        for name in argv[1:]:
            print("\n".join(pins(Path(name))))
        return 0
    known_files = [Path(argv[i + 1]) for i, arg in enumerate(argv) if arg == "--known"]
    rest = [
        a for i, a in enumerate(argv) if a != "--known" and (i == 0 or argv[i - 1] != "--known")
    ]
    lock = Path(rest[0] if rest else "requirements.lock")
    pinned = pins(lock)
    kept: dict[str, list[str]] = {}
    for source in [*known_files, lock]:
        kept.update({_key(pin): hashes for pin, hashes in known_hashes(source).items()})
    missing = [pin for pin in pinned if _key(pin) not in kept]
    with tempfile.TemporaryDirectory(prefix="matika-lock-") as folder:
        if missing:  # only what has no hashes yet (a new or changed pin)
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", folder]
                + missing,
                check=True,
            )
        files: dict[str, list[Path]] = {}
        for path in Path(folder).iterdir():
            files.setdefault(_name(re.split(r"-\d", path.name, maxsplit=1)[0]), []).append(path)
        lines = []
        for pin in pinned:
            if _key(pin) in kept:
                hashes = kept[_key(pin)]
                lines.append(" \\\n".join([pin, *(f"    --hash={h}" for h in hashes)]))
                continue
            name = _name(pin.split("==")[0])
            found = files.get(name)
            if not found:
                print(f"no file downloaded for {pin}", file=sys.stderr)
                return 1
            hashes = []
            for path in sorted(found):
                out = subprocess.run(
                    [sys.executable, "-m", "pip", "hash", "--algorithm", "sha256", str(path)],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                hashes.append(out.strip().splitlines()[-1].removeprefix("--hash="))
            lines.append(" \\\n".join([pin, *(f"    --hash={h}" for h in hashes)]))
    lock.write_text("\n".join(lines) + "\n")
    print(f"{lock}: {len(lines)} pins with hashes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
