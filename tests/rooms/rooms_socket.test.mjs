// RoomSocket's protocol logic with a fake WebSocket and fake timers.
// Run: node --test tests/rooms/  (tests/rooms/test_rooms_socket_js.py runs it under pytest)
import assert from "node:assert/strict";
import { test } from "node:test";

import { RETRY_FOR_MS, RoomSocket } from "../../static/js/kit/socket.js";

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

// -- Keeping messages until they are answered (issue 22: retryable errors, 1009) --

function connectedAt(clock) {
  FakeWebSocket.all = [];
  const timers = fakeTimers();
  const socket = new RoomSocket("ABC234", {
    url: "ws://x/ws/rooms/ABC234/",
    WebSocketClass: FakeWebSocket,
    timers,
    now: () => clock.ms,
  });
  const seen = { errors: [], retrying: [] };
  socket.addEventListener("error", (e) => seen.errors.push(e.detail));
  socket.addEventListener("retrying", (e) => seen.retrying.push(e.detail));
  socket.connect();
  const ws = FakeWebSocket.all[0];
  ws.open();
  ws.deliver({ type: "sync", seq: 5, room: {}, you: {}, view: {} });
  return { socket, ws, seen, timers };
}

function liveTimers(timers) {
  return timers.pending.filter((t) => t.fn);
}

// Run a fake timer once, as a real one fires once.
function fire(timer) {
  const { fn } = timer;
  timer.fn = null;
  fn();
}

function unavailable(id, extra = {}) {
  return { type: "error", id, code: "unavailable", message: "Try again.", retry: true, ...extra };
}

test("a message answered 'unavailable' is resent with the same id and backoff until acked", async () => {
  const clock = { ms: 0 };
  const { socket, ws, seen, timers } = connectedAt(clock);
  const answer = socket.send({ type: "place", card: 7 });
  const original = ws.sent.at(-1);
  const delays = [];
  for (let attempt = 0; attempt < 7; attempt += 1) {
    ws.deliver(unavailable(original.id));
    const [retry] = liveTimers(timers).filter((t) => t.ms < 30000);
    assert.equal(liveTimers(timers).length, 1); // the resend only, no answer timeout meanwhile
    delays.push(retry.ms);
    clock.ms += retry.ms;
    const before = ws.sent.length;
    fire(retry);
    assert.equal(ws.sent.length, before + 1);
    assert.deepEqual(ws.sent.at(-1), original); // the same message, the same id
  }
  // about 0.5 s, 1 s, 2 s, 4 s, then capped at 8 s, each within +-25 %
  const nominal = [500, 1000, 2000, 4000, 8000, 8000, 8000];
  delays.forEach((ms, i) => assert.ok(ms >= nominal[i] * 0.75 && ms <= nominal[i] * 1.25, `${i}: ${ms}`));
  assert.equal(seen.errors.length, 0); // a retryable answer is not shown as an error
  assert.equal(seen.retrying.length, 7);
  ws.deliver({ type: "ack", id: original.id, seq: 6 });
  assert.equal((await answer).seq, 6);
  assert.equal(liveTimers(timers).length, 0);
});

test("any error marked retry: true is retried, not only 'unavailable'", async () => {
  const { socket, ws, timers, seen } = connectedAt({ ms: 0 });
  const answer = socket.send({ type: "place", card: 1 });
  const original = ws.sent.at(-1);
  ws.deliver({ type: "error", id: original.id, code: "busy", message: "", retry: true });
  fire(liveTimers(timers).at(-1));
  assert.deepEqual(ws.sent.at(-1), original);
  ws.deliver({ type: "ack", id: original.id, seq: 6 });
  assert.equal((await answer).seq, 6);
  assert.deepEqual(seen.errors, []);
});

test("a non-retryable error still rejects at once and reaches the page", async () => {
  const { socket, ws, seen, timers } = connectedAt({ ms: 0 });
  const answer = socket.send({ type: "place", card: 99 });
  const original = ws.sent.at(-1);
  const before = ws.sent.length;
  ws.deliver({ type: "error", id: original.id, code: "not_your_turn", message: "Wait." });
  await assert.rejects(answer, (error) => error.code === "not_your_turn" && error.message === "Wait.");
  assert.equal(seen.errors.length, 1);
  assert.equal(liveTimers(timers).length, 0);
  assert.equal(ws.sent.length, before);
});

test("retrying gives up after RETRY_FOR_MS and rejects with the last retryable error", async () => {
  const clock = { ms: 0 };
  const { socket, ws, seen, timers } = connectedAt(clock);
  const answer = socket.send({ type: "place", card: 2 });
  const { id } = ws.sent.at(-1);
  ws.deliver(unavailable(id));
  clock.ms = RETRY_FOR_MS - 1;
  fire(liveTimers(timers).at(-1));
  ws.deliver(unavailable(id));
  assert.equal(seen.errors.length, 0);
  clock.ms = RETRY_FOR_MS;
  fire(liveTimers(timers).at(-1));
  ws.deliver(unavailable(id));
  await assert.rejects(answer, (error) => error.code === "unavailable");
  assert.equal(seen.errors.length, 1);
});

test("a message waiting for its retry when the socket drops goes out again after the reconnect", async () => {
  const { socket, ws, timers } = connectedAt({ ms: 0 });
  const answer = socket.send({ type: "place", card: 3 });
  const original = ws.sent.at(-1);
  ws.deliver(unavailable(original.id));
  ws.close(1006);
  // only the reconnect is waiting; the message's own timers were cleared
  const [reconnect] = liveTimers(timers);
  assert.equal(liveTimers(timers).length, 1);
  fire(reconnect);
  const again = FakeWebSocket.all.at(-1);
  again.open();
  assert.deepEqual(again.sent, []); // nothing before the snapshot
  again.deliver({ type: "sync", seq: 5, room: {}, you: {}, view: {} });
  assert.deepEqual(again.sent.at(-1), original);
  again.deliver({ type: "ack", id: original.id, seq: 6 });
  assert.equal((await answer).seq, 6);
});

test("a message sent while offline is kept and goes out after the reconnect", async () => {
  const { socket, ws, timers } = connectedAt({ ms: 0 });
  ws.close(1006);
  const answer = socket.send({ type: "place", card: 4 });
  assert.equal(liveTimers(timers).length, 1); // the reconnect only: no answer timeout offline
  fire(liveTimers(timers)[0]);
  const again = FakeWebSocket.all.at(-1);
  again.open();
  again.deliver({ type: "sync", seq: 5, room: {}, you: {}, view: {} });
  const sent = again.sent.at(-1);
  assert.equal(sent.type, "place");
  again.deliver({ type: "ack", id: sent.id, seq: 6 });
  assert.equal((await answer).seq, 6);
});

test("a close with 1009 refuses the too long message, resends the others, and reconnects", async () => {
  const { socket, ws, seen, timers } = connectedAt({ ms: 0 });
  const small = socket.send({ type: "place", card: 5 });
  const huge = socket.send({ type: "chat", text: "x".repeat(5000) });
  const smallMessage = ws.sent.at(-2);
  const hugeMessage = ws.sent.at(-1);
  ws.close(1009);
  await assert.rejects(huge, (error) => error.code === "too_large" && error.message === "This message is too long.");
  assert.deepEqual(
    seen.errors.map((e) => [e.id, e.code]),
    [[hugeMessage.id, "too_large"]],
  );
  const [reconnect] = liveTimers(timers);
  assert.ok(reconnect.ms > 0 && reconnect.ms <= 500);
  fire(reconnect);
  const again = FakeWebSocket.all.at(-1);
  again.open();
  again.deliver({ type: "sync", seq: 5, room: {}, you: {}, view: {} });
  assert.deepEqual(again.sent, [smallMessage]); // the long one is not sent again
  again.deliver({ type: "ack", id: smallMessage.id, seq: 6 });
  assert.equal((await small).seq, 6);
});

test("the answer timeout counts only while connected and restarts on each resend", async () => {
  const { socket, ws, timers } = connectedAt({ ms: 0 });
  const answer = socket.send({ type: "place", card: 6 });
  const timeout = liveTimers(timers).find((t) => t.ms === 30000);
  assert.ok(timeout);
  ws.deliver(unavailable(ws.sent.at(-1).id));
  assert.equal(timeout.fn, null); // answered: no timeout while waiting to resend
  fire(liveTimers(timers).at(-1));
  const next = liveTimers(timers).find((t) => t.ms === 30000);
  assert.ok(next && next !== timeout);
  fire(next);
  await assert.rejects(answer, (error) => error.code === "timeout");
});
