// @ts-check
// The turn line of a table game ended before its end ("End the room" in
// rooms/room.html; the game's view has phase "ended"). Only the host ends a game,
// so the host reads that they did; against robots alone that is giving up. Such a
// game is not completed and counts nowhere (results read completed games only).
import { gettext } from "../kit/i18n.js";

/**
 * @param {{ you?: number | null, seats: { robot?: unknown }[] }} view the table's view
 * @returns {string}
 */
export function endedText(view) {
  const live = /** @type {HTMLElement | null} */ (document.querySelector("[data-room-live]"));
  if (!live || live.dataset.host !== "true") return gettext("The host ended the game.");
  const robotsOnly = view.seats.every((seat, index) => index === view.you || seat.robot);
  return robotsOnly
    ? gettext("You gave up the game: a game not played to the end does not count.")
    : gettext("You ended the game for everybody.");
}
