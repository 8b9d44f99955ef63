// @ts-check
// RoomSocket: the browser side of the room protocol (docs/protocol.md), shared by every game.
//
//   const socket = new RoomSocket("K7QX2M");
//   socket.addEventListener("sync", (e) => render(e.detail));      // full snapshot of your view
//   socket.addEventListener("event", (e) => apply(e.detail));      // {seq, events} in seq order
//   socket.addEventListener("private", (e) => applyMine(e.detail));
//   socket.connect();
//   await socket.send({ type: "add", n: 3 });   // resolves with the ack, rejects with {code, message}
//
// It numbers messages and keeps each one until it is answered, resending it with
// the same id (the server applies an id once) after a reconnect and, with backoff,
// when the server answers a retryable error (`unavailable`, or any error with
// `retry: true`: PostgreSQL or Redis away for a moment, nothing happened). Other
// errors reject the send. A close with 1009 (the frame was larger than the server
// takes) rejects the largest message sent on that socket with `too_large` instead
// of resending it forever, then reconnects. It checks every event's seq and asks
// for a sync when one is missing, and reconnects with exponential backoff after a
// tab sleep, a reload of the server or a network switch.

import { gettext } from "./i18n.js";

/** @typedef {import("./protocol.js").Frame} Frame */
/** @typedef {import("./protocol.js").SyncFrame} SyncFrame */
/** @typedef {import("./protocol.js").EventFrame} EventFrame */
/** @typedef {import("./protocol.js").PrivateFrame} PrivateFrame */
/** @typedef {import("./protocol.js").ErrorFrame} ErrorFrame */
/**
 * @typedef {object} RoomSocketOptions
 * @property {string} [url]
 * @property {typeof WebSocket} [WebSocketClass]
 * @property {any} [timers]
 * @property {() => number} [now]
 */

const TERMINAL_CLOSE_CODES = new Set([4403, 4410, 4429]);
const CLOSE_MESSAGE_TOO_BIG = 1009;
// A ping every 4 s; a socket that has heard nothing (not even a pong) for 8 s
// after a ping is taken as gone: a phone whose network went away says so within
// about 12 s (browsers may not notice a dead TCP connection for minutes). Counted
// from the ping, so a background tab whose timers the browser slows down is not
// dropped for the silence between its pings.
export const HEARTBEAT_MS = 4000;
export const SILENCE_LIMIT_MS = 8000;
const ANSWER_TIMEOUT_MS = 30000; // per transmission, while connected
const RATE_LIMIT_RETRY_MS = 500;
const MAX_BACKOFF_MS = 15000;
// Resending after a retryable error: about 0.5 s, 1 s, 2 s, 4 s, then every 8 s
// (each +-25 % at random, so a room's players do not all come back at once);
// after RETRY_FOR_MS of retryable answers the send is rejected with the last one.
export const RESEND_BASE_MS = 500;
export const RESEND_MAX_MS = 8000;
export const RETRY_FOR_MS = 120000;

export class RoomError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

function randomPrefix() {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function roomSocketUrl(code, location = window.location) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/rooms/${encodeURIComponent(code)}/`;
}

export class RoomSocket extends EventTarget {
  /**
   * @param {string} code
   * @param {RoomSocketOptions} [options]
   */
  constructor(code, { url, WebSocketClass, timers, now } = {}) {
    super();
    this.code = code;
    this.url = url || roomSocketUrl(code);
    this.WebSocketClass = WebSocketClass || globalThis.WebSocket;
    this.timers = timers || globalThis;
    this.now = now || (() => Date.now());
    this.seq = null; // last public seq applied; null until the first sync
    this.snapshotSeq = null; // seq of the last snapshot (private events up to it are in it)
    this.syncing = false;
    this.buffered = [];
    this.pending = new Map(); // id -> {message, text, resolve, reject, timer, retryTimer, ...}
    this.prefix = randomPrefix();
    this.counter = 0;
    this.attempt = 0;
    this.stopped = false;
    this.ws = null;
    this.unansweredSince = null; // when the oldest ping (or connect) still without an answer went
  }

  connect() {
    this.stopped = false;
    this.open();
    return this;
  }

  close() {
    this.stopped = true;
    this.clearTimers();
    if (this.ws) this.ws.close(1000);
  }

  get connected() {
    return this.ws !== null && this.ws.readyState === 1;
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  open() {
    this.clearTimers();
    const ws = new this.WebSocketClass(this.url);
    this.ws = ws;
    this.emit("status", { state: this.attempt ? "reconnecting" : "connecting" });
    // The heartbeat runs from here: a connection that does not open within the
    // silence limit is given up and tried again too.
    this.unansweredSince = Date.now();
    this.heartbeat = this.timers.setInterval(() => this.beat(), HEARTBEAT_MS);
    ws.onopen = () => {
      this.unansweredSince = null;
    };
    ws.onmessage = (message) => {
      this.unansweredSince = null;
      /** @type {Frame} */
      let data;
      try {
        data = JSON.parse(message.data);
      } catch (e) {
        return;
      }
      this.receive(data);
    };
    ws.onclose = (event) => {
      if (ws !== this.ws) return;
      this.clearTimers();
      this.ws = null;
      // What was sent on this socket and not answered waits for the next one.
      for (const entry of this.pending.values()) this.clearEntryTimers(entry);
      if (event.code === CLOSE_MESSAGE_TOO_BIG) this.refuseTooLarge(ws);
      if (this.stopped) return;
      if (TERMINAL_CLOSE_CODES.has(event.code)) {
        this.stopped = true;
        this.failPending("closed", "");
        this.emit("closed", { code: event.code });
        return;
      }
      this.scheduleReconnect();
    };
  }

  scheduleReconnect() {
    const base = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt);
    const delay = base / 2 + Math.random() * (base / 2);
    this.attempt += 1;
    this.emit("status", { state: "offline", retryInMs: delay });
    this.reconnectTimer = this.timers.setTimeout(() => this.open(), delay);
  }

  // Reconnect now (e.g. the browser says the network is back) instead of waiting.
  reconnectNow() {
    if (this.stopped || this.connected) return;
    this.clearTimers();
    this.open();
  }

  clearTimers() {
    if (this.heartbeat) this.timers.clearInterval(this.heartbeat);
    if (this.reconnectTimer) this.timers.clearTimeout(this.reconnectTimer);
    this.heartbeat = null;
    this.reconnectTimer = null;
  }

  beat() {
    const now = Date.now();
    const waited = this.unansweredSince === null ? 0 : now - this.unansweredSince;
    if (waited >= SILENCE_LIMIT_MS && this.ws) {
      this.dropSilent();
      return;
    }
    if (this.unansweredSince === null && this.connected) this.unansweredSince = now;
    this.raw({ type: "ping" });
  }

  // No pong in time (network gone, a network switch): say so now and reconnect.
  // Its close may take minutes on a dead network, so the socket is let go at once.
  dropSilent() {
    const ws = this.ws;
    this.clearTimers();
    this.ws = null;
    ws.onopen = ws.onmessage = ws.onclose = null;
    try {
      ws.close(4000);
    } catch (e) {
      // already closing
    }
    for (const entry of this.pending.values()) this.clearEntryTimers(entry);
    if (!this.stopped) this.scheduleReconnect();
  }

  raw(message) {
    if (this.connected) this.ws.send(JSON.stringify(message));
  }

  // Send a kept message on the current socket (if any) and wait for its answer.
  transmit(entry) {
    this.clearEntryTimers(entry);
    if (!this.connected) return; // sent again after the next snapshot
    entry.sentOn = this.ws;
    this.ws.send(entry.text);
    entry.timer = this.timers.setTimeout(() => {
      if (this.pending.get(entry.message.id) !== entry) return;
      this.pending.delete(entry.message.id);
      this.clearEntryTimers(entry);
      entry.reject(new RoomError("timeout", ""));
    }, ANSWER_TIMEOUT_MS);
  }

  clearEntryTimers(entry) {
    if (entry.timer) this.timers.clearTimeout(entry.timer);
    if (entry.retryTimer) this.timers.clearTimeout(entry.retryTimer);
    entry.timer = null;
    entry.retryTimer = null;
  }

  // The server answered "not now, nothing happened": send the same message again later.
  retryLater(entry, data) {
    const now = this.now();
    if (entry.retryingSince === null) entry.retryingSince = now;
    if (now - entry.retryingSince >= RETRY_FOR_MS) {
      this.settle(entry.message.id, new RoomError(data.code, data.message));
      this.emit("error", data);
      return;
    }
    const base = Math.min(RESEND_MAX_MS, RESEND_BASE_MS * 2 ** entry.retries);
    const delay = base * (0.75 + Math.random() * 0.5);
    entry.retries += 1;
    this.clearEntryTimers(entry);
    entry.retryTimer = this.timers.setTimeout(() => {
      entry.retryTimer = null;
      if (this.pending.get(entry.message.id) === entry) this.transmit(entry);
    }, delay);
    this.emit("retrying", { id: entry.message.id, code: data.code, retryInMs: delay });
  }

  // The server closed the socket because a frame was too large: the largest
  // unanswered message sent on it was that frame; it is refused, not resent.
  refuseTooLarge(ws) {
    let largest = null;
    for (const entry of this.pending.values()) {
      if (entry.sentOn === ws && (largest === null || entry.text.length > largest.text.length)) {
        largest = entry;
      }
    }
    if (largest === null) return;
    const error = {
      type: "error",
      id: largest.message.id,
      code: "too_large",
      message: gettext("This message is too long."),
    };
    this.settle(error.id, new RoomError(error.code, error.message));
    this.emit("error", error);
  }

  nextId() {
    this.counter += 1;
    return `${this.prefix}-${this.counter}`;
  }

  // Send an intent; resolves with the ack (or sync), rejects with RoomError.
  send(message) {
    const id = message.id || this.nextId();
    const full = { ...message, id };
    return new Promise((resolve, reject) => {
      const entry = {
        message: full,
        text: JSON.stringify(full),
        resolve,
        reject,
        timer: null,
        retryTimer: null,
        sentOn: null,
        retries: 0,
        retryingSince: null,
      };
      this.pending.set(id, entry);
      this.transmit(entry);
    });
  }

  sync() {
    this.syncing = true;
    return this.send({ type: "sync" });
  }

  failPending(code, text) {
    for (const [id, entry] of this.pending) {
      this.clearEntryTimers(entry);
      entry.reject(new RoomError(code, text));
      this.pending.delete(id);
    }
  }

  settle(id, error, value) {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    this.clearEntryTimers(entry);
    if (error) entry.reject(error);
    else entry.resolve(value);
  }

  receive(data) {
    switch (data.type) {
      case "sync":
        this.applySnapshot(data);
        break;
      case "event":
        if (this.syncing || this.seq === null) this.buffered.push(data);
        else this.applyEvent(data);
        break;
      case "private":
        if (data.seq === null || this.snapshotSeq === null || data.seq > this.snapshotSeq) {
          this.emit("private", data);
        }
        break;
      case "ack":
        this.settle(data.id, null, data);
        break;
      case "error":
        if (data.code === "rate_limited" && this.pending.has(data.id)) {
          // The server asked us to slow down: send the same message (same id) again later.
          const entry = this.pending.get(data.id);
          this.clearEntryTimers(entry);
          entry.retryTimer = this.timers.setTimeout(() => {
            entry.retryTimer = null;
            if (this.pending.get(data.id) === entry) this.transmit(entry);
          }, RATE_LIMIT_RETRY_MS);
          break;
        }
        if ((data.retry === true || data.code === "unavailable") && this.pending.has(data.id)) {
          this.retryLater(this.pending.get(data.id), data);
          break;
        }
        if (data.id) this.settle(data.id, new RoomError(data.code, data.message));
        this.emit("error", data);
        break;
      case "kicked":
        this.stopped = true;
        this.emit("kicked", data);
        break;
      default:
        break;
    }
  }

  applySnapshot(data) {
    this.seq = data.seq;
    this.snapshotSeq = data.seq;
    this.syncing = false;
    this.attempt = 0;
    for (const [id, entry] of this.pending) {
      if (entry.message.type === "sync") this.settle(id, null, data);
    }
    this.emit("status", { state: "online" });
    this.emit("sync", data);
    // A fresh connection: resend what was never answered, with the same ids.
    if (!data.id) {
      for (const entry of this.pending.values()) {
        if (entry.message.type !== "sync") this.transmit(entry);
      }
    }
    const later = this.buffered.filter((event) => event.seq > this.seq);
    this.buffered = [];
    later.sort((a, b) => a.seq - b.seq);
    for (const event of later) this.applyEvent(event);
  }

  applyEvent(data) {
    if (this.syncing) {
      this.buffered.push(data);
      return;
    }
    if (data.seq <= this.seq) return; // already known (duplicate or covered by a snapshot)
    if (data.seq !== this.seq + 1) {
      this.emit("gap", { expected: this.seq + 1, got: data.seq });
      this.buffered.push(data);
      this.sync().catch(() => {});
      return;
    }
    this.seq = data.seq;
    this.emit("event", data);
  }
}

// Game pages: wait for the room page's socket instead of opening a second one.
/**
 * @param {(Element & {roomSocket?: RoomSocket}) | null} [element]
 * @returns {Promise<RoomSocket>}
 */
export function whenRoomReady(element = document.querySelector("[data-room-live]")) {
  if (!element) return Promise.reject(new Error("no room on this page"));
  if (element.roomSocket) return Promise.resolve(element.roomSocket);
  return new Promise((resolve) => {
    element.addEventListener("room:ready", () => resolve(element.roomSocket), { once: true });
  });
}

/**
 * Asks the server to run a step that is due ("tick": a robot's move, a turn
 * clock) when its moment comes. `waitFor()` gives the milliseconds to wait, or
 * null when nothing is due. A tick that found nothing due yet (no `seq`) is
 * retried after `retryMs`, a failed one after a second; one request at a time.
 * `send(message)` sends on the page's RoomSocket (which may connect later).
 */
export class TickRequester {
  constructor(send, waitFor, retryMs) {
    this.sendMessage = send;
    this.waitFor = waitFor;
    this.retryMs = retryMs;
    this.timer = null;
  }

  schedule() {
    if (this.timer) return;
    const wait = this.waitFor();
    if (wait === null) return;
    this.timer = setTimeout(() => this.send(), wait);
  }

  async send() {
    this.timer = null;
    try {
      const answer = await this.sendMessage({ type: "tick" });
      if (answer.seq === null || answer.seq === undefined) this.later(this.retryMs);
    } catch (error) {
      this.later(1000);
    }
  }

  later(ms) {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.schedule();
    }, ms);
  }
}
