// The poker duel on the room page: both play the same numbers on their own
// boards; a number comes as soon as both have placed, either may draw earlier
// (G or the button) once their own hand is empty; the result at the end.

import { confirmDialog } from "../../js/kit/dialog.js";
import { gettext, interpolate, ngettext } from "../../js/kit/i18n.js";
import { whenRoomReady } from "../../js/kit/socket.js";
import { onDrawKey } from "../common.js";
import { RoomFx } from "./fx.js";
import { RoomBoard } from "./play.js";
import { rankingItem } from "./ranking.js";

/** @type {(HTMLElement & {duelPage?: DuelPage}) | null} */
const root = document.getElementById("pr-root");

class DuelPage {
  constructor(socket) {
    this.socket = socket;
    this.me = Number(root.dataset.playerId);
    /** @type {(name: string) => HTMLElement} */
    this.q = (name) => root.querySelector(`[data-pr-${name}]`);
    this.board = new RoomBoard(root, socket);
    this.board.waitText = () => this.waitText();
    this.fx = new RoomFx(this.q("fx"), { key: "matika-poker-room-fx", on: true });
    this.view = null;
    this.ticking = false;
    this.wire();
  }

  wire() {
    const socket = this.socket;
    socket.addEventListener("sync", (event) => this.onSync(event.detail));
    socket.addEventListener("event", (event) => this.onEvents(event.detail.events));
    this.q("duel-draw").addEventListener("click", () => this.draw());
    onDrawKey(() => this.draw());
    const quit = this.q("quit");
    quit.addEventListener("click", async () => {
      if (!(await confirmDialog(quit.dataset.confirm))) return;
      this.socket.send({ type: "quit" }).catch((error) => this.board.setStatus(error.message || error.code));
    });
    // Hard mode: when a deadline passes, ask the server to apply it (it then draws on).
    this.board.addEventListener("change", () => this.renderOpponent());
    window.setInterval(() => this.checkDeadline(), 500);
  }

  onSync(snapshot) {
    const view = snapshot.view;
    if (!view || !view.kind) return;
    this.view = view;
    this.q("lobby-note").hidden = true;
    this.board.setClock(view.server_now);
    if (view.game) this.board.load(view.game);
    this.q("quit").hidden = view.ended;
    const live = document.querySelector("[data-room-live]");
    if (live) live.classList.toggle("pr-playing", !view.ended);
    this.renderOpponent();
    if (view.ended && view.final) this.showFinal(view.final);
  }

  onEvents(events) {
    for (const change of events) {
      if (change.type === "poker_started") this.socket.sync().catch(() => {});
      else if (change.type === "drawn") this.fx.drawn(this.q("hand"));
      else if (change.type === "duel_progress" && this.view) {
        this.view.progress = change.progress;
        this.renderOpponent();
        this.board.render();
      } else if (change.type === "duel_over") {
        this.q("quit").hidden = true;
        this.fx.ended(this.q("final"));
        this.showFinal(change);
      } else if (change.type === "finished" && this.view && !this.view.ended) {
        this.socket.sync().catch(() => {}); // ended by the host: the final view has the boards
      }
    }
  }

  opponent() {
    if (!this.view) return null;
    return this.view.players.find((player) => player.player_id !== this.me) || null;
  }

  /** My hand is empty: the next number comes when the opponent has placed theirs. */
  waitText() {
    const other = this.opponent();
    const progress = other && this.view.progress ? this.view.progress[String(other.player_id)] : null;
    const game = this.board.game;
    if (other && progress && game && !progress.over && progress.handled < game.sequence.length) {
      return interpolate(gettext("Waiting for %(nickname)s to place their number."), { nickname: other.nickname });
    }
    return gettext("Wait for the next number.");
  }

  renderOpponent() {
    const other = this.opponent();
    if (!other) return;
    this.q("opponent").hidden = false;
    this.q("opponent-name").textContent = other.nickname;
    const progress = this.view.progress ? this.view.progress[String(other.player_id)] : null;
    if (progress) {
      const points = interpolate(ngettext("%(points)s point", "%(points)s points", progress.score), {
        points: progress.score,
      });
      const cells = interpolate(gettext("%(filled)s of 25 cells"), { filled: progress.filled });
      this.q("opponent-score").textContent = `${points}, ${cells}`;
    }
    const game = this.board.game;
    const draw = /** @type {HTMLButtonElement} */ (this.q("duel-draw"));
    draw.disabled = !game || game.over || game.hand !== null || (this.view && this.view.closed);
  }

  async draw() {
    const game = this.board.game;
    if (!game || game.over) return;
    if (game.hand !== null) {
      this.board.setStatus(gettext("Place the number in your hand first."));
      return;
    }
    try {
      await this.socket.send({ type: "draw" });
    } catch (error) {
      this.board.setStatus(error.message || error.code);
    }
  }

  checkDeadline() {
    const game = this.board.game;
    if (!game || game.over || this.ticking || (this.view && this.view.ended)) return;
    if (game.mode !== "hard") return;
    // The mirror forfeits by itself; the opponent's deadline may also have passed.
    const progressAll = this.view && this.view.progress ? Object.values(this.view.progress) : [];
    const someoneWaits = progressAll.some((p) => !p.over);
    if (!someoneWaits) return;
    if (game.hand === null && !this.lastTickAt) this.lastTickAt = Date.now();
    if (game.hand !== null) {
      this.lastTickAt = null;
      return;
    }
    if (Date.now() - this.lastTickAt < 1000) return;
    this.lastTickAt = Date.now();
    this.ticking = true;
    this.socket.send({ type: "tick" }).catch(() => {}).finally(() => {
      this.ticking = false;
    });
  }

  showFinal(final) {
    const section = this.q("final");
    section.hidden = false;
    const mine = final.ranking.find((entry) => entry.player_id === this.me);
    let title = gettext("The duel is over");
    if (mine && final.recorded) {
      title = { win: gettext("You won!"), loss: gettext("You lost."), draw: gettext("A draw.") }[mine.outcome];
    }
    this.q("final-title").textContent = title;
    let note = "";
    if (!final.recorded) {
      note =
        final.reason === "idle"
          ? gettext("A player placed no number, so the duel result is not recorded (the games are).")
          : gettext("The duel was left before the end, so no win is recorded (the games are).");
    }
    this.q("final-note").textContent = note;
    this.q("final-list").replaceChildren(...final.ranking.map((entry) => rankingItem(entry, { me: this.me })));
  }
}

if (root && root.dataset.mode === "duel") {
  whenRoomReady().then((socket) => {
    root.duelPage = new DuelPage(socket);
    if (socket.seq !== null) socket.sync().catch(() => {});
  });
}
