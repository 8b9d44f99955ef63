// @ts-check
// The table's own facts: its root element, its parts, the URLs and the robots'
// names the page carries, and the readings of the state every module shares
// (whose turn, the own rack, a seat's name, what lies on a square).
import { gettext, interpolate as t } from "../../js/kit/i18n.js";

export const root = /** @type {HTMLElement | null} */ (document.querySelector("[data-abaku-table]"));
// The robots' names come with the page (games/abaku/presentation.py names them once).
export const LEVEL_NAMES = root ? JSON.parse(root.dataset.levelNames || "{}") : {};

/** The table's elements, each marked data-ab-<name> in the template. */
export function findParts() {
  /** @type {(name: string) => HTMLElement} */
  const $ = (name) => root.querySelector(`[data-ab-${name}]`);
  /** @type {(name: string) => HTMLButtonElement} */
  const button = (name) => root.querySelector(`[data-ab-${name}]`);
  return {
    lobby: $("lobby"),
    game: $("game"),
    turn: $("turn"),
    players: $("players"),
    bag: $("bag"),
    board: $("board"),
    rackArea: $("rack-area"),
    rack: $("rack"),
    preview: $("preview"),
    error: $("error"),
    confirm: button("confirm"),
    recall: button("recall"),
    exchange: button("exchange"),
    skip: button("skip"),
    result: $("result"),
    logArea: $("log-area"),
    log: $("log"),
    joker: /** @type {HTMLDialogElement} */ ($("joker")),
    jokerDigits: $("joker-digits"),
    jokerCancel: button("joker-cancel"),
    clock: $("clock"),
    zoom: button("zoom"),
    hint: button("hint"),
    reviewOpen: button("review-open"),
    reviewArea: $("review-area"),
    review: $("review"),
    boardWrap: /** @type {HTMLElement} */ (root.querySelector(".ab-board-wrap")),
  };
}

const csrfInput = /** @type {HTMLInputElement | null} */ (document.querySelector("input[name=csrfmiddlewaretoken]"));
export const csrfToken = () => (csrfInput ? csrfInput.value : "");

// --- readings of the shared state (`table`, held by table.js) -----------------------

export const game = (table) => (table.view ? table.view.game : null);

export const myTurn = (table) => {
  const { view } = table;
  const g = game(table);
  return Boolean(view && view.phase === "playing" && g && !g.finished && view.you !== null && g.turn === view.you);
};

export const rack = (table) => {
  const g = game(table);
  if (!g || table.view.you === null || table.view.you === undefined) return [];
  return g.players[table.view.you].rack || [];
};

export function seatName(table, seat) {
  const { view } = table;
  const info = view && view.seats ? view.seats[seat] : null;
  if (!info) return "?";
  if (info.robot) {
    const level = LEVEL_NAMES[info.robot] || info.robot;
    return t(gettext("Robot %(number)s (%(level)s)"), { number: seat + 1, level });
  }
  return info.nickname;
}

export function stoneAt(table, row, col) {
  const g = game(table);
  if (!g) return null;
  for (const [r, c, digit, joker] of g.board.stones) if (r === row && c === col) return { digit, joker };
  return null;
}

export function pendingAt(table, row, col) {
  return table.pending.find((p) => p.row === row && p.col === col) || null;
}
