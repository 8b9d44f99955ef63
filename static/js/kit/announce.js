// @ts-check
// One live region per page (WAI-ARIA live regions): a screen reader hears one
// message per event, not every line of the page that changed.
//
// base.html holds the page's only live region (#announcer, visually hidden).
// The visible lines a pupil should hear (a game's status line, the drawn number,
// an error, a move log) are NOT live regions themselves: they carry
// `data-announce`, and this module watches them. Whatever changed in them
// during one event (one task: a click, a socket frame) is read out as ONE
// message, in page order, each text once.
//
//   data-announce          the element's text (or aria-label) when it changes
//                          or is shown (an error line unhidden)
//   data-announce="log"    only the entries added to it (a list of moves; at
//                          most its last three when many arrive at once)
//   data-announce="always" like the first, even when the same words are written
//                          again (the number in hand: the same number drawn twice)
//   data-announce="load"   like the first, and also once when the page opens
//                          (the flash messages of base.html)
//
// Code may also call `announce(text)` directly.
//
// While a modal <dialog> is open, everything outside it is inert: hidden from
// screen readers, the region too. So the region moves into the open modal dialog
// (and back home when it closes): what the event says is still heard, e.g.
// "Joker in hand" as the joker's dialog opens.

const REGION = "announcer";
/** Time to gather what one event changed before speaking. */
const GATHER_MS = 60;

/** @type {string[]} */
let pending = [];
let timer = 0;

/** @param {string} text */
function clean(text) {
  return text.replace(/\s+/g, " ").trim();
}

/** Say `text` in the page's live region (with whatever else this event says). @param {string} text */
export function announce(text) {
  const words = clean(text);
  if (!words) return;
  if (!pending.includes(words)) pending.push(words);
  if (!timer) timer = window.setTimeout(flush, GATHER_MS);
}

/** @type {HTMLElement | null} */
let voice = null;

/**
 * The region speaks through a closed shadow root: screen readers read it like any
 * content of the region, while the page's text (what a search or a test finds by
 * its words) holds each message once, in the line that shows it. `data-said` keeps
 * the last message for tests.
 * @param {HTMLElement} region
 */
function voiceOf(region) {
  if (!voice) {
    voice = document.createElement("span");
    region.attachShadow({ mode: "closed" }).append(voice);
  }
  return voice;
}

/** @type {HTMLElement | null} */
let region = null;
/** Where the region lives while no modal dialog is open. @type {{ parent: Node, next: Node | null } | null} */
let home = null;

/** The region into the topmost open modal dialog, or back home when none is open. */
function followDialogs() {
  if (!region || !home) return;
  const modals = [...document.querySelectorAll("dialog")].filter((dialog) => dialog.matches(":modal"));
  const host = modals.length ? modals[modals.length - 1] : null;
  if (host) {
    if (region.parentNode !== host) host.append(region);
  } else if (region.parentNode !== home.parent || !region.isConnected) {
    const next = home.next && home.next.parentNode === home.parent ? home.next : null;
    home.parent.insertBefore(region, next);
  }
}

function flush() {
  timer = 0;
  followDialogs();
  const message = pending.join(" ");
  pending = [];
  if (!region || !message) return;
  const speaker = voiceOf(region);
  // The same words again (a second "Your turn") must still change the region to be read.
  speaker.textContent = speaker.textContent === message ? `${message}\u00a0` : message;
  region.dataset.said = message;
}

/** @param {Element} el */
function shown(el) {
  return !el.closest("[hidden]") && el.getClientRects().length > 0;
}

/** @param {Element} el */
function spoken(el) {
  return el.getAttribute("aria-label") || el.textContent || "";
}

/** What each line said last: a line rewritten with the same words says nothing new. */
const said = new WeakMap();
/** The entries each log held last. */
const logged = new WeakMap();

/** @param {HTMLElement} el */
function sayLine(el) {
  const text = clean(spoken(el));
  if (said.get(el) === text && el.dataset.announce !== "always") return;
  said.set(el, text);
  announce(text);
}

/** @param {Node | null} node @returns {HTMLElement | null} */
function source(node) {
  const el = node instanceof Element ? node : node && node.parentElement;
  return el ? /** @type {HTMLElement | null} */ (el.closest("[data-announce]")) : null;
}

/** @param {HTMLElement} el @returns {string[]} */
function entries(el) {
  return [...el.children].map((entry) => clean(entry.textContent || ""));
}

/** A log's new entries: those after what it held before (a log may be redrawn whole). @param {HTMLElement} el */
function sayEntries(el) {
  const before = logged.get(el) || [];
  const now = entries(el);
  logged.set(el, now);
  // new: what follows the entry that was last before (a long log may drop its oldest)
  const last = before.length ? now.lastIndexOf(before[before.length - 1]) : -1;
  const from = before.length && last < 0 ? now.length - 1 : last + 1;
  now.slice(Math.max(from, now.length - 3)).forEach(announce);
}

/** @param {MutationRecord[]} records */
function changed(records) {
  /** @type {Set<HTMLElement>} */
  const found = new Set();
  for (const record of records) {
    const el = source(record.target);
    if (el) found.add(el);
  }
  const ordered = [...found].sort((a, b) =>
    a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1,
  );
  if (records.some((record) => record.attributeName === "open" || record.removedNodes.length)) followDialogs();
  for (const el of ordered) {
    if (el.dataset.announce === "log") sayEntries(el);
    else if (!shown(el)) said.delete(el); // shown again later, it is news again
    else sayLine(el);
  }
}

function start() {
  region = document.getElementById(REGION);
  if (region && region.parentNode) home = { parent: region.parentNode, next: region.nextSibling };
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-announce]"))) {
    if (el.dataset.announce === "log") logged.set(el, entries(el));
    else if (el.dataset.announce === "load" && shown(el)) sayLine(el);
    else said.set(el, clean(spoken(el)));
  }
  new MutationObserver(changed).observe(document.body, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ["hidden", "aria-label", "open"],
  });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
