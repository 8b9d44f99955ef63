// @ts-check
// Hints and the after-game review (practice and robot games; the server decides
// whether they are allowed and counts the hints).
import { el } from "../../js/kit/dom.js";
import { gettext } from "../../js/kit/i18n.js";
import { JOKER } from "../data.js";
import { renderReview } from "./draw.js";
import { csrfToken, myTurn, rack, root } from "./page.js";

// Hints only where nobody else plays: every other seat is a robot (or there is none).
export function hintAllowed(table) {
  const { view } = table;
  if (!view || view.you === null || view.you === undefined) return false;
  return view.seats.every((seat) => seat.seat === view.you || seat.player_id === null);
}

async function post(url) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "X-CSRFToken": csrfToken() },
  });
  return response.json();
}

function showReview(table) {
  renderReview(table, (index) => {
    table.reviewIndex = table.reviewIndex === index ? null : index;
    showReview(table);
    table.render();
    table.parts.board.scrollIntoView({ block: "nearest" });
  });
}

/** The hint button and the review's opener, each calling intents of `table`. */
export function wireCoach(table) {
  const { parts } = table;

  // The hint lays the best move's stones from the rack as a proposal: the preview
  // scores it, the player may play it or take the stones back.
  parts.hint.addEventListener("click", async () => {
    if (!myTurn(table) || table.busy) return;
    parts.hint.disabled = true;
    let answer;
    try {
      answer = await post(table.urls.hint);
    } catch (error) {
      answer = { ok: false, message: gettext("The hint could not be fetched. Try again.") };
    }
    parts.hint.disabled = !myTurn(table);
    if (!answer.ok) {
      parts.error.textContent = answer.message || answer.code;
      return;
    }
    if (!answer.placements) {
      parts.error.textContent = gettext("No move is possible with these stones: exchange or skip.");
      return;
    }
    table.pending = [];
    table.selected = null;
    const free = rack(table).map((kind, index) => ({ kind, index }));
    for (const [row, col, digit, joker] of answer.placements) {
      const found = free.findIndex((stone) => stone.kind === (joker ? JOKER : digit));
      if (found < 0) continue;
      table.pending.push({ index: free[found].index, row, col, digit, joker: Boolean(joker) });
      free.splice(found, 1);
    }
    root.dataset.hint = String(answer.score);
    if (Number.isInteger(answer.hints)) table.hintsUsed = answer.hints;
    table.changed();
  });

  parts.reviewOpen.addEventListener("click", async () => {
    parts.reviewOpen.disabled = true;
    let answer;
    try {
      answer = await (await fetch(table.urls.review)).json();
    } catch (error) {
      answer = { ok: false, message: gettext("The review could not be fetched. Try again.") };
    }
    parts.reviewOpen.disabled = false;
    if (!answer.ok) {
      parts.result.append(el("p", { className: "error", text: answer.message || answer.code }));
      return;
    }
    table.review = answer.turns;
    table.reviewIndex = null;
    showReview(table);
    table.render();
  });
}
