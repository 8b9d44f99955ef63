"""The poker service worker keeps anonymous shells only (issue 27 §5).

The attack: the worker stored every poker page the visitor opened, as the
visitor got it (nickname in the header, records on the hub); offline, the next
pupil on a shared classroom computer was shown the last pupil's page. Now only
pages fetched without cookies are stored, so no cached page carries anyone's
identity, and offline the next pupil sees the anonymous page.
"""

from __future__ import annotations

from playwright.sync_api import expect

PAGES = ("/poker/", "/poker/play/", "/poker/rules/", "/poker/scoresheet/")

CACHED_PAGES = """async () => {
  const pages = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      if ((response.headers.get("content-type") || "").startsWith("text/html")) {
        pages.push([new URL(request.url).pathname, await response.text()]);
      }
    }
  }
  return pages;
}"""


def test_no_cached_page_carries_the_pupil_and_offline_the_next_pupil_sees_a_shell(player_page):
    page = player_page
    nickname = page.profile.nickname
    page.goto("/poker/")
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    # Online, through the worker, each page is the pupil's own.
    for url in PAGES:
        page.goto(url)
        expect(page.locator("header")).to_contain_text(nickname)
    cached = dict(page.evaluate(CACHED_PAGES))
    assert set(PAGES) <= set(cached), sorted(cached)
    for url, body in cached.items():
        assert nickname not in body, f"{url} was cached with the pupil's nickname"
    # The next pupil: no cookies, and the network is gone.
    page.context.clear_cookies()
    page.context.set_offline(True)
    try:
        for url in PAGES:
            page.goto(url)
            expect(page.locator("h1").first).to_be_visible()
            expect(page.locator("body")).not_to_contain_text(nickname)
            expect(page.locator("header")).to_contain_text("My profile")
    finally:
        page.context.set_offline(False)
