// @ts-check
// Downloads ("Download CSV / Excel") that work inside an LMS frame too.
//
// In a frame whose session cookie is partitioned (third-party cookies blocked,
// the LTI launch's `Partitioned` cookie), Chromium sends a download link's
// request without that cookie: the teacher got 403. fetch() from the page
// carries it, so in a frame the file is fetched and saved from a Blob under
// the server's file name. In a window of its own a link stays a plain link.

/** Whether this page runs inside another page's frame. */
export function inFrame(win = window) {
  try {
    return win.top !== win.self;
  } catch (error) {
    return true; // a cross-origin parent cannot even be compared: a frame
  }
}

/**
 * The file name a Content-Disposition header gives (RFC 6266: filename*
 * first, then filename), else the fallback.
 * @param {string | null} disposition
 * @param {string} fallback
 */
export function fileName(disposition, fallback) {
  if (disposition) {
    const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
    if (star) {
      try {
        return decodeURIComponent(star[1].trim());
      } catch (error) {
        /* a broken encoding: try the plain name */
      }
    }
    const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
    if (plain) return plain[1].trim();
  }
  return fallback;
}

/**
 * Fetch the link's file with the page's own cookies and save it.
 * @param {HTMLAnchorElement} link
 * @param {{fetch?: typeof fetch, doc?: Document, urls?: typeof URL}} [tools]
 */
export async function saveThroughFetch(link, tools = {}) {
  const get = tools.fetch || window.fetch.bind(window);
  const doc = tools.doc || document;
  const urls = tools.urls || URL;
  const response = await get(link.href, { credentials: "include" });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const blob = await response.blob();
  const fallback = link.getAttribute("download") || link.href.split("/").pop() || "download";
  const url = urls.createObjectURL(blob);
  const save = doc.createElement("a");
  save.href = url;
  save.download = fileName(response.headers.get("Content-Disposition"), fallback);
  save.hidden = true;
  doc.body.append(save);
  save.click();
  save.remove();
  const timer = /** @type {unknown} */ (setTimeout(() => urls.revokeObjectURL(url), 60_000));
  if (typeof timer === "object" && timer && "unref" in timer) /** @type {{ unref(): void }} */ (timer).unref(); // (node tests)
  return save.download;
}

/** @param {MouseEvent} event */
function onClick(event) {
  const target = event.target instanceof Element ? event.target.closest("a[download]") : null;
  if (!(target instanceof HTMLAnchorElement) || !inFrame() || target.origin !== window.location.origin) return;
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  event.preventDefault();
  saveThroughFetch(target).catch(() => {
    // Still nothing: open the file in a window of its own (first-party cookies).
    window.open(target.href, "_blank", "noopener");
  });
}

if (typeof document !== "undefined") document.addEventListener("click", onClick);
