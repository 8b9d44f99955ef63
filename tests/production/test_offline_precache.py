"""The poker service worker precaches exactly what the offline pages load.

Issue 22 §1: "the service worker's precache list is generated from what the
pages really load (hashed URLs), so it cannot drift." Here each offline page is
fetched like a browser would, every subresource it names and every module or
stylesheet reference inside those is followed, and all of it must be in the
worker's list. (The same check against production settings and hashed names
runs in test_smoke.py.)
"""

import json
import posixpath
import re

import pytest

pytestmark = pytest.mark.django_db

SUBRESOURCE = re.compile(
    r"""<(?:script|img)\b[^>]*\bsrc="(?P<src>/[^"]*)"|<link\b(?=[^>]*\brel="(?:stylesheet|icon|apple-touch-icon|modulepreload)")[^>]*\bhref="(?P<href>/[^"]*)\""""
)
IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}/[^"']+)["']""")


def worker_lists(body: str) -> tuple[list[str], list[str]]:
    pages = json.loads(re.search(r"const PAGES = (\[.*?\]);", body).group(1))
    assets = json.loads(re.search(r"const ASSETS = (\[.*?\]);", body).group(1))
    return pages, assets


def loaded_by(client, page: str) -> set[str]:
    html = client.get(page).content.decode()
    pending = [m["src"] or m["href"] for m in SUBRESOURCE.finditer(html)]
    seen: set[str] = set()
    while pending:
        url = pending.pop().split("?")[0]
        if url in seen:
            continue
        seen.add(url)
        if url.endswith(".js") and url.startswith("/static/"):
            response = client.get(url)
            assert response.status_code == 200, url
            source = b"".join(
                response.streaming_content if response.streaming else [response.content]
            )
            for relative in IMPORT.findall(source.decode()):
                pending.append(posixpath.normpath(posixpath.join(posixpath.dirname(url), relative)))
    return seen


def test_everything_an_offline_page_loads_is_precached(client):
    pages, assets = worker_lists(client.get("/poker/sw.js").content.decode())
    assert "/poker/play/" in pages and "/poker/offline/" in pages
    for page in pages:
        missing = loaded_by(client, page) - set(assets)
        assert not missing, f"{page} loads {sorted(missing)} which the worker does not keep"


def test_the_worker_keeps_the_modules_the_game_imports_and_the_manifest_icons(client):
    _pages, assets = worker_lists(client.get("/poker/sw.js").content.decode())
    # The solo page's own modules too (solo/local.js is what plays offline).
    solo = (
        "poker/solo/page.js",
        "poker/solo/local.js",
        "poker/solo/server.js",
        "poker/solo/end.js",
    )
    for name in ("poker/play.js", "poker/game.js", "poker/deck.js", "js/kit/dialog.js", *solo):
        assert f"/static/{name}" in assets, name
    for icon in client.get("/poker/manifest.webmanifest").json()["icons"]:
        assert icon["src"] in assets
    assert "/jsi18n/" in assets
    assert len(assets) == len(set(assets))


def test_a_changed_asset_list_changes_the_worker_version(client, monkeypatch):
    from games.poker import offline

    body = client.get("/poker/sw.js").content.decode()
    version = re.search(r'const VERSION = "([^"]+)"', body).group(1)
    pages, assets = offline.precache(None)  # cached from the request above
    monkeypatch.setattr(offline, "_cached", (pages, [*assets, "/static/poker/extra.js"]))
    changed = client.get("/poker/sw.js").content.decode()
    assert re.search(r'const VERSION = "([^"]+)"', changed).group(1) != version
