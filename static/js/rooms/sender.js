// @ts-check
// One message at a time from a table game's page to its room socket (every
// turn-table game's page). A step's view may reach the page before the answer to the
// message that made it: a move pressed on that newer view meanwhile is the player's
// next move and is sent once the answer is in; a second press with no newer view
// drawn since (a double click) is not sent again. A refusal drops the waiting move:
// it was chosen on a view the refusal may have changed.
// A press may also be a function that makes its message when its turn comes (from
// the page's state then, which it may change first), or null to send nothing: a
// press made while a message is out is then judged on the view its answer leaves.

/**
 * @param {{
 *   socket: () => { send: (message: object) => Promise<unknown> },
 *   version: () => number,
 *   busy: (busy: boolean) => void,
 *   refused: (error: any) => void,
 * }} hooks the socket, the drawing's number (it rises with every render), and
 *   what the page shows while a message is out and when it is refused
 * @returns {(message: object | (() => object | null), from?: number) => Promise<boolean>}
 *   send a message (or the one a function makes when its turn comes) pressed on
 *   drawing `from` (default: the current one); true once answered
 */
export function oneAtATime(hooks) {
  let busy = false;
  let sentFrom = -1; // the drawing the unanswered message was sent from
  /** @type {object | (() => object | null) | null} */
  let queued = null;

  /** @param {object | (() => object | null)} press @param {number} [from] */
  async function send(press, from = hooks.version()) {
    if (busy) {
      if (from > sentFrom) queued = press;
      return false;
    }
    const version = hooks.version();
    const message = typeof press === "function" ? press() : press;
    if (!message) return false;
    busy = true;
    sentFrom = version;
    hooks.busy(true);
    let done = false;
    try {
      await hooks.socket().send(message);
      done = true;
    } catch (error) {
      hooks.refused(error);
      queued = null;
    } finally {
      busy = false;
      hooks.busy(false);
    }
    if (queued) {
      const next = queued;
      queued = null;
      send(next);
    }
    return done;
  }
  return send;
}
