// The 5×5 board for poker rooms, built in the browser with the same markup and
// classes as templates/poker/_board.html (so poker.css styles it), plus a
// small read-only board for the final ranking.

import { gettext, tf } from "../common.js";

function el(tag, className, attrs = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
}

function lineOutput(index, label, diagonal = false) {
  const out = el("output", diagonal ? "poker-line poker-diagonal" : "poker-line", {
    "data-line": String(index),
    "aria-label": label,
  });
  if (diagonal) out.title = label;
  out.textContent = "0";
  return out;
}

/** Build the board into `container`; returns the `.poker-board` element. */
export function buildBoard(container, { interactive = true } = {}) {
  const board = el("div", "poker-board");
  for (let i = 0; i < 5; i += 1) board.append(el("span", "poker-corner", { "aria-hidden": "true" }));
  board.append(lineOutput(11, gettext("Anti-diagonal"), true));
  for (let row = 0; row < 5; row += 1) {
    for (let column = 0; column < 5; column += 1) {
      const cell = row * 5 + column;
      const label = tf(gettext("Row %(row)s, column %(column)s"), { row: row + 1, column: column + 1 });
      const node = el(interactive ? "button" : "span", "poker-cell", {
        "data-cell": String(cell),
        "aria-label": label,
      });
      if (interactive) node.type = "button";
      node.append(el("span", "poker-value"), el("span", "poker-gain", { "aria-hidden": "true" }));
      board.append(node);
    }
    board.append(lineOutput(row, tf(gettext("Row %(number)s"), { number: row + 1 })));
  }
  for (let column = 0; column < 5; column += 1) {
    board.append(lineOutput(5 + column, tf(gettext("Column %(number)s"), { number: column + 1 })));
  }
  board.append(lineOutput(10, gettext("Main diagonal"), true));
  container.replaceChildren(board);
  return board;
}

/** Fill a board element with values (and line scores when given). */
export function paintBoard(board, { cells, jokerCells = [], lines = null }) {
  const nodes = board.querySelectorAll(".poker-cell");
  nodes.forEach((node, index) => {
    const value = cells[index];
    node.querySelector(".poker-value").textContent = value === null ? "" : String(value);
    node.classList.toggle("is-filled", value !== null);
    node.classList.toggle("is-joker", jokerCells.includes(index));
  });
  if (lines) {
    for (const out of board.querySelectorAll(".poker-line")) {
      const points = lines[Number(out.dataset.line)];
      out.textContent = String(points);
      out.classList.toggle("is-scoring", points > 0);
    }
  }
}

/** A small read-only board (final ranking, projector). */
export function miniBoard(entry) {
  const holder = el("div", "pr-mini");
  const board = buildBoard(holder, { interactive: false });
  paintBoard(board, { cells: entry.cells, jokerCells: entry.joker_cells || [], lines: entry.lines });
  return holder;
}

/** One row of a final ranking: rank, name, points, filled, and the board to open. */
export function rankingItem(entry, { me = null, extra = "" } = {}) {
  const item = el("li", "pr-final-item", { "data-player-id": String(entry.player_id) });
  if (entry.player_id === me) item.classList.add("is-me");
  const details = el("details");
  const summary = el("summary");
  const rank = el("span", "pr-rank");
  rank.textContent = `${entry.rank}.`;
  const name = el("span", "pr-name");
  name.textContent = entry.nickname; // user input: never innerHTML
  const score = el("span", "pr-score");
  score.textContent = tf(gettext("%(points)s points"), { points: entry.score });
  const filled = el("span", "pr-filled muted");
  filled.textContent = tf(gettext("%(filled)s of 25 cells"), { filled: entry.filled });
  summary.append(rank, " ", name, " ", score, " ", filled);
  if (extra) {
    const note = el("span", "badge");
    note.textContent = extra;
    summary.append(" ", note);
  }
  details.append(summary);
  if (entry.cells) details.append(miniBoard(entry));
  item.append(details);
  return item;
}
