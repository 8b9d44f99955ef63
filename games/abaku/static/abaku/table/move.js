// @ts-check
// The move input: stones laid from the rack by tap or drag (a joker asks for its
// digit), the server's preview of the move's score, and the buttons that play,
// take back, exchange or skip. Every intent changes the shared state (`table`,
// held by table.js) and calls its `changed`, `render` or `send`.
import { confirmDialog } from "../../js/kit/dialog.js";
import { el } from "../../js/kit/dom.js";
import { gettext, interpolate as t, ngettext } from "../../js/kit/i18n.js";
import { roving } from "../../js/kit/roving.js";
import { JOKER } from "../data.js";
import { csrfToken, myTurn, pendingAt, rack, root, stoneAt } from "./page.js";

function openJoker(table) {
  const { parts } = table;
  parts.jokerDigits.replaceChildren(
    ...Array.from({ length: 10 }, (_, digit) => {
      const button = el("button", { className: "button ab-joker-digit", text: String(digit), attrs: { type: "button" } });
      button.addEventListener("click", () => {
        const target = table.jokerTarget;
        table.jokerTarget = null;
        parts.joker.close();
        if (!target) return;
        table.pending.push({ ...target, digit, joker: true });
        table.selected = null;
        table.changed();
      });
      return button;
    }),
  );
  parts.joker.showModal();
}

function placeSelected(table, row, col, index = table.selected) {
  if (!myTurn(table) || table.exchanging || index === null || index === undefined) return;
  if (stoneAt(table, row, col) || pendingAt(table, row, col)) return;
  if (table.pending.some((p) => p.index === index)) return;
  const kind = rack(table)[index];
  if (kind === undefined) return;
  if (kind === JOKER) {
    table.jokerTarget = { index, row, col };
    openJoker(table);
    return;
  }
  table.pending.push({ index, row, col, digit: kind, joker: false });
  table.selected = null;
  table.changed();
}

// The server scores the laid stones; only the latest request's answer is shown.
export async function requestPreview(table) {
  const { parts } = table;
  table.previewToken += 1;
  const token = table.previewToken;
  table.previewOk = false;
  parts.confirm.disabled = true;
  if (!table.pending.length) {
    parts.preview.replaceChildren();
    return;
  }
  parts.preview.replaceChildren(el("p", { className: "muted", text: gettext("Checking the move…") }));
  let answer;
  try {
    const response = await fetch(table.urls.preview, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify({ placements: table.pending.map((p) => [p.row, p.col, p.digit, p.joker]) }),
    });
    answer = await response.json();
  } catch (error) {
    answer = { ok: false, message: gettext("The move could not be checked. Try again.") };
  }
  if (token !== table.previewToken) return;
  if (answer.ok) {
    table.previewOk = true;
    parts.preview.replaceChildren(
      el("p", { className: "ab-preview-score", text: t(ngettext("This move scores %(score)s point.", "This move scores %(score)s points.", answer.score), { score: answer.score }) }),
      el("ul", {}, answer.examples.map((e) => el("li", { text: t(gettext("%(text)s (%(points)s)"), e) }))),
    );
  } else {
    parts.preview.replaceChildren(el("p", { className: "ab-preview-bad", text: answer.message }));
  }
  parts.confirm.disabled = !(table.previewOk && myTurn(table));
  root.dataset.preview = table.previewOk ? "ok" : "bad";
}

/** Every control of the move input, each calling an intent of `table`. */
export function wireMoveInput(table) {
  const { parts } = table;

  parts.jokerCancel.addEventListener("click", () => {
    table.jokerTarget = null;
    parts.joker.close();
  });

  parts.confirm.addEventListener("click", async () => {
    if (!table.pending.length || !myTurn(table)) return;
    const placements = table.pending.map((p) => [p.row, p.col, p.digit, p.joker]);
    if (await table.send({ type: "place", placements })) {
      table.pending = [];
      parts.preview.replaceChildren();
    }
  });
  parts.recall.addEventListener("click", () => {
    table.pending = [];
    table.selected = null;
    table.changed();
  });
  parts.skip.addEventListener("click", async () => {
    if (!myTurn(table)) return;
    if (!(await confirmDialog(gettext("Skip this turn? Three empty turns in a row end your game.")))) return;
    table.pending = [];
    await table.send({ type: "skip" });
  });
  parts.exchange.addEventListener("click", async () => {
    if (!myTurn(table)) return;
    if (!table.exchanging) {
      table.pending = [];
      table.exchanging = true;
      table.toExchange = new Set();
      table.changed();
      return;
    }
    const stones = [...table.toExchange].map((index) => rack(table)[index]);
    if (!stones.length) {
      table.exchanging = false;
      table.render();
      return;
    }
    if (await table.send({ type: "exchange", stones })) {
      table.exchanging = false;
      table.toExchange = new Set();
    }
    table.render();
  });

  // Bigger squares on a phone: the board scrolls sideways inside its frame.
  parts.zoom.addEventListener("click", () => {
    const zoomed = !parts.boardWrap.classList.contains("is-zoomed");
    parts.boardWrap.classList.toggle("is-zoomed", zoomed);
    parts.zoom.setAttribute("aria-pressed", String(zoomed));
    parts.zoom.textContent = zoomed ? gettext("Smaller board") : gettext("Bigger board");
  });

  // --- taps, keys and drags ---
  // the board and the rack are one Tab stop each; the arrows move, Enter or Space taps
  roving(parts.board, ".ab-cell");
  roving(parts.rack, ".ab-rack-stone");
  parts.rack.addEventListener("click", (event) => {
    const button = event.target.closest("[data-index]");
    if (!button || !myTurn(table)) return;
    const index = Number(button.dataset.index);
    if (table.exchanging) {
      if (table.toExchange.has(index)) table.toExchange.delete(index);
      else table.toExchange.add(index);
    } else {
      table.selected = table.selected === index ? null : index;
    }
    table.render();
  });
  parts.board.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-row]");
    if (!cell) return;
    const row = Number(cell.dataset.row);
    const col = Number(cell.dataset.col);
    const mine = pendingAt(table, row, col);
    if (mine) {
      table.pending = table.pending.filter((p) => p !== mine);
      table.changed();
      return;
    }
    placeSelected(table, row, col);
  });
  parts.rack.addEventListener("dragstart", (event) => {
    const button = event.target.closest("[data-index]");
    if (!button || !myTurn(table) || table.exchanging) return;
    event.dataTransfer.setData("text/plain", button.dataset.index);
    event.dataTransfer.effectAllowed = "move";
  });
  parts.board.addEventListener("dragover", (event) => {
    if (myTurn(table) && event.target.closest("[data-row]")) event.preventDefault();
  });
  parts.board.addEventListener("drop", (event) => {
    const cell = event.target.closest("[data-row]");
    if (!cell) return;
    event.preventDefault();
    const index = Number(event.dataTransfer.getData("text/plain"));
    if (Number.isInteger(index)) placeSelected(table, Number(cell.dataset.row), Number(cell.dataset.col), index);
  });
}

/**
 * Keyboard play never loses its place: a button pressed may be disabled or hidden by
 * the move it made (the robot's turn, the game's end), and the focus would fall to
 * the top of the page. Then it goes to the board's Tab stop, or after the game to
 * "Review the game".
 */
export function keepFocus(table) {
  const { parts } = table;
  if (!table.focusInside) return;
  const active = document.activeElement;
  if (active && active !== document.body && active.getClientRects().length && !active.matches(":disabled")) return;
  const review = parts.reviewOpen.hidden ? null : parts.reviewOpen;
  const stop = review || parts.board.querySelector("[tabindex='0']");
  if (stop instanceof HTMLElement) stop.focus({ preventScroll: true });
}

/** Whether the keyboard's focus is in the table (so keepFocus may move it). */
export function trackFocus(table) {
  table.focusInside = false;
  root.addEventListener("focusin", () => {
    table.focusInside = true;
  });
  root.addEventListener("focusout", (event) => {
    const to = /** @type {Node | null} */ (event.relatedTarget);
    if (to && !root.contains(to)) table.focusInside = false;
  });
  document.addEventListener("pointerdown", (event) => {
    if (!root.contains(/** @type {Node} */ (event.target))) table.focusInside = false;
  });
}
