// @ts-check
// Drawing the solo game: the hand, the reserve, the board with its preview and
// hint, the robot's board, the info line and the countdown.

import { dayText, gettext, interpolate } from "../../js/kit/i18n.js";
import { paintBoard } from "../board.js";
import { JOKER } from "../deck.js";
import { bestCells, preview } from "../preview.js";
import { $, ROBOT, root } from "./page.js";

export const ROBOT_LEVELS = {
  beginner: () => gettext("beginner"),
  greedy: () => gettext("greedy"),
  coach: () => gettext("coach"),
};

/**
 * What one picture of the game is drawn from (the play controller holds it).
 * @typedef {object} Scene
 * @property {Record<string, any> | null} view the player's view of the game
 * @property {{ source: string, value: number } | null} pending a joker with its chosen value
 * @property {{ cell?: number, reason?: string } | null} [hint] the coach's hint on show
 * @property {boolean} showPreview
 * @property {import("../board.js").Board} board
 * @property {import("../board.js").Board} [robotBoard]
 */

/** @param {Scene} scene */
export function render(scene) {
  const view = scene.view;
  if (!view) return;
  const inHand = view.over ? null : view.hand;
  const hand = $("poker-hand");
  hand.classList.toggle("is-joker", inHand === JOKER);
  if (inHand === null) hand.textContent = "–";
  else if (inHand === JOKER) hand.textContent = scene.pending && scene.pending.source === "hand" ? `★${scene.pending.value}` : "★";
  else hand.textContent = String(inHand);
  hand.setAttribute(
    "aria-label",
    inHand === null ? gettext("No number in hand") : inHand === JOKER ? gettext("Joker in hand") : interpolate(gettext("In hand: %(value)s"), { value: inHand }),
  );
  $("poker-kept-count").textContent = String(view.kept_jokers);
  /** @type {HTMLButtonElement} */ ($("poker-kept")).disabled = view.kept_jokers === 0 || view.over;
  $("poker-kept").classList.toggle("is-active", Boolean(scene.pending && scene.pending.source === "kept"));
  // The button shows only when it can act: no number in hand, the game still on.
  $("poker-draw").hidden = view.over || inHand !== null;
  $("poker-total").textContent = String(view.score);
  $("poker-new").hidden = !view.over;
  $("poker-table-name").textContent = tableLabel(view.table);
  for (const table of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#poker-table-in-use [data-table]"))) {
    table.hidden = table.dataset.table !== view.table;
  }

  const warning = $("poker-warning");
  warning.hidden = !view.jokers_at_risk || view.over;
  if (view.jokers_at_risk) {
    warning.textContent = interpolate(gettext("Free cells: %(free)s, kept jokers: %(kept)s. Place your jokers now, or the extra ones are lost."),
      { free: view.free_cells, kept: view.kept_jokers },
    );
  }

  let value = null;
  if (scene.pending) value = scene.pending.value;
  else if (inHand !== null && inHand !== JOKER) value = inHand;
  const previewAllowed = view.preview !== false;
  const gains =
    value !== null && previewAllowed && scene.showPreview && !view.over ? preview(view.cells, value, view.table) : {};
  renderDayRecord(view);
  paintBoard(scene.board, {
    cells: view.cells,
    jokerCells: view.joker_cells,
    gains,
    best: bestCells(gains),
    playable: !view.over && (inHand !== null || scene.pending !== null),
    lines: view.lines,
  });
  const hintCell = scene.hint && typeof scene.hint.cell === "number" ? scene.hint.cell : null;
  scene.board.cells.forEach((node, index) => node.classList.toggle("is-hint", index === hintCell));
  if (ROBOT && view.robot) {
    paintBoard(scene.robotBoard, { cells: view.robot.cells, lines: view.robot.lines });
    $("poker-robot-total").textContent = String(view.robot.score);
    $("poker-robot-level").textContent = ROBOT_LEVELS[view.robot.level]();
  }
  const hintButton = $("poker-hint");
  if (hintButton) hintButton.hidden = view.over || view.mode !== "easy" || (inHand === null && view.kept_jokers === 0);
}

function renderDayRecord(view) {
  const line = $("poker-day-record");
  line.hidden = view.kind !== "daily";
  if (line.hidden) return;
  line.textContent = view.day_record
    ? interpolate(gettext("Record of the day: %(score)s (%(nickname)s)"), view.day_record)
    : gettext("Nobody has set a record today yet.");
}

function tableLabel(name) {
  const table = document.querySelector(`#poker-table-in-use [data-table="${name}"] caption`);
  return table ? table.textContent : name;
}

/** The line under the board: which game this is and whether it is recorded. */
export function infoText(view, recorded) {
  const mode =
    view.mode === "hard"
      ? interpolate(gettext("Hard game, %(seconds)s s per number"), { seconds: view.seconds_per_card })
      : gettext("Easy game");
  if (view.kind === "daily") {
    return view.replay
      ? gettext("Daily challenge replay · not recorded")
      : interpolate(gettext("Daily challenge of %(day)s · recorded"), { day: dayText(view.day) });
  }
  if (view.kind === "homework") return `${gettext("Homework")} · ${mode} · ${gettext("your teacher sees the score")}`;
  if (view.kind === "ranked") {
    const published =
      root.dataset.consent === "yes"
        ? gettext("a full board goes to the leaderboards")
        : gettext("not published: you did not agree to publication");
    return `${gettext("Ranked game")} · ${mode} · ${published}`;
  }
  const where = recorded
    ? gettext("led by the server and recorded in your profile")
    : gettext("played in your browser, not recorded");
  return `${mode} · ${where}`;
}

/** Hard mode's countdown; the seconds left (Infinity when no clock runs). */
export function showCountdown(view, offset, now) {
  const timer = $("poker-timer");
  if (!view || view.over || view.deadline === null) {
    timer.hidden = true;
    return Infinity;
  }
  timer.hidden = false;
  const left = view.deadline - (now + offset);
  $("poker-timer-value").textContent = String(Math.max(0, Math.ceil(left)));
  timer.classList.toggle("is-urgent", left <= 3);
  return left;
}
