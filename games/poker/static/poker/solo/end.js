// @ts-check
// The end of a solo game: the score, what happened to it (recorded, published,
// not recorded and why), the daily place, the robot's result, sharing, review.

import { dayText, gettext, interpolate, ngettext } from "../../js/kit/i18n.js";
import { openDialog } from "../common.js";
import { NOT_RECORDED } from "./local.js";
import { $, ROBOT, dialogById, root } from "./page.js";
import { ROBOT_LEVELS } from "./render.js";
import { ServerDriver } from "./server.js";

function shareText(result) {
  const url = new URL(window.location.pathname, window.location.origin).href;
  return interpolate(
    ngettext(
      "Matika daily challenge %(day)s: %(score)s point, place %(rank)s of the day, streak %(streak)s. %(url)s",
      "Matika daily challenge %(day)s: %(score)s points, place %(rank)s of the day, streak %(streak)s. %(url)s",
      result.score,
    ),
    { ...result, day: dayText(result.day), url },
  );
}

/** Put the share text on the clipboard (or show it to copy by hand). */
export async function share(result) {
  const text = shareText(result);
  const box = /** @type {HTMLTextAreaElement} */ ($("poker-share-text"));
  box.value = text;
  let copied = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      copied = true;
    }
  } catch (error) {
    copied = false;
  }
  box.hidden = false;
  if (!dialogById("poker-end-dialog").open) {
    const intro = $("poker-share-intro");
    if (intro) {
      intro.after(box);
      box.hidden = false;
    }
  }
  box.select();
  $("poker-share-status").textContent = copied
    ? gettext("Copied: paste it into a chat.")
    : gettext("Copy the text below and paste it into a chat.");
}

/** The end dialog of a finished game led by ``driver``; ``daily`` is the
 * day's place and streak when the server sent them. */
export function showEnd(view, driver, daily) {
  $("poker-timer").hidden = true;
  $("poker-end-score").textContent = String(view.score);
  const empty = view.cells.filter((value) => value === null).length;
  const details = [];
  if (view.completed) {
    details.push(gettext("All 25 cells are filled."));
  } else {
    details.push(interpolate(ngettext("%(count)s cell stayed empty.", "%(count)s cells stayed empty.", empty), { count: empty }));
    if (view.forfeited > 0) {
      details.push(
        interpolate(ngettext("%(count)s number ran out of time.", "%(count)s numbers ran out of time.", view.forfeited), { count: view.forfeited }),
      );
    }
  }
  if (view.kept_jokers > 0) {
    // A kept joker needs a free cell; one still kept at the end is lost.
    details.push(
      interpolate(
        ngettext(
          "%(count)s kept joker was lost: no free cell was left for it.",
          "%(count)s kept jokers were lost: no free cell was left for them.",
          view.kept_jokers,
        ),
        { count: view.kept_jokers },
      ),
    );
  }
  $("poker-end-detail").textContent = details.join(" ");
  const record = $("poker-end-record");
  const recorded = driver.recorded && view.recorded !== false;
  record.classList.toggle("is-recorded", recorded);
  if (view.kind === "daily" && view.replay) {
    record.textContent = gettext("A replay of today's numbers: not recorded.");
  } else if (view.kind === "ranked") {
    record.textContent = view.published
      ? gettext("Recorded and published on the leaderboards.")
      : view.completed
        ? gettext("Recorded in your profile; not published on the leaderboards.")
        : gettext("Recorded in your profile; only a full board enters the leaderboards.");
  } else if (view.kind === "daily") {
    record.textContent = view.published
      ? gettext("Recorded and published on the table of the day.")
      : gettext("Recorded in your profile; not published on the table of the day.");
  } else {
    record.textContent = recorded
      ? gettext("The game was recorded in your profile.")
      : (NOT_RECORDED[driver.reason] || NOT_RECORDED.offline)();
  }
  const dailyLine = $("poker-end-daily");
  const showDaily = view.kind === "daily" && !view.replay && daily;
  dailyLine.hidden = !showDaily;
  $("poker-share-box").hidden = !showDaily;
  $("poker-share-text").hidden = true;
  $("poker-share-status").textContent = "";
  if (showDaily) {
    dailyLine.textContent = interpolate(gettext("Place %(rank)s of the day · streak %(streak)s"), daily);
    if (typeof daily.coach_score === "number") {
      dailyLine.textContent += ` · ${interpolate(
        ngettext("the coach: %(score)s point on the same numbers", "the coach: %(score)s points on the same numbers", daily.coach_score),
        { score: daily.coach_score },
      )}`;
    }
  }
  $("poker-again").textContent =
    view.kind === "daily" ? gettext("Replay the numbers") : gettext("Play again");
  const settingsLink = /** @type {HTMLAnchorElement | null} */ ($("poker-end-dialog").querySelector("a.button"));
  if (settingsLink) {
    settingsLink.hidden = view.kind === "daily";
    if (view.kind === "ranked" || ROBOT) settingsLink.href = window.location.pathname;
  }
  const robotLine = $("poker-end-robot");
  robotLine.hidden = !(ROBOT && view.robot);
  if (ROBOT && view.robot) {
    const words = { mine: view.score, robot: view.robot.score, level: ROBOT_LEVELS[view.robot.level]() };
    robotLine.textContent =
      view.score > view.robot.score
        ? interpolate(gettext("You beat the robot (%(level)s): %(mine)s to %(robot)s."), words)
        : view.score < view.robot.score
          ? interpolate(gettext("The robot (%(level)s) won: %(robot)s to %(mine)s."), words)
          : interpolate(gettext("A draw with the robot (%(level)s): %(mine)s to %(robot)s."), words);
  }
  // A game the server led can be reviewed with the coach (a shareable page).
  // (A homework game: only once the homework shows reviews, ``view.reviewable``.)
  const reviewable = driver instanceof ServerDriver && Boolean(view.id) && view.reviewable !== false;
  $("poker-review-box").hidden = !reviewable;
  if (reviewable) {
    /** @type {HTMLAnchorElement} */ ($("poker-review-link")).href = root.dataset.reviewUrl.replace("GAME", view.id);
  }
  const dialog = dialogById("poker-end-dialog");
  openDialog(dialog);
  $("poker-again").focus();
}
