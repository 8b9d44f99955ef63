// @ts-check
// The Mathesso table inside the room page: tiles, players, turns, ruler, end screen.
//
// The server is the referee (games/mathesso/adapter.py). This module draws the
// player's view from `sync` snapshots, applies public events at once for a
// quick response (a flip shows its face immediately) and then asks for a fresh
// snapshot, which brings the live scores. A face-down tile has no face in
// anything the server sends, so there is nothing here to hide.
import { gettext, interpolate } from "../js/kit/i18n.js";
import { roving } from "../js/kit/roving.js";
import { whenRoomReady } from "../js/kit/socket.js";
import { MARKS, faceSvg, lookOf, useRuler } from "./tiles.js";

/** @typedef {import("../js/kit/protocol.js").MathessoView} MathessoView */
/** @typedef {import("../js/kit/protocol.js").SyncFrame} SyncFrame */
/** @typedef {import("../js/kit/protocol.js").EventFrame} EventFrame */

const ZOOMS = [1, 1.5, 2, 3];
const LEAVE_MS = 700;

const ERRORS = {
  not_your_turn: () => gettext("It is not your turn."),
  tile_taken: () => gettext("This tile has already been taken."),
  already_flipped: () => gettext("This tile is already face up."),
  not_a_one: () => gettext("To decide the order, flip a tile whose black-and-white side shows 1."),
  wrong_phase: () => gettext("That is not possible now."),
  nothing_flipped: () => gettext("Flip a tile first."),
  game_over: () => gettext("The game is over."),
  room_finished: () => gettext("The game is over."),
  not_started: () => gettext("The game has not started yet."),
  spectator: () => gettext("Spectators cannot play."),
  no_such_tile: () => gettext("There is no such tile."),
  rate_limited: () => gettext("Too many clicks. Slow down."),
};

const root = /** @type {HTMLElement | null} */ (document.querySelector("[data-mathesso]"));
const live = /** @type {HTMLElement | null} */ (document.querySelector("[data-room-live]"));

if (root && live) {
  const me = String(live.dataset.playerId);
  const $ = (selector) => root.querySelector(selector);
  const game = $("[data-game]");
  const boardEl = $("[data-board]");
  const viewport = $("[data-viewport]");
  const playersEl = $("[data-players]");
  const statusEl = $("[data-status]");
  const errorEl = $("[data-error]");
  const endTurnButton = $("[data-end-turn]");
  const rulerToggle = $("[data-ruler-toggle]");
  const ruler = $("[data-ruler]");
  const rulerStrip = $("[data-ruler-strip]");
  const endEl = $("[data-end]");
  // the table is one Tab stop: the arrows go to the nearest tile that way, Enter flips
  roving(boardEl, ".mt-tile");

  let catalogue = null;
  /** @type {MathessoView | null} */
  let view = null;
  let socket = null;
  const nicknames = new Map();
  const tileEls = [];
  const tileKeys = [];
  const leaving = new Set();
  let zoom = 0;
  let syncTimer = null;
  let endShown = false;
  let lastRevealed = null;
  let notice = ""; // who left the table, until the next flip

  const name = (player) => {
    if (player === me) return gettext("you");
    return nicknames.get(String(player)) || gettext("player");
  };
  const displayName = (player) => nicknames.get(String(player)) || gettext("player");

  function showError(error) {
    const text = ERRORS[error.code] ? ERRORS[error.code]() : error.message || error.code;
    errorEl.textContent = text;
    errorEl.hidden = false;
  }

  function clearError() {
    errorEl.hidden = true;
    errorEl.textContent = "";
  }

  // --- the board -------------------------------------------------------------

  function tileLabel(tile) {
    if (tile.face) {
      const group = catalogue.groups.find((g) => g.name === tile.group);
      return interpolate(gettext("%(value)s, %(group)s"), {
        value: tile.value,
        group: group ? group.label : tile.group,
      });
    }
    return interpolate(gettext("Tile showing %(bw)s"), { bw: tile.bw });
  }

  function canFlip(tile) {
    if (!view || !view.actions.includes("flip")) return false;
    if (tile.owner !== null) return false;
    if (view.phase === "order") return String(tile.bw) === "1" && !tile.up;
    if (view.phase === "play") return !view.turn.flips.includes(tile.id);
    return false;
  }

  function buildBoard() {
    boardEl.replaceChildren();
    tileEls.length = 0;
    tileKeys.length = 0;
    const { width, height } = view.board;
    boardEl.style.aspectRatio = `${width} / ${height}`;
    viewport.style.maxWidth = `calc(78vh * ${(width / height).toFixed(4)})`;
    for (const tile of view.tiles) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "mt-tile";
      button.dataset.tileId = String(tile.id);
      button.style.left = `${(tile.x / width) * 100}%`;
      button.style.top = `${(tile.y / height) * 100}%`;
      button.style.width = `${100 / width}%`;
      button.style.height = `${100 / height}%`;
      button.style.transform = `translate(-50%, -50%) rotate(${tile.rot}deg)`;
      button.addEventListener("click", () => flip(tile.id));
      boardEl.append(button);
      tileEls.push(button);
      tileKeys.push(null);
    }
    applyZoom();
  }

  function renderTile(tile) {
    const button = tileEls[tile.id];
    const key = `${tile.up}|${tile.owner}|${tile.face || ""}|${leaving.has(tile.id)}`;
    if (tileKeys[tile.id] !== key) {
      const before = tileKeys[tile.id];
      const turned = before !== null && before.split("|")[0] !== String(tile.up);
      tileKeys[tile.id] = key;
      button.replaceChildren();
      if (tile.face && (tile.up || leaving.has(tile.id))) {
        // The catalogue's picture of the face and side (drawn by the server,
        // the same as the tile's own `picture` says); a tile just taken keeps
        // fading out with it.
        const look = lookOf(catalogue, tile.face, tile.bw) || tile.picture;
        button.append(faceSvg(look, tileLabel(tile)));
        button.dataset.face = tile.face;
      } else {
        const bw = document.createElement("span");
        bw.className = "mt-bw";
        bw.textContent = String(tile.bw);
        button.append(bw);
        delete button.dataset.face;
      }
      // A tile that turns over shows it (a CSS flip; none with reduced motion).
      if (turned) button.firstElementChild.classList.add("is-turning");
      button.classList.toggle("is-up", Boolean(tile.up));
      button.classList.toggle("is-taken", tile.owner !== null && !leaving.has(tile.id));
      button.classList.toggle("is-leaving", leaving.has(tile.id));
      button.setAttribute("aria-label", tileLabel(tile));
      button.hidden = tile.owner !== null && !leaving.has(tile.id);
    }
    const active = canFlip(tile);
    button.classList.toggle("is-playable", active);
    button.setAttribute("aria-disabled", active ? "false" : "true");
    button.classList.toggle("is-shown", view.shown.includes(tile.id));
  }

  function applyZoom() {
    boardEl.style.width = `${ZOOMS[zoom] * 100}%`;
    fitFont();
  }

  function fitFont() {
    if (!view) return;
    const tilePx = boardEl.clientWidth / view.board.width;
    boardEl.style.fontSize = `${Math.max(8, tilePx * 0.45)}px`;
  }

  // --- players, status, controls ----------------------------------------------

  function miniFace(face) {
    const entry = catalogue.faces[face];
    const span = document.createElement("span");
    span.className = "mathesso-mini";
    span.dataset.face = face;
    if (entry) span.append(faceSvg(entry.tiles[0], String(entry.tiles[0].value)));
    return span;
  }

  function renderPlayers() {
    const onTurn = view.turn ? view.turn.player : null;
    playersEl.replaceChildren(
      ...view.players.map((player) => {
        const item = document.createElement("li");
        item.className = "mathesso-player";
        item.dataset.player = player.id;
        item.classList.toggle("is-on-turn", player.id === onTurn);
        item.classList.toggle("is-me", player.id === me);
        const head = document.createElement("div");
        head.className = "mathesso-player-head";
        const who = document.createElement("strong");
        who.textContent = displayName(player.id); // textContent: nicknames are user input
        head.append(who);
        if (player.id === me) {
          const you = document.createElement("span");
          you.className = "badge";
          you.textContent = gettext("you");
          head.append(" ", you);
        }
        if (player.id === onTurn) {
          const badge = document.createElement("span");
          badge.className = "badge mathesso-turn-badge";
          badge.textContent = gettext("on turn");
          head.append(" ", badge);
        }
        if (player.gone) {
          const badge = document.createElement("span");
          badge.className = "badge";
          badge.textContent = gettext("left the game");
          head.append(" ", badge);
        }
        const score = document.createElement("span");
        score.className = "mathesso-score";
        score.dataset.score = String(player.score);
        score.textContent = view.points
          ? interpolate(gettext("points: %(n)s"), { n: player.score })
          : interpolate(gettext("pairs: %(n)s"), { n: player.score });
        head.append(" ", score);
        const facts = document.createElement("p");
        facts.className = "muted mathesso-player-facts";
        let text = interpolate(gettext("turns: %(n)s"), { n: player.turns });
        if (view.points) {
          text += " · " + interpolate(gettext("pairs: %(n)s"), { n: player.pairs.length });
        }
        if (player.extra_turns > 0) {
          text += " · " + interpolate(gettext("extra turns: %(n)s"), { n: player.extra_turns });
        }
        facts.textContent = text;
        const pairs = document.createElement("div");
        pairs.className = "mathesso-owned";
        pairs.setAttribute("role", "group");
        pairs.setAttribute("aria-label", gettext("Pairs taken"));
        for (const face of player.pairs) pairs.append(miniFace(face));
        item.append(head, facts, pairs);
        return item;
      }),
    );
  }

  function statusText() {
    const text = turnText();
    return notice && text ? `${notice} ${text}` : notice || text;
  }

  function turnText() {
    // The room's status line says the game is over and the end card has its
    // title: the board's own line stays empty (it said "The game is over." twice).
    if (view.phase === "over" || view.ended) return "";
    if (view.phase === "order") {
      const waiting = view.ordering.waiting;
      // After a tie the server says who flips again (seed step 3), in our language.
      const again = view.ordering.notice || "";
      if (waiting.includes(me)) {
        return again || gettext("Flip a tile showing 1: the lowest coloured number starts.");
      }
      const names = interpolate(gettext("Waiting for the order flips of: %(names)s"), {
        names: waiting.map(displayName).join(", "),
      });
      return again ? `${again} ${names}` : names;
    }
    const turn = view.turn;
    const round = interpolate(gettext("Round %(n)s."), { n: view.round });
    if (turn.player !== me) {
      return `${round} ${interpolate(gettext("%(name)s is playing."), { name: displayName(turn.player) })}`;
    }
    if (turn.offer) {
      return `${round} ${gettext("You have a Sheldon extra turn: flip a tile to take it now, or keep it for later.")}`;
    }
    if (turn.flips.length === 1) {
      return `${round} ${gettext("Flip a second tile, or end your turn.")}`;
    }
    return `${round} ${gettext("Your turn: flip a tile.")}`;
  }

  function renderControls() {
    const canEnd = view.actions.includes("end_turn");
    endTurnButton.hidden = !canEnd;
    endTurnButton.textContent =
      view.turn && view.turn.offer ? gettext("Keep the extra turn for later") : gettext("End turn");
    statusEl.textContent = statusText();
    statusEl.hidden = !statusEl.textContent;
    root.dataset.phase = view.phase;
    root.dataset.myTurn = String(view.actions.includes("flip"));
  }

  // --- colour ruler -------------------------------------------------------------

  function buildRuler() {
    rulerStrip.replaceChildren(
      ...catalogue.ruler.map((colour) => {
        const item = document.createElement("li");
        item.className = "mathesso-ruler-field";
        item.dataset.hex = colour.hex.toLowerCase();
        item.dataset.number = String(colour.number);
        const swatch = document.createElement("span");
        swatch.className = `mathesso-swatch mt-bg-${colour.number}`;
        const mark = document.createElement("span");
        mark.className = "mathesso-mark";
        mark.setAttribute("aria-hidden", "true");
        mark.textContent = MARKS[colour.number] || "";
        const number = document.createElement("strong");
        number.textContent = String(colour.number);
        const label = document.createElement("span");
        label.className = "mathesso-ruler-label";
        label.textContent = colour.label;
        item.append(swatch, mark, number, label);
        return item;
      }),
    );
  }

  // Lay the ruler against the last revealed product or square: mark its colours.
  function renderRuler() {
    const colours = new Set();
    let against = lastRevealed && !view.tiles[lastRevealed.tile].owner ? lastRevealed : null;
    if (!against || !view.tiles[against.tile].up) {
      const upIds = [...(view.turn ? view.turn.flips : []), ...view.shown];
      const upTiles = upIds.map((id) => view.tiles[id]).filter((t) => t && t.face);
      against = upTiles.reverse().find((t) => ["mult", "square"].includes(t.group)) || null;
    }
    if (against && ["mult", "square"].includes(against.group)) {
      const look = lookOf(catalogue, against.face, against.bw) || against.picture;
      for (const digit of look ? look.digits : []) {
        for (const colour of digit.colours) colours.add(colour.toLowerCase());
      }
    }
    for (const field of rulerStrip.children) {
      field.classList.toggle("is-match", colours.has(field.dataset.hex));
    }
  }

  rulerToggle.addEventListener("click", () => {
    ruler.hidden = !ruler.hidden;
    rulerToggle.setAttribute("aria-expanded", String(!ruler.hidden));
  });

  // --- the end screen -------------------------------------------------------------

  function breakdownList(breakdown) {
    const list = document.createElement("ul");
    list.className = "mathesso-breakdown";
    if (!breakdown.points) {
      const item = document.createElement("li");
      item.textContent = interpolate(gettext("pairs: %(n)s"), { n: breakdown.pairs });
      list.append(item);
      return list;
    }
    for (const key of breakdown.keys) {
      const item = document.createElement("li");
      for (const face of key.faces) item.append(miniFace(face));
      item.append(
        " " +
          interpolate(gettext("%(key)s: (%(sum)s) × %(count)s = %(score)s"), {
            key: key.key,
            sum: key.sum,
            count: key.count,
            score: key.score,
          }),
      );
      list.append(item);
    }
    for (const flat of breakdown.flat) {
      const item = document.createElement("li");
      item.append(miniFace(flat.face), " " + interpolate(gettext("points: %(n)s"), { n: flat.points }));
      list.append(item);
    }
    if (breakdown.sheldons) {
      const item = document.createElement("li");
      item.textContent = interpolate(gettext("Sheldon bonus: +%(bonus)s"), { bonus: breakdown.sheldon_bonus });
      list.append(item);
    }
    return list;
  }

  function renderEnd() {
    const over = view.phase === "over" || view.ended;
    // The result (with the breakdown) comes with the snapshot that follows game_over.
    endEl.hidden = !(over && view.result);
    if (endEl.hidden) return;
    const result = view.result;
    const title = endEl.querySelector("[data-end-title]");
    const summary = endEl.querySelector("[data-end-summary]");
    const body = endEl.querySelector("[data-end-breakdown]");
    title.textContent = view.ended && view.phase !== "over" ? gettext("The game was ended early") : gettext("Game over");
    if (view.players.length === 1) {
      const player = view.players[0];
      summary.textContent = interpolate(gettext("Pairs taken: %(pairs)s. Turns: %(turns)s."), {
        pairs: player.pairs.length,
        turns: player.turns,
      });
    } else if (result.draw) {
      summary.textContent = interpolate(gettext("A draw: %(names)s."), {
        names: result.winners.map(displayName).join(", "),
      });
    } else {
      summary.textContent = interpolate(gettext("%(name)s wins!"), { name: displayName(result.winners[0]) });
    }
    const table = document.createElement("table");
    table.className = "mathesso-results";
    const head = table.createTHead().insertRow();
    for (const text of [gettext("Player"), gettext("Score"), gettext("Turns"), gettext("How it adds up")]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = text;
      head.append(th);
    }
    const rows = [...view.players].sort((a, b) => result.scores[b.id] - result.scores[a.id]);
    const tbody = table.createTBody();
    for (const player of rows) {
      const row = tbody.insertRow();
      row.dataset.player = player.id;
      const who = document.createElement("th");
      who.scope = "row";
      who.textContent = displayName(player.id);
      row.append(who);
      const score = row.insertCell();
      score.textContent = String(result.scores[player.id]);
      score.dataset.testid = "final-score";
      row.insertCell().textContent = String(player.turns);
      row.insertCell().append(breakdownList(result.breakdown[player.id]));
    }
    body.replaceChildren(table);
    if (!endShown) {
      endShown = true;
      endEl.focus();
    }
  }

  // The settings line as the running game has them (the host may have changed them in the lobby).
  function renderSettings() {
    const line = $("[data-settings]");
    const variant = catalogue.variants.find((v) => v.name === view.variant);
    if (!line || !variant || line.dataset.shown === view.variant) return;
    line.dataset.shown = view.variant;
    const extensions = view.extensions.map(
      (name) => (catalogue.extensions.find((e) => e.name === name) || { label: name }).label,
    );
    const link = document.createElement("a");
    link.href = line.dataset.rulesUrl.replace("VARIANT", view.variant);
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = gettext("Rules");
    const scoring = view.points ? gettext("scoring by points") : gettext("scoring by pairs");
    line.replaceChildren(
      `${gettext("Mathesso")} · ${[variant.title, ...extensions].join(" + ")} · ${scoring} · `,
      link,
    );
  }

  // --- putting it together ----------------------------------------------------

  function render() {
    if (!view || !catalogue) return;
    game.hidden = false;
    if (tileEls.length !== view.tiles.length) buildBoard();
    for (const tile of view.tiles) renderTile(tile);
    renderSettings();
    renderPlayers();
    renderControls();
    renderRuler();
    renderEnd();
  }

  function scheduleSync() {
    if (syncTimer) return;
    syncTimer = setTimeout(() => {
      syncTimer = null;
      socket.sync().catch(() => {});
    }, 120);
  }

  function applyEvents(events) {
    if (!view || !view.tiles) return false;
    let ours = false;
    for (const event of events) {
      const tile = typeof event.tile === "number" ? view.tiles[event.tile] : null;
      switch (event.type) {
        case "flipped":
          ours = true;
          notice = "";
          Object.assign(tile, { up: true, face: event.face, group: event.group, value: event.value, picture: event.picture });
          if (view.phase === "play" && view.turn) view.turn.flips.push(event.tile);
          if (event.player === me) {
            // Until the snapshot arrives: an order flip is done; one flip may end the turn.
            if (view.phase === "order") view.actions = [];
            else if (view.turn && view.turn.flips.length === 1) view.actions = ["end_turn", "flip"];
          }
          lastRevealed = event;
          break;
        case "turned_back":
          ours = true;
          for (const id of event.tiles) {
            const t = view.tiles[id];
            t.up = false;
            if (t.owner === null) {
              delete t.face;
              delete t.group;
              delete t.value;
            }
            delete t.picture;
          }
          view.shown = view.shown.filter((id) => !event.tiles.includes(id));
          break;
        case "pair_taken":
          ours = true;
          for (const id of event.tiles) {
            Object.assign(view.tiles[id], { up: false, owner: event.player });
            leaving.add(id);
          }
          setTimeout(() => {
            for (const id of event.tiles) leaving.delete(id);
            render();
          }, LEAVE_MS);
          break;
        case "no_pair":
          ours = true;
          view.shown = [...event.tiles];
          break;
        case "turn_started":
          ours = true;
          view.phase = "play";
          view.round = event.round;
          view.turn = { player: event.player, flips: [], extra: Boolean(event.extra), offer: false };
          view.actions = event.player === me ? ["flip"] : [];
          break;
        case "turn_ended":
          ours = true;
          if (view.turn) view.turn.flips = [];
          view.actions = [];
          break;
        case "extra_turn_offered":
          ours = true;
          if (view.turn) view.turn.offer = true;
          if (event.player === me) view.actions = ["end_turn", "flip"];
          break;
        case "game_over":
          ours = true;
          view.phase = "over";
          view.actions = [];
          break;
        case "player_gone": {
          ours = true;
          const gone = view.players.find((p) => p.id === event.player);
          if (gone) gone.gone = true;
          notice = interpolate(gettext("%(player)s left the game."), { player: displayName(event.player) });
          if (view.ordering) view.ordering.waiting = view.ordering.waiting.filter((p) => p !== event.player);
          if (view.turn && view.turn.player === event.player) view.actions = [];
          break;
        }
        case "game_started":
        case "finished":
        case "started":
          ours = true;
          break;
        default:
          if (event.type && event.type.startsWith("order")) ours = true;
          if (event.type && event.type.startsWith("extra_turn")) ours = true;
          break;
      }
    }
    return ours;
  }

  function flip(id) {
    const tile = view && view.tiles[id];
    if (!tile || !canFlip(tile)) return;
    clearError();
    socket.send({ type: "flip", tile: id }).catch(showError);
  }

  endTurnButton.addEventListener("click", () => {
    clearError();
    socket.send({ type: "end_turn" }).catch(showError);
  });

  for (const button of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-zoom]"))) {
    button.addEventListener("click", () => {
      zoom = Math.min(ZOOMS.length - 1, Math.max(0, zoom + Number(button.dataset.zoom)));
      applyZoom();
    });
  }

  if (window.ResizeObserver) new ResizeObserver(() => fitFont()).observe(viewport);

  function rememberSeats(seats) {
    for (const seat of seats) nicknames.set(String(seat.player_id), seat.nickname);
  }

  async function boot() {
    const [loaded, roomSocket] = await Promise.all([
      fetch(root.dataset.catalogueUrl, { credentials: "same-origin" }).then((r) => r.json()),
      whenRoomReady(live),
    ]);
    catalogue = loaded;
    useRuler(catalogue.ruler);
    socket = roomSocket;
    buildRuler();
    socket.addEventListener("sync", (event) => {
      const frame = /** @type {SyncFrame} */ (/** @type {CustomEvent} */ (event).detail);
      rememberSeats(frame.room.seats);
      const fresh = frame.view;
      if (fresh && fresh.tiles) {
        view = /** @type {MathessoView} */ (fresh);
        render();
        // The step the table shows: events are drawn at once, but what a step
        // changed is whole only with the snapshot that follows (a test waits for it).
        root.dataset.seq = String(frame.seq);
      }
    });
    socket.addEventListener("event", (event) => {
      const frame = /** @type {EventFrame} */ (/** @type {CustomEvent} */ (event).detail);
      for (const change of frame.events) {
        if (change.type === "player_joined") nicknames.set(String(change.seat.player_id), change.seat.nickname);
      }
      const lifecycle = frame.events.some((e) => ["started", "finished"].includes(e.type));
      if (applyEvents(frame.events) || lifecycle) {
        render();
        scheduleSync();
      }
    });
    // The socket may have synced before the catalogue arrived: ask again.
    if (socket.seq !== null) socket.sync().catch(() => {});
  }

  boot().catch((error) => showError({ code: "load", message: String(error) }));
}
