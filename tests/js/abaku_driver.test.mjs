// Abaku's room driver (games/abaku/static/abaku/table/driver.js `takeView`): a view of
// a step the table already shows -- the same again (the table's own sync after the
// page's first snapshot, a resync) or an older one arriving late -- is not drawn
// again and drops neither the stones laid nor the stone picked.
// Run: node --test tests/js/
import assert from "node:assert/strict";
import { register } from "node:module";
import { before, describe, test } from "node:test";

// A game's modules import the kit as the site serves it (/static/abaku/... next to
// /static/js/...): map games/<game>/static/js/ to the repository's static/js/.
const SERVED = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith(".") && context.parentURL) {
    const url = new URL(specifier, context.parentURL).href;
    const kit = url.replace(/\\/games\\/[^/]+\\/static\\/js\\//, "/static/js/");
    if (kit !== url) return next(kit, context);
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(SERVED)}`);

let takeView;

before(async () => {
  // The table's modules read their page at import: here there is none.
  globalThis.document = { querySelector: () => null };
  ({ takeView } = await import("../../games/abaku/static/abaku/table/driver.js"));
});

function view(stones, turn = 0) {
  return {
    phase: "playing",
    you: 0,
    seats: [{ nickname: "Anna" }, { robot: "easy" }],
    game: { turn, finished: false, board: { stones }, players: [{ rack: [1, 2, 3, 4, 5] }, { rack_count: 5 }] },
  };
}

/** The table's state as table.js holds it, counting its redraws. */
function table() {
  const state = {
    view: null,
    seq: null,
    viewText: null,
    log: [],
    pending: [],
    selected: null,
    draws: 0,
    render() {
      state.draws += 1;
      // as table.js: off the player's turn nothing of a move in the making stays
      if (state.view.game.turn !== state.view.you) {
        state.pending = [];
        state.selected = null;
      }
    },
    requestPreview() {},
  };
  return state;
}

describe("abaku takeView", () => {
  test("the same step's view again is not drawn and keeps the laid stone and the pick", () => {
    const t = table();
    takeView(t, view([]), 4);
    t.pending = [{ index: 0, row: 7, col: 7, digit: 1, joker: false }];
    t.selected = 2;
    takeView(t, view([]), 4);
    assert.equal(t.draws, 1);
    assert.equal(t.pending.length, 1);
    assert.equal(t.selected, 2);
  });

  test("an older step's view arriving late changes nothing", () => {
    const t = table();
    takeView(t, view([[7, 7, 3, false]], 0), 6);
    t.pending = [{ index: 0, row: 7, col: 8, digit: 1, joker: false }];
    t.selected = 1;
    takeView(t, view([], 1), 5);
    assert.deepEqual(t.view.game.board.stones, [[7, 7, 3, false]]);
    assert.equal(t.pending.length, 1);
    assert.equal(t.selected, 1);
    assert.equal(t.draws, 1);
  });

  test("a new step's view is drawn; a changed board drops the stones laid", () => {
    const t = table();
    takeView(t, view([]), 4);
    t.pending = [{ index: 0, row: 7, col: 7, digit: 1, joker: false }];
    takeView(t, view([[7, 7, 5, false]], 0), 5);
    assert.equal(t.draws, 2);
    assert.equal(t.pending.length, 0);
  });

  test("a view without a step (or a different one of the same step) is drawn", () => {
    const t = table();
    takeView(t, view([]), 4);
    takeView(t, view([]), null);
    const richer = view([]);
    richer.game.players[0].rack = [1, 2, 3, 4, 6];
    takeView(t, richer, 4);
    assert.equal(t.draws, 3);
  });
});
