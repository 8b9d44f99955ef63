"""Fixtures of the accessibility tests: pages opened in their own browser context."""

from __future__ import annotations

import pytest

from tests.foundation import test_site_crawl as crawl


@pytest.fixture
def open_page(browser, asgi_server):
    contexts = []

    def open_(path: str, viewport: dict, cookies: dict | None = None, before=None):
        context = browser.new_context(base_url=asgi_server, viewport=viewport, locale="en-GB")
        context.set_default_timeout(crawl.TIMEOUT)
        jar = {"matika_lang": "en", **(cookies or {})}
        context.add_cookies([{"name": k, "value": v, "url": asgi_server} for k, v in jar.items()])
        contexts.append(context)
        page = context.new_page()
        if before is not None:  # e.g. a WebSocket route, set before the page opens
            before(page)
        page.goto(path)
        return page

    yield open_
    for context in contexts:
        context.close()
