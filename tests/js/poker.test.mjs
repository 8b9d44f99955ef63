// The JavaScript twin must agree with the Python engine on every shared vector.
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";

import {
  COMBINATIONS,
  JOKER,
  LINES,
  LINES_THROUGH_CELL,
  PyRandom,
  TABLES_DATA,
  TABLE_NAMES,
  bestCells,
  buildDeck,
  preview,
  scoreBoard,
  scoreLine,
  seededDeck,
  shuffle,
} from "../../games/poker/static/poker/index.js";
import { HARD, IllegalMove, PokerGame } from "../../games/poker/static/poker/game.js";

const readJson = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const vectors = readJson("../vectors/poker.json");
const tablesJson = readJson("../../games/poker/rules/tables.json");

describe("poker tables", () => {
  test("the JS copy of the tables equals games/poker/rules/tables.json", () => {
    assert.deepEqual(TABLES_DATA, tablesJson);
  });

  test("every combination named by a table has a test", () => {
    for (const name of TABLE_NAMES) {
      for (const row of TABLES_DATA.tables[name].rows) {
        assert.equal(typeof COMBINATIONS[row.combination], "function", row.combination);
      }
    }
  });
});

describe("poker scoring agrees with the Python vectors", () => {
  test("line scores", () => {
    assert.ok(vectors.lines.length > 1000);
    for (const v of vectors.lines) {
      assert.equal(scoreLine(v.values, v.table), v.score, `${v.table} ${JSON.stringify(v.values)}`);
      assert.equal(scoreLine(v.values, v.table, { diagonal: true }), v.diagonal);
    }
  });

  test("board scores, line by line", () => {
    assert.ok(vectors.boards.length >= 3000);
    for (const v of vectors.boards) {
      const score = scoreBoard(v.cells, v.table);
      assert.deepEqual(score.lines, v.lines, `${v.table} ${JSON.stringify(v.cells)}`);
      assert.equal(score.total, v.total);
    }
  });

  test("previews", () => {
    assert.ok(vectors.previews.length > 100);
    for (const v of vectors.previews) {
      const gains = Object.fromEntries(
        Object.entries(preview(v.cells, v.value, v.table)).map(([cell, gain]) => [String(cell), gain]),
      );
      assert.deepEqual(gains, v.gains, `${v.table} ${v.value} ${JSON.stringify(v.cells)}`);
    }
  });
});

describe("poker deck agrees with the Python vectors", () => {
  test("seeded decks deal the same order as random.Random on the server", () => {
    for (const v of vectors.decks) {
      assert.deepEqual(seededDeck(BigInt(v.seed), v.table), v.deck, `seed ${v.seed}`);
    }
  });

  test("daily decks follow from their HMAC seed", () => {
    for (const v of vectors.daily) assert.deepEqual(seededDeck(v.seed), v.deck);
  });

  test("54 cards with two jokers, 52 without for matematico", () => {
    assert.equal(buildDeck("contiguous").length, 54);
    assert.equal(buildDeck("contiguous").filter((card) => card === JOKER).length, 2);
    assert.equal(buildDeck("matematico").length, 52);
    assert.ok(!buildDeck("matematico").includes(JOKER));
  });

  test("shuffle returns a permutation and leaves its input alone", () => {
    const deck = buildDeck();
    const shuffled = shuffle(deck, new PyRandom(7));
    assert.deepEqual(deck, buildDeck());
    assert.deepEqual([...shuffled].sort((a, b) => a - b), [...deck].sort((a, b) => a - b));
  });

  test("PyRandom matches CPython's first outputs for seed 0", () => {
    // random.Random(0).getrandbits(32) for the first three calls.
    const rng = new PyRandom(0);
    assert.deepEqual(
      [rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)],
      [3626764237, 1654615998, 3255389356],
    );
  });
});

describe("poker scoring rules in JS", () => {
  test("the spec's worked checks", () => {
    const _ = null;
    const checks = [
      [[5, 5, 8, 8, 5], 40],
      [[3, 3, 9, 3, 3], 70],
      [[9, 3, 3, 3, 3], 100],
      [[3, 3, 3, 9, 9], 50],
      [[8, 7, 6, 5, 4], 75],
      [[6, 4, 8, 5, 7], 50],
      [[4, 11, 11, 2, _], 15],
      [[_, _, _, _, _], 0],
    ];
    for (const [values, points] of checks) assert.equal(scoreLine(values), points);
    assert.equal(scoreLine([1, 1, 1, 13, 13], "matematico"), 100);
    assert.equal(scoreLine([13, 13, 13, 1, 1], "matematico"), 80);
    assert.equal(scoreLine([1, 10, 11, 12, 13], "matematico"), 150);
    assert.equal(scoreLine([12, 13, 1, 2, 3], "matematico"), 0);
  });

  test("canonical line order: rows, columns, main and anti-diagonal", () => {
    assert.deepEqual(LINES[0], [0, 1, 2, 3, 4]);
    assert.deepEqual(LINES[5], [0, 5, 10, 15, 20]);
    assert.deepEqual(LINES[10], [0, 6, 12, 18, 24]);
    assert.deepEqual(LINES[11], [4, 8, 12, 16, 20]);
    assert.deepEqual(LINES_THROUGH_CELL[12], [2, 7, 10, 11]);
  });

  test("matematico diagonals earn 10 on top when they score", () => {
    const cells = Array(25).fill(null);
    cells[0] = 5;
    cells[6] = 5;
    const score = scoreBoard(cells, "matematico");
    assert.equal(score.lines[10], 20);
    assert.equal(score.total, 20);
    assert.equal(scoreBoard(cells, "school").total, 10);
  });

  test("invalid input is rejected with a clear message", () => {
    assert.throws(() => scoreBoard(Array(24).fill(null)), /exactly 25 cells/);
    assert.throws(() => scoreBoard([...Array(24).fill(null), 14]), /cell 24/);
    assert.throws(() => scoreBoard(Array(25).fill(null), "poker"), /unknown scoring table/);
    assert.throws(() => preview(Array(25).fill(null), 0), /value/);
  });

  test("preview equals the change of the board score and bestCells picks the top", () => {
    const rng = new PyRandom(99);
    for (let round = 0; round < 200; round += 1) {
      const table = TABLE_NAMES[round % 3];
      const cells = Array.from({ length: 25 }, () => (rng.below(2) ? 1 + rng.below(13) : null));
      const value = 1 + rng.below(13);
      const before = scoreBoard(cells, table).total;
      const gains = preview(cells, value, table);
      cells.forEach((occupant, cell) => {
        if (occupant !== null) return;
        const after = scoreBoard(cells.with(cell, value), table).total;
        assert.equal(gains[cell] ?? 0, after - before);
      });
      for (const cell of bestCells(gains)) {
        assert.equal(gains[cell], Math.max(...Object.values(gains)));
      }
    }
  });
});

describe("poker game state machine agrees with the Python vectors", () => {
  test("every scripted game replays to the same events, errors, view and snapshot", () => {
    assert.ok(vectors.games.length > 0);
    for (const script of vectors.games) {
      const game = PokerGame.create({
        table: script.table,
        mode: script.mode,
        secondsPerCard: script.seconds,
        deck: seededDeck(BigInt(script.seed), script.table),
        now: script.start,
      });
      for (const step of script.steps) {
        const run = () =>
          step.action.type === "advance" ? game.advance(step.now) : game.apply(step.action, step.now);
        if (step.error) {
          const before = game.toDict();
          assert.throws(run, (error) => error instanceof IllegalMove && error.code === step.error);
          assert.deepEqual(game.toDict(), before, "an illegal action changes nothing");
        } else {
          assert.deepEqual(run(), step.events);
        }
      }
      assert.deepEqual(game.playerView(), script.view);
      assert.deepEqual(game.toDict(), script.state);
      assert.deepEqual(PokerGame.fromDict(JSON.parse(JSON.stringify(game.toDict()))), game);
    }
  });

  test("a joker is used with a value or kept, and a kept joker is placed later", () => {
    const game = PokerGame.create({ deck: [JOKER, 5, JOKER, 7], now: 0 });
    assert.throws(() => game.place(0, 1), (e) => e.code === "joker_in_hand");
    game.keepJoker(1);
    assert.equal(game.hand, 5);
    game.placeKeptJoker(3, 9, 2);
    assert.deepEqual(game.joker_cells, [3]);
    assert.equal(game.hand, 5);
    game.place(0, 3);
    game.useJoker(1, 5, 4);
    assert.deepEqual(game.cells.slice(0, 4), [5, 5, null, 9]);
    assert.throws(() => game.useJoker(2, 14, 5), (e) => e.code === "not_joker" || e.code === "bad_value");
  });

  test("hard mode forfeits a number not placed in time", () => {
    const game = PokerGame.create({ mode: HARD, secondsPerCard: 3, deck: [4, 5, 6], now: 0 });
    assert.equal(game.deadline(), 3);
    const events = game.advance(3.5);
    assert.deepEqual(events[0], { type: "forfeited", index: 0, card: 4, at: 3 });
    assert.equal(game.forfeited, 1);
    assert.equal(game.hand, 5);
    assert.equal(game.deadline(), 6);
  });
});
