// Matematický poker service worker (scope /poker/): keeps the
// poker pages and their assets so easy/hard games, the scoresheet, the number
// picker and the rules work offline. The API is never cached: a server game
// needs the server, and the page falls back to playing in the browser.
const VERSION = "poker-{{ version }}";
const PAGES = [{% for url in pages %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const ASSETS = [{% for url in assets %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const OFFLINE = "{{ offline_url|escapejs }}";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(VERSION)
      .then((cache) => cache.addAll([...PAGES, ...ASSETS]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("poker-") && key !== VERSION).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

async function networkFirst(request) {
  const cache = await caches.open(VERSION);
  const url = new URL(request.url);
  // Only the offline-capable pages are kept; pages that need the server (rooms,
  // anything else under /poker/) get the offline notice instead of a stale copy.
  const keep = PAGES.includes(url.pathname) || ASSETS.includes(url.pathname);
  try {
    const response = await fetch(request);
    if (response.ok && keep) {
      // Pages are stored without their query: /poker/play/?mode=hard is /poker/play/.
      await cache.put(url.origin + url.pathname, response.clone());
    }
    return response;
  } catch (error) {
    const cached = keep && (await cache.match(request, { ignoreSearch: true, ignoreVary: true }));
    if (cached) return cached;
    if (request.mode === "navigate") return (await cache.match(OFFLINE, { ignoreVary: true })) || Response.error();
    return Response.error();
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(VERSION);
  const cached = await cache.match(request, { ignoreVary: true });
  if (cached) {
    fetch(request)
      .then((response) => (response.ok ? cache.put(request, response) : null))
      .catch(() => null);
    return cached;
  }
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.includes("/api/")) return;
  if (ASSETS.includes(url.pathname) && !url.pathname.startsWith("/jsi18n")) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" || url.pathname.startsWith("/jsi18n")) {
    event.respondWith(networkFirst(request));
  }
});
