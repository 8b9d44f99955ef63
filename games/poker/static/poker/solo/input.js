// The player's input: the start buttons and form, clicks on the board, the
// hand and the reserve, the joker dialog, the keyboard (G draws, the focus
// moves on after a placement) and the clock's tick.

import { closeDialog, onDrawKey, writeStorage } from "../common.js";
import { JOKER } from "../deck.js";
import { share } from "./end.js";
import { $, HOMEWORK, KIND, PREVIEW_KEY, ROBOT, SETTINGS_KEY, homeworkSettings, root } from "./page.js";
import { readSettings, syncSetup } from "./setup.js";

/** Every control of the page, each calling one intent of ``play`` (the controller). */
export function wireControls(play) {
  const form = $("poker-setup");
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
        const level = form.querySelector("input[name=level]:checked");
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
  for (const button of document.querySelectorAll("#poker-joker-dialog [data-value]")) {
    button.addEventListener("click", () => play.chooseJokerValue(Number(button.dataset.value)));
  }
  $("poker-keep-joker").addEventListener("click", () => play.keepJoker());
  $("poker-again").addEventListener("click", () => {
    closeDialog($("poker-end-dialog"));
    play.startAgain();
  });
  $("poker-new").addEventListener("click", () => play.startAgain());
  onDrawKey(() => play.draw());
  window.setInterval(() => play.tick(), 200);
}

/** Keyboard play: after a placement the focus moves on to the next free cell. */
export function focusAfter(board, cell) {
  if (document.querySelector("dialog[open]")) return;
  const active = document.activeElement;
  if (active && active !== document.body && !active.disabled) return;
  for (let step = 1; step <= 25; step += 1) {
    const next = board.cell((cell + step) % 25);
    if (!next.disabled) {
      next.focus();
      return;
    }
  }
}
