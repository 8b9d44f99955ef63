// @ts-check
// The game in words: a line of the log for each public event of the engine, and a
// line for each turn of the after-game review. `name(seat)` says who sat there.
import { gettext, interpolate as t, ngettext } from "../../js/kit/i18n.js";

// The engine's events the log shows.
export const LOGGED = new Set(["placed", "exchanged", "skipped", "forfeited", "game_over"]);

export function describe(entry, name) {
  const who = name(entry.player);
  switch (entry.type) {
    case "placed":
      return t(ngettext("%(player)s: %(examples)s — %(score)s point.", "%(player)s: %(examples)s — %(score)s points.", entry.score), {
        player: who,
        examples: entry.examples.map((e) => t(gettext("%(text)s (%(points)s)"), e)).join(", "),
        score: entry.score,
      });
    case "exchanged":
      return t(ngettext("%(player)s exchanged %(count)s stone.", "%(player)s exchanged %(count)s stones.", entry.count), {
        player: who,
        count: entry.count,
      });
    case "skipped":
      return entry.reason === "timeout"
        ? t(gettext("%(player)s ran out of time."), { player: who })
        : t(gettext("%(player)s skipped the turn."), { player: who });
    case "forfeited":
      if (entry.reason === "left") return t(gettext("%(player)s left the game."), { player: who });
      return t(gettext("%(player)s gave up after three empty turns."), { player: who });
    case "game_over":
      if (!entry.winners.length) return gettext("The game is over.");
      return t(gettext("The game is over. Winner: %(winners)s."), { winners: entry.winners.map(name).join(", ") });
    default:
      return null;
  }
}

export function describeTurn(turn, name) {
  const who = name(turn.player);
  const played =
    turn.action === "place"
      ? t(ngettext("%(score)s point", "%(score)s points", turn.score), { score: turn.score })
      : turn.action === "exchange"
        ? gettext("exchanged")
        : gettext("empty turn");
  if (turn.best_score === null) return t(gettext("Turn %(number)s, %(player)s: %(played)s"), { number: turn.move_number, player: who, played });
  // A robot that leaves the top score on purpose: said as what it is, not as missed points.
  if (turn.on_purpose === "strong") {
    return t(gettext("Turn %(number)s, %(player)s: %(played)s; played for the position rather than the top score (%(best)s)"), { number: turn.move_number, player: who, played, best: turn.best_score });
  }
  if (turn.on_purpose) {
    return t(gettext("Turn %(number)s, %(player)s: %(played)s; at its level the robot leaves the top score (%(best)s) on purpose"), { number: turn.move_number, player: who, played, best: turn.best_score });
  }
  const best = turn.best
    ? t(ngettext("best move %(score)s point", "best move %(score)s points", turn.best_score), { score: turn.best_score })
    : gettext("no move was possible");
  return t(gettext("Turn %(number)s, %(player)s: %(played)s; %(best)s"), { number: turn.move_number, player: who, played, best });
}
