// The class page refreshes itself when something new happens (a student waits
// for approval or joins, a game opens or closes): it polls a small fingerprint
// of the page and reloads when it changes -- unless someone is typing, a
// dialog is open or the teacher is choosing a game's settings (a reload would
// forget them). A hidden tab does not poll.
/** @type {HTMLElement | null} */
const marker = document.querySelector("[data-class-status]");
const EVERY_MS = 5000; // 30 phones in a class: about six light requests a second
// A question that gets no answer is given up, so the next tick asks again: a
// stalled request (a phone changing networks) must not stop the page refreshing.
const PATIENCE_MS = 10000;
let choosing = false;
document.addEventListener("change", (event) => {
  if (/** @type {Element} */ (event.target).closest("[data-game-settings]")) choosing = true;
});

function busy() {
  const active = /** @type {HTMLInputElement | null} */ (document.activeElement);
  const typing =
    active && ["INPUT", "TEXTAREA", "SELECT"].includes(active.tagName) && active.value !== "";
  const settingsOpen = choosing && document.querySelector("[data-game-settings][open]");
  return typing || Boolean(document.querySelector("dialog[open]")) || Boolean(settingsOpen);
}

async function changed() {
  try {
    // AbortController and a timer, not AbortSignal.timeout(): older school
    // tablets (Safari before 16) lack the latter.
    const controller = new AbortController();
    const timer = window.setTimeout(() => controller.abort(), PATIENCE_MS);
    try {
      const response = await fetch(marker.dataset.url, {
        headers: { Accept: "application/json" },
        signal: controller.signal,
      });
      if (!response.ok) return false;
      const { signature } = await response.json();
      return signature !== marker.dataset.signature;
    } finally {
      window.clearTimeout(timer);
    }
  } catch (e) {
    return false; // offline or no answer in time: try again on the next tick
  }
}

async function check() {
  if (!document.hidden && !busy() && (await changed()) && !busy()) {
    window.location.reload();
    return;
  }
  window.setTimeout(check, EVERY_MS);
}

if (marker) window.setTimeout(check, EVERY_MS);
