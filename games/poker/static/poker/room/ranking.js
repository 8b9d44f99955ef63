// The final ranking of a poker room (group game, duel): one row per player,
// and the player's board to open, drawn by the one board painter (../board.js).

import { el } from "../../js/kit/dom.js";
import { gettext, interpolate, ngettext } from "../../js/kit/i18n.js";
import { buildBoard, paintBoard } from "../board.js";

/** The empty cells of a board that is over are missed (numbers drawn before a
 * latecomer came, forfeited in hard mode, still waiting when the game ended):
 * marked and named so, never shown as free. `cells` null: nothing is missed yet. */
export function markMissed(board, cells) {
  board.cells.forEach((node, index) => {
    const missed = Boolean(cells) && cells[index] === null;
    node.classList.toggle("is-missed", missed);
    if (missed) {
      node.setAttribute("aria-label", `${node.dataset.label}: ${gettext("missed")}`);
      node.title = gettext("missed");
    } else if (node.title) node.removeAttribute("title");
  });
}

/** How many cells of a board stay empty: "7 missed". */
export function missedText(cells) {
  const count = cells ? cells.filter((value) => value === null).length : 0;
  return count ? interpolate(ngettext("%(count)s missed", "%(count)s missed", count), { count }) : "";
}

/** A small read-only board of a ranking entry ({cells, joker_cells, lines}): after
 * the game, so its empty cells are missed. */
export function miniBoard(entry) {
  const holder = el("div", { className: "pr-mini" });
  const board = buildBoard(holder);
  paintBoard(board, { cells: entry.cells, jokerCells: entry.joker_cells || [], lines: entry.lines });
  markMissed(board, entry.cells);
  return holder;
}

/** One row of a final ranking: rank, name, points, filled, and the board to open. */
export function rankingItem(entry, { me = null } = {}) {
  const item = el("li", { className: "pr-final-item", attrs: { "data-player-id": entry.player_id } });
  if (entry.player_id === me) item.classList.add("is-me");
  const summary = el("summary", {}, [
    el("span", { className: "pr-rank", text: `${entry.rank}.` }),
    " ",
    el("span", { className: "pr-name", text: entry.nickname }), // user input: text, never markup
    // The host of a class game (only they get roster names) sees who is who.
    ...(entry.roster_name ? [" ", el("span", { className: "pr-roster muted", text: `(${entry.roster_name})` })] : []),
    " ",
    el("span", { className: "pr-score", text: interpolate(gettext("%(points)s points"), { points: entry.score }) }),
    " ",
    el("span", { className: "pr-filled muted", text: interpolate(gettext("%(filled)s of 25 cells"), { filled: entry.filled }) }),
  ]);
  const missed = missedText(entry.cells);
  if (missed) summary.append(" ", el("span", { className: "pr-missed-count muted", text: `· ${missed}`, attrs: { "data-testid": "missed-count" } }));
  if (entry.gone === "left") {
    summary.append(" ", el("span", { className: "badge", text: gettext("left the game") }));
  }
  const details = el("details", {}, [summary]);
  if (entry.cells) details.append(miniBoard(entry));
  item.append(details);
  return item;
}
