// The poker group game on the room page: the host draws (button or G), every
// player places on their own board, the host sees who is behind and a live
// ranking, and everyone gets the final ranking with every board.
//
// Real time goes over the room's WebSocket (draws, own board). How the others
// are doing is read from the standings endpoint: the host polls it, finished
// players ask now and then (that is also when the server notices that every
// board is over and ends the game).

import { confirmDialog } from "../../js/kit/dialog.js";
import { el } from "../../js/kit/dom.js";
import { gettext, interpolate, ngettext } from "../../js/kit/i18n.js";
import { whenRoomReady } from "../../js/kit/socket.js";
import { onDrawKey } from "../common.js";
import { JOKER } from "../deck.js";
import { RoomFx } from "./fx.js";
import { RoomBoard } from "./play.js";
import { rankingItem } from "./ranking.js";

/** @type {(HTMLElement & {groupPage?: GroupPage}) | null} */
const root = document.getElementById("pr-root");
const HOST_POLL_MS = 2000;
const PLAYER_POLL_MS = 4000;

/** The standings endpoint's answer, or null when it did not come. */
async function standings() {
  try {
    const response = await fetch(root.dataset.standings, {
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    return response.ok ? await response.json() : null;
  } catch (error) {
    return null;
  }
}

function cardText(card) {
  return card === JOKER ? "★" : String(card);
}

class GroupPage {
  constructor(socket) {
    this.socket = socket;
    this.me = Number(root.dataset.playerId);
    this.isHost = root.dataset.host === "1";
    /** @type {(name: string) => HTMLElement} */
    this.q = (name) => root.querySelector(`[data-pr-${name}]`);
    this.board = null;
    this.view = null;
    this.status = root.dataset.roomStatus;
    this.pollTimer = null;
    this.finalShown = false;
    this.stillPlaying = 0;
    this.hostName = "";
    this.kicked = false;
    this.fx = new RoomFx(this.q("fx"), { key: "matika-poker-room-fx", on: true });
    this.wire();
  }

  wire() {
    const socket = this.socket;
    socket.addEventListener("sync", (event) => this.onSync(event.detail));
    socket.addEventListener("event", (event) => this.onEvents(event.detail.events));
    socket.addEventListener("kicked", () => {
      this.kicked = true;
      window.clearTimeout(this.pollTimer);
    });
    if (this.isHost) {
      this.q("draw").addEventListener("click", () => this.draw());
      onDrawKey(() => this.draw());
      // Before the room's own "end" handler: with players still behind, say how
      // many and offer to wait (ending now still counts the game when the deck ran out).
      document.addEventListener("click", (event) => this.onEnd(event), true);
    }
  }

  /** The next round: every page still open goes there (its player is seated in it). */
  goToNextRound(code) {
    if (this.kicked || this.leaving) return;
    this.leaving = true;
    window.location.assign(`/rooms/${encodeURIComponent(code)}/`);
  }

  onSync(snapshot) {
    this.status = snapshot.room.status;
    const host = snapshot.room.seats.find((seat) => seat.role === "host");
    this.hostName = host ? host.nickname : "";
    const view = snapshot.view;
    if (!view || !view.kind) {
      this.renderHost();
      if (this.status === "lobby" && root.dataset.previousRound === "1") this.schedulePoll(0);
      return;
    }
    this.view = view;
    if (view.you_play) {
      if (!this.board) {
        this.board = new RoomBoard(root, this.socket);
        this.board.waitText = () =>
          interpolate(gettext("Waiting for %(nickname)s to draw the next number."), { nickname: this.hostName });
        this.board.addEventListener("change", () => this.onBoardChange());
      }
      this.board.setClock(view.server_now);
      this.board.setShared({
        sequence: [...view.sequence],
        dealt_at: [...view.dealt_at],
        closed: view.closed,
        closed_at: view.closed ? view.dealt_at[view.dealt_at.length - 1] : null,
      });
      this.board.load(view.game);
      this.renderMissed(view.missed || 0);
    }
    this.renderHost();
    this.afterStatus();
  }

  /** A latecomer: the numbers drawn before they came count as missed, and the page says so. */
  renderMissed(missed) {
    const line = this.q("missed");
    line.hidden = missed === 0;
    line.textContent = interpolate(
      ngettext(
        "You came late: %(count)s number drawn before you counts as missed.",
        "You came late: %(count)s numbers drawn before you count as missed.",
        missed,
      ),
      { count: missed },
    );
  }

  onEvents(events) {
    for (const change of events) {
      if (change.type === "started" || change.type === "poker_started") {
        this.status = "running";
        if (change.type === "poker_started") this.socket.sync().catch(() => {});
      } else if (change.type === "drawn") {
        if (this.view && change.index === this.view.sequence.length) {
          this.view.sequence.push(change.card);
          this.view.dealt_at.push(change.at);
          this.view.closed = change.closed;
        }
        if (this.board) this.board.dealt(change);
        this.renderHost();
        this.fx.drawn(this.isHost ? this.q("current") : this.q("hand"));
        if (this.isHost) this.poll();
      } else if (change.type === "next_round") {
        this.goToNextRound(change.code);
      } else if (change.type === "finished") {
        this.status = "finished";
        this.fx.ended(this.q("final"));
      } else if (change.type === "expired") {
        this.status = "expired";
      }
    }
    this.afterStatus();
  }

  afterStatus() {
    const live = document.querySelector("[data-room-live]");
    if (live) live.classList.toggle("pr-playing", this.status === "running" && Boolean(this.board));
    if (this.status === "finished" || this.status === "expired") {
      // A board still behind when the host ended the game: over too (nothing to place).
      if (this.board) this.board.end();
      this.schedulePoll(0);
    } else if (this.status === "running" && this.isHost) {
      this.schedulePoll(HOST_POLL_MS);
    } else if (this.status === "running" && this.board && this.board.game && this.board.game.over) {
      this.schedulePoll(PLAYER_POLL_MS);
    }
  }

  onBoardChange() {
    const game = this.board.game;
    if (game.over && this.status === "running") {
      this.q("waiting").hidden = false;
      this.q("waiting").textContent = gettext("Waiting for the others…"); // the board says it is finished
      this.schedulePoll(500);
    }
  }

  async draw() {
    if (!this.isHost || this.status !== "running") return;
    const button = /** @type {HTMLButtonElement} */ (this.q("draw"));
    if (button.disabled) return;
    button.disabled = true;
    try {
      await this.socket.send({ type: "draw" });
    } catch (error) {
      this.q("placed").textContent = error.message || error.code;
    } finally {
      button.disabled = this.status !== "running" || Boolean(this.view && this.view.closed);
    }
  }

  /** How many players still in the game have not finished their board. */
  async behind() {
    const data = await standings();
    if (data && data.status === "running") this.stillPlaying = data.playing || 0;
    return this.stillPlaying || 0;
  }

  onEnd(event) {
    const button = event.target instanceof Element ? event.target.closest('[data-room-action="end"]') : null;
    if (!button || this.status !== "running" || !this.stillPlaying) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    this.askToEnd(button);
  }

  async askToEnd(button) {
    const count = await this.behind();
    if (this.status !== "running") return;
    const message =
      count > 0
        ? interpolate(
            ngettext(
              "%(count)s player has not finished the board yet. End the game for everybody now, or wait?",
              "%(count)s players have not finished their boards yet. End the game for everybody now, or wait?",
              count,
            ),
            { count },
          )
        : button.dataset.confirm || "";
    const words = count > 0 ? { ok: gettext("End now"), cancel: gettext("Wait") } : {};
    if (!(await confirmDialog(message, words))) return;
    button.disabled = true;
    try {
      await this.socket.send({ type: "end" });
    } catch (error) {
      this.q("placed").textContent = error.message || error.code;
    } finally {
      button.disabled = false;
    }
  }

  renderHost() {
    if (!this.isHost) return;
    const running = this.status === "running" && this.view;
    const host = this.q("host");
    host.hidden = this.status === "finished" || this.status === "expired";
    /** @type {HTMLButtonElement} */ (this.q("draw")).disabled = !running || this.view.closed;
    if (!this.view) return;
    const sequence = this.view.sequence;
    const last = sequence.length ? sequence[sequence.length - 1] : null;
    const current = this.q("current");
    current.textContent = last === null ? "–" : cardText(last);
    current.classList.toggle("is-joker", last === JOKER);
    this.q("drawn").textContent = this.view.closed
      ? gettext("All numbers are out: no more will come.")
      : interpolate(gettext("Numbers drawn: %(count)s"), { count: sequence.length });
    this.q("history").replaceChildren(
      ...sequence.map((card) => el("li", { className: card === JOKER ? "is-joker" : undefined, text: cardText(card) })),
    );
  }

  schedulePoll(delay) {
    if (this.pollTimer || this.kicked) return;
    this.pollTimer = window.setTimeout(() => {
      this.pollTimer = null;
      this.poll();
    }, delay);
  }

  async poll() {
    if (this.polling) return;
    this.polling = true;
    const data = await standings();
    this.polling = false;
    if (data) this.renderStandings(data);
    if (data && data.status === "lobby") {
      if (data.absent && data.absent.length) this.schedulePoll(HOST_POLL_MS); // until they come
      return;
    }
    if (data && data.status === "finished" && data.next_room) return; // done: a link is shown
    if (this.status === "finished" || this.status === "expired" || (data && data.status !== "running")) {
      if (data && data.status === "finished") this.status = "finished";
      this.schedulePoll(PLAYER_POLL_MS);
    } else if (this.isHost) {
      this.schedulePoll(HOST_POLL_MS);
    } else if (this.board && this.board.game && this.board.game.over) {
      this.schedulePoll(PLAYER_POLL_MS);
    }
  }

  /** The new round's lobby: who of the last round is not here (their page was closed). */
  renderAbsent(absent) {
    const line = this.q("absent");
    line.hidden = absent.length === 0;
    line.textContent = interpolate(
      gettext("Not here from the last round (they can join with the code): %(names)s"),
      { names: absent.map((player) => player.nickname).join(", ") },
    );
  }

  renderStandings(data) {
    if (data.status === "lobby") {
      this.renderAbsent(data.absent || []);
      return;
    }
    this.q("absent").hidden = true;
    if (data.status === "finished" || data.status === "expired") {
      this.showFinal(data);
      return;
    }
    if (data.status !== "running") return;
    if (!this.board || !this.board.game || !this.board.game.over) {
      this.q("waiting").hidden = true;
    } else {
      this.q("waiting").hidden = false;
      this.q("waiting").textContent = interpolate(
        gettext("Waiting for the others. Still playing: %(count)s of %(total)s."),
        { count: data.playing, total: data.total },
      );
    }
    if (!this.isHost || !data.ranking) return;
    this.stillPlaying = data.playing || 0;
    this.q("placed").textContent = interpolate(
      ngettext(
        "%(count)s of %(total)s has placed the number",
        "%(count)s of %(total)s have placed the number",
        data.placed_current,
      ),
      { count: data.placed_current, total: data.total },
    );
    const body = this.q("live").querySelector("tbody");
    body.replaceChildren(
      ...data.ranking.map((entry) => {
        const row = document.createElement("tr");
        if (entry.behind > 0) row.className = "is-behind";
        if (entry.gone) row.className = "is-gone";
        // In a class game the teacher sees the roster name beside the nickname.
        const cells = [
          String(entry.rank),
          entry.roster_name ? `${entry.nickname} (${entry.roster_name})` : entry.nickname,
          String(entry.score),
          String(entry.filled),
          entry.gone === "left"
            ? gettext("left the game")
            : entry.over
            ? gettext("finished")
            : entry.behind > 1
              ? interpolate(ngettext("%(count)s number behind", "%(count)s numbers behind", entry.behind), {
                  count: entry.behind,
                })
              : entry.behind === 1
                ? gettext("placing")
                : gettext("waiting"),
        ];
        cells.forEach((text, index) => {
          const cell = document.createElement("td");
          if (index === 2 || index === 3) cell.className = "num";
          cell.textContent = text;
          row.append(cell);
        });
        return row;
      }),
    );
  }

  showFinal(data) {
    this.q("waiting").hidden = true;
    if (this.isHost) this.q("host").hidden = true;
    const final = this.q("final");
    final.hidden = false;
    // A lobby closed before its game started has no ranking to show, only that.
    const neverStarted = !data.ranking || data.ranking.length === 0;
    this.q("final-body").hidden = neverStarted;
    this.q("never-started").hidden = !neverStarted;
    if (!this.finalShown && data.ranking && !neverStarted) {
      this.finalShown = true;
      this.q("final-list").replaceChildren(...data.ranking.map((entry) => rankingItem(entry, { me: this.me })));
      final.scrollIntoView({ block: "start" });
    }
    if (data.next_room && !this.isHost && !this.kicked) {
      const link = /** @type {HTMLAnchorElement} */ (this.q("next-link"));
      link.href = `/rooms/${encodeURIComponent(data.next_room)}/`;
      this.q("next").hidden = false;
    }
  }
}

if (root && root.dataset.mode === "group") {
  whenRoomReady().then((socket) => {
    const page = new GroupPage(socket);
    root.groupPage = page;
    // The room page may have had its first snapshot before this module listened.
    if (socket.seq !== null) socket.sync().catch(() => {});
  });
}
