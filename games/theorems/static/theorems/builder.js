// The deck builder: filters, and live statistics plus the rules' verdict from the server
// (the server renders the statistics, so they are computed in one place only).
import { setupFilters } from "./filters.js";

/** @type {HTMLElement | null} */
const builder = document.querySelector("[data-deck-builder]");

if (builder) {
  const form = builder.querySelector("form");
  const slot = builder.querySelector("[data-stats-slot]");
  /** @type {HTMLElement} */
  const errorLine = builder.querySelector("[data-check-error]");
  const csrf = /** @type {HTMLInputElement} */ (form.querySelector("input[name=csrfmiddlewaretoken]")).value;
  setupFilters(builder, { onlyChosen: true });
  let timer = null;
  let latest = 0;

  async function check() {
    const request = ++latest;
    /** @type {HTMLInputElement | null} */
    const mathematician = form.querySelector("input[name=mathematician]:checked");
    /** @type {NodeListOf<HTMLInputElement>} */
    const boxes = form.querySelectorAll("input[name=cards]:checked");
    const cards = [...boxes].map((box) => box.value);
    const response = await fetch(builder.dataset.checkUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ mathematician: mathematician ? mathematician.value : "", cards }),
      credentials: "same-origin",
    });
    if (request !== latest || !response.ok) return;
    const answer = await response.json();
    slot.innerHTML = answer.html; // rendered and escaped by the server's template
    errorLine.textContent = answer.error ? answer.error.message : "";
    errorLine.dataset.code = answer.error ? answer.error.code : "";
    builder.dataset.valid = answer.ok ? "true" : "false";
  }

  const barCount = builder.querySelector("[data-bar-count]");
  form.addEventListener("change", (event) => {
    if (!(/** @type {Element} */ (event.target).matches("input[name=cards], input[name=mathematician]"))) return;
    barCount.textContent = String(form.querySelectorAll("input[name=cards]:checked").length);
    clearTimeout(timer);
    timer = setTimeout(() => check().catch(() => {}), 150);
  });
  check().catch(() => {});
}
