// @ts-check
// One message at a time from a table game's page to its room socket (every
// turn-table game's page). A step's view may reach the page before the answer to the
// message that made it: a move pressed on that newer view meanwhile is the player's
// next move and is sent once the answer is in; a second press with no newer view
// drawn since (a double click) is not sent again. A refusal drops the waiting move:
// it was chosen on a view the refusal may have changed.

/**
 * @param {{
 *   socket: () => { send: (message: object) => Promise<unknown> },
 *   version: () => number,
 *   busy: (busy: boolean) => void,
 *   refused: (error: any) => void,
 * }} hooks the socket, the drawing's number (it rises with every render), and
 *   what the page shows while a message is out and when it is refused
 * @returns {(message: object, from?: number) => Promise<boolean>} send a message
 *   pressed on drawing `from` (default: the current one); true once answered
 */
export function oneAtATime(hooks) {
  let busy = false;
  let sentFrom = -1; // the drawing the unanswered message was sent from
  /** @type {object | null} */
  let queued = null;

  async function send(message, from = hooks.version()) {
    if (busy) {
      if (from > sentFrom) queued = message;
      return false;
    }
    busy = true;
    sentFrom = hooks.version();
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
