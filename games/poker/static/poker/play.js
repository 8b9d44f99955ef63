// Solo games. Easy and hard: the server leads when it can (it holds the deck and
// records the result); when saving is off, there is no nickname, or the server
// cannot be reached, the same page plays the game wholly in the browser with
// the JS twin of the engine and says plainly that it is not recorded.
// Ranked and daily games (root data-kind) are server-only: no browser fallback,
// no score preview, and the publication question is asked before the first one.

import { gettext, interpolate, ngettext } from "../js/kit/i18n.js";
import { buildBoard, paintBoard } from "./board.js";
import {
  RULE_MESSAGES,
  cellAction,
  closeDialog,
  jokerValueChosen,
  livePending,
  nowSeconds,
  onDrawKey,
  openDialog,
  openJokerDialog,
  randomSeed,
  readStorage,
  writeStorage,
} from "./common.js";
import { JOKER, PyRandom, buildDeck, seededDeck, shuffle } from "./deck.js";
import { IllegalMove, PokerGame } from "./game.js";
import { bestCells, preview } from "./preview.js";

const root = document.getElementById("poker-play");
const $ = (id) => document.getElementById(id);
// "free" (easy/hard with fallback), "ranked" or "daily".
const KIND = root ? root.dataset.kind || "free" : "free";
// Class homework (root data-assignment): the server deals the class's numbers, nothing in the browser.
const HOMEWORK = KIND === "homework";
const COMPETITIVE = KIND === "ranked" || KIND === "daily" || HOMEWORK;
// Against the robot (server only, easy rules): the robot's board is shown beside.
const ROBOT = KIND === "robot";

const SETTINGS_KEY = "matika-poker-settings";

function homeworkSettings() {
  return { kind: "assignment", assignment: Number(root.dataset.assignment) };
}
// The game in progress in this tab (one per page kind), so a reload continues it.
const CURRENT_KEY = KIND === "free" ? "matika-poker-current" : `matika-poker-current-${KIND}`;

function readCurrent() {
  try {
    return JSON.parse(sessionStorage.getItem(CURRENT_KEY));
  } catch (e) {
    return null;
  }
}

function writeCurrent(value) {
  try {
    if (value === null) sessionStorage.removeItem(CURRENT_KEY);
    else sessionStorage.setItem(CURRENT_KEY, JSON.stringify(value));
  } catch (e) {
    /* the game then simply does not survive a reload */
  }
}
const PREVIEW_KEY = "matika-poker-preview";

/** The API refused: a stable code and a human message (maybe with the game). */
class Refusal extends Error {
  constructor(code, message, payload) {
    super(message);
    this.code = code;
    this.payload = payload;
  }
}

/** The server leads: every action is one POST; the answer is the new view. */
class ServerDriver {
  constructor(api, csrf) {
    this.api = api;
    this.csrf = csrf;
    this.recorded = true;
    this.id = null;
  }

  async request(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": this.csrf, Accept: "application/json" },
        body: JSON.stringify(body),
      });
    } catch (error) {
      throw new Refusal("offline", gettext("The server cannot be reached."));
    }
    let payload = null;
    try {
      payload = await response.json();
    } catch (error) {
      payload = null;
    }
    if (!payload || typeof payload !== "object") {
      throw new Refusal("offline", gettext("The server cannot be reached."));
    }
    if (!response.ok) throw new Refusal(payload.code, payload.message, payload);
    return payload;
  }

  async start(settings) {
    const payload = await this.request(this.api, {
      mode: settings.kind || settings.mode,
      difficulty: settings.mode,
      table: settings.table,
      seconds_per_card: settings.mode === "hard" ? settings.seconds : null,
      replay: Boolean(settings.replay),
      level: settings.level || null,
      assignment: settings.assignment || null,
    });
    this.id = payload.game.id;
    return payload;
  }

  act(action) {
    return this.request(`${this.api}${this.id}/actions/`, action);
  }

  /** Pick up a game this tab started before a reload. */
  async resume(id) {
    this.id = id;
    let response;
    try {
      response = await fetch(`${this.api}${id}/`, { credentials: "same-origin", headers: { Accept: "application/json" } });
    } catch (error) {
      return null;
    }
    return response.ok ? response.json() : null;
  }
}

/** The browser leads with the JS engine; nothing leaves the page. */
class LocalDriver {
  constructor(reason) {
    this.recorded = false;
    this.reason = reason;
  }

  wrap(events) {
    return { game: this.game.playerView(), events, now: nowSeconds() };
  }

  async start(settings) {
    const now = nowSeconds();
    this.game = PokerGame.create({
      table: settings.table,
      mode: settings.mode,
      secondsPerCard: settings.mode === "hard" ? settings.seconds : null,
      deck: seededDeck(randomSeed(), settings.table),
      now,
    });
    return this.wrap([]);
  }

  /** Go on from a server game's board: a fresh shuffle of the cards not on it. */
  continueFrom(view) {
    const rest = buildDeck(view.table);
    const seen = view.cells.filter((value, cell) => value !== null && !view.joker_cells.includes(cell));
    if (view.hand !== null) seen.push(view.hand);
    for (const card of seen) {
      const at = rest.indexOf(card);
      if (at >= 0) rest.splice(at, 1);
    }
    const deck = shuffle(rest, new PyRandom(randomSeed()));
    const now = nowSeconds();
    const hand = view.hand !== null ? view.hand : deck.shift();
    this.game = PokerGame.fromDict({
      version: 1,
      table: view.table,
      mode: view.mode,
      seconds_per_card: view.seconds_per_card,
      cells: view.cells,
      joker_cells: view.joker_cells,
      sequence: hand === undefined ? [] : [hand],
      dealt_at: hand === undefined ? [] : [now],
      handled: 0,
      handled_at: null,
      kept_jokers: view.kept_jokers,
      forfeited: view.forfeited,
      deck,
      closed: deck.length === 0,
      started_at: view.started_at ?? now,
      finished_at: null,
    });
  }

  async act(action) {
    const now = nowSeconds();
    try {
      const events =
        action.type === "advance" ? this.game.advance(now) : this.game.apply(action, now);
      return this.wrap(events);
    } catch (error) {
      if (error instanceof IllegalMove) {
        const message = RULE_MESSAGES[error.code] ? RULE_MESSAGES[error.code]() : error.detail;
        throw new Refusal(error.code, message, { game: this.game.playerView() });
      }
      throw error;
    }
  }
}

const NOT_RECORDED = {
  storage_off: () => gettext("Saving is off in this browser, so this game was not recorded."),
  no_profile: () => gettext("You have no nickname yet, so this game was not recorded."),
  offline: () =>
    gettext(
      "The server could not be reached, so this game was played in your browser and was not recorded.",
    ),
};

const ROBOT_LEVELS = {
  beginner: () => gettext("beginner"),
  greedy: () => gettext("greedy"),
  coach: () => gettext("coach"),
};

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
    this.wire();
    if (ROBOT) this.robotBoard = buildBoard($("poker-robot-board"));
    if (KIND !== "daily" && !ROBOT && !HOMEWORK) this.restoreSettings();
    this.resume();
  }

  async resume(gameId = null) {
    const current = gameId ? { kind: "server", id: gameId } : readCurrent();
    if (!current) return;
    let payload = null;
    if (current.kind === "server") {
      const driver = new ServerDriver(root.dataset.api, this.csrfToken());
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
    $("poker-info").textContent = this.infoText();
    const first = this.board.cells.find((cell) => !cell.disabled);
    if (first && this.view.hand !== JOKER) first.focus();
  }

  // --- setup ---------------------------------------------------------------

  restoreSettings() {
    const params = new URLSearchParams(window.location.search);
    const saved = readStorage(SETTINGS_KEY, {});
    const mode = params.get("mode") || saved.mode || "easy";
    const form = $("poker-setup");
    const radio = form.querySelector(`input[name=mode][value="${mode === "hard" ? "hard" : "easy"}"]`);
    radio.checked = true;
    if (params.get("seconds") || saved.seconds) $("poker-seconds").value = params.get("seconds") || saved.seconds;
    const table = params.get("table") || saved.table;
    if (table && [...$("poker-table-select").options].some((o) => o.value === table)) {
      $("poker-table-select").value = table;
    }
    this.syncSetup();
  }

  syncSetup() {
    const hard = $("poker-setup").querySelector("input[name=mode]:checked").value === "hard";
    $("poker-seconds-field").hidden = !hard;
    $("poker-seconds").disabled = !hard;
  }

  readSettings() {
    const form = $("poker-setup");
    const mode = form.querySelector("input[name=mode]:checked").value;
    const seconds = Number.parseInt($("poker-seconds").value, 10);
    return { mode, seconds, table: $("poker-table-select").value };
  }

  wire() {
    const form = $("poker-setup");
    if (KIND === "daily") {
      const daily = { kind: "daily", mode: "easy", seconds: null, table: null };
      const wireButton = (id, action) => {
        const button = $(id);
        if (button) button.addEventListener("click", action);
      };
      wireButton("poker-start-daily", () => {
        this.settings = daily;
        this.start();
      });
      wireButton("poker-replay", () => {
        this.settings = { ...daily, replay: true };
        this.start();
      });
      wireButton("poker-continue", () => this.resume(root.dataset.continue));
      const intro = $("poker-share-intro");
      if (intro) {
        intro.addEventListener("click", () =>
          this.share({
            day: intro.dataset.shareDay,
            score: intro.dataset.shareScore,
            rank: intro.dataset.shareRank,
            streak: intro.dataset.shareStreak,
          }),
        );
      }
    } else if (HOMEWORK) {
      const button = $("poker-start-homework");
      if (button) {
        button.addEventListener("click", () => {
          this.settings = homeworkSettings();
          this.start();
        });
      }
    } else {
      form.addEventListener("change", () => this.syncSetup());
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        if (!form.reportValidity()) return;
        this.settings = this.readSettings();
        if (ROBOT) {
          const level = form.querySelector("input[name=level]:checked");
          this.settings = { ...this.settings, kind: "robot", mode: "easy", level: level ? level.value : "coach" };
        }
        if (KIND === "ranked") this.settings.kind = "ranked";
        else if (!ROBOT) writeStorage(SETTINGS_KEY, this.settings);
        this.start();
      });
    }
    $("poker-share").addEventListener("click", () => {
      if (this.daily) this.share(this.daily);
    });
    for (const cell of this.board.cells) {
      cell.addEventListener("click", () => this.clickCell(Number(cell.dataset.cell)));
    }
    $("poker-hand").addEventListener("click", () => {
      if (this.view && this.view.hand === JOKER && !this.view.over) this.askJoker("hand");
    });
    $("poker-kept").addEventListener("click", () => {
      if (this.view && this.view.kept_jokers > 0 && !this.view.over) this.askJoker("kept");
    });
    $("poker-draw").addEventListener("click", () => this.draw());
    if ($("poker-hint")) $("poker-hint").addEventListener("click", () => this.askHint());
    const eye = $("poker-preview-toggle");
    eye.setAttribute("aria-pressed", String(this.showPreview));
    eye.addEventListener("click", () => {
      this.showPreview = !this.showPreview;
      writeStorage(PREVIEW_KEY, this.showPreview);
      eye.setAttribute("aria-pressed", String(this.showPreview));
      this.render();
    });
    for (const button of document.querySelectorAll("#poker-joker-dialog [data-value]")) {
      button.addEventListener("click", () => this.chooseJokerValue(Number(button.dataset.value)));
    }
    $("poker-keep-joker").addEventListener("click", () => this.keepJoker());
    $("poker-again").addEventListener("click", () => {
      closeDialog($("poker-end-dialog"));
      this.startAgain();
    });
    $("poker-new").addEventListener("click", () => this.startAgain());
    onDrawKey(() => this.draw());
    window.setInterval(() => this.tick(), 200);
  }

  // --- starting --------------------------------------------------------------

  /** Daily: the next round is a replay of the same numbers; others: the same settings. */
  startAgain() {
    if (KIND === "daily") this.settings = { kind: "daily", mode: "easy", replay: true };
    if (HOMEWORK) this.settings = homeworkSettings();
    this.start();
  }

  /** Ask the publication question (the exact stored text) once, before the first
   * public write. Closing the dialog is no answer: the game goes on, nothing is
   * published, and the question comes again next time. */
  askConsent() {
    if (root.dataset.consent !== "unknown") return Promise.resolve();
    const dialog = $("poker-consent-dialog");
    // A yes needs the age sentence ticked (GDPR Art. 8: old enough or a parent agreed).
    const age = $("poker-consent-age");
    const yes = $("poker-consent-yes");
    yes.disabled = !age.checked;
    age.onchange = () => {
      yes.disabled = !age.checked;
    };
    return new Promise((resolve) => {
      const answer = async (granted) => {
        closeDialog(dialog);
        const body = new FormData();
        body.append("consent", granted ? "yes" : "no");
        if (granted) body.append("age", age.checked ? "yes" : "no");
        try {
          const response = await fetch(root.dataset.consentUrl, {
            method: "POST",
            credentials: "same-origin",
            headers: { "X-CSRFToken": this.csrfToken(), Accept: "application/json" },
            body,
          });
          if (response.ok) root.dataset.consent = granted ? "yes" : "no";
        } catch (error) {
          /* unanswered: nothing is published, the question comes again */
        }
        resolve();
      };
      $("poker-consent-yes").onclick = () => answer(true);
      $("poker-consent-no").onclick = () => answer(false);
      openDialog(dialog, { onCancel: () => resolve() });
      age.focus();
    });
  }

  /** Ranked and daily: the server or nothing. */
  async startCompetitive() {
    if (!ROBOT && !HOMEWORK) await this.askConsent();
    this.driver = new ServerDriver(root.dataset.api, this.csrfToken());
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
      $("poker-setup").hidden = false;
      $("poker-game").hidden = true;
      this.setStatus(error.message);
      const setup = $("poker-setup");
      let note = setup.querySelector(".poker-refusal");
      if (!note) {
        note = document.createElement("p");
        note.className = "notice poker-refusal";
        note.setAttribute("role", "alert");
        setup.append(note);
      }
      note.textContent = error.message;
      return;
    }
    this.show(payload);
  }

  async start() {
    this.pending = null;
    this.view = null;
    this.daily = null;
    this.setStatus("");
    if (COMPETITIVE || ROBOT) {
      await this.startCompetitive();
      return;
    }
    let payload = null;
    const serverLed = root.dataset.serverLed === "1" && navigator.onLine !== false;
    if (serverLed) {
      this.driver = new ServerDriver(root.dataset.api, this.csrfToken());
      try {
        payload = await this.driver.start(this.settings);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        const reason = NOT_RECORDED[error.code] ? error.code : "offline";
        if (error.code === "bad_seconds" || error.code === "bad_mode" || error.code === "bad_table") {
          this.setStatus(error.message);
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

  csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : root.dataset.csrf;
  }

  infoText() {
    const mode =
      this.view.mode === "hard"
        ? interpolate(gettext("Hard game, %(seconds)s s per number"), { seconds: this.view.seconds_per_card })
        : gettext("Easy game");
    if (this.view.kind === "daily") {
      return this.view.replay
        ? gettext("Daily challenge replay · not recorded")
        : interpolate(gettext("Daily challenge of %(day)s · recorded"), { day: this.view.day });
    }
    if (this.view.kind === "homework") return `${gettext("Homework")} · ${mode} · ${gettext("your teacher sees the score")}`;
    if (this.view.kind === "ranked") {
      const published =
        root.dataset.consent === "yes"
          ? gettext("a full board goes to the leaderboards")
          : gettext("not published: you did not agree to publication");
      return `${gettext("Ranked game")} · ${mode} · ${published}`;
    }
    const where = this.driver.recorded
      ? gettext("led by the server and recorded in your profile")
      : gettext("played in your browser, not recorded");
    return `${mode} · ${where}`;
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
      if (typeof action.cell === "number") this.focusAfter(action.cell);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      if (error.code === "offline" && COMPETITIVE) {
        this.setStatus(gettext("The server cannot be reached. Your board is kept there: try again in a moment."));
      } else if (error.code === "offline" && this.driver instanceof ServerDriver) {
        await this.fallBack(action);
      } else {
        if (error.payload && error.payload.game) this.accept(error.payload);
        this.setStatus(error.message);
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
    $("poker-info").textContent = this.infoText();
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
    this.setStatus(gettext("The connection to the server was lost: the game goes on in your browser and will not be recorded."));
  }

  accept(payload) {
    const before = this.view;
    this.view = payload.game;
    this.hint = null;
    if (payload.daily) this.daily = payload.daily;
    this.offset = typeof payload.now === "number" ? payload.now - nowSeconds() : 0;
    this.advancing = false;
    if (payload.events && payload.events.length) this.setStatus("");
    for (const event of payload.events || []) {
      if (event.type === "forfeited") {
        this.setStatus(interpolate(gettext("Time ran out: the number %(card)s was lost."), { card: event.card }));
      } else if (event.type === "joker_expired") {
        this.setStatus(gettext("Time ran out: the joker was lost."));
      }
    }
    this.pending = livePending(this.pending, this.view, JOKER);
    const jokerDialog = $("poker-joker-dialog");
    const stale = this.jokerSource === "hand" ? this.view.hand !== JOKER : this.view.kept_jokers === 0;
    if (jokerDialog.open && (this.view.over || stale)) closeDialog(jokerDialog);
    this.render();
    this.remember();
    if (this.view.over) {
      this.finish();
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
    else if (next.status) this.setStatus(next.status);
    else this.send(next.action);
  }

  /** Keyboard play: after a placement the focus moves on to the next free cell. */
  focusAfter(cell) {
    if (document.querySelector("dialog[open]")) return;
    const active = document.activeElement;
    if (active && active !== document.body && !active.disabled) return;
    for (let step = 1; step <= 25; step += 1) {
      const next = this.board.cell((cell + step) % 25);
      if (!next.disabled) {
        next.focus();
        return;
      }
    }
  }

  /** The coach's hint (easy games only; the server refuses it elsewhere):
   * its cell is highlighted and the status says why. */
  async askHint() {
    const view = this.view;
    if (!view || view.over || this.busy || view.mode !== "easy") return;
    const server = new ServerDriver(root.dataset.api, this.csrfToken());
    let payload;
    try {
      if (this.driver instanceof ServerDriver) {
        payload = await server.request(`${root.dataset.api}${this.driver.id}/hint/`, {});
      } else {
        const game = this.driver.game;
        payload = await server.request(root.dataset.boardHint, {
          context: "easy",
          table: view.table,
          cells: view.cells,
          card: view.hand,
          seen: game.sequence.slice(0, game.handled),
          kept: view.kept_jokers,
        });
      }
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      this.setStatus(error.code === "offline" ? gettext("The coach needs the server: hints work only online.") : error.message);
      return;
    }
    if (this.view !== view) return;
    this.hint = payload.hint;
    this.render();
    this.setStatus(payload.hint.reason);
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
    jokerValueChosen(value, this.board.cells, (text) => this.setStatus(text));
  }

  keepJoker() {
    closeDialog($("poker-joker-dialog"));
    this.pending = null;
    this.send({ type: "keep_joker" });
  }

  draw() {
    if (!this.view || this.view.over) return;
    if (this.view.hand !== null) {
      this.setStatus(gettext("Place the number in your hand first."));
      return;
    }
    this.send({ type: "advance" });
  }

  /** Hard mode: show the countdown; when it runs out, let the leader decide. */
  tick() {
    const timer = $("poker-timer");
    if (!this.view || this.view.over || this.view.deadline === null) {
      timer.hidden = true;
      return;
    }
    timer.hidden = false;
    const left = this.view.deadline - (nowSeconds() + this.offset);
    $("poker-timer-value").textContent = String(Math.max(0, Math.ceil(left)));
    timer.classList.toggle("is-urgent", left <= 3);
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

  // --- drawing -------------------------------------------------------------------

  setStatus(text) {
    $("poker-status").textContent = text;
  }

  render() {
    const view = this.view;
    if (!view) return;
    const inHand = view.over ? null : view.hand;
    const hand = $("poker-hand");
    hand.classList.toggle("is-joker", inHand === JOKER);
    if (inHand === null) hand.textContent = "–";
    else if (inHand === JOKER) hand.textContent = this.pending && this.pending.source === "hand" ? `★${this.pending.value}` : "★";
    else hand.textContent = String(inHand);
    hand.setAttribute(
      "aria-label",
      inHand === null ? gettext("No number in hand") : inHand === JOKER ? gettext("Joker in hand") : interpolate(gettext("In hand: %(value)s"), { value: inHand }),
    );
    $("poker-kept-count").textContent = String(view.kept_jokers);
    $("poker-kept").disabled = view.kept_jokers === 0 || view.over;
    $("poker-kept").classList.toggle("is-active", Boolean(this.pending && this.pending.source === "kept"));
    // The button shows only when it can act: no number in hand, the game still on.
    $("poker-draw").hidden = view.over || inHand !== null;
    $("poker-total").textContent = String(view.score);
    $("poker-new").hidden = !view.over;
    $("poker-table-name").textContent = this.tableLabel(view.table);
    for (const table of document.querySelectorAll("#poker-table-in-use [data-table]")) {
      table.hidden = table.dataset.table !== view.table;
    }

    const warning = $("poker-warning");
    warning.hidden = !view.jokers_at_risk || view.over;
    if (view.jokers_at_risk) {
      warning.textContent = interpolate(gettext("Free cells: %(free)s, kept jokers: %(kept)s. Place your jokers now, or the extra ones are lost."),
        { free: view.free_cells, kept: view.kept_jokers },
      );
    }

    let value = null;
    if (this.pending) value = this.pending.value;
    else if (inHand !== null && inHand !== JOKER) value = inHand;
    const previewAllowed = view.preview !== false;
    const gains =
      value !== null && previewAllowed && this.showPreview && !view.over ? preview(view.cells, value, view.table) : {};
    this.renderDayRecord();
    paintBoard(this.board, {
      cells: view.cells,
      jokerCells: view.joker_cells,
      gains,
      best: bestCells(gains),
      playable: !view.over && (inHand !== null || this.pending !== null),
      lines: view.lines,
    });
    const hintCell = this.hint && typeof this.hint.cell === "number" ? this.hint.cell : null;
    this.board.cells.forEach((node, index) => node.classList.toggle("is-hint", index === hintCell));
    if (ROBOT && view.robot) {
      paintBoard(this.robotBoard, { cells: view.robot.cells, lines: view.robot.lines });
      $("poker-robot-total").textContent = String(view.robot.score);
      $("poker-robot-level").textContent = ROBOT_LEVELS[view.robot.level]();
    }
    const hintButton = $("poker-hint");
    if (hintButton) hintButton.hidden = view.over || view.mode !== "easy" || (inHand === null && view.kept_jokers === 0);
  }

  renderDayRecord() {
    const line = $("poker-day-record");
    const view = this.view;
    line.hidden = view.kind !== "daily";
    if (line.hidden) return;
    line.textContent = view.day_record
      ? interpolate(gettext("Record of the day: %(score)s (%(nickname)s)"), view.day_record)
      : gettext("Nobody has set a record today yet.");
  }

  shareText(result) {
    const url = new URL(window.location.pathname, window.location.origin).href;
    return interpolate(
      ngettext(
        "Matika daily challenge %(day)s: %(score)s point, place %(rank)s of the day, streak %(streak)s. %(url)s",
        "Matika daily challenge %(day)s: %(score)s points, place %(rank)s of the day, streak %(streak)s. %(url)s",
        result.score,
      ),
      { ...result, url },
    );
  }

  /** Put the share text on the clipboard (or show it to copy by hand). */
  async share(result) {
    const text = this.shareText(result);
    const box = $("poker-share-text");
    box.value = text;
    let copied = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(text);
        copied = true;
      }
    } catch (error) {
      copied = false;
    }
    box.hidden = false;
    if (!$("poker-end-dialog").open) {
      const intro = $("poker-share-intro");
      if (intro) {
        intro.after(box);
        box.hidden = false;
      }
    }
    box.select();
    $("poker-share-status").textContent = copied
      ? gettext("Copied: paste it into a chat.")
      : gettext("Copy the text below and paste it into a chat.");
  }

  tableLabel(name) {
    const table = document.querySelector(`#poker-table-in-use [data-table="${name}"] caption`);
    return table ? table.textContent : name;
  }

  finish() {
    const view = this.view;
    $("poker-timer").hidden = true;
    $("poker-end-score").textContent = String(view.score);
    const empty = view.cells.filter((value) => value === null).length;
    const details = [];
    if (view.completed) {
      details.push(gettext("All 25 cells are filled."));
    } else {
      details.push(interpolate(ngettext("%(count)s cell stayed empty.", "%(count)s cells stayed empty.", empty), { count: empty }));
      if (view.forfeited > 0) {
        details.push(
          interpolate(ngettext("%(count)s number ran out of time.", "%(count)s numbers ran out of time.", view.forfeited), { count: view.forfeited }),
        );
      }
    }
    if (view.kept_jokers > 0) {
      // A kept joker needs a free cell; one still kept at the end is lost.
      details.push(
        interpolate(
          ngettext(
            "%(count)s kept joker was lost: no free cell was left for it.",
            "%(count)s kept jokers were lost: no free cell was left for them.",
            view.kept_jokers,
          ),
          { count: view.kept_jokers },
        ),
      );
    }
    $("poker-end-detail").textContent = details.join(" ");
    const record = $("poker-end-record");
    const recorded = this.driver.recorded && view.recorded !== false;
    record.classList.toggle("is-recorded", recorded);
    if (view.kind === "daily" && view.replay) {
      record.textContent = gettext("A replay of today's numbers: not recorded.");
    } else if (view.kind === "ranked") {
      record.textContent = view.published
        ? gettext("Recorded and published on the leaderboards.")
        : view.completed
          ? gettext("Recorded in your profile; not published on the leaderboards.")
          : gettext("Recorded in your profile; only a full board enters the leaderboards.");
    } else if (view.kind === "daily") {
      record.textContent = view.published
        ? gettext("Recorded and published on the table of the day.")
        : gettext("Recorded in your profile; not published on the table of the day.");
    } else {
      record.textContent = recorded
        ? gettext("The game was recorded in your profile.")
        : (NOT_RECORDED[this.driver.reason] || NOT_RECORDED.offline)();
    }
    const daily = $("poker-end-daily");
    const showDaily = view.kind === "daily" && !view.replay && this.daily;
    daily.hidden = !showDaily;
    $("poker-share-box").hidden = !showDaily;
    $("poker-share-text").hidden = true;
    $("poker-share-status").textContent = "";
    if (showDaily) {
      daily.textContent = interpolate(gettext("Place %(rank)s of the day · streak %(streak)s"), this.daily);
      if (typeof this.daily.coach_score === "number") {
        daily.textContent += ` · ${interpolate(
          ngettext("the coach: %(score)s point on the same numbers", "the coach: %(score)s points on the same numbers", this.daily.coach_score),
          { score: this.daily.coach_score },
        )}`;
      }
    }
    $("poker-again").textContent =
      view.kind === "daily" ? gettext("Replay the numbers") : gettext("Play again");
    const settingsLink = $("poker-end-dialog").querySelector("a.button");
    if (settingsLink) {
      settingsLink.hidden = view.kind === "daily";
      if (view.kind === "ranked" || ROBOT) settingsLink.href = window.location.pathname;
    }
    const robotLine = $("poker-end-robot");
    robotLine.hidden = !(ROBOT && view.robot);
    if (ROBOT && view.robot) {
      const words = { mine: view.score, robot: view.robot.score, level: ROBOT_LEVELS[view.robot.level]() };
      robotLine.textContent =
        view.score > view.robot.score
          ? interpolate(gettext("You beat the robot (%(level)s): %(mine)s to %(robot)s."), words)
          : view.score < view.robot.score
            ? interpolate(gettext("The robot (%(level)s) won: %(robot)s to %(mine)s."), words)
            : interpolate(gettext("A draw with the robot (%(level)s): %(mine)s to %(robot)s."), words);
    }
    // A game the server led can be reviewed with the coach (a shareable page).
    const reviewable = this.driver instanceof ServerDriver && Boolean(view.id);
    $("poker-review-box").hidden = !reviewable;
    if (reviewable) $("poker-review-link").href = root.dataset.reviewUrl.replace("GAME", view.id);
    const dialog = $("poker-end-dialog");
    openDialog(dialog);
    $("poker-again").focus();
  }
}

if (root) new PokerPlay();
