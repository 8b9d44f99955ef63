// The next robot after a won game (issue 42): only after a win alone against
// robots without hints, one step up the ladder; after the strongest, "top".
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { nextRobot } from "../../games/abaku/static/abaku/table/ladder.js";

const LEVELS = ["easy", "easy2", "easy3", "medium", "strong"];
const seats = (robot) => [{ nickname: "Eva", robot: null }, { nickname: null, robot }];
const won = { result: { winners: [0] } };

describe("the next robot of the ladder", () => {
  test("a win on one's own climbs one step", () => {
    assert.deepEqual(nextRobot({ you: 0, seats: seats("easy2") }, won, 0, LEVELS), { id: "easy3", number: 3 });
    assert.deepEqual(nextRobot({ you: 0, seats: seats("easy") }, won, 0, LEVELS), { id: "easy2", number: 2 });
  });
  test("after the strongest robot there is no next one", () => {
    assert.equal(nextRobot({ you: 0, seats: seats("strong") }, won, 0, LEVELS), "top");
  });
  test("no suggestion after a loss, a tie, hints, or with other people at the table", () => {
    const view = { you: 0, seats: seats("easy") };
    assert.equal(nextRobot(view, { result: { winners: [1] } }, 0, LEVELS), null);
    assert.equal(nextRobot(view, { result: { winners: [0, 1] } }, 0, LEVELS), null);
    assert.equal(nextRobot(view, won, 2, LEVELS), null);
    assert.equal(nextRobot(view, { result: null }, 0, LEVELS), null);
    const people = { you: 0, seats: [{ nickname: "Eva" }, { nickname: "Ota" }, { robot: "easy" }] };
    assert.equal(nextRobot(people, won, 0, LEVELS), null);
    assert.equal(nextRobot({ you: null, seats: seats("easy") }, won, 0, LEVELS), null);
  });
});
