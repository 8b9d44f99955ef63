// @ts-check
// Keyboard play of a board, a rack or a hand (WAI-ARIA Authoring Practices,
// roving tabindex): the group is one Tab stop; the arrows move to the nearest
// item in that direction, Home/End to the first/last of its row, Ctrl+Home/End
// to the first/last of all; Enter and Space act, as the items are buttons.
//
// Nearest by position on the screen, not by index: the same code serves the
// games' square grids, scattered tiles and a row of cards. Items
// that cannot take focus (disabled, hidden) are stepped over; a game's
// unplayable tiles are aria-disabled and stay reachable, so their face is read.

/** @typedef {{ x: number, y: number, height: number }} Spot */

/** @param {HTMLElement} item @returns {Spot} */
function spot(item) {
  const box = item.getBoundingClientRect();
  return { x: box.left + box.width / 2, y: box.top + box.height / 2, height: box.height };
}

/** @param {HTMLElement} item */
function focusable(item) {
  return !(/** @type {HTMLButtonElement} */ (item).disabled) && item.getClientRects().length > 0;
}

/** The step that moves along an arrow: [dx, dy]. */
const ARROWS = /** @type {Record<string, [number, number]>} */ ({
  ArrowRight: [1, 0],
  ArrowLeft: [-1, 0],
  ArrowDown: [0, 1],
  ArrowUp: [0, -1],
});

/**
 * The item nearest to `from` in the direction of `step`: along the arrow first,
 * off its line counting three times as far.
 * @param {HTMLElement[]} items
 * @param {HTMLElement} from
 * @param {[number, number]} step
 * @returns {HTMLElement | null}
 */
export function nearest(items, from, [dx, dy]) {
  const here = spot(from);
  let best = null;
  let bestCost = Infinity;
  for (const item of items) {
    if (item === from) continue;
    const there = spot(item);
    const along = (there.x - here.x) * dx + (there.y - here.y) * dy;
    if (along < 1) continue;
    const across = Math.abs((there.x - here.x) * dy + (there.y - here.y) * dx);
    const cost = along + 3 * across;
    if (cost < bestCost) {
      best = item;
      bestCost = cost;
    }
  }
  return best;
}

/**
 * Make the items of `group` (matched by `selector`) one Tab stop with arrow keys.
 * Items may come and go and be enabled or disabled later: the Tab stop follows.
 * @param {HTMLElement} group
 * @param {string} selector
 * @returns {{ sync: () => void }}
 */
export function roving(group, selector) {
  /** @type {HTMLElement | null} */
  let current = null;
  let place = 0;
  let focusInside = false;
  const items = () => /** @type {HTMLElement[]} */ ([...group.querySelectorAll(selector)]);

  /** @param {HTMLElement | null} item */
  function mark(item) {
    current = item;
    const every = items();
    if (item) place = Math.max(0, every.indexOf(item));
    for (const each of every) each.tabIndex = each === item ? 0 : -1;
  }

  // A board drawn anew keeps the Tab stop (and the focus, if it had it) at the
  // same place; a board still hidden (before the game starts) keeps a Tab stop
  // on its first item, so it is reachable the moment it shows.
  function sync() {
    const every = items();
    const all = every.filter(focusable);
    const active = document.activeElement;
    const lost = focusInside && (!active || active === document.body || active === current);
    if (current && !current.isConnected && every[place]) {
      current = every[place];
      if (lost && focusable(current)) current.focus({ preventScroll: true });
    } else if (current && every.includes(current) && !focusable(current) && all.length) {
      // the focused item went away (a pair taken off the table): the next one takes its place
      const next = all.find((item) => every.indexOf(item) >= place) || all[all.length - 1];
      mark(next);
      if (lost) next.focus({ preventScroll: true });
      return;
    }
    if (current && (all.includes(current) || (!all.length && every.includes(current)))) mark(current);
    else mark(all[0] || every[0] || null);
  }

  group.addEventListener("focusin", (event) => {
    focusInside = true;
    const item = /** @type {HTMLElement} */ (event.target).closest(selector);
    if (item instanceof HTMLElement && group.contains(item)) mark(item);
  });
  group.addEventListener("focusout", (event) => {
    const to = /** @type {Node | null} */ (event.relatedTarget);
    if (to && !group.contains(to)) focusInside = false;
  });
  document.addEventListener("pointerdown", (event) => {
    if (!group.contains(/** @type {Node} */ (event.target))) focusInside = false;
  });
  group.addEventListener("keydown", (event) => {
    const from = /** @type {HTMLElement} */ (event.target).closest(selector);
    if (!(from instanceof HTMLElement) || event.altKey || event.metaKey) return;
    const all = items().filter(focusable);
    /** @type {HTMLElement | null | undefined} */
    let to = null;
    if (event.key in ARROWS) {
      to = nearest(all, from, ARROWS[event.key]);
    } else if (event.key === "Home" || event.key === "End") {
      const here = spot(from);
      const row = event.ctrlKey ? all : all.filter((item) => Math.abs(spot(item).y - here.y) < here.height / 2);
      to = event.key === "Home" ? row[0] : row[row.length - 1];
    } else {
      return;
    }
    event.preventDefault();
    if (to) to.focus();
  });
  new MutationObserver(sync).observe(group, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ["disabled", "hidden"],
  });
  sync();
  return { sync };
}
