// @ts-check
// After a game won alone against robots, on one's own (without hints): the next
// robot of the ladder (issue 42); draw.js shows it as a link to the hub with that
// level chosen. The ladder's order is the order of the names the page carries
// (the rules' LEVEL_TABLE, easiest first). No imports: tests/js runs it in node.

/**
 * The robot to climb to after this game: `{ id, number }` (number counts from 1),
 * `"top"` after beating the strongest, or null (lost, hints used, other people
 * at the table, or the game is not over).
 * @param {any} view the room's view (seats, you)
 * @param {any} g the game (its result)
 * @param {number} hintsUsed
 * @param {string[]} levels the level ids, easiest first
 * @returns {{ id: string, number: number } | "top" | null}
 */
export function nextRobot(view, g, hintsUsed, levels) {
  if (!view || !g || !g.result || hintsUsed > 0 || view.you === null || view.you === undefined) return null;
  const others = view.seats.filter((/** @type {any} */ _seat, /** @type {number} */ index) => index !== view.you);
  if (!others.length || !others.every((/** @type {any} */ seat) => seat.robot)) return null;
  if (g.result.winners.length !== 1 || g.result.winners[0] !== view.you) return null;
  const beaten = Math.max(...others.map((/** @type {any} */ seat) => levels.indexOf(seat.robot)));
  if (beaten < 0) return null;
  if (beaten + 1 >= levels.length) return "top";
  return { id: levels[beaten + 1], number: beaten + 2 };
}
