// Matematický poker in the browser: scoring, preview and deck (offline play and
// the instant preview). The server's Python engine is the reference; the shared
// vectors in tests/vectors/poker.json keep this twin identical to it.

export { TABLES_DATA } from "./tables.js";
export {
  BOARD_SIZE,
  CELLS,
  COMBINATIONS,
  DEFAULT_TABLE,
  LINE_NAMES,
  LINES,
  LINES_THROUGH_CELL,
  MAX_VALUE,
  MIN_VALUE,
  TABLE_NAMES,
  TABLES,
  getTable,
  lineFacts,
  scoreBoard,
  scoreLine,
} from "./scoring.js";
export { bestCells, preview } from "./preview.js";
export { JOKER, PyRandom, buildDeck, seededDeck, shuffle } from "./deck.js";
export { EASY, ERROR_CODES, HARD, IllegalMove, MODES, PokerGame } from "./game.js";
