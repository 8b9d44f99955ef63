// One player's board in a poker room (group game or duel).
//
// The server leads: it stores every board and judges every move. The page keeps
// a mirror of the board with the JS twin of the engine (../game.js): the public
// draws are dealt into it at the moment the server drew them, exactly as the
// server catches a board up, so hard-mode countdowns and forfeits show without
// asking. A move shows at once on the mirror and the server's ack confirms it;
// a "board" event (sent when time decided something the page may not have
// applied) or a sync replaces the mirror, and a refusal asks for a sync.

import { gettext, interpolate, ngettext } from "../../js/kit/i18n.js";
import { buildBoard, paintBoard } from "../board.js";
import {
  RULE_MESSAGES,
  cellAction,
  closeDialog,
  jokerValueChosen,
  livePending,
  nowSeconds,
  openJokerDialog,
  readStorage,
  writeStorage,
} from "../common.js";
import { oneAtATime } from "../../js/rooms/sender.js";
import { JOKER } from "../deck.js";
import { PokerGame } from "../game.js";
import { bestCells, preview } from "../preview.js";
import { markMissed } from "./ranking.js";

const PREVIEW_KEY = "matika-poker-preview";

export class RoomBoard extends EventTarget {
  constructor(root, socket) {
    super();
    this.root = root;
    this.socket = socket;
    this.q = (name) => root.querySelector(`[data-pr-${name}]`);
    this.section = this.q("play");
    this.dialog = root.querySelector("[data-pr-joker-dialog]");
    this.board = buildBoard(this.q("board"));
    this.game = null;
    this.shared = null; // {sequence, dealt_at, closed, closed_at} when the page deals (group)
    this.offset = 0; // server clock minus browser clock, seconds
    this.pending = null; // joker with a chosen value: {source: "hand"|"kept", value}
    this.drawn = 0; // rises with every render: a press made after a send is the next move
    // One message at a time (rooms/sender.js): a press made while the last move is
    // unanswered (the next number may come first) is made once the answer is in,
    // on the board then -- a second press on a cell already filled sends nothing.
    this.sender = oneAtATime({
      socket: () => this.socket,
      version: () => this.drawn,
      busy: (busy) => this.root.classList.toggle("is-busy", busy),
      refused: (error) => {
        this.setStatus(error.message || RULE_MESSAGES[error.code]?.() || error.code);
        this.resync();
      },
    });
    this.lastDealt = -1;
    this.ended = false; // the room ended (the host ended it): a board behind is over too
    this.showPreview = readStorage(PREVIEW_KEY, true) !== false;
    // Who the empty hand waits for, said by the page (the host's draw, the opponent).
    this.waitText = () => gettext("Wait for the next number.");
    this.wire();
    window.setInterval(() => this.tick(), 250);
  }

  wire() {
    for (const cell of this.board.cells) {
      cell.addEventListener("click", () => this.clickCell(Number(cell.dataset.cell)));
    }
    this.q("hand").addEventListener("click", () => {
      if (this.game && this.game.hand === JOKER && !(this.game.over || this.ended)) this.askJoker("hand");
    });
    this.q("kept").addEventListener("click", () => {
      if (this.game && this.game.kept_jokers > 0 && !(this.game.over || this.ended)) this.askJoker("kept");
    });
    const eye = this.q("eye");
    eye.setAttribute("aria-pressed", String(this.showPreview));
    eye.addEventListener("click", () => {
      this.showPreview = !this.showPreview;
      writeStorage(PREVIEW_KEY, this.showPreview);
      eye.setAttribute("aria-pressed", String(this.showPreview));
      this.render();
    });
    for (const button of this.dialog.querySelectorAll("[data-value]")) {
      button.addEventListener("click", () => this.chooseJokerValue(Number(button.dataset.value)));
    }
    this.dialog.querySelector("[data-pr-keep]").addEventListener("click", () => this.keepJoker());
    // This seat's board from the server, when time decided something the page may not have applied.
    this.socket.addEventListener("private", (event) => {
      for (const change of event.detail.events) if (change.type === "board") this.load(change.game);
    });
  }

  now() {
    return nowSeconds() + this.offset;
  }

  setClock(serverNow) {
    if (typeof serverNow === "number") this.offset = serverNow - nowSeconds();
  }

  /** A board from the server (snapshot or answer); then catch up with the shared draws. */
  load(dict) {
    if (!dict) return;
    const before = this.game;
    this.game = PokerGame.fromDict(dict);
    this.catchUp();
    this.section.hidden = false;
    this.afterChange(before);
  }

  /** Group game: the public sequence the page deals from. */
  setShared(shared) {
    this.shared = shared;
    this.catchUp();
  }

  dealt(event) {
    if (!this.shared) return;
    if (event.index === this.shared.sequence.length) {
      this.shared.sequence.push(event.card);
      this.shared.dealt_at.push(event.at);
      if (event.closed) {
        this.shared.closed = true;
        this.shared.closed_at = event.at;
      }
    }
    const before = this.game ? PokerGame.fromDict(this.game.toDict()) : null;
    this.catchUp();
    this.afterChange(before);
  }

  catchUp() {
    if (!this.game || !this.shared) return;
    const shared = this.shared;
    const now = this.now() + 1; // a draw is never "in the future" for the page
    try {
      for (let i = this.game.sequence.length; i < shared.sequence.length; i += 1) {
        if (shared.dealt_at[i] > now) break;
        this.game.deal(shared.sequence[i], shared.dealt_at[i]);
      }
      if (shared.closed && !this.game.closed && this.game.sequence.length === shared.sequence.length) {
        this.game.closeSequence(Math.max(shared.closed_at, this.game.handled_at || 0));
      }
    } catch (error) {
      this.resync();
    }
  }

  afterChange(before) {
    if (!this.game) return;
    this.pending = livePending(this.pending, this.game, JOKER);
    this.render();
    const fresh = !before || before.handled !== this.game.handled || before.sequence.length !== this.game.sequence.length;
    if (this.game.hand === JOKER && !(this.game.over || this.ended) && fresh && !this.pending && !this.dialog.open) {
      this.askJoker("hand");
    }
    this.dispatchEvent(new CustomEvent("change", { detail: { game: this.game } }));
  }

  resync() {
    this.socket.sync().catch(() => {});
  }

  setStatus(text) {
    this.lastStatusKind = null;
    this.q("status").textContent = text;
  }

  /** Send a move: it shows at once on the mirror; the server's answer replaces it. */
  send(action) {
    return this.sender(() => this.apply(action));
  }

  /** The move shown on the mirror (null, with the rule's message, if it breaks one). */
  apply(action) {
    if (!this.game || this.game.over || this.ended) return null;
    const before = PokerGame.fromDict(this.game.toDict());
    try {
      this.game.apply(action, this.now());
    } catch (error) {
      this.game = before;
      const code = error.code;
      this.setStatus(RULE_MESSAGES[code] ? RULE_MESSAGES[code]() : error.message);
      this.render();
      return null;
    }
    this.setStatus("");
    if (action.type === "use_joker" || action.type === "place_kept_joker") this.pending = null;
    this.afterChange(before);
    return action;
  }

  clickCell(cell) {
    if (!this.game || this.game.over || this.ended) return;
    // While a move is out, a press with something to place (a number or joker in
    // hand, a joker's chosen value) is the next move; with nothing, it is none.
    const toPlace = this.game.hand !== null || this.pending;
    this.sender(() => this.cellMove(cell), toPlace ? this.drawn : -1);
  }

  /** What a press on `cell` does on the board as it is now: a move, or null. */
  cellMove(cell) {
    if (!this.game || this.game.over || this.ended || this.game.cells[cell] !== null) return null;
    const next = cellAction(this.game.hand, this.pending, cell, JOKER);
    if (next.ask) this.askJoker(next.ask);
    else if (next.status) this.setStatus(next.status);
    else return this.apply(next.action);
    return null;
  }

  askJoker(source) {
    this.jokerSource = source;
    const part = (name) => this.dialog.querySelector(`[data-pr-${name}]`);
    openJokerDialog(this.dialog, { title: part("joker-title"), text: part("joker-text"), keep: part("keep") }, source);
  }

  chooseJokerValue(value) {
    this.pending = { source: this.jokerSource, value };
    closeDialog(this.dialog);
    this.render();
    jokerValueChosen(value, this.board.cells, (text) => this.setStatus(text));
  }

  keepJoker() {
    closeDialog(this.dialog);
    this.pending = null;
    this.send({ type: "keep_joker" });
  }

  /** Hard mode: countdown; when it runs out the mirror forfeits like the server will. */
  tick() {
    const timer = this.q("timer");
    if (!this.game || this.game.over || this.ended) {
      timer.hidden = true;
      return;
    }
    const deadline = this.game.deadline();
    if (deadline !== null && this.now() > deadline) {
      const before = PokerGame.fromDict(this.game.toDict());
      const events = this.game.advance(this.now());
      for (const event of events) {
        if (event.type === "forfeited") {
          this.setStatus(interpolate(gettext("Time ran out: the number %(card)s was lost."), { card: event.card }));
        } else if (event.type === "joker_expired") {
          this.setStatus(gettext("Time ran out: the joker was lost."));
        }
      }
      if (this.dialog.open && this.game.hand !== JOKER && this.jokerSource === "hand") closeDialog(this.dialog);
      this.afterChange(before);
      return;
    }
    if (deadline === null) {
      timer.hidden = true;
      return;
    }
    timer.hidden = false;
    const left = deadline - this.now();
    this.q("timer-value").textContent = String(Math.max(0, Math.ceil(left)));
    timer.classList.toggle("is-urgent", left <= 3);
  }

  /** The game ended for everybody: nothing more to place, the empty cells are missed. */
  end() {
    if (this.ended) return;
    this.ended = true;
    if (this.dialog.open) closeDialog(this.dialog);
    this.render();
  }

  render() {
    const game = this.game;
    if (!game) return;
    this.drawn += 1;
    const over = game.over || this.ended;
    const inHand = over ? null : game.hand;
    const hand = this.q("hand");
    hand.dataset.dealt = String(game.sequence.length); // tests and styles can follow the draws
    hand.dataset.over = String(over);
    hand.classList.toggle("is-joker", inHand === JOKER);
    if (inHand === null) hand.textContent = "–";
    else if (inHand === JOKER) {
      hand.textContent = this.pending && this.pending.source === "hand" ? `★${this.pending.value}` : "★";
    } else hand.textContent = String(inHand);
    const waiting = over ? 0 : Math.max(0, game.sequence.length - game.handled - 1);
    const queue = this.q("queue");
    queue.hidden = waiting === 0;
    queue.textContent = interpolate(gettext("+%(count)s waiting"), { count: waiting });
    const kept = this.q("kept");
    this.q("kept-count").textContent = String(game.kept_jokers);
    kept.disabled = game.kept_jokers === 0 || over;
    kept.classList.toggle("is-active", Boolean(this.pending && this.pending.source === "kept"));
    const score = game.score();
    this.q("total").textContent = String(score.total);
    this.q("warning").hidden = !game.jokersAtRisk || over;
    let value = null;
    if (this.pending) value = this.pending.value;
    else if (inHand !== null && inHand !== JOKER) value = inHand;
    const gains = this.showPreview && value !== null ? preview(game.cells, value, game.table) : {};
    paintBoard(this.board, {
      cells: game.cells,
      jokerCells: game.joker_cells,
      gains,
      best: bestCells(gains),
      playable: !over && (value !== null || inHand === JOKER),
      lines: score.lines,
    });
    markMissed(this.board, over ? game.cells : null);
    const missed = game.cells.filter((cell) => cell === null).length;
    if (over && missed) {
      this.setStatusOnce(
        "over",
        interpolate(
          ngettext(
            "Your board is finished: %(count)s cell stays empty, its number was missed.",
            "Your board is finished: %(count)s cells stay empty, their numbers were missed.",
            missed,
          ),
          { count: missed },
        ),
      );
    } else if (over) this.setStatusOnce("over", gettext("Your board is finished."));
    else if (inHand === null && game.kept_jokers === 0) this.setStatusOnce("wait", this.waitText());
    else if (this.lastStatusKind === "wait") this.setStatus(""); // a number is in hand: no more waiting
  }

  setStatusOnce(kind, text) {
    const status = this.q("status");
    if (this.lastStatusKind === kind && status.textContent === text) return;
    status.textContent = text;
    this.lastStatusKind = kind;
  }
}
