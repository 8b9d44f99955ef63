// Matematický poker service worker (scope /poker/): keeps the
// poker pages and their assets so easy/hard games, the scoresheet, the number
// picker and the rules work offline. The API is never cached: a server game
// needs the server, and the page falls back to playing in the browser.
//
// Pages are kept only as anonymous shells, fetched without cookies: a page the
// visitor got with their identity (their nickname, their records) is never
// stored, so on a shared classroom computer the next pupil offline never sees
// the last one's page (issue 27 §5).
// "shells": caches of earlier workers, which kept visitors' own pages, are dropped.
const VERSION = "poker-shells-{{ version }}";
const PAGES = [{% for url in pages %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const ASSETS = [{% for url in assets %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const OFFLINE = "{{ offline_url|escapejs }}";
// A visit refreshes a page's shell at most this often (the install fetches them all).
const SHELL_MAX_AGE_MS = 60 * 60 * 1000;
// `self`, typed as what it is here (tsc's worker library types it as any worker's scope).
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(VERSION)
      .then((cache) => cache.addAll([...PAGES.map(shellRequest), ...ASSETS]))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("poker-") && key !== VERSION).map((key) => caches.delete(key))))
      .then(() => worker.clients.claim()),
  );
});

/** A page as an anonymous visitor gets it: no cookies go out, none come back.
 * @param {string} path */
function shellRequest(path) {
  return new Request(path, { credentials: "omit", cache: "no-store", redirect: "follow" });
}

/** Store the anonymous shell of an offline-capable page (never the visitor's own
 * copy), when the stored one is missing or older than SHELL_MAX_AGE_MS. */
async function refreshShell(path) {
  const cache = await caches.open(VERSION);
  const key = new URL(path, worker.location.origin).href;
  const stored = await cache.match(key, { ignoreVary: true });
  const fetchedAt = stored ? Date.parse(stored.headers.get("Date") || "") : NaN;
  if (Date.now() - fetchedAt < SHELL_MAX_AGE_MS) return;
  const response = await fetch(shellRequest(path));
  if (response.ok && !response.redirected) await cache.put(key, response);
}

/** @param {Request} request @param {FetchEvent} event */
async function networkFirst(request, event) {
  const cache = await caches.open(VERSION);
  const url = new URL(request.url);
  // Only the offline-capable pages are kept; pages that need the server (rooms,
  // anything else under /poker/) get the offline notice instead of a stale copy.
  const page = PAGES.includes(url.pathname);
  const keep = page || ASSETS.includes(url.pathname);
  try {
    const response = await fetch(request);
    if (response.ok && page) {
      // The visitor's own page is shown, never stored; the shell is refreshed
      // beside it. Pages are kept without their query: /poker/play/?mode=hard is /poker/play/.
      event.waitUntil(refreshShell(url.pathname).catch(() => null));
    } else if (response.ok && keep) {
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

/** @param {Request} request */
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

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (url.pathname.includes("/api/")) return;
  if (ASSETS.includes(url.pathname) && !url.pathname.startsWith("/jsi18n")) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" || url.pathname.startsWith("/jsi18n")) {
    event.respondWith(networkFirst(request, event));
  }
});
