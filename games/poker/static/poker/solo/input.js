// @ts-check
// The player's input: the start buttons and form, clicks on the board, the
// hand and the reserve, the joker dialog, the keyboard (G draws, the focus
// moves on after a placement) and the clock's tick.

import { closeDialog, onDrawKey, writeStorage } from "../common.js";
import { JOKER } from "../deck.js";
import { share } from "./end.js";
import { $, HOMEWORK, KIND, PREVIEW_KEY, ROBOT, SETTINGS_KEY, dialogById, homeworkSettings, root } from "./page.js";
import { readSettings, syncSetup } from "./setup.js";

/**
 * What the controls read and call on the page's controller (play.js).
 * @typedef {object} Controller
 * @property {Record<string, any>} [settings] the game the next start asks for
 * @property {Record<string, any> | null} view the player's view of the game
 * @property {Record<string, any> | null} daily the day's place and streak, once known
 * @property {boolean} showPreview
 * @property {import("../board.js").Board} board
 * @property {() => Promise<void>} start
 * @property {() => void} startAgain
 * @property {(gameId?: string | null) => Promise<void>} resume
 * @property {(cell: number) => void} clickCell
 * @property {(source: string) => void} askJoker
 * @property {(value: number) => void} chooseJokerValue
 * @property {() => void} keepJoker
 * @property {() => void} draw
 * @property {() => Promise<void>} askHint
 * @property {() => void} tick
 * @property {() => void} render
 */

/**
 * Every control of the page, each calling one intent of ``play`` (the controller).
 * @param {Controller} play
 */
export function wireControls(play) {
  const form = /** @type {HTMLFormElement} */ ($("poker-setup"));
  if (KIND === "daily") {
    const daily = { kind: "daily", mode: "easy", seconds: null, table: null };
    const wireButton = (id, action) => {
      const button = $(id);
      if (button) button.addEventListener("click", action);
    };
    wireButton("poker-start-daily", () => {
      play.settings = daily;
      play.start();
    });
    wireButton("poker-replay", () => {
      play.settings = { ...daily, replay: true };
      play.start();
    });
    wireButton("poker-continue", () => play.resume(root.dataset.continue));
    const intro = $("poker-share-intro");
    if (intro) {
      intro.addEventListener("click", () =>
        share({
          day: intro.dataset.shareDay,
          score: intro.dataset.shareScore,
          rank: intro.dataset.shareRank,
          streak: intro.dataset.shareStreak,
        }),
      );
    }
  } else if (HOMEWORK) {
    const button = $("poker-start-homework");
    if (button) {
      button.addEventListener("click", () => {
        play.settings = homeworkSettings();
        play.start();
      });
    }
  } else {
    form.addEventListener("change", () => syncSetup());
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!form.reportValidity()) return;
      play.settings = readSettings();
      if (ROBOT) {
        const level = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=level]:checked"));
        play.settings = { ...play.settings, kind: "robot", mode: "easy", level: level ? level.value : "coach" };
      }
      if (KIND === "ranked") play.settings.kind = "ranked";
      else if (!ROBOT) writeStorage(SETTINGS_KEY, play.settings);
      play.start();
    });
  }
  $("poker-share").addEventListener("click", () => {
    if (play.daily) share(play.daily);
  });
  for (const cell of play.board.cells) {
    cell.addEventListener("click", () => play.clickCell(Number(cell.dataset.cell)));
  }
  $("poker-hand").addEventListener("click", () => {
    if (play.view && play.view.hand === JOKER && !play.view.over) play.askJoker("hand");
  });
  $("poker-kept").addEventListener("click", () => {
    if (play.view && play.view.kept_jokers > 0 && !play.view.over) play.askJoker("kept");
  });
  $("poker-draw").addEventListener("click", () => play.draw());
  if ($("poker-hint")) $("poker-hint").addEventListener("click", () => play.askHint());
  const eye = $("poker-preview-toggle");
  eye.setAttribute("aria-pressed", String(play.showPreview));
  eye.addEventListener("click", () => {
    play.showPreview = !play.showPreview;
    writeStorage(PREVIEW_KEY, play.showPreview);
    eye.setAttribute("aria-pressed", String(play.showPreview));
    play.render();
  });
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#poker-joker-dialog [data-value]"))) {
    button.addEventListener("click", () => play.chooseJokerValue(Number(button.dataset.value)));
  }
  $("poker-keep-joker").addEventListener("click", () => play.keepJoker());
  $("poker-again").addEventListener("click", () => {
    closeDialog(dialogById("poker-end-dialog"));
    play.startAgain();
  });
  $("poker-new").addEventListener("click", () => play.startAgain());
  onDrawKey(() => play.draw());
  window.setInterval(() => play.tick(), 200);
}

/**
 * Keyboard play: after a placement the focus moves on to the next free cell.
 * @param {import("../board.js").Board} board
 * @param {number} cell
 */
export function focusAfter(board, cell) {
  if (document.querySelector("dialog[open]")) return;
  const active = /** @type {HTMLButtonElement | null} */ (document.activeElement);
  if (active && active !== document.body && !active.disabled) return;
  for (let step = 1; step <= 25; step += 1) {
    const next = board.cell((cell + step) % 25);
    if (!next.disabled) {
      next.focus();
      return;
    }
  }
}
