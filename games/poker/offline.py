"""What the poker service worker precaches: exactly what the offline pages load.

The list used to be written by hand and drifted: with the production storage
the pages load hashed modules that import further hashed modules, and a name
missing from the hand-written list was never cached (issue 22 §1: after 75 s
offline, Start did nothing). Here it is derived instead:

1. each offline page is rendered by its own view, as an anonymous visitor;
2. every subresource the HTML names (``<script src>``, stylesheets, icons,
   ``<img src>``) is taken, same-origin only, with the URLs the page really
   uses (hashed in production);
3. every static JS/CSS file among them is read and its relative module imports
   (``import … from "./x.js"``, ``export … from``, ``import("./x.js")``) and CSS
   ``url(…)`` references are followed, transitively;
4. the web manifest's icons are added.

The result is computed once per process (it depends on the deployment's static
files, not on the visitor) and names only paths.
"""

from __future__ import annotations

import copy
import json
import posixpath
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, QueryDict
from django.urls import resolve, reverse

from accounts.requests import PlayerRequest

OFFLINE_PAGES = ("index", "play", "scoresheet", "picker", "rules", "print_board", "offline")

SUBRESOURCE_RELS = {"stylesheet", "icon", "apple-touch-icon", "modulepreload", "preload"}
JS_IMPORT = re.compile(
    r"""(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](?P<url>\.{1,2}/[^"'\s]+)["']"""
)
CSS_URL = re.compile(r"""url\(\s*["']?(?P<url>[^"')\s]+)["']?\s*\)""")


class _Subresources(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        src, href = values.get("src"), values.get("href")
        if tag in ("script", "img") and src:
            self.urls.append(src)
        elif tag == "link" and href:
            rels = set((values.get("rel") or "").lower().split())
            if rels & SUBRESOURCE_RELS:
                self.urls.append(href)


def subresources(html: str) -> list[str]:
    """Same-origin paths of what an HTML page loads (not the links it offers)."""
    parser = _Subresources()
    parser.feed(html)
    found = []
    for url in parser.urls:
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path.startswith("/"):
            continue
        found.append(parts.path)
    return found


def _static_text(path: str) -> str | None:
    """The content of a static file named by its URL path (hashed or not)."""
    if not path.startswith(settings.STATIC_URL):
        return None
    name = path[len(settings.STATIC_URL) :]
    source = finders.find(name)
    try:
        if source:
            with open(source, encoding="utf-8") as handle:
                return handle.read()
        if staticfiles_storage.exists(name):
            with staticfiles_storage.open(name) as handle:
                return handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError, NotImplementedError):
        return None
    return None


def references(path: str) -> list[str]:
    """Static files a JS module imports or a stylesheet points at, as paths."""
    if path.endswith((".js", ".mjs")):
        pattern = JS_IMPORT
    elif path.endswith(".css"):
        pattern = CSS_URL
    else:
        return []
    text = _static_text(path)
    if text is None:
        return []
    found = []
    for match in pattern.finditer(text):
        url = match["url"]
        if url.startswith(("data:", "#", "http:", "https:", "//")):
            continue
        target = urlsplit(url).path
        if not target.startswith("/"):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        found.append(target)
    return found


def _anonymous_get(request: PlayerRequest, path: str) -> HttpRequest:
    clone = copy.copy(request)
    clone.META = {**request.META, "REQUEST_METHOD": "GET", "QUERY_STRING": ""}
    clone.method = "GET"
    clone.path = clone.path_info = path
    clone.GET = QueryDict()
    clone.COOKIES = {}
    clone.user = AnonymousUser()
    clone.player = None
    clone.browser = None
    # A session of its own that is never saved: rendering must change nothing
    # for the visitor whose request asked for the worker.
    clone.session = SessionBase()
    return clone


def _render(request: PlayerRequest, path: str) -> bytes:
    match = resolve(path)
    clone = _anonymous_get(request, path)
    clone.resolver_match = match
    response = match.func(clone, *match.args, **match.kwargs)
    if hasattr(response, "render") and callable(response.render):
        response = response.render()
    return response.content


def collect(request: PlayerRequest) -> tuple[list[str], list[str]]:
    """(page paths, asset paths) the service worker keeps."""
    pages = [reverse(f"poker:{name}") for name in OFFLINE_PAGES]
    assets: list[str] = []
    seen: set[str] = set()
    pending: list[str] = []
    for page in pages:
        pending.extend(subresources(_render(request, page).decode("utf-8")))
    manifest = json.loads(_render(request, reverse("poker:manifest")))
    pending.extend(urlsplit(icon["src"]).path for icon in manifest.get("icons", []))
    while pending:
        path = pending.pop(0)
        if path in seen or path in pages:
            continue
        seen.add(path)
        assets.append(path)
        pending.extend(references(path))
    return pages, assets


_cached: tuple[list[str], list[str]] | None = None


def precache(request: PlayerRequest) -> tuple[list[str], list[str]]:
    """``collect`` once per process: the static files do not change while it runs."""
    global _cached
    if _cached is None or settings.DEBUG:
        _cached = collect(request)
    return _cached
