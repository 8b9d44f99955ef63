// The 5×5 poker board of every page: solo play, the room boards (group, duel),
// the boards of a final ranking, the projector, the scoresheet.
//
// One builder and one painter. The markup is templates/poker/_board.html,
// rendered by the server (see the reason there); buildBoard adopts it or copies
// it from the page's <template data-poker-board-template>, and paintBoard draws
// a state into it: values, jokers, the score preview, which cells can take a
// number, the line scores and each cell's screen-reader label. The rules live
// in game.js (browser games) or on the server; this module only draws.

import { gettext } from "../js/kit/i18n.js";
import { roving } from "../js/kit/roving.js";

export class Board {
  constructor(element) {
    this.element = element;
    this.cells = [...element.querySelectorAll(".poker-cell")];
    this.lines = new Map(
      [...element.querySelectorAll(".poker-line")].map((node) => [Number(node.dataset.line), node]),
    );
    // the board is one Tab stop; the arrows move between its free cells
    if (element.querySelector("button.poker-cell")) roving(element, "button.poker-cell");
  }

  cell(index) {
    return this.cells[index];
  }
}

/** The board in `container` (or `container` itself when it is one); when there
 * is none, a copy of the page's board template is put into `container`. */
export function buildBoard(container, { template = document.querySelector("template[data-poker-board-template]") } = {}) {
  let element = container.matches("[data-poker-board]") ? container : container.querySelector("[data-poker-board]");
  if (!element) {
    container.append(/** @type {HTMLTemplateElement} */ (template).content.cloneNode(true));
    element = container.querySelector("[data-poker-board]");
  }
  return new Board(element);
}

/** What a screen reader says for a cell: "Row 2, column 3: 7 (joker)", "…: empty, +12". */
export function cellLabel(place, value, { joker = false, gain = 0 } = {}) {
  if (value !== null) return `${place}: ${value}${joker ? ` (${gettext("joker")})` : ""}`;
  if (gain) return `${place}: ${gettext("empty")}, +${gain}`;
  return `${place}: ${gettext("empty")}`;
}

/** Draw a state into a board. Every part is optional:
 *   cells       25 values (null for empty); text fields (scoresheet) are left alone
 *   jokerCells  cells that hold a joker
 *   gains       {cell: points} of the score preview; best: the cells that gain most
 *   playable    whether a number can be placed now (cells become enabled/disabled);
 *               leave it out on read-only boards
 *   lines       the 12 line scores in canonical order (rows, columns, main, anti-diagonal) */
export function paintBoard(board, { cells = null, jokerCells = [], gains = {}, best = [], playable = null, lines = null } = {}) {
  if (cells) {
    const bestCells = new Set(best);
    board.cells.forEach((node, index) => {
      const value = cells[index];
      const joker = jokerCells.includes(index);
      const gain = gains[index] || 0;
      node.querySelector(".poker-value").textContent = value === null ? "" : String(value);
      node.querySelector(".poker-gain").textContent = gain ? `+${gain}` : "";
      node.classList.toggle("is-filled", value !== null);
      node.classList.toggle("is-joker", joker);
      node.classList.toggle("is-best", bestCells.has(index));
      if (playable !== null) node.disabled = value !== null || !playable;
      node.setAttribute("aria-label", cellLabel(node.dataset.label, value, { joker, gain }));
    });
  }
  if (lines) {
    lines.forEach((points, index) => {
      const node = board.lines.get(index);
      node.textContent = String(points);
      node.classList.toggle("is-scoring", points > 0);
    });
  }
}
