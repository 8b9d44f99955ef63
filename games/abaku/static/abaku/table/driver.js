// @ts-check
// The room socket driver: sends the player's moves, asks for the server's tick when
// a robot or the clock is due, and takes the views and events the server sends
// into the shared state (`table`, held by table.js).
import { TickRequester, whenRoomReady } from "../../js/kit/socket.js";
import { oneAtATime } from "../../js/rooms/sender.js";
import { game, root } from "./page.js";
import { LOGGED } from "./words.js";

// One message at a time (rooms/sender.js); a refusal shows its message under the board.
export function sender(table) {
  return oneAtATime({
    socket: () => table.socket,
    version: () => table.version,
    busy: (busy) => {
      table.busy = busy;
      if (busy) table.parts.error.textContent = "";
      root.dataset.busy = String(busy);
    },
    refused: (error) => {
      table.parts.error.textContent = error.message || error.code;
    },
  });
}

// Robots act and clocks run out on the server's tick: ask for it when it is due.
export function tickRequester(table) {
  return new TickRequester(
    (message) => table.socket.send(message),
    () => {
      const { view } = table;
      const g = game(table);
      if (!view || view.phase !== "playing" || !g || g.finished) return null;
      if (view.seats[g.turn].robot) return (view.settings.robot_delay_ms || 0) + 60;
      if (g.deadline) return Math.max(0, g.deadline * 1000 - Date.now()) + 200;
      return null;
    },
    400,
  );
}

/**
 * Takes a view the server sent for step `seq` (null: none given) and draws it. A view
 * of a step already shown, the same again or an older one arriving late (the table's
 * own sync after the page's first snapshot, a resync), changes nothing: no redraw
 * under the player's keys, the stones laid and the stone picked stay.
 * @returns {boolean} whether the view was taken
 */
export function takeView(table, next, seq = null) {
  const text = JSON.stringify(next);
  if (table.view && typeof seq === "number" && typeof table.seq === "number") {
    if (seq < table.seq || (seq === table.seq && text === table.viewText)) return false;
  }
  if (typeof seq === "number") table.seq = seq;
  table.viewText = text;
  const boardBefore = table.view && table.view.game ? JSON.stringify(table.view.game.board.stones) : null;
  table.view = next;
  const { view } = table;
  if (view.game && view.game.history) {
    table.log = view.game.history.filter((entry) => LOGGED.has(entry.type));
    delete view.game.history;
  }
  const boardAfter = view.game ? JSON.stringify(view.game.board.stones) : null;
  if (boardBefore !== boardAfter) table.pending = [];
  table.render();
  if (table.pending.length) table.requestPreview();
  return true;
}

// The step the table shows (a snapshot's seq, or the step of the last private view,
// which every step sends each player): a test waits for it instead of sleeping.
function shows(seq) {
  if (typeof seq === "number" && root) root.dataset.seq = String(Math.max(seq, Number(root.dataset.seq || 0)));
}

/** Follows the room's socket once it is open: snapshots, public events, private views. */
export function connect(table) {
  whenRoomReady().then((roomSocket) => {
    table.socket = roomSocket;
    const socket = roomSocket;
    socket.addEventListener("sync", (event) => {
      const { view: snapshot, seq } = /** @type {CustomEvent} */ (event).detail;
      if (snapshot && snapshot.phase) takeView(table, snapshot, seq);
      else table.render();
      shows(seq);
    });
    socket.addEventListener("event", (event) => {
      let finished = false;
      let publicView = null;
      for (const change of /** @type {CustomEvent} */ (event).detail.events) {
        if (LOGGED.has(change.type)) table.log = table.log.concat([change]);
        if (change.type === "view") publicView = change.view;
        if (change.type === "finished") finished = true;
      }
      const { view } = table;
      // Seated players get their own view privately; spectators follow the public one.
      if (publicView && (!view || view.you === null || view.you === undefined)) {
        takeView(table, publicView, /** @type {CustomEvent} */ (event).detail.seq);
      } else if (finished && view && view.phase === "playing" && !(view.game && view.game.finished)) {
        view.phase = "ended";
        table.render();
      } else table.renderLog();
    });
    socket.addEventListener("private", (event) => {
      const { events, seq } = /** @type {CustomEvent} */ (event).detail;
      for (const change of events) if (change.type === "view") takeView(table, change.view, seq);
      shows(seq);
    });
    // The room's socket may have taken its first snapshot while this module was
    // still loading: ask for a fresh one, or the table stays empty until the next step.
    if (socket.seq !== null) socket.sync().catch(() => {});
  });
}
