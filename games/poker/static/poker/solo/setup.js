// @ts-check
// Before a game: the settings form (kept between visits) and the publication
// question asked once before the first public write.

import { closeDialog, openDialog, readStorage } from "../common.js";
import { $, SETTINGS_KEY, csrfToken, dialogById, inputById, root, setStatus } from "./page.js";

/** The form as the link (?mode=&seconds=&table=) or the last visit left it. */
export function restoreSettings() {
  const params = new URLSearchParams(window.location.search);
  const saved = readStorage(SETTINGS_KEY, {});
  const mode = params.get("mode") || saved.mode || "easy";
  const form = $("poker-setup");
  const radio = /** @type {HTMLInputElement} */ (form.querySelector(`input[name=mode][value="${mode === "hard" ? "hard" : "easy"}"]`));
  radio.checked = true;
  if (params.get("seconds") || saved.seconds) inputById("poker-seconds").value = params.get("seconds") || saved.seconds;
  const table = params.get("table") || saved.table;
  const tables = /** @type {HTMLSelectElement} */ ($("poker-table-select"));
  if (table && [...tables.options].some((o) => o.value === table)) {
    tables.value = table;
  }
  syncSetup();
}

/** The seconds field belongs to the hard game only. */
export function syncSetup() {
  const hard = checkedMode() === "hard";
  $("poker-seconds-field").hidden = !hard;
  inputById("poker-seconds").disabled = !hard;
}

/** The game chosen in the setup form ("easy" or "hard"). */
function checkedMode() {
  return /** @type {HTMLInputElement} */ ($("poker-setup").querySelector("input[name=mode]:checked")).value;
}

export function readSettings() {
  const mode = checkedMode();
  const seconds = Number.parseInt(inputById("poker-seconds").value, 10);
  return { mode, seconds, table: /** @type {HTMLSelectElement} */ ($("poker-table-select")).value };
}

/** Ask the publication question (the exact stored text) once, before the first
 * public write. Closing the dialog is no answer: the game goes on, nothing is
 * published, and the question comes again next time. */
export function askConsent() {
  if (root.dataset.consent !== "unknown") return Promise.resolve();
  const dialog = dialogById("poker-consent-dialog");
  // A yes needs the age sentence ticked (GDPR Art. 8: old enough or a parent agreed).
  const age = inputById("poker-consent-age");
  const yes = /** @type {HTMLButtonElement} */ ($("poker-consent-yes"));
  yes.disabled = !age.checked;
  age.onchange = () => {
    yes.disabled = !age.checked;
  };
  return new Promise((resolve) => {
    const answer = async (granted) => {
      closeDialog(dialog);
      const body = new FormData();
      body.append("consent", granted ? "yes" : "no");
      if (granted) body.append("age", age.checked ? "yes" : "no");
      try {
        const response = await fetch(root.dataset.consentUrl, {
          method: "POST",
          credentials: "same-origin",
          headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
          body,
        });
        if (response.ok) root.dataset.consent = granted ? "yes" : "no";
      } catch (error) {
        /* unanswered: nothing is published, the question comes again */
      }
      resolve();
    };
    $("poker-consent-yes").onclick = () => answer(true);
    $("poker-consent-no").onclick = () => answer(false);
    openDialog(dialog, { onCancel: () => resolve() });
    age.focus();
  });
}

/** A start the server refused: back to the setup, the reason said there. */
export function showRefusal(message) {
  $("poker-setup").hidden = false;
  $("poker-game").hidden = true;
  setStatus(message);
  const setup = $("poker-setup");
  let note = setup.querySelector(".poker-refusal");
  if (!note) {
    note = document.createElement("p");
    note.className = "notice poker-refusal";
    note.setAttribute("role", "alert");
    setup.append(note);
  }
  note.textContent = message;
}
