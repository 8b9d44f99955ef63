// @ts-check
// Drawing the table from the shared state (`table`, held by table.js): the board
// (or, in the after-game review, the board of a chosen turn), the rack, the
// players' cards, the turn line, the result, the turn clock, the log and the review.
import { el } from "../../js/kit/dom.js";
import { gettext, interpolate as t, ngettext } from "../../js/kit/i18n.js";
import { endedText } from "../../js/rooms/ended.js";
import { JOKER, LAYOUTS, SIZE } from "../data.js";
import { nextRobot } from "./ladder.js";
import { LEVEL_NAMES, game, myTurn, pendingAt, rack, root, seatName, stoneAt } from "./page.js";
import { describe, describeTurn } from "./words.js";

const PREMIUM_CLASS = { d: "ab-d2", t: "ab-d3", D: "ab-e2", T: "ab-e3", "*": "ab-centre" };
const PREMIUM_LABEL = {
  d: () => gettext("digit ×2"),
  t: () => gettext("digit ×3"),
  D: () => gettext("example ×2"),
  T: () => gettext("example ×3"),
  "*": () => gettext("centre: example ×2"),
};

const stoneText = (kind) => (kind === JOKER ? "?" : String(kind));

// In the review the board is the one before the chosen turn (the moves played
// until then), with that turn's move and the best move there was on top.
function reviewBoard(table) {
  const { review, reviewIndex } = table;
  const stones = new Map();
  const played = new Set();
  const best = new Map();
  review.slice(0, reviewIndex).forEach((turn) => {
    for (const [r, c, digit, joker] of turn.placements || []) stones.set(`${r},${c}`, { digit, joker });
  });
  const turn = review[reviewIndex];
  for (const [r, c, digit, joker] of turn.placements || []) {
    stones.set(`${r},${c}`, { digit, joker });
    played.add(`${r},${c}`);
  }
  for (const [r, c, digit, joker] of turn.best || []) {
    if (!played.has(`${r},${c}`)) best.set(`${r},${c}`, { digit, joker });
  }
  return { stones, played, best };
}

export function renderBoard(table) {
  const { log, parts } = table;
  const g = game(table);
  const layout = LAYOUTS[g.board.layout] || null;
  const cells = [];
  const lastPlaced = new Set();
  for (let i = log.length - 1; i >= 0; i -= 1) {
    if (log[i].type === "placed") {
      for (const [r, c] of log[i].placements) lastPlaced.add(`${r},${c}`);
      break;
    }
  }
  const shown = table.review && table.reviewIndex !== null ? reviewBoard(table) : null;
  for (let row = 0; row < SIZE; row += 1) {
    for (let col = 0; col < SIZE; col += 1) {
      const premium = layout ? layout[row][col] : ".";
      const key = `${row},${col}`;
      const stone = shown ? shown.stones.get(key) || null : stoneAt(table, row, col);
      const mine = shown ? null : pendingAt(table, row, col);
      const better = shown ? shown.best.get(key) : null;
      const classes = ["ab-cell"];
      let text = "";
      let label = "";
      if (stone) {
        classes.push("ab-stone");
        if (stone.joker) classes.push("ab-jokered");
        if (shown ? shown.played.has(key) : lastPlaced.has(key)) classes.push(shown ? "ab-played" : "ab-last");
        text = String(stone.digit);
        label = text;
      } else if (mine) {
        classes.push("ab-stone", "ab-pending");
        if (mine.joker) classes.push("ab-jokered");
        text = String(mine.digit);
        label = t(gettext("%(digit)s, not played yet; tap to take it back"), { digit: mine.digit });
      } else if (better) {
        classes.push("ab-hint");
        text = String(better.digit);
        label = t(gettext("%(digit)s: the best move"), { digit: better.digit });
      } else if (premium !== ".") {
        classes.push(PREMIUM_CLASS[premium]);
        label = PREMIUM_LABEL[premium]();
        text = { d: "2×", t: "3×", D: "×2", T: "×3", "*": "★" }[premium];
      }
      const cell = el("button", {
        className: classes.join(" "),
        text,
        attrs: {
          type: "button",
          "data-row": String(row),
          "data-col": String(col),
          "aria-label": `${t(gettext("row %(row)s, column %(col)s"), { row: row + 1, col: col + 1 })}${label ? `: ${label}` : ""}`,
        },
      });
      cells.push(cell);
    }
  }
  parts.board.replaceChildren(...cells);
}

export function renderRack(table) {
  const { exchanging, selected, toExchange } = table;
  const stones = rack(table);
  const used = new Set(table.pending.map((p) => p.index));
  table.parts.rack.replaceChildren(
    ...stones.map((kind, index) => {
      const classes = ["ab-rack-stone"];
      if (kind === JOKER) classes.push("ab-joker-stone");
      if (selected === index) classes.push("is-selected");
      if (exchanging && toExchange.has(index)) classes.push("is-marked");
      const button = el("button", {
        className: classes.join(" "),
        text: stoneText(kind),
        attrs: {
          type: "button",
          "data-index": String(index),
          "data-kind": String(kind),
          draggable: myTurn(table) && !exchanging ? "true" : "false",
          "aria-pressed": String(selected === index || (exchanging && toExchange.has(index))),
          "aria-label": kind === JOKER ? gettext("joker") : String(kind),
        },
      });
      if (used.has(index)) button.hidden = true;
      return button;
    }),
  );
}

// One card per seat: the name (a robot's with its level), score, stones left, and
// whether the player left.
export function renderPlayers(table) {
  const { view } = table;
  const g = game(table);
  table.parts.players.replaceChildren(
    ...g.players.map((player, seat) => {
      const classes = ["ab-player"];
      if (seat === g.turn && !g.finished) classes.push("is-on-turn");
      if (player.status !== "active") classes.push("is-out");
      return el("div", { className: classes.join(" "), attrs: { "data-seat": String(seat) } }, [
        el("span", { className: "ab-player-name", text: seatName(table, seat) + (seat === view.you ? ` (${gettext("you")})` : "") }),
        el("span", { className: "ab-player-score", text: t(ngettext("%(score)s point", "%(score)s points", player.score), { score: player.score }) }),
        el("span", { className: "muted", text: t(ngettext("%(count)s stone", "%(count)s stones", player.rack_count), { count: player.rack_count }) }),
        ...(view.seats[seat] && view.seats[seat].left ? [el("span", { className: "badge", text: gettext("left the game") })] : []),
      ]);
    }),
  );
}

export function renderTurn(table) {
  const { parts, view } = table;
  const g = game(table);
  if (g.finished || view.phase !== "playing") {
    parts.turn.textContent = view.phase === "ended" ? endedText(view) : gettext("The game is over.");
  } else if (myTurn(table)) {
    parts.turn.textContent = table.exchanging ? gettext("Choose the stones to exchange, then press Exchange again.") : gettext("Your turn.");
  } else {
    parts.turn.textContent = t(gettext("%(player)s is on turn."), { player: seatName(table, g.turn) });
  }
  parts.bag.textContent = t(gettext("Stones in the bag: %(count)s"), { count: g.bag_count });
}

export function renderResult(table) {
  const { parts, hintsUsed } = table;
  const g = game(table);
  if (!g.finished || !g.result) {
    parts.result.hidden = true;
    return;
  }
  parts.result.hidden = false;
  const name = (seat) => seatName(table, seat);
  const winners = g.result.winners.map(name).join(", ");
  const rows = g.result.standings.map((seat) =>
    el("li", {
      text: t(ngettext("%(player)s: %(score)s point (end adjustment %(adjustment)s)", "%(player)s: %(score)s points (end adjustment %(adjustment)s)", g.result.scores[seat]), {
        player: name(seat),
        score: g.result.scores[seat],
        adjustment: g.result.adjustments[seat],
      }),
    }),
  );
  const notes = [];
  if (hintsUsed > 0) {
    notes.push(
      el("p", {
        className: "ab-hinted",
        attrs: { "data-ab-hinted": String(hintsUsed) },
        text: t(
          ngettext(
            "You played with %(count)s hint. A win with hints does not count as beating the robot: try it on your own next time.",
            "You played with %(count)s hints. A win with hints does not count as beating the robot: try it on your own next time.",
            hintsUsed,
          ),
          { count: hintsUsed },
        ),
      }),
    );
  }
  const next = nextRobot(table.view, g, hintsUsed, Object.keys(LEVEL_NAMES));
  if (next === "top") notes.push(el("p", { className: "ab-next-robot", text: gettext("You beat the strongest robot!") }));
  else if (next) {
    const href = `${(root && root.dataset.hubUrl) || "/abaku/"}?level=${encodeURIComponent(next.id)}`;
    const text = t(gettext("You won! Climb to the next robot: level %(number)s, %(name)s"), { number: next.number, name: LEVEL_NAMES[next.id] });
    notes.push(el("p", { className: "ab-next-robot", attrs: { "data-ab-next-robot": next.id } }, [el("a", { className: "button", attrs: { href }, text })]));
  }
  parts.result.replaceChildren(
    el("h3", { text: winners ? t(gettext("Winner: %(winners)s"), { winners }) : gettext("The game is over.") }),
    el("ol", {}, rows),
    ...notes,
  );
}

// The turn clock: the deadline comes from the server; this only shows what is left.
export function renderClock(table) {
  const { parts, view } = table;
  const g = game(table);
  const deadline = g && !g.finished && view.phase === "playing" ? g.deadline : null;
  parts.clock.hidden = !deadline;
  if (!deadline) return;
  const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
  parts.clock.textContent = t(gettext("Time left for this turn: %(seconds)s s"), { seconds: left });
}

export function renderLog(table) {
  const { parts } = table;
  const lines = table.log.map((entry) => describe(entry, (seat) => seatName(table, seat))).filter(Boolean);
  parts.logArea.hidden = lines.length === 0;
  parts.log.replaceChildren(...lines.map((line) => el("li", { text: line })));
  parts.log.scrollTop = parts.log.scrollHeight;
}

// The review's turns as buttons; `choose(index)` shows (or hides) a turn on the board.
export function renderReview(table, choose) {
  table.parts.review.replaceChildren(
    ...table.review.map((turn, index) => {
      const button = el("button", {
        className: "button small secondary",
        text: describeTurn(turn, (seat) => seatName(table, seat)),
        attrs: { type: "button", "data-review-turn": String(index), "aria-pressed": String(index === table.reviewIndex) },
      });
      if (turn.missed && !turn.on_purpose) button.dataset.missed = String(turn.missed);
      button.addEventListener("click", () => choose(index));
      return el("li", {}, [button]);
    }),
  );
}
