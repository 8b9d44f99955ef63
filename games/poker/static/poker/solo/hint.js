// @ts-check
// The coach's hint for the card in hand (easy games only; the server refuses
// it elsewhere). The coach lives on the server, also for a browser-led game.

import { csrfToken, root } from "./page.js";
import { ServerDriver } from "./server.js";

/** The hint payload for ``view``: the server game's own hint (counted on the
 * game), or the board hint for a game the browser leads. Throws a Refusal. */
export function requestHint(view, driver) {
  const server = new ServerDriver(root.dataset.api, csrfToken());
  if (driver instanceof ServerDriver) {
    return server.request(`${root.dataset.api}${driver.id}/hint/`, {});
  }
  const game = driver.game;
  return server.request(root.dataset.boardHint, {
    context: "easy",
    table: view.table,
    cells: view.cells,
    card: view.hand,
    seen: game.sequence.slice(0, game.handled),
    kept: view.kept_jokers,
  });
}
