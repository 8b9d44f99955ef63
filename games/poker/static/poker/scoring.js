// Scoring of lines and boards: the JavaScript twin of games/poker/rules/scoring.py.
//
// The combinations are the spec's definitions (§2), evaluated directly on a few
// facts gathered once per line: a line's score is the best row of the table
// whose test holds. The Python engine
// compiles the same definitions into lookups for speed; tests/vectors/poker.json
// keeps the two in exact agreement.

import { TABLES_DATA } from "./tables.js";

export const BOARD_SIZE = 5;
export const CELLS = BOARD_SIZE * BOARD_SIZE;
export const MIN_VALUE = 1;
export const MAX_VALUE = 13;
export const DEFAULT_TABLE = TABLES_DATA.default;
export const TABLES = TABLES_DATA.tables;
export const TABLE_NAMES = Object.freeze(Object.keys(TABLES));

const range5 = [0, 1, 2, 3, 4];

/** The 12 lines in canonical order: rows, columns, main and anti-diagonal. */
export const LINES = Object.freeze([
  ...range5.map((row) => range5.map((col) => 5 * row + col)),
  ...range5.map((col) => range5.map((row) => 5 * row + col)),
  [0, 6, 12, 18, 24],
  [4, 8, 12, 16, 20],
]);
export const LINE_NAMES = Object.freeze([
  ...range5.map((i) => `row${i}`),
  ...range5.map((i) => `col${i}`),
  "main_diagonal",
  "anti_diagonal",
]);
const DIAGONALS = new Set([10, 11]);
export const LINES_THROUGH_CELL = Object.freeze(
  Array.from({ length: CELLS }, (_, cell) =>
    LINES.flatMap((line, index) => (line.includes(cell) ? [index] : [])),
  ),
);

// --- the combinations ---------------------------------------------------------

const isEmpty = (x) => x === null || x === undefined;

/**
 * What the combinations are read from, computed once per line: the values,
 * whether the line is full, how often each value occurs, the longest run of
 * equal neighbours (an empty cell breaks it) and the greedy count of adjacent
 * equal pairs (a pair counts once and is skipped, so `3 3 3 3` holds two).
 */
export function lineFacts(v) {
  const counts = new Map();
  let full = true;
  let longestRun = 0;
  let run = 0;
  for (let i = 0; i < v.length; i += 1) {
    const x = v[i];
    if (isEmpty(x)) {
      full = false;
      run = 0;
      continue;
    }
    counts.set(x, (counts.get(x) ?? 0) + 1);
    run = i > 0 && v[i - 1] === x ? run + 1 : 1;
    if (run > longestRun) longestRun = run;
  }
  let adjacentPairs = 0;
  for (let i = 0; i < v.length - 1; ) {
    if (!isEmpty(v[i]) && v[i] === v[i + 1]) {
      adjacentPairs += 1;
      i += 2;
    } else {
      i += 1;
    }
  }
  let maxCount = 0;
  let repeated = 0;
  for (const n of counts.values()) {
    if (n > maxCount) maxCount = n;
    if (n >= 2) repeated += 1;
  }
  return { values: v, full, counts, maxCount, repeated, longestRun, adjacentPairs };
}

/** Five distinct values spanning exactly five; 1 is low only (no wrap-around). */
function isStraight(f) {
  return f.full && f.counts.size === 5 && Math.max(...f.values) - Math.min(...f.values) === 4;
}

function isSortedStraight(f) {
  if (!isStraight(f)) return false;
  const v = f.values;
  const step = v[1] - v[0];
  return (step === 1 || step === -1) && v.every((x, i) => i === 0 || x - v[i - 1] === step);
}

function isFullHouse(f) {
  return f.full && f.counts.size === 2 && f.maxCount === 3;
}

function isFullHouseContiguous(f) {
  const [a, b, c, d, e] = f.values;
  return isFullHouse(f) && ((a === b && b === c && d === e) || (a === b && c === d && d === e));
}

const count = (f, value) => f.counts.get(value) ?? 0;

/** Combination name → test on the facts of a line (see lineFacts), as in the spec. */
export const COMBINATIONS = Object.freeze({
  five_of_a_kind: (f) => f.maxCount === 5,
  four_of_a_kind: (f) => f.maxCount >= 4,
  four_ones: (f) => count(f, 1) >= 4,
  straight: isStraight,
  full_house: isFullHouse,
  two_pairs: (f) => f.repeated >= 2,
  three_of_a_kind: (f) => f.maxCount >= 3,
  pair: (f) => f.maxCount >= 2,
  three_ones_two_thirteens: (f) => f.counts.size === 2 && count(f, 1) === 3 && count(f, 13) === 2,
  one_and_ten_to_thirteen: (f) =>
    f.full && f.counts.size === 5 && [1, 10, 11, 12, 13].every((x) => f.counts.has(x)),
  four_contiguous: (f) => f.longestRun >= 4,
  full_house_contiguous: isFullHouseContiguous,
  two_pairs_contiguous: (f) => f.adjacentPairs >= 2,
  three_contiguous: (f) => f.longestRun >= 3,
  pair_contiguous: (f) => f.longestRun >= 2,
  sorted_straight: isSortedStraight,
});

// --- validation ---------------------------------------------------------------

export function getTable(name) {
  if (!Object.hasOwn(TABLES, name)) {
    throw new RangeError(
      `unknown scoring table ${JSON.stringify(name)}; expected one of ${TABLE_NAMES.join(", ")}`,
    );
  }
  return TABLES[name];
}

function checkValue(value, where) {
  if (isEmpty(value)) return null;
  if (!Number.isInteger(value) || value < MIN_VALUE || value > MAX_VALUE) {
    throw new RangeError(
      `${where}: expected an integer ${MIN_VALUE}..${MAX_VALUE} or null, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

export function checkCells(cells, size = CELLS, what = "a board") {
  if (!Array.isArray(cells)) throw new RangeError(`${what} must be an array of ${size} cells`);
  if (cells.length !== size) {
    throw new RangeError(`${what} must have exactly ${size} cells, got ${cells.length}`);
  }
  return cells.map((value, i) => checkValue(value, `cell ${i}`));
}

// --- scoring ------------------------------------------------------------------

function linePoints(table, values) {
  const facts = lineFacts(values);
  let best = 0;
  for (const row of table.rows) {
    if (row.points > best && COMBINATIONS[row.combination](facts)) best = row.points;
  }
  return best;
}

function lineTotal(table, board, lineIndex) {
  const points = linePoints(
    table,
    LINES[lineIndex].map((cell) => board[cell]),
  );
  return points && DIAGONALS.has(lineIndex) ? points + table.diagonal_bonus : points;
}

/** Score one line of five; `diagonal` adds the table's diagonal bonus if it scores. */
export function scoreLine(values, table = DEFAULT_TABLE, { diagonal = false } = {}) {
  const spec = getTable(table);
  const points = linePoints(spec, checkCells(values, BOARD_SIZE, "a line"));
  return points && diagonal ? points + spec.diagonal_bonus : points;
}

/** Score 25 row-major cells: `{ total, lines }` with 12 line scores in canonical order. */
export function scoreBoard(cells, table = DEFAULT_TABLE) {
  const spec = getTable(table);
  const board = checkCells(cells);
  const lines = LINES.map((_, index) => lineTotal(spec, board, index));
  return { total: lines.reduce((sum, points) => sum + points, 0), lines };
}

/** Internal helper for preview.js: line totals of an already checked board. */
export function lineTotals(spec, board, lineIndexes) {
  return lineIndexes.map((index) => lineTotal(spec, board, index));
}
