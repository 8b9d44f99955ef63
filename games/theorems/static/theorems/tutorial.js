// A short guided first game: a few steps that point at the real table (the turn
// line, the hand, the player's own board, boredom, the turn buttons and the log).
// Dismissible at any step; once finished or skipped it is remembered in this
// browser's localStorage and not shown again.
import { el } from "../js/kit/dom.js";
import { gettext, interpolate as t } from "../js/kit/i18n.js";

const KEY = "matika.theorems.tutorial";

function steps() {
  return [
    { target: "[data-th-turn]", text: gettext("Here you see whose turn it is and how many actions you have left.") },
    { target: "[data-th-hand]", text: gettext("Your hand. Each Play costs one action: a theorem goes onto your table, a tool stays there, an event acts at once.") },
    { target: ".th-player.th-mine", text: gettext("Your board. Press Prove on a theorem to move it forward; prove as many theorems as your mathematician's ambition and you win.") },
    { target: ".th-player.th-mine .th-boredom", text: gettext("Boredom grows at the end of every turn. When it reaches your patience, you fall asleep and lose.") },
    { target: "[data-th-global]", text: gettext("Draw a card or end your turn here. The log below tells you what everybody did.") },
  ];
}

function remembered() {
  try {
    return window.localStorage.getItem(KEY) === "done";
  } catch {
    return false;
  }
}

function remember() {
  try {
    window.localStorage.setItem(KEY, "done");
  } catch {
    // private mode: the tutorial simply shows again next time
  }
}

export function createTutorial(root) {
  let step = remembered() ? -1 : 0;
  let panel = null;

  function clearTargets() {
    for (const node of root.querySelectorAll(".th-tutorial-target")) node.classList.remove("th-tutorial-target");
  }

  function close() {
    step = -1;
    remember();
    clearTargets();
    if (panel) panel.remove();
    panel = null;
  }

  // Called after every render: the table's parts are rebuilt, so mark the target again.
  function refresh() {
    if (step < 0) return;
    const list = steps();
    const current = list[step];
    clearTargets();
    const target = root.querySelector(current.target);
    if (target) target.classList.add("th-tutorial-target");
    const last = step === list.length - 1;
    const next = el("button", {
      className: "button small",
      text: last ? gettext("Got it") : gettext("Next"),
      attrs: { type: "button", "data-tutorial-next": "" },
    });
    next.addEventListener("click", () => {
      if (last) close();
      else {
        step += 1;
        refresh();
        if (panel) panel.querySelector("[data-tutorial-next]").focus();
      }
    });
    const skip = el("button", {
      className: "button small secondary",
      text: gettext("Skip the tutorial"),
      attrs: { type: "button", "data-tutorial-skip": "" },
    });
    skip.addEventListener("click", close);
    const fresh = el("aside", { className: "th-tutorial card", attrs: { "data-tutorial": String(step + 1), "aria-label": gettext("First game tutorial") } }, [
      el("p", { className: "th-tutorial-count", text: t(gettext("Step %(step)s of %(count)s"), { step: step + 1, count: list.length }) }),
      el("p", { className: "th-tutorial-text", text: current.text }),
      el("div", { className: "button-row" }, [next, skip]),
    ]);
    if (panel) panel.replaceWith(fresh);
    else root.querySelector("[data-th-game]").prepend(fresh);
    panel = fresh;
  }

  // Out of a running game (the end screen): no panel and no highlighted target.
  function hide() {
    clearTargets();
    if (panel) panel.remove();
    panel = null;
  }

  return { refresh, close, hide };
}
