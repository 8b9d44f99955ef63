// The Abaku table inside a room page: the 15×15 board, the rack, the preview, the log.
// State comes only from the server: the snapshot's `view` and the `view` events after
// every step (private ones carry the own rack); the engine's public events feed the log.
// The score of a move is always computed by the server (the preview view), never here.
import { confirmDialog } from "../js/kit/dialog.js";
import { el } from "../js/kit/dom.js";
import { gettext, interpolate as t, ngettext } from "../js/kit/i18n.js";
import { TickRequester, whenRoomReady } from "../js/kit/socket.js";
import { JOKER, LAYOUTS, SIZE } from "./data.js";

const PREMIUM_CLASS = { d: "ab-d2", t: "ab-d3", D: "ab-e2", T: "ab-e3", "*": "ab-centre" };
const PREMIUM_LABEL = {
  d: () => gettext("digit ×2"),
  t: () => gettext("digit ×3"),
  D: () => gettext("example ×2"),
  T: () => gettext("example ×3"),
  "*": () => gettext("centre: example ×2"),
};

const root = document.querySelector("[data-abaku-table]");
// The robots' names come with the page (games/abaku/presentation.py names them once).
const LEVEL_NAMES = root ? JSON.parse(root.dataset.levelNames || "{}") : {};

if (root) {
  const $ = (name) => root.querySelector(`[data-ab-${name}]`);
  const parts = {
    lobby: $("lobby"),
    game: $("game"),
    turn: $("turn"),
    players: $("players"),
    bag: $("bag"),
    board: $("board"),
    rackArea: $("rack-area"),
    rack: $("rack"),
    preview: $("preview"),
    error: $("error"),
    confirm: $("confirm"),
    recall: $("recall"),
    exchange: $("exchange"),
    skip: $("skip"),
    result: $("result"),
    logArea: $("log-area"),
    log: $("log"),
    joker: $("joker"),
    jokerDigits: $("joker-digits"),
    jokerCancel: $("joker-cancel"),
    clock: $("clock"),
    zoom: $("zoom"),
    hint: $("hint"),
    reviewOpen: $("review-open"),
    reviewArea: $("review-area"),
    review: $("review"),
    boardWrap: root.querySelector(".ab-board-wrap"),
  };
  const previewUrl = root.dataset.previewUrl;
  const hintUrl = root.dataset.hintUrl;
  const reviewUrl = root.dataset.reviewUrl;
  let review = null; // the after-game review's turns, once fetched
  let reviewIndex = null; // the turn shown on the board
  const csrfInput = document.querySelector("input[name=csrfmiddlewaretoken]");
  let view = null;
  let log = [];
  let socket = null;
  let busy = false;
  let pending = []; // [{index, row, col, digit, joker}]
  let selected = null; // rack index
  let exchanging = false;
  let toExchange = new Set();
  let previewToken = 0;
  let previewOk = false;
  let version = 0;
  let jokerTarget = null;
  let scrolledToGame = false;
  // Hints given in this game (the server counts them; a win with hints is recorded as such).
  let hintsUsed = Number(root.dataset.hintsUsed || 0);

  const game = () => (view ? view.game : null);
  const myTurn = () => {
    const g = game();
    return Boolean(view && view.phase === "playing" && g && !g.finished && view.you !== null && g.turn === view.you);
  };
  const rack = () => {
    const g = game();
    if (!g || view.you === null || view.you === undefined) return [];
    return g.players[view.you].rack || [];
  };

  function seatName(seat) {
    const info = view && view.seats ? view.seats[seat] : null;
    if (!info) return "?";
    if (info.robot) {
      const level = LEVEL_NAMES[info.robot] || info.robot;
      return t(gettext("Robot %(number)s (%(level)s)"), { number: seat + 1, level });
    }
    return info.nickname;
  }

  const stoneText = (kind) => (kind === JOKER ? "?" : String(kind));

  // --- the log in words ------------------------------------------------------------

  function describe(entry) {
    const who = seatName(entry.player);
    switch (entry.type) {
      case "placed":
        return t(ngettext("%(player)s: %(examples)s — %(score)s point.", "%(player)s: %(examples)s — %(score)s points.", entry.score), {
          player: who,
          examples: entry.examples.map((e) => t(gettext("%(text)s (%(points)s)"), e)).join(", "),
          score: entry.score,
        });
      case "exchanged":
        return t(ngettext("%(player)s exchanged %(count)s stone.", "%(player)s exchanged %(count)s stones.", entry.count), {
          player: who,
          count: entry.count,
        });
      case "skipped":
        return entry.reason === "timeout"
          ? t(gettext("%(player)s ran out of time."), { player: who })
          : t(gettext("%(player)s skipped the turn."), { player: who });
      case "forfeited":
        if (entry.reason === "left") return t(gettext("%(player)s left the game."), { player: who });
        return t(gettext("%(player)s gave up after three empty turns."), { player: who });
      case "game_over":
        if (!entry.winners.length) return gettext("The game is over.");
        return t(gettext("The game is over. Winner: %(winners)s."), { winners: entry.winners.map(seatName).join(", ") });
      default:
        return null;
    }
  }

  function renderLog() {
    const lines = log.map(describe).filter(Boolean);
    parts.logArea.hidden = lines.length === 0;
    parts.log.replaceChildren(...lines.map((line) => el("li", { text: line })));
    parts.log.scrollTop = parts.log.scrollHeight;
  }

  // --- sending ---------------------------------------------------------------------

  async function send(message) {
    if (busy) return false;
    busy = true;
    parts.error.textContent = "";
    root.dataset.busy = "true";
    try {
      await socket.send(message);
      return true;
    } catch (error) {
      parts.error.textContent = error.message || error.code;
      return false;
    } finally {
      busy = false;
      root.dataset.busy = "false";
    }
  }

  // Robots act and clocks run out on the server's tick: ask for it when it is due.
  const ticks = new TickRequester(
    (message) => socket.send(message),
    () => {
      const g = game();
      if (!view || view.phase !== "playing" || !g || g.finished) return null;
      if (view.seats[g.turn].robot) return (view.settings.robot_delay_ms || 0) + 60;
      if (g.deadline) return Math.max(0, g.deadline * 1000 - Date.now()) + 200;
      return null;
    },
    400,
  );
  function scheduleTick() {
    ticks.schedule();
  }

  // --- placing stones ----------------------------------------------------------------

  function stoneAt(row, col) {
    const g = game();
    if (!g) return null;
    for (const [r, c, digit, joker] of g.board.stones) if (r === row && c === col) return { digit, joker };
    return null;
  }

  function pendingAt(row, col) {
    return pending.find((p) => p.row === row && p.col === col) || null;
  }

  function placeSelected(row, col, index = selected) {
    if (!myTurn() || exchanging || index === null || index === undefined) return;
    if (stoneAt(row, col) || pendingAt(row, col)) return;
    if (pending.some((p) => p.index === index)) return;
    const kind = rack()[index];
    if (kind === undefined) return;
    if (kind === JOKER) {
      jokerTarget = { index, row, col };
      openJoker();
      return;
    }
    pending.push({ index, row, col, digit: kind, joker: false });
    selected = null;
    changed();
  }

  function openJoker() {
    parts.jokerDigits.replaceChildren(
      ...Array.from({ length: 10 }, (_, digit) => {
        const button = el("button", { className: "button ab-joker-digit", text: String(digit), attrs: { type: "button" } });
        button.addEventListener("click", () => {
          const target = jokerTarget;
          jokerTarget = null;
          parts.joker.close();
          if (!target) return;
          pending.push({ ...target, digit, joker: true });
          selected = null;
          changed();
        });
        return button;
      }),
    );
    parts.joker.showModal();
  }

  parts.jokerCancel.addEventListener("click", () => {
    jokerTarget = null;
    parts.joker.close();
  });

  function recall() {
    pending = [];
    selected = null;
    changed();
  }

  function changed() {
    parts.error.textContent = "";
    render();
    requestPreview();
  }

  async function requestPreview() {
    previewToken += 1;
    const token = previewToken;
    previewOk = false;
    parts.confirm.disabled = true;
    if (!pending.length) {
      parts.preview.replaceChildren();
      return;
    }
    parts.preview.replaceChildren(el("p", { className: "muted", text: gettext("Checking the move…") }));
    let answer;
    try {
      const response = await fetch(previewUrl, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfInput ? csrfInput.value : "" },
        body: JSON.stringify({ placements: pending.map((p) => [p.row, p.col, p.digit, p.joker]) }),
      });
      answer = await response.json();
    } catch (error) {
      answer = { ok: false, message: gettext("The move could not be checked. Try again.") };
    }
    if (token !== previewToken) return;
    if (answer.ok) {
      previewOk = true;
      parts.preview.replaceChildren(
        el("p", { className: "ab-preview-score", text: t(ngettext("This move scores %(score)s point.", "This move scores %(score)s points.", answer.score), { score: answer.score }) }),
        el("ul", {}, answer.examples.map((e) => el("li", { text: t(gettext("%(text)s (%(points)s)"), e) }))),
      );
    } else {
      parts.preview.replaceChildren(el("p", { className: "ab-preview-bad", text: answer.message }));
    }
    parts.confirm.disabled = !(previewOk && myTurn());
    root.dataset.preview = previewOk ? "ok" : "bad";
  }

  parts.confirm.addEventListener("click", async () => {
    if (!pending.length || !myTurn()) return;
    const placements = pending.map((p) => [p.row, p.col, p.digit, p.joker]);
    if (await send({ type: "place", placements })) {
      pending = [];
      parts.preview.replaceChildren();
    }
  });
  parts.recall.addEventListener("click", recall);
  parts.skip.addEventListener("click", async () => {
    if (!myTurn()) return;
    if (!(await confirmDialog(gettext("Skip this turn? Three empty turns in a row end your game.")))) return;
    pending = [];
    await send({ type: "skip" });
  });
  parts.exchange.addEventListener("click", async () => {
    if (!myTurn()) return;
    if (!exchanging) {
      pending = [];
      exchanging = true;
      toExchange = new Set();
      changed();
      return;
    }
    const stones = [...toExchange].map((index) => rack()[index]);
    if (!stones.length) {
      exchanging = false;
      render();
      return;
    }
    if (await send({ type: "exchange", stones })) {
      exchanging = false;
      toExchange = new Set();
    }
    render();
  });

  // --- drawing ----------------------------------------------------------------------

  // In the review the board is the one before the chosen turn (the moves played
  // until then), with that turn's move and the best move there was on top.
  function reviewBoard() {
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

  function renderBoard() {
    const g = game();
    const layout = LAYOUTS[g.board.layout] || null;
    const cells = [];
    const lastPlaced = new Set();
    for (let i = log.length - 1; i >= 0; i -= 1) {
      if (log[i].type === "placed") {
        for (const [r, c] of log[i].placements) lastPlaced.add(`${r},${c}`);
        break;
      }
    }
    const shown = review && reviewIndex !== null ? reviewBoard() : null;
    for (let row = 0; row < SIZE; row += 1) {
      for (let col = 0; col < SIZE; col += 1) {
        const premium = layout ? layout[row][col] : ".";
        const key = `${row},${col}`;
        const stone = shown ? shown.stones.get(key) || null : stoneAt(row, col);
        const mine = shown ? null : pendingAt(row, col);
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

  function renderRack() {
    const stones = rack();
    const used = new Set(pending.map((p) => p.index));
    parts.rack.replaceChildren(
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
            draggable: myTurn() && !exchanging ? "true" : "false",
            "aria-pressed": String(selected === index || (exchanging && toExchange.has(index))),
            "aria-label": kind === JOKER ? gettext("joker") : String(kind),
          },
        });
        if (used.has(index)) button.hidden = true;
        return button;
      }),
    );
  }

  function renderPlayers() {
    const g = game();
    parts.players.replaceChildren(
      ...g.players.map((player, seat) => {
        const classes = ["ab-player"];
        if (seat === g.turn && !g.finished) classes.push("is-on-turn");
        if (player.status !== "active") classes.push("is-out");
        return el("div", { className: classes.join(" "), attrs: { "data-seat": String(seat) } }, [
          el("span", { className: "ab-player-name", text: seatName(seat) + (seat === view.you ? ` (${gettext("you")})` : "") }),
          el("span", { className: "ab-player-score", text: t(ngettext("%(score)s point", "%(score)s points", player.score), { score: player.score }) }),
          el("span", { className: "muted", text: t(ngettext("%(count)s stone", "%(count)s stones", player.rack_count), { count: player.rack_count }) }),
          ...(view.seats[seat] && view.seats[seat].left ? [el("span", { className: "badge", text: gettext("left the game") })] : []),
        ]);
      }),
    );
  }

  function renderTurn() {
    const g = game();
    if (g.finished || view.phase !== "playing") {
      parts.turn.textContent = view.phase === "ended" ? gettext("The host ended the game.") : gettext("The game is over.");
    } else if (myTurn()) {
      parts.turn.textContent = exchanging ? gettext("Choose the stones to exchange, then press Exchange again.") : gettext("Your turn.");
    } else {
      parts.turn.textContent = t(gettext("%(player)s is on turn."), { player: seatName(g.turn) });
    }
    parts.bag.textContent = t(gettext("Stones in the bag: %(count)s"), { count: g.bag_count });
  }

  function renderResult() {
    const g = game();
    if (!g.finished || !g.result) {
      parts.result.hidden = true;
      return;
    }
    parts.result.hidden = false;
    const winners = g.result.winners.map(seatName).join(", ");
    const rows = g.result.standings.map((seat) =>
      el("li", {
        text: t(ngettext("%(player)s: %(score)s point (end adjustment %(adjustment)s)", "%(player)s: %(score)s points (end adjustment %(adjustment)s)", g.result.scores[seat]), {
          player: seatName(seat),
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
    parts.result.replaceChildren(
      el("h3", { text: winners ? t(gettext("Winner: %(winners)s"), { winners }) : gettext("The game is over.") }),
      el("ol", {}, rows),
      ...notes,
    );
  }

  function render() {
    version += 1;
    root.dataset.version = String(version);
    const g = game();
    root.dataset.phase = view ? view.phase : "lobby";
    parts.lobby.hidden = Boolean(g);
    parts.game.hidden = !g;
    if (!g) return;
    // On a phone the game opens scrolled to the turn line: board and rack then share the screen.
    if (!scrolledToGame && window.matchMedia("(max-width: 40rem)").matches) {
      scrolledToGame = true;
      requestAnimationFrame(() => parts.turn.scrollIntoView({ block: "start" }));
    }
    root.dataset.turn = myTurn() ? "mine" : "other";
    if (!myTurn()) {
      pending = [];
      selected = null;
      exchanging = false;
    }
    renderTurn();
    renderPlayers();
    renderBoard();
    renderRack();
    renderResult();
    renderClock();
    parts.rackArea.hidden = view.you === null || view.you === undefined || g.finished || view.phase !== "playing";
    const turn = myTurn();
    parts.exchange.disabled = !turn || g.bag_count === 0;
    parts.exchange.textContent = exchanging ? gettext("Exchange the marked stones") : gettext("Exchange stones");
    parts.skip.disabled = !turn || exchanging;
    parts.recall.disabled = !pending.length;
    parts.confirm.disabled = !(turn && previewOk && pending.length);
    parts.hint.hidden = !hintAllowed() || view.phase !== "playing" || g.finished;
    parts.hint.disabled = !turn || exchanging;
    const over = g.finished || view.phase !== "playing";
    parts.reviewOpen.hidden = !over || view.you === null || view.you === undefined || Boolean(review);
    parts.reviewArea.hidden = !review;
    renderLog();
    scheduleTick();
  }

  // The turn clock: the deadline comes from the server; this only shows what is left.
  function renderClock() {
    const g = game();
    const deadline = g && !g.finished && view.phase === "playing" ? g.deadline : null;
    parts.clock.hidden = !deadline;
    if (!deadline) return;
    const left = Math.max(0, Math.ceil(deadline - Date.now() / 1000));
    parts.clock.textContent = t(gettext("Time left for this turn: %(seconds)s s"), { seconds: left });
  }
  setInterval(renderClock, 1000);

  // Bigger squares on a phone: the board scrolls sideways inside its frame.
  parts.zoom.addEventListener("click", () => {
    const zoomed = !parts.boardWrap.classList.contains("is-zoomed");
    parts.boardWrap.classList.toggle("is-zoomed", zoomed);
    parts.zoom.setAttribute("aria-pressed", String(zoomed));
    parts.zoom.textContent = zoomed ? gettext("Smaller board") : gettext("Bigger board");
  });

  // --- hints and the review (practice and robot games; the server decides) ------------

  // Hints only where nobody else plays: every other seat is a robot (or there is none).
  function hintAllowed() {
    if (!view || view.you === null || view.you === undefined) return false;
    return view.seats.every((seat) => seat.seat === view.you || seat.player_id === null);
  }

  async function post(url) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "X-CSRFToken": csrfInput ? csrfInput.value : "" },
    });
    return response.json();
  }

  // The hint lays the best move's stones from the rack as a proposal: the preview
  // scores it, the player may play it or take the stones back.
  parts.hint.addEventListener("click", async () => {
    if (!myTurn() || busy) return;
    parts.hint.disabled = true;
    let answer;
    try {
      answer = await post(hintUrl);
    } catch (error) {
      answer = { ok: false, message: gettext("The hint could not be fetched. Try again.") };
    }
    parts.hint.disabled = !myTurn();
    if (!answer.ok) {
      parts.error.textContent = answer.message || answer.code;
      return;
    }
    if (!answer.placements) {
      parts.error.textContent = gettext("No move is possible with these stones: exchange or skip.");
      return;
    }
    pending = [];
    selected = null;
    const free = rack().map((kind, index) => ({ kind, index }));
    for (const [row, col, digit, joker] of answer.placements) {
      const found = free.findIndex((stone) => stone.kind === (joker ? JOKER : digit));
      if (found < 0) continue;
      pending.push({ index: free[found].index, row, col, digit, joker: Boolean(joker) });
      free.splice(found, 1);
    }
    root.dataset.hint = String(answer.score);
    if (Number.isInteger(answer.hints)) hintsUsed = answer.hints;
    changed();
  });

  function describeTurn(turn) {
    const who = seatName(turn.player);
    const played =
      turn.action === "place"
        ? t(ngettext("%(score)s point", "%(score)s points", turn.score), { score: turn.score })
        : turn.action === "exchange"
          ? gettext("exchanged")
          : gettext("empty turn");
    if (turn.best_score === null) return t(gettext("Turn %(number)s, %(player)s: %(played)s"), { number: turn.move_number, player: who, played });
    // A robot that leaves the top score on purpose: said as what it is, not as missed points.
    if (turn.on_purpose === "strong") {
      return t(gettext("Turn %(number)s, %(player)s: %(played)s; played for the position rather than the top score (%(best)s)"), { number: turn.move_number, player: who, played, best: turn.best_score });
    }
    if (turn.on_purpose) {
      return t(gettext("Turn %(number)s, %(player)s: %(played)s; at its level the robot leaves the top score (%(best)s) on purpose"), { number: turn.move_number, player: who, played, best: turn.best_score });
    }
    const best = turn.best
      ? t(ngettext("best move %(score)s point", "best move %(score)s points", turn.best_score), { score: turn.best_score })
      : gettext("no move was possible");
    return t(gettext("Turn %(number)s, %(player)s: %(played)s; %(best)s"), { number: turn.move_number, player: who, played, best });
  }

  function renderReview() {
    parts.review.replaceChildren(
      ...review.map((turn, index) => {
        const button = el("button", {
          className: "button small secondary",
          text: describeTurn(turn),
          attrs: { type: "button", "data-review-turn": String(index), "aria-pressed": String(index === reviewIndex) },
        });
        if (turn.missed && !turn.on_purpose) button.dataset.missed = String(turn.missed);
        button.addEventListener("click", () => {
          reviewIndex = reviewIndex === index ? null : index;
          renderReview();
          render();
          parts.board.scrollIntoView({ block: "nearest" });
        });
        return el("li", {}, [button]);
      }),
    );
  }

  parts.reviewOpen.addEventListener("click", async () => {
    parts.reviewOpen.disabled = true;
    let answer;
    try {
      answer = await (await fetch(reviewUrl)).json();
    } catch (error) {
      answer = { ok: false, message: gettext("The review could not be fetched. Try again.") };
    }
    parts.reviewOpen.disabled = false;
    if (!answer.ok) {
      parts.result.append(el("p", { className: "error", text: answer.message || answer.code }));
      return;
    }
    review = answer.turns;
    reviewIndex = null;
    renderReview();
    render();
  });

  // --- input: taps and drags ------------------------------------------------------------

  parts.rack.addEventListener("click", (event) => {
    const button = event.target.closest("[data-index]");
    if (!button || !myTurn()) return;
    const index = Number(button.dataset.index);
    if (exchanging) {
      if (toExchange.has(index)) toExchange.delete(index);
      else toExchange.add(index);
    } else {
      selected = selected === index ? null : index;
    }
    render();
  });
  parts.board.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-row]");
    if (!cell) return;
    const row = Number(cell.dataset.row);
    const col = Number(cell.dataset.col);
    const mine = pendingAt(row, col);
    if (mine) {
      pending = pending.filter((p) => p !== mine);
      changed();
      return;
    }
    placeSelected(row, col);
  });
  parts.rack.addEventListener("dragstart", (event) => {
    const button = event.target.closest("[data-index]");
    if (!button || !myTurn() || exchanging) return;
    event.dataTransfer.setData("text/plain", button.dataset.index);
    event.dataTransfer.effectAllowed = "move";
  });
  parts.board.addEventListener("dragover", (event) => {
    if (myTurn() && event.target.closest("[data-row]")) event.preventDefault();
  });
  parts.board.addEventListener("drop", (event) => {
    const cell = event.target.closest("[data-row]");
    if (!cell) return;
    event.preventDefault();
    const index = Number(event.dataTransfer.getData("text/plain"));
    if (Number.isInteger(index)) placeSelected(Number(cell.dataset.row), Number(cell.dataset.col), index);
  });

  // --- the room socket -------------------------------------------------------------------

  const LOGGED = new Set(["placed", "exchanged", "skipped", "forfeited", "game_over"]);

  function takeView(next) {
    const boardBefore = view && view.game ? JSON.stringify(view.game.board.stones) : null;
    view = next;
    if (view.game && view.game.history) {
      log = view.game.history.filter((entry) => LOGGED.has(entry.type));
      delete view.game.history;
    }
    const boardAfter = view.game ? JSON.stringify(view.game.board.stones) : null;
    if (boardBefore !== boardAfter) pending = [];
    render();
    if (pending.length) requestPreview();
  }

  whenRoomReady().then((roomSocket) => {
    socket = roomSocket;
    socket.addEventListener("sync", (event) => {
      const snapshot = event.detail.view;
      if (snapshot && snapshot.phase) takeView(snapshot);
      else render();
    });
    socket.addEventListener("event", (event) => {
      let finished = false;
      let publicView = null;
      for (const change of event.detail.events) {
        if (LOGGED.has(change.type)) log = log.concat([change]);
        if (change.type === "view") publicView = change.view;
        if (change.type === "finished") finished = true;
      }
      // Seated players get their own view privately; spectators follow the public one.
      if (publicView && (!view || view.you === null || view.you === undefined)) takeView(publicView);
      else if (finished && view && view.phase === "playing" && !(view.game && view.game.finished)) {
        view.phase = "ended";
        render();
      } else renderLog();
    });
    socket.addEventListener("private", (event) => {
      for (const change of event.detail.events) if (change.type === "view") takeView(change.view);
    });
  });
}
