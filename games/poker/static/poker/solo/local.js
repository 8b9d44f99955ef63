// @ts-check
// The offline fallback: the browser leads with the JS twin of the engine and
// says plainly that the game is not recorded.

import { gettext } from "../../js/kit/i18n.js";
import { RULE_MESSAGES, nowSeconds, randomSeed } from "../common.js";
import { PyRandom, buildDeck, seededDeck, shuffle } from "../deck.js";
import { IllegalMove, PokerGame } from "../game.js";
import { Refusal } from "./server.js";

/** Why a game played in the browser was not recorded, by the driver's reason. */
export const NOT_RECORDED = {
  storage_off: () => gettext("Saving is off in this browser, so this game was not recorded."),
  no_profile: () => gettext("You have no nickname yet, so this game was not recorded."),
  offline: () =>
    gettext(
      "The server could not be reached, so this game was played in your browser and was not recorded.",
    ),
};

/** The browser leads with the JS engine; nothing leaves the page. */
export class LocalDriver {
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
