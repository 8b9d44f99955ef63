// @ts-check
// The solo page's own facts: which game it plays (root data-kind), its
// elements, the status line and what this tab remembers across a reload.

export const root = document.getElementById("poker-play");
/** @type {(id: string) => HTMLElement} */
export const $ = (id) => document.getElementById(id);
/** The page's <dialog> with this id. */
export const dialogById = (id) => /** @type {HTMLDialogElement} */ ($(id));
/** The page's <input> (or other form field with a value) with this id. */
export const inputById = (id) => /** @type {HTMLInputElement} */ ($(id));
// "free" (easy/hard with fallback), "ranked" or "daily".
export const KIND = root ? root.dataset.kind || "free" : "free";
// Class homework (root data-assignment): the server deals the class's numbers, nothing in the browser.
export const HOMEWORK = KIND === "homework";
export const COMPETITIVE = KIND === "ranked" || KIND === "daily" || HOMEWORK;
// Against the robot (server only, easy rules): the robot's board is shown beside.
export const ROBOT = KIND === "robot";

export const SETTINGS_KEY = "matika-poker-settings";
export const PREVIEW_KEY = "matika-poker-preview";

export function homeworkSettings() {
  return { kind: "assignment", assignment: Number(root.dataset.assignment) };
}
// The game in progress in this tab (one per page kind), so a reload continues it.
const CURRENT_KEY = KIND === "free" ? "matika-poker-current" : `matika-poker-current-${KIND}`;

export function readCurrent() {
  try {
    return JSON.parse(sessionStorage.getItem(CURRENT_KEY));
  } catch (e) {
    return null;
  }
}

export function writeCurrent(value) {
  try {
    if (value === null) sessionStorage.removeItem(CURRENT_KEY);
    else sessionStorage.setItem(CURRENT_KEY, JSON.stringify(value));
  } catch (e) {
    /* the game then simply does not survive a reload */
  }
}

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : root.dataset.csrf;
}

export function setStatus(text) {
  $("poker-status").textContent = text;
}
