// Scoring of lines and boards: the JavaScript twin of games/poker/rules/scoring.py.
//
// The combinations are the spec's definitions (§2), evaluated directly: a line's
// score is the best row of the table whose test holds. The Python engine
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
const filled = (v) => v.filter((x) => !isEmpty(x));
const isFull = (v) => v.every((x) => !isEmpty(x));

function counts(v) {
  const result = new Map();
  for (const x of filled(v)) result.set(x, (result.get(x) ?? 0) + 1);
  return result;
}

const maxCount = (v) => Math.max(0, ...counts(v).values());

function longestRun(v) {
  let best = 0;
  let run = 0;
  let previous = null;
  for (const x of v) {
    if (isEmpty(x)) run = 0;
    else if (x === previous) run += 1;
    else run = 1;
    previous = isEmpty(x) ? null : x;
    best = Math.max(best, run);
  }
  return best;
}

/** Greedy scan: an equal, filled neighbour pair counts once and is skipped. */
function adjacentPairs(v) {
  let pairs = 0;
  for (let i = 0; i < v.length - 1; ) {
    if (!isEmpty(v[i]) && v[i] === v[i + 1]) {
      pairs += 1;
      i += 2;
    } else {
      i += 1;
    }
  }
  return pairs;
}

function isStraight(v) {
  if (!isFull(v)) return false;
  return new Set(v).size === 5 && Math.max(...v) - Math.min(...v) === 4;
}

function isSortedStraight(v) {
  if (!isStraight(v)) return false;
  const steps = new Set(v.slice(1).map((x, i) => x - v[i]));
  return steps.size === 1 && (steps.has(1) || steps.has(-1));
}

function isFullHouse(v) {
  if (!isFull(v)) return false;
  const shape = [...counts(v).values()].sort();
  return shape.length === 2 && shape[0] === 2 && shape[1] === 3;
}

function isFullHouseContiguous(v) {
  const [a, b, c, d, e] = v;
  return isFullHouse(v) && ((a === b && b === c && d === e) || (a === b && c === d && d === e));
}

function isOneAndTenToThirteen(v) {
  const sorted = filled(v).sort((x, y) => x - y);
  return sorted.join(",") === "1,10,11,12,13";
}

function isThreeOnesTwoThirteens(v) {
  const c = counts(v);
  return c.size === 2 && c.get(1) === 3 && c.get(13) === 2;
}

/** Combination name → test on a line of five (null = empty), as in the spec. */
export const COMBINATIONS = Object.freeze({
  five_of_a_kind: (v) => maxCount(v) === 5,
  four_of_a_kind: (v) => maxCount(v) >= 4,
  four_ones: (v) => (counts(v).get(1) ?? 0) >= 4,
  straight: isStraight,
  full_house: isFullHouse,
  two_pairs: (v) => [...counts(v).values()].filter((n) => n >= 2).length >= 2,
  three_of_a_kind: (v) => maxCount(v) >= 3,
  pair: (v) => maxCount(v) >= 2,
  three_ones_two_thirteens: isThreeOnesTwoThirteens,
  one_and_ten_to_thirteen: isOneAndTenToThirteen,
  four_contiguous: (v) => longestRun(v) >= 4,
  full_house_contiguous: isFullHouseContiguous,
  two_pairs_contiguous: (v) => adjacentPairs(v) >= 2,
  three_contiguous: (v) => longestRun(v) >= 3,
  pair_contiguous: (v) => longestRun(v) >= 2,
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
  let best = 0;
  for (const row of table.rows) {
    if (row.points > best && COMBINATIONS[row.combination](values)) best = row.points;
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
