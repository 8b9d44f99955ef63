// RoomSocket's protocol logic with a fake WebSocket and fake timers.
// Run: node --test tests/rooms/  (tests/rooms/test_rooms_socket_js.py runs it under pytest)
import assert from "node:assert/strict";
import { test } from "node:test";

import { RoomSocket } from "../../static/js/kit/socket.js";

class FakeWebSocket {
  static all = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeWebSocket.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  deliver(message) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  close(code = 1000) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

function fakeTimers() {
  const pending = [];
  return {
    pending,
    setTimeout(fn, ms) {
      pending.push({ fn, ms });
      return pending.length;
    },
    clearTimeout(handle) {
      if (pending[handle - 1]) pending[handle - 1].fn = null;
    },
    setInterval() {
      return 0;
    },
    clearInterval() {},
  };
}

function connected() {
  FakeWebSocket.all = [];
  const timers = fakeTimers();
  const socket = new RoomSocket("ABC234", { url: "ws://x/ws/rooms/ABC234/", WebSocketClass: FakeWebSocket, timers });
  const seen = { events: [], syncs: [], gaps: [], privates: [] };
  socket.addEventListener("event", (e) => seen.events.push(e.detail.seq));
  socket.addEventListener("sync", (e) => seen.syncs.push(e.detail.seq));
  socket.addEventListener("gap", (e) => seen.gaps.push(e.detail));
  socket.addEventListener("private", (e) => seen.privates.push(e.detail));
  socket.connect();
  const ws = FakeWebSocket.all[0];
  ws.open();
  ws.deliver({ type: "sync", seq: 5, room: {}, you: {}, view: {} });
  return { socket, ws, seen, timers };
}

test("events in order are applied, duplicates and old ones ignored", () => {
  const { ws, seen } = connected();
  ws.deliver({ type: "event", seq: 6, events: [] });
  ws.deliver({ type: "event", seq: 6, events: [] });
  ws.deliver({ type: "event", seq: 4, events: [] });
  ws.deliver({ type: "event", seq: 7, events: [] });
  assert.deepEqual(seen.events, [6, 7]);
});

test("a gap in seq asks for a sync and applies only what the snapshot lacks", () => {
  const { ws, seen, socket } = connected();
  ws.deliver({ type: "event", seq: 8, events: [] });
  assert.deepEqual(seen.gaps, [{ expected: 6, got: 8 }]);
  const request = ws.sent.at(-1);
  assert.equal(request.type, "sync");
  ws.deliver({ type: "event", seq: 9, events: [] }); // arrives while syncing: buffered
  assert.deepEqual(seen.events, []);
  ws.deliver({ type: "sync", id: request.id, seq: 8, room: {}, you: {}, view: {} });
  assert.deepEqual(seen.syncs, [5, 8]);
  assert.deepEqual(seen.events, [9]);
  assert.equal(socket.seq, 9);
});

test("send resolves with the ack and rejects with the error code", async () => {
  const { ws, socket } = connected();
  const accepted = socket.send({ type: "add", n: 1 });
  const refused = socket.send({ type: "add", n: 99 });
  const [first, second] = ws.sent.slice(-2);
  assert.notEqual(first.id, second.id);
  ws.deliver({ type: "ack", id: first.id, seq: 6 });
  ws.deliver({ type: "error", id: second.id, code: "bad_number", message: "no" });
  assert.equal((await accepted).seq, 6);
  await assert.rejects(refused, (error) => error.code === "bad_number");
});

test("after a reconnect unanswered messages are resent with the same id", () => {
  const { ws, socket, timers } = connected();
  socket.send({ type: "add", n: 2 }).catch(() => {});
  const original = ws.sent.at(-1);
  ws.close(1006);
  const retry = timers.pending.findLast((t) => t.fn);
  assert.ok(retry.ms > 0 && retry.ms <= 500);
  retry.fn();
  const again = FakeWebSocket.all[1];
  again.open();
  again.deliver({ type: "sync", seq: 5, room: {}, you: {}, view: {} });
  assert.deepEqual(again.sent.at(-1), original);
});

test("backoff grows after repeated failures and stops on a refusal", () => {
  const { ws, timers, socket } = connected();
  ws.close(1006);
  const delays = [];
  for (let attempt = 0; attempt < 6; attempt += 1) {
    const retry = timers.pending.findLast((t) => t.fn);
    delays.push(retry.ms);
    retry.fn = null;
    socket.open();
    FakeWebSocket.all.at(-1).close(1006);
  }
  assert.ok(delays.at(-1) > delays[0] * 4);
  assert.ok(delays.every((ms) => ms <= 15000));
  const before = FakeWebSocket.all.length;
  socket.open();
  FakeWebSocket.all.at(-1).close(4403);
  assert.equal(timers.pending.filter((t) => t.fn).length, 0);
  assert.equal(FakeWebSocket.all.length, before + 1);
});

test("private events already in the snapshot are not delivered twice", () => {
  const { ws, seen } = connected();
  ws.deliver({ type: "private", seq: 5, events: [{ type: "secret" }] });
  ws.deliver({ type: "private", seq: 6, events: [{ type: "secret" }] });
  ws.deliver({ type: "private", seq: null, events: [{ type: "placed" }] });
  assert.deepEqual(
    seen.privates.map((p) => p.seq),
    [6, null],
  );
});

test("a message refused as rate-limited is sent again later with the same id", async () => {
  const { socket, ws, timers } = connected();
  const answer = socket.send({ type: "move" });
  const first = ws.sent.at(-1);
  ws.deliver({ type: "error", id: first.id, code: "rate_limited", message: "Slow down." });
  const retry = timers.pending.at(-1);
  assert.equal(retry.ms, 500);
  const before = ws.sent.length;
  retry.fn();
  assert.equal(ws.sent.length, before + 1);
  assert.deepEqual(ws.sent.at(-1), first);
  ws.deliver({ type: "ack", id: first.id, seq: 6 });
  assert.equal((await answer).seq, 6);
});
