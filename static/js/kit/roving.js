// @ts-check
// Keyboard play of a board, a rack or a hand (WAI-ARIA Authoring Practices,
// roving tabindex): the group is one Tab stop; the arrows move to the nearest
// item in that direction, Home/End to the first/last of its row, Ctrl+Home/End
// to the first/last of all; Enter and Space act, as the items are buttons.
//
// Nearest by position on the screen, not by index: the same code serves the
// games' square grids, scattered tiles and a row of cards. The items fall into
// rows (top to bottom, each left to right): Left/Right go to the neighbour in
// the row, Up/Down to the nearest item of the row above or below. So every item
// is reached by some arrow from every other, however scattered (the nearest
// item "that way" by distance alone left some scattered tiles unreachable). Items
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
 * The items in rows: sorted top to bottom, an item joins the row when its centre
 * is within half the row's first item's height of that item's centre; each row
 * left to right.
 * @param {HTMLElement[]} items
 * @returns {{ item: HTMLElement, at: Spot }[][]}
 */
export function rowsOf(items) {
  const placed = items.map((item, index) => ({ item, at: spot(item), index }));
  placed.sort((a, b) => a.at.y - b.at.y || a.index - b.index);
  /** @type {{ item: HTMLElement, at: Spot, index: number }[][]} */
  const rows = [];
  for (const each of placed) {
    const row = rows[rows.length - 1];
    if (row && each.at.y - row[0].at.y < row[0].at.height / 2) row.push(each);
    else rows.push([each]);
  }
  for (const row of rows) row.sort((a, b) => a.at.x - b.at.x || a.index - b.index);
  return rows;
}

/**
 * Where an arrow leads from `from`: the next item of its row that way (Left,
 * Right), or the item of the next row that way nearest across (Up, Down); null
 * at the edge.
 * @param {HTMLElement[]} items
 * @param {HTMLElement} from
 * @param {[number, number]} step
 * @returns {HTMLElement | null}
 */
export function nearest(items, from, [dx, dy]) {
  const rows = rowsOf(items.includes(from) ? items : [...items, from]);
  const r = rows.findIndex((row) => row.some((each) => each.item === from));
  const row = rows[r];
  if (dx) {
    const next = row[row.findIndex((each) => each.item === from) + dx];
    return next ? next.item : null;
  }
  const there = rows[r + dy];
  if (!there) return null;
  const x = row.find((each) => each.item === from).at.x;
  let best = there[0];
  for (const each of there) if (Math.abs(each.at.x - x) < Math.abs(best.at.x - x)) best = each;
  return best.item;
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
      const row = event.ctrlKey
        ? all
        : rowsOf(all)
            .find((each) => each.some((one) => one.item === from))
            .map((one) => one.item);
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
