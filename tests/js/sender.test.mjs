// One message at a time from a table game's page (static/js/rooms/sender.js):
// a press made on a newer view while a message is out is sent once the answer is
// in, a double press is not; a press given as a function is judged when its turn
// comes (a poker room board's cell: the board may have changed meanwhile).
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { oneAtATime } from "../../static/js/rooms/sender.js";

/** A socket whose answers the test hands over one at a time. */
function page() {
  const sent = [];
  const answers = [];
  const state = { version: 0, refusals: [] };
  const socket = {
    send(message) {
      sent.push(message);
      return new Promise((resolve, reject) => answers.push({ resolve, reject }));
    },
  };
  const send = oneAtATime({
    socket: () => socket,
    version: () => state.version,
    busy: () => {},
    refused: (error) => state.refusals.push(error),
  });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const answer = async () => {
    answers.shift().resolve({});
    await settle();
  };
  const refuse = async () => {
    answers.shift().reject({ code: "illegal" });
    await settle();
  };
  return { send, sent, state, answer, refuse };
}

describe("one message at a time", () => {
  test("a press on a newer view waits for the answer; a double press is not sent", async () => {
    const p = page();
    p.send({ n: 1 });
    p.send({ n: 1 }); // the same view: a double press
    p.state.version += 1; // the step's view came before the answer
    p.send({ n: 2 });
    assert.deepEqual(p.sent, [{ n: 1 }]);
    await p.answer();
    assert.deepEqual(p.sent, [{ n: 1 }, { n: 2 }]);
  });

  test("a refusal drops the waiting press", async () => {
    const p = page();
    p.send({ n: 1 });
    p.state.version += 1;
    p.send({ n: 2 });
    await p.refuse();
    assert.deepEqual(p.sent, [{ n: 1 }]);
    assert.equal(p.state.refusals.length, 1);
  });

  test("a press given as a function makes its message when its turn comes", async () => {
    const p = page();
    const board = { hand: 5 };
    const press = () => (board.hand === null ? null : { place: board.hand });
    p.send(press);
    board.hand = null; // placed on the page at once
    assert.deepEqual(p.sent, [{ place: 5 }]);
    p.state.version += 1;
    p.send(press); // pressed before the answer: judged once it is in
    board.hand = 7; // the next number came meanwhile
    await p.answer();
    assert.deepEqual(p.sent, [{ place: 5 }, { place: 7 }]);
  });

  test("a function that makes no message sends nothing and leaves the page free", async () => {
    const p = page();
    assert.equal(await p.send(() => null), false);
    p.send({ n: 1 });
    assert.deepEqual(p.sent, [{ n: 1 }]);
  });

  test("a press from an older view than the one sent from is not queued", async () => {
    const p = page();
    p.state.version = 3;
    p.send({ n: 1 });
    p.send({ n: 2 }, -1);
    await p.answer();
    assert.deepEqual(p.sent, [{ n: 1 }]);
  });
});
