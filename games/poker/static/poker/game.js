// One player's game: the JavaScript twin of games/poker/rules/state.py.
//
// Used when the browser leads the game itself (offline, or saving switched
// off). It mirrors the Python state machine action for action, including the
// snapshot format (`toDict` writes the same snake_case keys as `to_dict`), so
// the shared vectors in tests/vectors/poker.json replay identical games in both.
// Time is never read from a clock: every action takes `now` in seconds.

import { JOKER } from "./deck.js";
import { CELLS, DEFAULT_TABLE, MAX_VALUE, MIN_VALUE, getTable, scoreBoard } from "./scoring.js";

export const EASY = "easy";
export const HARD = "hard";
export const MODES = Object.freeze([EASY, HARD]);
export const MIN_SECONDS = 3;
export const MAX_SECONDS = 300;
export const STATE_VERSION = 1;

export const ERROR_CODES = Object.freeze({
  game_over: "the game has ended",
  no_card: "there is no card in hand (wait for the next draw)",
  joker_in_hand: "the card in hand is a joker: use it with a value, or keep it",
  not_joker: "the card in hand is a number, not a joker",
  no_kept_joker: "there is no kept joker to place",
  bad_cell: "the cell must be an int 0..24",
  cell_taken: "the cell is already filled",
  bad_value: "a joker's value must be an int 1..13",
  bad_card: "this card does not exist in the table's deck",
  sequence_closed: "no more cards can be dealt",
  own_deck: "this game deals from its own deck",
  unknown_action: "unknown action type",
});

/** An action the rules do not allow; `code` is stable, `message` is for humans. */
export class IllegalMove extends Error {
  constructor(code, message) {
    super(`${code}: ${message || ERROR_CODES[code]}`);
    this.name = "IllegalMove";
    this.code = code;
    this.detail = message || ERROR_CODES[code];
  }
}

const isInt = (x) => Number.isInteger(x);

function checkNow(now) {
  if (typeof now !== "number" || !Number.isFinite(now)) {
    throw new TypeError(`now must be a number of seconds, got ${JSON.stringify(now)}`);
  }
  return now;
}

const FIELDS = [
  "table",
  "mode",
  "seconds_per_card",
  "cells",
  "joker_cells",
  "sequence",
  "dealt_at",
  "handled",
  "handled_at",
  "kept_jokers",
  "forfeited",
  "deck",
  "closed",
  "started_at",
  "finished_at",
];

export class PokerGame {
  constructor() {
    this.table = DEFAULT_TABLE;
    this.mode = EASY;
    this.seconds_per_card = null;
    this.cells = Array(CELLS).fill(null);
    this.joker_cells = [];
    this.sequence = [];
    this.dealt_at = [];
    this.handled = 0;
    this.handled_at = null;
    this.kept_jokers = 0;
    this.forfeited = 0;
    this.deck = null;
    this.closed = false;
    this.started_at = null;
    this.finished_at = null;
  }

  // --- construction and storage ---------------------------------------------

  /**
   * Start a game; with `deck` it deals itself, its first card at `now`.
   * @param {{ table?: string, mode?: string, secondsPerCard?: number | null, deck?: number[] | null, now?: number }} [options]
   * @returns {PokerGame}
   */
  static create({ table = DEFAULT_TABLE, mode = EASY, secondsPerCard = null, deck = null, now } = {}) {
    getTable(table);
    if (!MODES.includes(mode)) throw new RangeError(`mode must be one of ${MODES}`);
    if (mode === HARD) {
      if (!isInt(secondsPerCard) || secondsPerCard < MIN_SECONDS || secondsPerCard > MAX_SECONDS) {
        throw new RangeError(`hard mode needs seconds per card ${MIN_SECONDS}..${MAX_SECONDS}`);
      }
    } else if (secondsPerCard !== null && secondsPerCard !== undefined) {
      throw new RangeError("seconds per card is only for hard mode");
    }
    const game = new PokerGame();
    game.table = table;
    game.mode = mode;
    game.seconds_per_card = mode === HARD ? secondsPerCard : null;
    if (deck !== null && deck !== undefined) {
      const cards = [...deck];
      for (const card of cards) {
        if (!game.isCard(card)) throw new RangeError(`card ${card} is not in the ${table} deck`);
      }
      game.deck = cards;
      game.refill(checkNow(now));
    }
    return game;
  }

  /** A JSON-serialisable snapshot in the same format as the Python `to_dict`. */
  toDict() {
    const data = { version: STATE_VERSION };
    for (const key of FIELDS) {
      const value = this[key];
      data[key] = Array.isArray(value) ? [...value] : value;
    }
    return data;
  }

  static fromDict(data) {
    if (!data || data.version !== STATE_VERSION) {
      throw new RangeError(`unsupported poker state version ${data && data.version}`);
    }
    const game = new PokerGame();
    for (const key of FIELDS) {
      const value = data[key];
      game[key] = Array.isArray(value) ? [...value] : value;
    }
    return game;
  }

  // --- what the player sees --------------------------------------------------

  get hand() {
    return this.handled < this.sequence.length ? this.sequence[this.handled] : null;
  }

  get placed() {
    return this.cells.filter((value) => value !== null).length;
  }

  get freeCells() {
    return CELLS - this.placed - this.forfeited;
  }

  get jokersAtRisk() {
    return this.kept_jokers > 0 && this.freeCells <= this.kept_jokers;
  }

  get over() {
    return this.finished_at !== null;
  }

  get completed() {
    return this.placed === CELLS;
  }

  reachedAt() {
    if (this.hand === null) return null;
    const dealt = this.dealt_at[this.handled];
    return this.handled_at === null ? dealt : Math.max(dealt, this.handled_at);
  }

  deadline() {
    const reached = this.reachedAt();
    if (this.mode !== HARD || reached === null || this.seconds_per_card === null) return null;
    return reached + this.seconds_per_card;
  }

  score() {
    return scoreBoard(this.cells, this.table);
  }

  /** Everything but the undealt deck: the same shape as the Python player_view. */
  playerView() {
    const score = this.score();
    return {
      table: this.table,
      mode: this.mode,
      seconds_per_card: this.seconds_per_card,
      cells: [...this.cells],
      joker_cells: [...this.joker_cells],
      hand: this.hand,
      deadline: this.deadline(),
      kept_jokers: this.kept_jokers,
      jokers_at_risk: this.jokersAtRisk,
      forfeited: this.forfeited,
      free_cells: this.freeCells,
      dealt: this.sequence.length,
      over: this.over,
      completed: this.completed,
      score: score.total,
      lines: score.lines,
      started_at: this.started_at,
      finished_at: this.finished_at,
    };
  }

  // --- actions ---------------------------------------------------------------

  advance(now) {
    return this.transaction(now, () => [], true);
  }

  deal(card, now) {
    return this.transaction(
      now,
      () => {
        if (this.deck !== null) throw new IllegalMove("own_deck");
        if (this.closed) throw new IllegalMove("sequence_closed");
        if (!this.isCard(card)) throw new IllegalMove("bad_card");
        return this.append(card, now);
      },
      true,
    );
  }

  closeSequence(now) {
    return this.transaction(
      now,
      () => {
        if (this.deck !== null) throw new IllegalMove("own_deck");
        this.closed = true;
        return this.checkEnd(now);
      },
      true,
    );
  }

  place(cell, now) {
    return this.transaction(now, () => {
      const card = this.handOrRaise();
      if (card === JOKER) throw new IllegalMove("joker_in_hand");
      return this.put(cell, card, now, { joker: false, fromReserve: false });
    });
  }

  useJoker(cell, value, now) {
    return this.transaction(now, () => {
      this.jokerOrRaise();
      return this.put(cell, value, now, { joker: true, fromReserve: false });
    });
  }

  keepJoker(now) {
    return this.transaction(now, () => {
      this.jokerOrRaise();
      this.kept_jokers += 1;
      const at = this.handleCard(now);
      return [{ type: "kept_joker", index: this.handled - 1, at }, ...this.afterHandling(at)];
    });
  }

  placeKeptJoker(cell, value, now) {
    return this.transaction(now, () => {
      if (this.kept_jokers === 0) throw new IllegalMove("no_kept_joker");
      return this.put(cell, value, now, { joker: true, fromReserve: true });
    });
  }

  /** Dispatch a client message, as the Python `apply`. */
  apply(action, now) {
    const kind = action && action.type;
    if (kind === "place") return this.place(action.cell, now);
    if (kind === "use_joker") return this.useJoker(action.cell, action.value, now);
    if (kind === "keep_joker") return this.keepJoker(now);
    if (kind === "place_kept_joker") return this.placeKeptJoker(action.cell, action.value, now);
    throw new IllegalMove("unknown_action", `unknown action type ${JSON.stringify(kind)}`);
  }

  // --- internals -------------------------------------------------------------

  transaction(now, act, afterEnd = false) {
    const at = checkNow(now);
    const saved = this.toDict();
    try {
      const events = this.expire(at);
      if (this.over && !afterEnd) throw new IllegalMove("game_over");
      return [...events, ...act()];
    } catch (error) {
      if (error instanceof IllegalMove) Object.assign(this, PokerGame.fromDict(saved));
      throw error;
    }
  }

  isCard(card) {
    if (!isInt(card)) return false;
    if (card === JOKER) return getTable(this.table).deck.jokers > 0;
    return card >= MIN_VALUE && card <= MAX_VALUE;
  }

  handOrRaise() {
    const card = this.hand;
    if (card === null) throw new IllegalMove("no_card");
    return card;
  }

  jokerOrRaise() {
    if (this.handOrRaise() !== JOKER) throw new IllegalMove("not_joker");
  }

  put(cell, value, now, { joker, fromReserve }) {
    if (!isInt(cell) || cell < 0 || cell >= CELLS) throw new IllegalMove("bad_cell");
    if (!isInt(value) || value < MIN_VALUE || value > MAX_VALUE) {
      throw new IllegalMove("bad_value");
    }
    if (this.cells[cell] !== null) throw new IllegalMove("cell_taken");
    this.cells[cell] = value;
    if (joker) this.joker_cells = [...this.joker_cells, cell].sort((a, b) => a - b);
    const event = { type: "placed", cell, value, joker };
    if (fromReserve) {
      this.kept_jokers -= 1;
      Object.assign(event, { kept: true, at: now });
      return [event, ...this.checkEnd(now)];
    }
    const at = this.handleCard(now);
    Object.assign(event, { kept: false, at });
    return [event, ...this.afterHandling(at)];
  }

  handleCard(now) {
    const reached = this.reachedAt();
    const at = reached === null ? now : Math.max(now, reached);
    this.handled += 1;
    this.handled_at = at;
    return at;
  }

  afterHandling(at) {
    /** @type {any[]} */
    const events = this.checkEnd(at);
    if (!this.over) events.push(...this.refill(at));
    return events;
  }

  append(card, at) {
    this.sequence.push(card);
    this.dealt_at.push(at);
    if (this.started_at === null) this.started_at = at;
    if (this.over) return [];
    return [{ type: "dealt", index: this.sequence.length - 1, card, at }];
  }

  refill(at) {
    if (this.deck === null || this.hand !== null) return [];
    if (this.deck.length === 0) {
      this.closed = true;
      return this.checkEnd(at);
    }
    const events = this.append(this.deck.shift(), at);
    if (this.deck.length === 0) this.closed = true;
    return events;
  }

  expire(now) {
    const events = [];
    while (!this.over) {
      const deadline = this.deadline();
      if (deadline === null || now <= deadline) break;
      const card = this.hand;
      const index = this.handled;
      this.handled += 1;
      this.handled_at = deadline;
      if (card === JOKER) {
        events.push({ type: "joker_expired", index, at: deadline });
      } else {
        this.forfeited += 1;
        events.push({ type: "forfeited", index, card, at: deadline });
      }
      events.push(...this.afterHandling(deadline));
    }
    return events;
  }

  checkEnd(at) {
    if (this.over) return [];
    const boardFull = this.placed + this.forfeited >= CELLS;
    const ranOut = this.closed && this.hand === null && this.kept_jokers === 0;
    if (!(boardFull || ranOut)) return [];
    this.finished_at = at;
    return [{ type: "game_over", completed: this.completed, score: this.score().total, at }];
  }
}
