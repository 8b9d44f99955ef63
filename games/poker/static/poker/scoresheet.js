// Scoresheet (tabuľka): type a board played on paper; lines are scored live and
// arrow keys move between cells. Nothing is recorded.

import { gettext, interpolate, ngettext } from "../js/kit/i18n.js";
import { buildBoard, paintBoard } from "./board.js";
import { readStorage, writeStorage } from "./common.js";
import { scoreBoard } from "./scoring.js";

const STORAGE_KEY = "matika-poker-scoresheet";
const root = document.getElementById("poker-sheet");

function parse(text) {
  const trimmed = text.trim();
  if (trimmed === "") return { value: null, valid: true };
  if (!/^\d{1,2}$/.test(trimmed)) return { value: null, valid: false };
  const value = Number(trimmed);
  return value >= 1 && value <= 13 ? { value, valid: true } : { value: null, valid: false };
}

if (root) {
  const board = buildBoard(document.getElementById("poker-board"));
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("poker-sheet-table"));
  const status = document.getElementById("poker-status");
  const saved = readStorage(STORAGE_KEY, null);
  if (saved && Array.isArray(saved.cells)) {
    saved.cells.forEach((value, index) => {
      if (board.cell(index)) board.cell(index).value = value === null ? "" : String(value);
    });
    if ([...select.options].some((option) => option.value === saved.table)) select.value = saved.table;
  }

  const update = () => {
    const cells = [];
    let invalid = 0;
    for (const input of board.cells) {
      const { value, valid } = parse(input.value);
      input.setAttribute("aria-invalid", String(!valid));
      if (!valid) invalid += 1;
      cells.push(value);
    }
    const score = scoreBoard(cells, select.value);
    paintBoard(board, { lines: score.lines });
    document.getElementById("poker-total").textContent = String(score.total);
    status.textContent = invalid
      ? interpolate(ngettext("%(count)s cell holds something other than a number 1 to 13 and is not scored.", "%(count)s cells hold something other than a number 1 to 13 and are not scored.", invalid), {
          count: invalid,
        })
      : "";
    writeStorage(STORAGE_KEY, { table: select.value, cells });
  };

  const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  for (const input of board.cells) {
    input.addEventListener("input", update);
    input.addEventListener("keydown", (event) => {
      const move = moves[event.key];
      if (!move) return;
      event.preventDefault();
      const index = Number(input.dataset.cell);
      const row = Math.min(4, Math.max(0, Math.floor(index / 5) + move[0]));
      const column = Math.min(4, Math.max(0, (index % 5) + move[1]));
      const target = board.cell(row * 5 + column);
      target.focus();
      target.select();
    });
  }
  // The coach's hint for the next number (the numbers on the board count as seen).
  const clearHint = () => board.cells.forEach((input) => input.classList.remove("is-hint"));
  const askHint = async () => {
    clearHint();
    const card = Number.parseInt(/** @type {HTMLInputElement} */ (document.getElementById("poker-sheet-card")).value, 10);
    if (!(card >= 1 && card <= 13)) {
      status.textContent = gettext("Type the next number (1 to 13) first.");
      return;
    }
    const cells = board.cells.map((input) => parse(input.value).value);
    let payload = null;
    try {
      const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
      const response = await fetch(root.dataset.boardHint, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRFToken": match ? decodeURIComponent(match[1]) : root.dataset.csrf,
        },
        body: JSON.stringify({ context: "scoresheet", table: select.value, cells, card }),
      });
      payload = await response.json();
      if (!response.ok) {
        status.textContent = payload.message || "";
        return;
      }
    } catch (error) {
      status.textContent = gettext("The coach needs the server: hints work only online.");
      return;
    }
    board.cell(payload.hint.cell).classList.add("is-hint");
    status.textContent = payload.hint.reason;
  };
  document.getElementById("poker-sheet-hint").addEventListener("click", askHint);
  for (const input of board.cells) input.addEventListener("input", clearHint);
  select.addEventListener("change", update);
  document.getElementById("poker-sheet-clear").addEventListener("click", () => {
    for (const input of board.cells) input.value = "";
    update();
    board.cell(0).focus();
  });
  update();
}
