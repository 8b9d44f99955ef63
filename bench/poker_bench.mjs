// Poker JS twin speed, and the same seeded games as bench/poker_bench.py.
// Run from the project root:  node bench/poker_bench.mjs [games]
// Equal random/greedy averages to the Python bench mean the twin deals and
// scores every one of those games exactly as the server does.

import {
  JOKER,
  PyRandom,
  TABLE_NAMES,
  preview,
  scoreBoard,
  seededDeck,
  shuffle,
} from "../games/poker/static/poker/index.js";

const BOARDS = 500;
const BENCH_SEED = 2026;
const games = Number(process.argv[2] ?? 2000);

function boards(table, filled) {
  const rng = new PyRandom(BENCH_SEED);
  const result = [];
  for (let i = 0; i < BOARDS; i += 1) {
    const deck = seededDeck(rng.getrandbits(32), table).slice(0, filled);
    const values = deck.map((card) => (card === JOKER ? 1 + rng.below(13) : card));
    const cells = Array(25).fill(null);
    const positions = shuffle([...Array(25).keys()], rng);
    values.forEach((value, k) => {
      cells[positions[k]] = value;
    });
    result.push(cells);
  }
  return result;
}

function perCallUs(calls, repeat = 7) {
  for (const call of calls) call(); // warm up the JIT
  let best = Infinity;
  for (let r = 0; r < repeat; r += 1) {
    const start = process.hrtime.bigint();
    for (const call of calls) call();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e3);
  }
  return best / calls.length;
}

function chooseGreedy(cells, card, table, rng) {
  const values = card === JOKER ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] : [card];
  let best = 0;
  let options = [];
  for (const value of values) {
    for (const [cell, gain] of Object.entries(preview(cells, value, table))) {
      if (gain > best) {
        best = gain;
        options = [[Number(cell), value]];
      } else if (gain === best) {
        options.push([Number(cell), value]);
      }
    }
  }
  if (options.length === 0) {
    const value = card === JOKER ? 1 : card;
    cells.forEach((occupant, cell) => {
      if (occupant === null) options.push([cell, value]);
    });
  }
  return options[rng.below(options.length)];
}

function chooseRandom(cells, card, table, rng) {
  const empty = cells.flatMap((occupant, cell) => (occupant === null ? [cell] : []));
  const cell = empty[rng.below(empty.length)];
  return [cell, card === JOKER ? 1 + rng.below(13) : card];
}

const STRATEGIES = { random: chooseRandom, greedy: chooseGreedy };

function play(seed, table, strategy) {
  const rng = new PyRandom(seed);
  const cells = Array(25).fill(null);
  let placed = 0;
  for (const card of seededDeck(seed, table)) {
    if (placed === 25) break;
    const [cell, value] = STRATEGIES[strategy](cells, card, table, rng);
    cells[cell] = value;
    placed += 1;
  }
  return scoreBoard(cells, table).total;
}

console.log(`Node ${process.version} on ${process.arch}, ${new Date().toISOString().slice(0, 10)}`);
console.log();
console.log("| table | scoreBoard full µs | scoreBoard half-full µs | preview half-full µs | preview empty µs |");
console.log("|---|---:|---:|---:|---:|");
for (const table of TABLE_NAMES) {
  const full = boards(table, 25);
  const half = boards(table, 13);
  const valueRng = new PyRandom(BENCH_SEED);
  const values = half.map(() => 1 + valueRng.below(13));
  const fullUs = perCallUs(full.map((b) => () => scoreBoard(b, table)));
  const halfUs = perCallUs(half.map((b) => () => scoreBoard(b, table)));
  const previewUs = perCallUs(half.map((b, i) => () => preview(b, values[i], table)));
  const emptyUs = perCallUs(values.map((v) => () => preview(Array(25).fill(null), v, table)));
  console.log(
    `| ${table} | ${fullUs.toFixed(1)} | ${halfUs.toFixed(1)} | ${previewUs.toFixed(1)} | ${emptyUs.toFixed(1)} |`,
  );
}
console.log();
console.log(`| table | random avg (${games} games) | greedy avg (${games} games) |`);
console.log("|---|---:|---:|");
for (const table of TABLE_NAMES) {
  const averages = ["random", "greedy"].map((strategy) => {
    let total = 0;
    for (let seed = 0; seed < games; seed += 1) total += play(seed, table, strategy);
    return (total / games).toFixed(2);
  });
  console.log(`| ${table} | ${averages[0]} | ${averages[1]} |`);
}
