// @ts-check
// Solo games. Easy and hard: the server leads when it can (it holds the deck and
// records the result); when saving is off, there is no nickname, or the server
// cannot be reached, the same page plays the game wholly in the browser with
// the JS twin of the engine and says plainly that it is not recorded.
// Ranked and daily games (root data-kind) are server-only: no browser fallback,
// no score preview, and the publication question is asked before the first one.
//
// This module is the controller: it holds the game's state and its intents;
// solo/ holds the page's facts, the two drivers (server, local), the setup,
// the input, the drawing and the end screen.

import { gettext, interpolate } from "../js/kit/i18n.js";
import { buildBoard } from "./board.js";
import { closeDialog, cellAction, jokerValueChosen, livePending, nowSeconds, openJokerDialog, readStorage } from "./common.js";
import { JOKER } from "./deck.js";
import { PokerGame } from "./game.js";
import { showEnd } from "./solo/end.js";
import { requestHint } from "./solo/hint.js";
import { focusAfter, wireControls } from "./solo/input.js";
import { LocalDriver, NOT_RECORDED } from "./solo/local.js";
import {
  $,
  COMPETITIVE,
  HOMEWORK,
  KIND,
  PREVIEW_KEY,
  ROBOT,
  csrfToken,
  dialogById,
  homeworkSettings,
  readCurrent,
  root,
  setStatus,
  writeCurrent,
} from "./solo/page.js";
import { infoText, render, showCountdown } from "./solo/render.js";
import { Refusal, ServerDriver } from "./solo/server.js";
import { askConsent, restoreSettings, showRefusal } from "./solo/setup.js";

class PokerPlay {
  constructor() {
    this.board = buildBoard($("poker-board"));
    this.view = null;
    this.driver = null;
    this.busy = false;
    this.pending = null; // a joker with its chosen value: { source: "hand"|"kept", value }
    this.offset = 0; // server clock minus browser clock, seconds
    this.advancing = false;
    this.showPreview = readStorage(PREVIEW_KEY, true) !== false;
    this.daily = null;
    wireControls(this);
    if (ROBOT) this.robotBoard = buildBoard($("poker-robot-board"));
    if (KIND !== "daily" && !ROBOT && !HOMEWORK) restoreSettings();
    this.resume();
  }

  async resume(gameId = null) {
    const current = gameId ? { kind: "server", id: gameId } : readCurrent();
    if (!current) return;
    let payload = null;
    if (current.kind === "server") {
      const driver = new ServerDriver(root.dataset.api, csrfToken());
      payload = await driver.resume(current.id);
      if (payload && !payload.game.over) this.driver = driver;
      else payload = null;
    } else if (current.kind === "local" && current.state) {
      const driver = new LocalDriver(current.reason);
      try {
        driver.game = PokerGame.fromDict(current.state);
        payload = await driver.act({ type: "advance" });
        this.driver = driver;
      } catch (error) {
        payload = null;
      }
    }
    if (!payload) {
      writeCurrent(null);
      return;
    }
    this.settings = {
      mode: payload.game.mode,
      seconds: payload.game.seconds_per_card,
      table: payload.game.table,
    };
    if (ROBOT && payload.game.robot) this.settings = { ...this.settings, kind: "robot", level: payload.game.robot.level };
    this.show(payload);
  }

  show(payload) {
    $("poker-setup").hidden = true;
    $("poker-preview-toggle").hidden = payload.game.preview === false;
    $("poker-game").hidden = false;
    this.view = null;
    this.accept(payload);
    $("poker-info").textContent = infoText(this.view, this.driver.recorded);
    const first = this.board.cells.find((cell) => !cell.disabled);
    if (first && this.view.hand !== JOKER) first.focus();
  }

  // --- starting --------------------------------------------------------------

  /** Daily: the next round is a replay of the same numbers; others: the same settings. */
  startAgain() {
    if (KIND === "daily") this.settings = { kind: "daily", mode: "easy", replay: true };
    if (HOMEWORK) this.settings = homeworkSettings();
    this.start();
  }

  /** Ranked and daily: the server or nothing. */
  async startCompetitive() {
    if (!ROBOT && !HOMEWORK) await askConsent();
    this.driver = new ServerDriver(root.dataset.api, csrfToken());
    let payload;
    try {
      payload = await this.driver.start(this.settings);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      if (error.code === "daily_used" && error.payload && error.payload.game_id) {
        await this.resume(error.payload.game_id);
        return;
      }
      this.driver = null;
      showRefusal(error.message);
      return;
    }
    this.show(payload);
  }

  async start() {
    this.pending = null;
    this.view = null;
    this.daily = null;
    setStatus("");
    if (COMPETITIVE || ROBOT) {
      await this.startCompetitive();
      return;
    }
    let payload = null;
    const serverLed = root.dataset.serverLed === "1" && navigator.onLine !== false;
    if (serverLed) {
      this.driver = new ServerDriver(root.dataset.api, csrfToken());
      try {
        payload = await this.driver.start(this.settings);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        const reason = NOT_RECORDED[error.code] ? error.code : "offline";
        if (error.code === "bad_seconds" || error.code === "bad_mode" || error.code === "bad_table") {
          setStatus(error.message);
          return;
        }
        this.driver = new LocalDriver(reason);
      }
    } else {
      this.driver = new LocalDriver(root.dataset.storage === "1" ? (navigator.onLine === false ? "offline" : "no_profile") : "storage_off");
    }
    if (payload === null) payload = await this.driver.start(this.settings);
    this.show(payload);
  }

  // --- actions -----------------------------------------------------------------

  async send(action) {
    if (this.busy || !this.view || this.view.over) return;
    this.busy = true;
    root.classList.add("is-busy");
    try {
      const payload = await this.driver.act(action);
      if (action.type === "use_joker" || action.type === "place_kept_joker") this.pending = null;
      this.accept(payload);
      if (typeof action.cell === "number") focusAfter(this.board, action.cell);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      if (error.code === "offline" && COMPETITIVE) {
        setStatus(gettext("The server cannot be reached. Your board is kept there: try again in a moment."));
      } else if (error.code === "offline" && this.driver instanceof ServerDriver) {
        await this.fallBack(action);
      } else {
        if (error.payload && error.payload.game) this.accept(error.payload);
        setStatus(error.message);
      }
    } finally {
      this.busy = false;
      root.classList.remove("is-busy");
    }
  }

  /** The server went away mid-game: continue this board in the browser. */
  async fallBack(action) {
    const local = new LocalDriver("offline");
    local.continueFrom(this.view);
    this.driver = local;
    $("poker-info").textContent = infoText(this.view, this.driver.recorded);
    if (action.type !== "advance") {
      try {
        this.accept(await local.act(action));
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        this.accept({ game: local.game.playerView(), now: nowSeconds() });
      }
    } else {
      this.accept({ game: local.game.playerView(), now: nowSeconds() });
    }
    setStatus(gettext("The connection to the server was lost: the game goes on in your browser and will not be recorded."));
  }

  accept(payload) {
    const before = this.view;
    this.view = payload.game;
    this.hint = null;
    if (payload.daily) this.daily = payload.daily;
    this.offset = typeof payload.now === "number" ? payload.now - nowSeconds() : 0;
    this.advancing = false;
    if (payload.events && payload.events.length) setStatus("");
    for (const event of payload.events || []) {
      if (event.type === "forfeited") {
        setStatus(interpolate(gettext("Time ran out: the number %(card)s was lost."), { card: event.card }));
      } else if (event.type === "joker_expired") {
        setStatus(gettext("Time ran out: the joker was lost."));
      }
    }
    this.pending = livePending(this.pending, this.view, JOKER);
    const jokerDialog = dialogById("poker-joker-dialog");
    const stale = this.jokerSource === "hand" ? this.view.hand !== JOKER : this.view.kept_jokers === 0;
    if (jokerDialog.open && (this.view.over || stale)) closeDialog(jokerDialog);
    this.render();
    this.remember();
    if (this.view.over) {
      showEnd(this.view, this.driver, this.daily);
      return;
    }
    const newJoker = this.view.hand === JOKER && (!before || before.dealt !== this.view.dealt);
    if (newJoker && !this.pending) this.askJoker("hand");
  }

  remember() {
    if (!this.driver || this.view.over) writeCurrent(null);
    else if (this.driver instanceof ServerDriver) writeCurrent({ kind: "server", id: this.driver.id });
    else writeCurrent({ kind: "local", reason: this.driver.reason, state: this.driver.game.toDict() });
  }

  clickCell(cell) {
    if (!this.view || this.view.over || this.busy) return;
    if (this.view.cells[cell] !== null) return;
    const next = cellAction(this.view.hand, this.pending, cell, JOKER);
    if (next.ask) this.askJoker(next.ask);
    else if (next.status) setStatus(next.status);
    else this.send(next.action);
  }

  /** The coach's hint (easy games only; the server refuses it elsewhere):
   * its cell is highlighted and the status says why. */
  async askHint() {
    const view = this.view;
    if (!view || view.over || this.busy || view.mode !== "easy") return;
    let payload;
    try {
      payload = await requestHint(view, this.driver);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      setStatus(error.code === "offline" ? gettext("The coach needs the server: hints work only online.") : error.message);
      return;
    }
    if (this.view !== view) return;
    this.hint = payload.hint;
    this.render();
    setStatus(payload.hint.reason);
  }

  askJoker(source) {
    this.jokerSource = source;
    const parts = { title: $("poker-joker-title"), text: $("poker-joker-text"), keep: $("poker-keep-joker") };
    openJokerDialog($("poker-joker-dialog"), parts, source);
  }

  chooseJokerValue(value) {
    this.pending = { source: this.jokerSource, value };
    closeDialog($("poker-joker-dialog"));
    this.render();
    jokerValueChosen(value, this.board.cells, (text) => setStatus(text));
  }

  keepJoker() {
    closeDialog($("poker-joker-dialog"));
    this.pending = null;
    this.send({ type: "keep_joker" });
  }

  draw() {
    if (!this.view || this.view.over) return;
    if (this.view.hand !== null) {
      setStatus(gettext("Place the number in your hand first."));
      return;
    }
    this.send({ type: "advance" });
  }

  /** Hard mode: show the countdown; when it runs out, let the leader decide. */
  tick() {
    const left = showCountdown(this.view, this.offset, nowSeconds());
    if (left < -0.05 && !this.advancing && !this.busy) {
      this.advancing = true;
      this.send({ type: "advance" }).finally(() => {
        // If the leader's clock is a little behind, ask again shortly.
        window.setTimeout(() => {
          this.advancing = false;
        }, 400);
      });
    }
  }

  render() {
    render(this);
  }
}

if (root) new PokerPlay();
