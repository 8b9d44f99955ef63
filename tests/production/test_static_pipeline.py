"""The production static pipeline: hashed ES modules import hashed modules.

Issue 22 §1: "With the production static storage, the hashed poker entry files
import unhashed modules (`./dialog.js`, `./board.js`, …); the service worker
never caches those and WhiteNoise serves them for 60 s only." Required: "the
manifest storage rewrites JS module imports".
"""

import os
import re
from pathlib import Path

import pytest

# import ... from "./x.js";  export ... from "../x.js";  import "./x.js";  import("./x.js")
RELATIVE_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](?P<url>\.{1,2}/[^"']+)["']""", re.MULTILINE
)
HASHED = re.compile(r"\.[0-9a-f]{12}\.(?:m?js)$")


@pytest.fixture(scope="module")
def collected(prod_static) -> tuple[Path, dict[str, str]]:
    return prod_static.root, prod_static.manifest


def test_every_hashed_module_imports_only_hashed_files_that_exist(collected):
    root, manifest = collected
    modules = {name: hashed for name, hashed in manifest.items() if name.endswith(".js")}
    assert len(modules) > 20  # the games' modules are really collected
    checked = 0
    problems = []
    for hashed in modules.values():
        source = (root / hashed).read_text(encoding="utf-8")
        for match in RELATIVE_IMPORT.finditer(source):
            url = match["url"]
            target = os.path.normpath(os.path.join(os.path.dirname(hashed), url))
            checked += 1
            if not HASHED.search(target):
                problems.append(f"{hashed} imports unhashed {url}")
            elif not (root / target).is_file():
                problems.append(f"{hashed} imports missing {url}")
    assert problems == []
    assert checked > 30  # the modules really import each other


def test_the_poker_entry_module_imports_its_board_by_hashed_name(collected):
    root, manifest = collected
    play = next(hashed for name, hashed in manifest.items() if name.endswith("poker/play.js"))
    source = (root / play).read_text(encoding="utf-8")
    imports = [m["url"] for m in RELATIVE_IMPORT.finditer(source)]
    assert imports, "play.js imports its helpers"
    assert all(HASHED.search(url) for url in imports), imports


def test_compressed_copies_are_written_for_the_hashed_modules(collected):
    root, manifest = collected
    some = next(hashed for name, hashed in manifest.items() if name.endswith("poker/play.js"))
    assert (root / (some + ".gz")).is_file()
