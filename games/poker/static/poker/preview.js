// Score preview (spec §3): what placing the number in hand adds right now.

import {
  CELLS,
  DEFAULT_TABLE,
  LINES,
  LINES_THROUGH_CELL,
  MAX_VALUE,
  MIN_VALUE,
  checkCells,
  getTable,
  lineTotals,
} from "./scoring.js";

const ALL_LINES = LINES.map((_, index) => index);

/**
 * Gain per empty cell where placing `value` adds points: `{ [cell]: gain }`,
 * exactly scoreBoard after minus before. Cells with no gain are left out.
 */
export function preview(cells, value, table = DEFAULT_TABLE) {
  const spec = getTable(table);
  const board = checkCells(cells);
  if (!Number.isInteger(value) || value < MIN_VALUE || value > MAX_VALUE) {
    throw new RangeError(
      `value: expected an integer ${MIN_VALUE}..${MAX_VALUE}, got ${JSON.stringify(value)}`,
    );
  }
  const current = lineTotals(spec, board, ALL_LINES);
  const gains = {};
  for (let cell = 0; cell < CELLS; cell += 1) {
    if (board[cell] !== null) continue;
    board[cell] = value;
    const through = LINES_THROUGH_CELL[cell];
    const after = lineTotals(spec, board, through);
    board[cell] = null;
    const gain = after.reduce((sum, points, i) => sum + points - current[through[i]], 0);
    if (gain > 0) gains[cell] = gain;
  }
  return gains;
}

/** The cells with the highest gain (highlighted in the UI); empty when nothing scores. */
export function bestCells(gains) {
  const best = Math.max(0, ...Object.values(gains));
  return best === 0 ? [] : Object.keys(gains).filter((cell) => gains[cell] === best).map(Number);
}
