// Small helpers shared by the poker pages: dialogs, time, randomness, storage,
// the engine's messages and the joker flow. Translations come from the kit
// (../js/kit/i18n.js).

import { gettext, interpolate } from "../js/kit/i18n.js";

/** Seconds since the epoch, the unit the engine uses. */
export function nowSeconds() {
  return Date.now() / 1000;
}

/** A 64-bit seed from the browser's cryptographic generator. */
export function randomSeed() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}

/** Open a <dialog> modally; buttons marked data-close and Esc close it.
 * @param {any} dialog
 * @param {{ onCancel?: () => void }} [options] */
export function openDialog(dialog, { onCancel } = {}) {
  if (!dialog.dataset.wired) {
    dialog.dataset.wired = "1";
    for (const button of dialog.querySelectorAll("[data-close]")) {
      button.addEventListener("click", () => {
        dialog.close();
        if (dialog.onCancelled) dialog.onCancelled();
      });
    }
    dialog.addEventListener("cancel", () => {
      if (dialog.onCancelled) dialog.onCancelled();
    });
  }
  dialog.onCancelled = onCancel || null;
  if (!dialog.open) dialog.showModal();
}

export function closeDialog(dialog) {
  if (dialog.open) dialog.close();
}

/** G (without Ctrl, Alt or Meta) draws the next number, unless a dialog is
 * open or the focus is in a form field. */
export function onDrawKey(draw) {
  document.addEventListener("keydown", (event) => {
    if (event.key !== "g" && event.key !== "G") return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
    event.preventDefault();
    draw();
  });
}

export function readStorage(key, fallback = null) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch (e) {
    return fallback;
  }
}

export function writeStorage(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch (e) {
    return false;
  }
}

/** The engine's stable codes in words (the same msgids as the server's). */
export const RULE_MESSAGES = {
  game_over: () => gettext("The game has ended."),
  no_card: () => gettext("There is no number in your hand yet."),
  joker_in_hand: () => gettext("You hold a joker: give it a value or keep it."),
  not_joker: () => gettext("The card in your hand is a number, not a joker."),
  no_kept_joker: () => gettext("You have no kept joker."),
  bad_cell: () => gettext("Choose one of the 25 cells."),
  cell_taken: () => gettext("That cell is already filled."),
  bad_value: () => gettext("A joker's value must be 1 to 13."),
};

// The joker flow shared by the solo board and the room board. `pending` is a
// joker whose value was chosen and waits for a cell: { source: "hand"|"kept", value }.

/** What a click on the empty `cell` means: { action } to send, { ask } to open
 * the joker dialog for a joker in the hand, or { status } to explain why not. */
export function cellAction(hand, pending, cell, joker) {
  if (pending) {
    const type = pending.source === "hand" ? "use_joker" : "place_kept_joker";
    return { action: { type, cell, value: pending.value } };
  }
  if (hand === joker) return { ask: "hand" };
  if (hand === null) return { status: gettext("There is no number in your hand yet.") };
  return { action: { type: "place", cell } };
}

/** `pending`, or null once its joker is gone (placed, forfeited, or never there). */
export function livePending(pending, view, joker) {
  if (!pending) return null;
  if (pending.source === "hand" && view.hand !== joker) return null;
  if (pending.source === "kept" && view.kept_jokers === 0) return null;
  return pending;
}

/** Word the joker dialog for a joker in the hand or a kept one, and open it. */
export function openJokerDialog(dialog, { title, text, keep }, source) {
  title.textContent = source === "hand" ? gettext("Joker!") : gettext("Place a kept joker");
  text.textContent =
    source === "hand"
      ? gettext("Give it a value and place it now, or keep it for later.")
      : gettext("Choose its value, then the cell.");
  keep.hidden = source !== "hand";
  openDialog(dialog);
  const first = dialog.querySelector("[data-value]");
  if (first) first.focus();
}

/** After a joker's value is chosen: say so and focus the best (or first) free cell. */
export function jokerValueChosen(value, cells, setStatus) {
  setStatus(interpolate(gettext("Joker as %(value)s: choose a cell."), { value }));
  const best = cells.find((cell) => cell.classList.contains("is-best"));
  const target = best || cells.find((cell) => !cell.disabled);
  if (target) target.focus();
}
