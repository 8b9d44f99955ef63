// The "New homework" form: only the chosen game's settings are shown, and the
// seconds per number only for a hard game. The dates are read in the teacher's
// time zone: the hidden field gets the browser's zone (the server keeps it on
// the homework and shows the dates in it).
const form = /** @type {HTMLFormElement | null} */ (document.getElementById("homework-form"));

function browserZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch {
    return "";
  }
}

function sync() {
  if (!form) return;
  const fields = /** @type {Record<string, HTMLInputElement | undefined>} */ (/** @type {unknown} */ (form.elements));
  const game = fields.game ? fields.game.value : "";
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("[data-game]"))) {
    const field = /** @type {HTMLElement} */ (input.closest(".field") || input.parentElement);
    let shown = input.dataset.game === game;
    if (shown && input.name.endsWith("__seconds_per_card")) {
      const difficulty = fields[`${game}__difficulty`];
      shown = !difficulty || difficulty.value === "hard";
    }
    field.hidden = !shown;
    input.disabled = !shown;
  }
}

function pad(number) {
  return String(number).padStart(2, "0");
}

// A date the server wrote in another zone: the same moment, in this browser's.
function toLocalInput(iso) {
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return null;
  return (
    `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}` +
    `T${pad(moment.getHours())}:${pad(moment.getMinutes())}`
  );
}

if (form) {
  const zone = browserZone();
  const hidden = /** @type {HTMLInputElement | undefined} */ (form.elements.namedItem("time_zone"));
  if (zone && hidden && zone !== hidden.value) {
    for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[data-utc]"))) {
      const local = toLocalInput(input.dataset.utc);
      if (local) input.value = local;
    }
  }
  if (zone && hidden) {
    hidden.value = zone;
    const label = form.querySelector("[data-zone-label]");
    if (label) label.textContent = zone;
  }
  form.addEventListener("change", sync);
  sync();
}

export {}; // an ES module (type="module"): its names are its own
