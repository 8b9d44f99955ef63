// The kit's arrow keys (static/js/kit/roving.js `nearest`): every item of a board is
// reached from every other, scattered Mathesso tiles too (the nearest item "that way"
// by distance alone never led to some of them: the a11y play-through's "no arrow keys
// lead to .mt-tile[data-tile-id='5']"), and a square grid moves as a grid.
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { nearest } from "../../static/js/kit/roving.js";

const ARROWS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
];

/** A fake item: the box of a tile of side `side` centred on (x, y). */
function item(x, y, side, name) {
  return { name, getBoundingClientRect: () => ({ left: x - side / 2, top: y - side / 2, width: side, height: side }) };
}

/** Every item reached from every other: the arrows' moves, as the a11y tests' route
 * search walks them, join all items both ways (one search forwards, one backwards). */
function assertAllReached(items, what) {
  const moves = new Map(items.map((each) => [each, []]));
  const back = new Map(items.map((each) => [each, []]));
  for (const from of items) {
    for (const step of ARROWS) {
      const there = nearest(items, from, step);
      if (there) {
        moves.get(from).push(there);
        back.get(there).push(from);
      }
    }
  }
  for (const [edges, way] of [
    [moves, "to"],
    [back, "from"],
  ]) {
    const seen = new Set([items[0]]);
    const queue = [items[0]];
    while (queue.length) {
      for (const there of edges.get(queue.shift())) {
        if (!seen.has(there)) {
          seen.add(there);
          queue.push(there);
        }
      }
    }
    const missing = items.filter((each) => !seen.has(each)).map((each) => each.name);
    const [start, end] = way === "to" ? [items[0].name, missing] : [missing, items[0].name];
    assert.deepEqual(missing, [], `${what}: no arrows lead from ${start} to ${end}`);
  }
}

// Two Atto tables at a phone's width (games/mathesso/rules/layout.py, seeds 124 and
// 184: x, y, box side in px), on which the old arrows stranded a tile from the start.
const ATTO = {
  124: [[229.9, 259.6, 59.8], [299.9, 268.8, 57.2], [113.9, 184.5, 60.1], [184.8, 342.8, 60.8], [43.0, 31.5, 59.9], [116.3, 489.7, 60.5], [82.0, 119.0, 54.9], [154.3, 269.5, 58.0], [115.1, 45.4, 59.2], [184.0, 492.1, 55.7], [38.4, 485.0, 60.1], [76.0, 408.9, 59.1], [150.4, 116.4, 59.2], [254.9, 344.2, 55.6], [268.4, 194.0, 55.5], [38.8, 343.8, 60.0], [189.1, 38.2, 61.9], [264.0, 482.7, 57.4], [266.1, 39.3, 61.1], [310.4, 416.9, 56.5], [120.1, 336.4, 60.6], [196.3, 186.9, 58.4]],
  184: [[155.4, 118.0, 58.3], [262.7, 482.2, 57.3], [84.1, 410.6, 58.0], [36.9, 487.8, 58.8], [269.6, 333.8, 54.5], [31.2, 186.1, 61.9], [234.6, 108.6, 56.8], [184.5, 489.6, 62.2], [118.5, 346.1, 58.8], [217.5, 411.1, 56.8], [305.7, 421.2, 56.5], [188.7, 187.3, 62.4], [256.4, 188.2, 58.3], [70.6, 269.1, 62.0], [144.5, 410.9, 55.6], [109.6, 485.1, 62.4], [302.8, 116.8, 55.6], [300.3, 261.7, 61.0], [119.4, 190.9, 59.2], [110.6, 39.6, 61.6], [35.9, 341.3, 61.0], [258.8, 40.5, 54.0]],
};

/** A seeded generator (mulberry32), so a failure names its table. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A table laid out as Mathesso lays one: `count` tiles in random cells of a brick
 * pattern (odd rows shifted half a cell), each moved and turned a little in its cell. */
function scattered(count, rnd) {
  const cell = 1.4;
  const cells = Math.ceil(count * 1.2);
  const cols = Math.max(1, Math.floor(Math.sqrt(cells * 0.75)));
  const rows = Math.ceil(cells / cols);
  const free = Array.from({ length: cols * rows }, (_, i) => i);
  const scale = 340 / (cols * cell + cell / 2);
  const tiles = [];
  for (let n = 0; n < count; n += 1) {
    const [at] = free.splice(Math.floor(rnd() * free.length), 1);
    const row = Math.floor(at / cols);
    const col = at % cols;
    const turn = ((rnd() * 20 - 10) * Math.PI) / 180;
    const side = Math.cos(turn) + Math.abs(Math.sin(turn));
    const slack = (cell - side) / 2;
    const x = col * cell + (row % 2 ? cell / 2 : 0) + cell / 2 + (rnd() * 2 - 1) * slack;
    const y = row * cell + cell / 2 + (rnd() * 2 - 1) * slack;
    tiles.push(item(x * scale, y * scale, side * scale, `tile ${n}`));
  }
  return tiles;
}

describe("roving arrows reach every item", () => {
  test("the Atto tables whose tile the old arrows never reached", () => {
    for (const [seed, tiles] of Object.entries(ATTO)) {
      const items = tiles.map(([x, y, side], id) => item(x, y, side, `tile ${id}`));
      assertAllReached(items, `Atto seed ${seed}`);
    }
  });

  test("scattered tables as pairs leave them", () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const rnd = random(seed);
      let items = scattered(22 + (seed % 3) * 12, rnd);
      while (items.length > 1) {
        assertAllReached(items, `table ${seed} with ${items.length} tiles`);
        for (let taken = 0; taken < 2; taken += 1) items.splice(Math.floor(rnd() * items.length), 1);
      }
    }
  });
});

describe("roving arrows on a square grid", () => {
  const grid = [];
  for (let row = 0; row < 5; row += 1) {
    for (let col = 0; col < 5; col += 1) grid.push(item(20 + col * 40, 20 + row * 40, 36, `${row},${col}`));
  }
  const at = (items, row, col) => items.find((each) => each.name === `${row},${col}`);

  test("right, left, down and up go to the neighbouring square; the edge stays", () => {
    assert.equal(nearest(grid, at(grid, 2, 2), [1, 0]), at(grid, 2, 3));
    assert.equal(nearest(grid, at(grid, 2, 2), [-1, 0]), at(grid, 2, 1));
    assert.equal(nearest(grid, at(grid, 2, 2), [0, 1]), at(grid, 3, 2));
    assert.equal(nearest(grid, at(grid, 2, 2), [0, -1]), at(grid, 1, 2));
    assert.equal(nearest(grid, at(grid, 2, 4), [1, 0]), null);
    assert.equal(nearest(grid, at(grid, 4, 0), [0, 1]), null);
  });

  test("a square that cannot take focus is stepped over", () => {
    const open = grid.filter((each) => each.name !== "2,3");
    assert.equal(nearest(open, at(grid, 2, 2), [1, 0]), at(grid, 2, 4));
    assertAllReached(open, "a grid without 2,3");
  });
});
