// @ts-check
// The Abaku table inside a room page: the 15×15 board, the rack, the preview, the log.
// State comes only from the server: the snapshot's `view` and the `view` events after
// every step (private ones carry the own rack); the engine's public events feed the log.
// The score of a move is always computed by the server (the preview view), never here.
//
// This module is the controller: it holds the table's state (`table`) and draws it;
// table/ holds the page's facts, the words, the drawing, the move input, hints and
// the review, and the room socket driver.
import { gettext } from "../js/kit/i18n.js";
import { hintAllowed, wireCoach } from "./table/coach.js";
import { renderBoard, renderClock, renderLog, renderPlayers, renderRack, renderResult, renderTurn } from "./table/draw.js";
import { connect, sender, tickRequester } from "./table/driver.js";
import { keepFocus, requestPreview, trackFocus, wireMoveInput } from "./table/move.js";
import { findParts, game, myTurn, root } from "./table/page.js";

if (root) {
  const table = {
    parts: findParts(),
    urls: { preview: root.dataset.previewUrl, hint: root.dataset.hintUrl, review: root.dataset.reviewUrl },
    review: null, // the after-game review's turns, once fetched
    reviewIndex: null, // the turn shown on the board
    view: null,
    seq: null, // the step of the view shown (driver.js takes no older view, nor the same one again)
    viewText: null,
    log: [],
    socket: null,
    busy: false, // a message is out (driver.js sender)
    pending: [], // [{index, row, col, digit, joker}]
    selected: null, // rack index
    exchanging: false,
    toExchange: new Set(),
    previewToken: 0,
    previewOk: false,
    version: 0,
    jokerTarget: null,
    scrolledToGame: false,
    // Hints given in this game (the server counts them; a win with hints is recorded as such).
    hintsUsed: Number(root.dataset.hintsUsed || 0),
    // The intents the modules call back.
    render,
    changed,
    renderLog: () => renderLog(table),
    requestPreview: () => requestPreview(table),
    send: (message) => send(message),
  };
  const send = sender(table);
  const { parts } = table;
  const ticks = tickRequester(table);

  function changed() {
    parts.error.textContent = "";
    render();
    requestPreview(table);
  }

  function render() {
    table.version += 1;
    root.dataset.version = String(table.version);
    const { view } = table;
    const g = game(table);
    root.dataset.phase = view ? view.phase : "lobby";
    parts.lobby.hidden = Boolean(g);
    parts.game.hidden = !g;
    if (!g) return;
    // On a phone the game opens scrolled to the turn line: board and rack then share the screen.
    if (!table.scrolledToGame && window.matchMedia("(max-width: 40rem)").matches) {
      table.scrolledToGame = true;
      requestAnimationFrame(() => parts.turn.scrollIntoView({ block: "start" }));
    }
    root.dataset.turn = myTurn(table) ? "mine" : "other";
    if (!myTurn(table)) {
      table.pending = [];
      table.selected = null;
      table.exchanging = false;
    }
    renderTurn(table);
    renderPlayers(table);
    renderBoard(table);
    renderRack(table);
    renderResult(table);
    renderClock(table);
    parts.rackArea.hidden = view.you === null || view.you === undefined || g.finished || view.phase !== "playing";
    const turn = myTurn(table);
    const { exchanging, pending } = table;
    parts.exchange.disabled = !turn || g.bag_count === 0;
    parts.exchange.textContent = exchanging ? gettext("Exchange the marked stones") : gettext("Exchange stones");
    parts.skip.disabled = !turn || exchanging;
    parts.recall.disabled = !pending.length;
    parts.confirm.disabled = !(turn && table.previewOk && pending.length);
    parts.hint.hidden = !hintAllowed(table) || view.phase !== "playing" || g.finished;
    parts.hint.disabled = !turn || exchanging;
    const over = g.finished || view.phase !== "playing";
    parts.reviewOpen.hidden = !over || view.you === null || view.you === undefined || Boolean(table.review);
    parts.reviewArea.hidden = !table.review;
    renderLog(table);
    keepFocus(table);
    ticks.schedule();
  }

  setInterval(() => renderClock(table), 1000);
  trackFocus(table);
  wireMoveInput(table);
  wireCoach(table);
  connect(table);
}
