// The Matematici table inside a room page: deck choice, the game screen, the log.
// State comes only from the server: the snapshot's `view` and the private `view`
// events after every step; public `log` events carry the new log lines.
import { confirmDialog } from "../js/kit/dialog.js";
import { el } from "../js/kit/dom.js";
import { gettext, ngettext, interpolate as t } from "../js/kit/i18n.js";
import { roving } from "../js/kit/roving.js";
import { endedText } from "../js/rooms/ended.js";
import { oneAtATime } from "../js/rooms/sender.js";
import { TickRequester, whenRoomReady } from "../js/kit/socket.js";
import { createTutorial } from "./tutorial.js";

/** @type {HTMLElement | null} */
const root = document.querySelector("[data-theorems-table]");
const dataBlock = document.getElementById("theorems-data");

if (root && dataBlock) {
  const data = JSON.parse(dataBlock.textContent);
  const cards = data.cards;
  const fieldNames = Object.fromEntries(data.fields.map((f) => [f.id, f.name]));
  /** @type {Record<string, HTMLElement>} */
  const parts = {
    lobby: root.querySelector("[data-th-lobby]"),
    setup: root.querySelector("[data-th-setup]"),
    game: root.querySelector("[data-th-game]"),
    turn: root.querySelector("[data-th-turn]"),
    decision: root.querySelector("[data-th-decision]"),
    global: root.querySelector("[data-th-global]"),
    error: root.querySelector("[data-th-error]"),
    players: root.querySelector("[data-th-players]"),
    hand: root.querySelector("[data-th-hand]"),
    logArea: root.querySelector("[data-th-log-area]"),
    log: root.querySelector("[data-th-log]"),
  };
  // the hand is one Tab stop: the arrows go from card to card, Enter plays
  roving(parts.hand, "button");
  let view = null;
  let log = [];
  let socket = null;

  const cardName = (id) => (cards[id] ? cards[id].name : id);
  // The name as the object of a verb ("dokázal(a) Cevovu větu"): the catalogue's case form.
  const cardObject = (id) => (cards[id] ? cards[id].accusative || cards[id].name : id);

  function seatName(seat) {
    const info = view && view.seats ? view.seats[seat] : null;
    if (!info) return "?";
    if (info.robot) return t(gettext("Robot %(number)s"), { number: info.robot });
    return info.nickname;
  }

  // --- the log in words ---------------------------------------------------------

  // A round is every seat still playing taking one turn, counted from the seat
  // that began: a new one starts when the turn passes that seat again (a seat
  // that lost or left is skipped, so the test is on the order, not one seat).
  function roundsOf(entries) {
    const rounds = new Map();
    const seats = view && view.seats ? view.seats.length : 4;
    let round = 0;
    let first = null;
    let previous = null;
    for (const entry of entries) {
      if (entry.type !== "turn") continue;
      if (first === null) first = entry.player;
      const place = (entry.player - first + seats) % seats;
      if (previous === null || place <= previous) round += 1;
      previous = place;
      rounds.set(entry, round);
    }
    return rounds;
  }

  function describe(entry, rounds) {
    const who = seatName(entry.player);
    const card = entry.card ? cardName(entry.card) : "";
    const object = entry.card ? cardObject(entry.card) : "";
    switch (entry.type) {
      case "turn":
        return t(gettext("Round %(round)s: %(player)s is on turn."), { round: rounds.get(entry) || 1, player: who });
      case "define":
        return t(gettext("%(player)s laid %(card)s."), { player: who, card: object });
      case "play":
        return t(gettext("%(player)s played %(card)s."), { player: who, card: object });
      case "prove":
        return t(gettext("%(player)s worked on %(card)s."), { player: who, card: object });
      case "progress":
        return t(gettext("%(card)s of %(player)s: progress %(progress)s."), {
          card,
          player: who,
          progress: entry.progress,
        });
      case "proven":
        return t(gettext("%(player)s proved %(card)s!"), { player: who, card: object });
      case "use":
        return t(gettext("%(player)s used %(card)s."), { player: who, card: object });
      case "draw":
        return t(ngettext("%(player)s took %(count)s card.", "%(player)s took %(count)s cards.", entry.count), {
          player: who,
          count: entry.count,
        });
      case "discard":
        return t(gettext("%(player)s discarded %(card)s."), { player: who, card: object });
      case "boredom":
        return t(gettext("%(player)s: boredom %(amount)s (now %(boredom)s)."), {
          player: who,
          amount: entry.amount > 0 ? `+${entry.amount}` : entry.amount,
          boredom: entry.boredom,
        });
      case "actions":
        return t(
          ngettext(
            "%(player)s: %(amount)s action, %(left)s left.",
            "%(player)s: %(amount)s actions, %(left)s left.",
            Math.abs(entry.amount),
          ),
          {
            player: who,
            amount: entry.amount > 0 ? `+${entry.amount}` : entry.amount,
            left: entry.left,
          },
        );
      case "patience":
        return t(gettext("%(player)s: patience %(amount)s."), { player: who, amount: signed(entry.amount) });
      case "ambition":
        return t(gettext("%(player)s: ambition %(amount)s."), { player: who, amount: signed(entry.amount) });
      case "difficulty":
        return t(gettext("%(card)s of %(player)s: difficulty %(amount)s."), {
          card,
          player: who,
          amount: signed(entry.amount),
        });
      case "reshuffle":
        return t(gettext("%(player)s reshuffled the discard pile (reshuffle no. %(count)s)."), {
          player: who,
          count: entry.count,
        });
      case "free_reshuffle":
        return t(gettext("%(player)s shuffled the discard pile into the draw pile."), { player: who });
      case "steal":
        return entry.card
          ? t(gettext("%(player)s stole %(card)s from %(victim)s."), {
              player: who,
              card,
              victim: seatName(entry.victim),
            })
          : t(gettext("%(player)s stole a card from %(victim)s."), { player: who, victim: seatName(entry.victim) });
      case "repeat":
        return t(gettext("%(player)s repeated %(card)s."), { player: who, card: object });
      case "fetch":
        return entry.card
          ? t(gettext("%(player)s took %(card)s into the hand."), { player: who, card: object })
          : t(gettext("%(player)s took a card into the hand."), { player: who });
      case "burn":
        return t(gettext("%(player)s burned %(card)s."), { player: who, card: object });
      case "no_target":
        return t(gettext("%(card)s had nothing to act on."), { card });
      case "end_turn":
        return t(gettext("%(player)s ended the turn."), { player: who });
      case "lost":
        return t(gettext("%(player)s fell asleep of boredom and lost."), { player: who });
      case "left":
        return t(gettext("%(player)s left the game."), { player: who });
      case "game_over":
        if (!entry.winners.length) return gettext("The game is over: a draw.");
        return t(gettext("The game is over. Winner: %(winners)s."), {
          winners: entry.winners.map(seatName).join(", "),
        });
      default:
        return entry.type;
    }
  }

  function signed(amount) {
    return amount > 0 ? `+${amount}` : String(amount).replace("-", "−");
  }

  function renderLog() {
    parts.logArea.hidden = log.length === 0;
    const recent = log.slice(-60);
    const rounds = roundsOf(log);
    parts.log.replaceChildren(
      ...recent.map((entry) =>
        el("li", { className: `th-log-${entry.type}`, text: describe(entry, rounds) }),
      ),
    );
    parts.log.scrollTop = parts.log.scrollHeight;
  }

  // --- sending ------------------------------------------------------------------

  // One message at a time (rooms/sender.js); a refusal shows its message under the cards.
  const send = oneAtATime({
    socket: () => socket,
    version: () => version,
    busy: (on) => {
      if (on) parts.error.textContent = "";
      root.dataset.busy = String(on);
    },
    refused: (error) => {
      parts.error.textContent = error.message || error.code;
    },
  });

  function actionButton(action, label, className = "button small") {
    const { player, ...body } = action;
    const attrs = { type: "button", "data-action": JSON.stringify(body), "data-action-type": body.type };
    // "Play", "Prove", "Use" appear on many cards: say which card for screen readers
    if (body.card && body.type !== "choose") attrs["aria-label"] = `${label}: ${cardName(body.card)}`;
    const button = el("button", { className: `${className} th-action`, text: label, attrs });
    const drawn = version;
    button.addEventListener("click", () => send({ type: "action", action: body }, drawn));
    return button;
  }

  // --- robots: ask the server to let a robot act once its moment has come ----------

  const ticks = new TickRequester(
    (message) => socket.send(message),
    () => {
      const game = view && view.game;
      if (!view || view.phase !== "playing" || !game || game.to_act === null) return null;
      if (!view.seats[game.to_act].robot) return null;
      return (view.robot_delay_ms || 0) + 60;
    },
    300,
  );
  function scheduleTick() {
    ticks.schedule();
  }

  // --- setup: choose a deck -----------------------------------------------------------

  function deckOption(deck, badge) {
    const item = el("li", { className: "th-deck-option" });
    const mathematician = cards[deck.mathematician];
    item.append(
      el("strong", { text: deck.name }),
      " ",
      el("span", { className: "badge", text: badge }),
      el("span", {
        className: "th-deck-meta",
        text: ` ${mathematician ? mathematician.name : deck.mathematician} · ${t(gettext("cards: %(count)s"), {
          count: deck.cards.length,
        })} `,
      }),
    );
    const button = el("button", {
      className: "button small",
      text: gettext("Play with this deck"),
      attrs: { type: "button", "data-choose-deck": deck.name },
    });
    button.addEventListener("click", () =>
      send({ type: "deck", name: deck.name, mathematician: deck.mathematician, cards: deck.cards }),
    );
    // Look through the deck before choosing it: its cards by name, tap one for its text.
    const preview = el("details", { className: "th-deck-preview", attrs: { "data-deck-preview": deck.name } }, [
      el("summary", { text: t(gettext("Show the cards (%(count)s)"), { count: deck.cards.length }) }),
      el(
        "ul",
        { className: "th-deck-cards" },
        deck.cards.map((id) =>
          el("li", {}, [cardChip(id), el("span", { className: "th-deck-card-kind", text: cards[id] ? ` ${cards[id].kind_name}` : "" })]),
        ),
      ),
    ]);
    item.append(button, preview);
    return item;
  }

  function renderSeatsList() {
    return el(
      "ul",
      { className: "th-seat-list" },
      view.seats.map((seat) =>
        el("li", {
          text: `${seatName(seat.seat)}${seat.seat === view.you ? ` (${gettext("you")})` : ""} — ${
            seat.ready ? gettext("ready") : gettext("choosing a deck…")
          }`,
        }),
      ),
    );
  }

  function renderSetup() {
    /** @type {HTMLElement[]} */
    const children = [el("h3", { text: gettext("Choose your deck") })];
    if (view.my_deck) {
      children.push(
        el("p", {
          className: "th-ready",
          text: t(gettext("You play with %(deck)s. Waiting for the other players…"), { deck: view.my_deck.name }),
        }),
      );
    } else {
      const list = el("ul", { className: "th-deck-options" });
      for (const deck of data.starter_decks) list.append(deckOption(deck, gettext("starter deck")));
      for (const deck of data.saved_decks) list.append(deckOption(deck, gettext("your deck")));
      children.push(list);
    }
    children.push(renderSeatsList());
    parts.setup.replaceChildren(...children);
  }

  // --- the game ------------------------------------------------------------------------

  function legal() {
    return (view.game && view.game.legal_actions) || [];
  }

  // A card on the table opens its full text in a dialog (tap-friendly, unlike a tooltip).
  function showCard(id) {
    const card = cards[id];
    if (!card) return;
    const dialog = el("dialog", { className: "dialog th-card-dialog", attrs: { "aria-labelledby": "th-card-dialog-title" } });
    const body = el("article", { className: `th-card th-kind-${card.kind}` }, [
      el("p", { className: "th-card-kind", text: card.kind_name }),
      el("h3", { className: "th-card-name", text: card.name, attrs: { id: "th-card-dialog-title" } }),
    ]);
    if (card.field_names.length) body.append(el("p", { className: "th-card-fields", text: card.field_names.join(" · ") }));
    if (card.difficulty) body.append(el("p", { className: "th-card-fields", text: t(gettext("Difficulty %(n)s"), { n: card.difficulty }) }));
    if (card.kind === "mathematician") {
      body.append(
        el("p", {
          className: "th-card-fields",
          text: `${gettext("Patience")} ${card.patience} · ${gettext("Ambition")} ${card.ambition}`,
        }),
      );
    }
    if (card.text.length) body.append(el("ul", { className: "th-card-text" }, card.text.map((line) => el("li", { text: line }))));
    const close = el("button", { className: "button small secondary", text: gettext("Close"), attrs: { type: "button" } });
    close.addEventListener("click", () => dialog.close());
    dialog.addEventListener("close", () => dialog.remove());
    dialog.append(body, el("div", { className: "dialog-actions" }, [close]));
    document.body.append(dialog);
    dialog.showModal();
    close.focus();
  }

  function cardChip(id, extra = []) {
    const card = cards[id];
    const chip = el("span", { className: `th-chip th-kind-${card ? card.kind : "x"}`, attrs: { "data-card": id } });
    const name = el("button", { className: "th-chip-name", text: cardName(id), attrs: { type: "button" } });
    name.addEventListener("click", () => showCard(id));
    chip.append(name, ...extra);
    return chip;
  }

  function statLine(label, value, extraClass = "") {
    return el("div", { className: `th-stat ${extraClass}` }, [
      el("dt", { text: label }),
      el("dd", { text: String(value) }),
    ]);
  }

  function renderPlayer(player) {
    const mine = player.seat === view.you;
    const game = view.game;
    const actions = legal();
    const mathematician = cards[player.mathematician];
    const classes = ["th-player", "card"];
    if (mine) classes.push("th-mine");
    // Nobody is on turn once the game is over (the last player to act kept the badge).
    const onTurn = game.status === "running" && game.current === player.seat;
    if (onTurn) classes.push("th-current");
    if (player.lost) classes.push("th-lost");
    const box = el("section", { className: classes.join(" "), attrs: { "data-seat": player.seat } });
    const title = el("h3", { text: seatName(player.seat) });
    if (mine) title.append(" ", el("span", { className: "badge", text: gettext("you") }));
    if (onTurn) title.append(" ", el("span", { className: "badge th-on-turn", text: gettext("on turn") }));
    const left = Boolean(view.seats[player.seat] && view.seats[player.seat].left);
    if (left) title.append(" ", el("span", { className: "badge", text: gettext("left the game") }));
    else if (player.lost) title.append(" ", el("span", { className: "badge", text: gettext("lost") }));
    if (game.winners.includes(player.seat)) title.append(" ", el("span", { className: "badge th-winner", text: gettext("winner") }));
    box.append(title);
    const who = el("button", {
      className: "th-chip-name",
      text: mathematician ? mathematician.name : player.mathematician,
      attrs: { type: "button" },
    });
    who.addEventListener("click", () => showCard(player.mathematician));
    box.append(
      el("p", { className: "th-mathematician" }, [
        who,
        ` · ${(mathematician ? mathematician.fields : []).map((f) => fieldNames[f]).join(", ")}`,
      ]),
    );
    const boredom = el("meter", {
      attrs: { "aria-label": gettext("Boredom / patience"), min: "0", max: String(player.patience), value: String(player.boredom), high: String(Math.max(0, player.patience - 2)), optimum: "0" },
    });
    box.append(
      el("dl", { className: "th-stats-line" }, [
        statLine(gettext("Boredom / patience"), `${player.boredom} / ${player.patience}`, "th-boredom"),
        statLine(gettext("Proven / ambition"), `${player.proven.length} / ${player.ambition}`, "th-ambition"),
        statLine(gettext("Hand"), player.hand_count),
        statLine(gettext("Draw pile"), player.draw_pile_count),
        statLine(gettext("Discard pile"), player.discard_pile.length),
      ]),
      boredom,
    );
    // theorems in play, with progress
    const theorems = el("ul", { className: "th-theorems", attrs: { "aria-label": gettext("Theorems in play") } });
    for (const entry of player.theorems) {
      const item = el("li", { className: "th-theorem" });
      item.append(
        cardChip(entry.card),
        el("meter", {
          attrs: {
            "aria-label": gettext("Progress"),
            min: "0",
            max: String(entry.difficulty),
            value: String(entry.progress),
          },
        }),
        el("span", {
          className: "th-progress",
          text: t(gettext("%(progress)s of %(difficulty)s"), { progress: entry.progress, difficulty: entry.difficulty }),
        }),
      );
      if (mine) {
        for (const action of actions) {
          if (action.type === "prove" && action.card === entry.card) {
            item.append(actionButton(action, gettext("Prove")));
          }
        }
      }
      theorems.append(item);
    }
    if (player.theorems.length) box.append(el("h4", { text: gettext("Theorems in play") }), theorems);
    const table = [];
    if (player.definition) table.push(cardChip(player.definition));
    for (const tool of player.tools) {
      const chip = cardChip(tool);
      if (mine) {
        for (const action of actions) {
          if (action.type === "use" && action.card === tool) chip.append(" ", actionButton(action, gettext("Use")));
        }
      }
      table.push(chip);
    }
    if (table.length) box.append(el("h4", { text: gettext("Definition and tools") }), el("div", { className: "th-chips" }, table));
    if (player.proven.length) {
      box.append(
        el("h4", { text: gettext("Proven theorems") }),
        el("div", { className: "th-chips" }, player.proven.map((id) => cardChip(id))),
      );
    }
    if (player.discard_pile.length) {
      const details = el("details", { className: "th-discard" }, [
        el("summary", { text: t(gettext("Discard pile (%(count)s)"), { count: player.discard_pile.length }) }),
        el("div", { className: "th-chips" }, player.discard_pile.map((id) => cardChip(id))),
      ]);
      box.append(details);
    }
    return box;
  }

  function renderHand() {
    const me = view.game.players[view.you];
    if (!me || !me.hand) {
      parts.hand.replaceChildren();
      return;
    }
    const actions = legal();
    parts.hand.replaceChildren(
      ...me.hand.map((id) => {
        const card = cards[id];
        const box = el("article", { className: `th-hand-card th-kind-${card ? card.kind : "x"}`, attrs: { "data-card": id } });
        box.append(
          el("p", { className: "th-card-kind", text: card ? card.kind_name : "" }),
          el("h4", { className: "th-card-name", text: cardName(id) }),
        );
        if (card && card.field_names.length) box.append(el("p", { className: "th-card-fields", text: card.field_names.join(" · ") }));
        if (card && card.difficulty) box.append(el("p", { className: "th-card-fields", text: t(gettext("Difficulty %(n)s"), { n: card.difficulty }) }));
        if (card) box.append(el("ul", { className: "th-card-text" }, card.text.map((line) => el("li", { text: line }))));
        const row = el("div", { className: "button-row" });
        for (const action of actions) {
          if (action.card !== id) continue;
          if (action.type === "play") row.append(actionButton(action, gettext("Play")));
          if (action.type === "define") row.append(actionButton(action, gettext("Lay for free"), "button small secondary"));
        }
        box.append(row);
        return box;
      }),
    );
  }

  function optionLabel(kind, option) {
    if (kind === "opponent") return seatName(option);
    if (kind === "opponent_theorem") return `${cardName(option.card)} (${seatName(option.player)})`;
    return cardName(option);
  }

  const DECISION_TEXT = {
    opponent: gettext("Choose an opponent"),
    own_theorem: gettext("Choose one of your theorems"),
    opponent_theorem: gettext("Choose an opponent's theorem"),
    hand_card: gettext("Choose a card from your hand"),
    draw_pile_card: gettext("Choose a card from your draw pile"),
    discard_pile_card: gettext("Choose a card from your discard pile"),
  };

  function renderDecision() {
    const decision = view.game.decision;
    if (!decision || decision.player !== view.you) {
      parts.decision.hidden = true;
      parts.decision.replaceChildren();
      return;
    }
    parts.decision.hidden = false;
    const buttons = legal()
      .filter((action) => action.type === "choose")
      .map((action) => actionButton(action, optionLabel(decision.kind, action.choice)));
    parts.decision.replaceChildren(
      el("p", {
        text: `${cardName(decision.source)}: ${DECISION_TEXT[decision.kind] || gettext("Choose")}`,
      }),
      el("div", { className: "button-row" }, buttons),
    );
  }

  function renderTurn() {
    const game = view.game;
    if (view.phase === "ended") {
      parts.turn.textContent = endedText(view);
      return;
    }
    if (game.status === "finished") {
      parts.turn.textContent = game.winners.length
        ? t(gettext("The game is over. Winner: %(winners)s."), { winners: game.winners.map(seatName).join(", ") })
        : gettext("The game is over: a draw.");
      return;
    }
    if (game.to_act === view.you) {
      if (game.decision) parts.turn.textContent = gettext("Your choice.");
      else
        parts.turn.textContent = t(
          ngettext("Your turn: %(count)s action left.", "Your turn: %(count)s actions left.", game.actions_left),
          { count: game.actions_left },
        );
    } else if (game.decision && game.decision.player !== game.current) {
      parts.turn.textContent = t(gettext("Waiting for %(player)s to choose."), { player: seatName(game.to_act) });
    } else {
      parts.turn.textContent = t(gettext("%(player)s is on turn."), { player: seatName(game.current) });
    }
  }

  // Ending the turn with actions left (and something to spend them on) asks first.
  function endTurnButton(action) {
    const button = actionButton(action, gettext("End the turn"), "button secondary");
    const left = view.game.actions_left || 0;
    const more = legal().some((a) => ["draw", "play", "prove", "use"].includes(a.type));
    if (left > 0 && more) {
      button.addEventListener(
        "click",
        async (event) => {
          event.stopImmediatePropagation();
          const question = t(
            ngettext(
              "You still have %(count)s action left. End the turn anyway?",
              "You still have %(count)s actions left. End the turn anyway?",
              left,
            ),
            { count: left },
          );
          if (await confirmDialog(question)) send({ type: "action", action: { ...action, player: undefined } });
        },
        { capture: true },
      );
    }
    return button;
  }

  function renderGlobal() {
    const buttons = [];
    for (const action of legal()) {
      if (action.type === "draw") buttons.push(actionButton(action, gettext("Draw a card"), "button"));
      if (action.type === "end_turn") buttons.push(endTurnButton(action));
    }
    parts.global.replaceChildren(...buttons);
  }

  function renderGame() {
    const game = view.game;
    root.dataset.toAct = game.to_act === view.you ? "me" : "other";
    root.dataset.status = view.phase;
    renderTurn();
    renderDecision();
    renderGlobal();
    const order = game.players.map((p) => p.seat).sort((a, b) => (a === view.you ? 1 : b === view.you ? -1 : a - b));
    parts.players.replaceChildren(...order.map((seat) => renderPlayer(game.players[seat])));
    renderHand();
  }

  let version = 0;
  const tutorial = createTutorial(root);

  function render() {
    version += 1;
    root.dataset.version = String(version);
    const phase = view && view.phase;
    root.dataset.phase = phase || "lobby";
    parts.lobby.hidden = Boolean(phase);
    parts.setup.hidden = phase !== "setup";
    parts.game.hidden = !(view && view.game);
    if (phase === "setup") renderSetup();
    if (view && view.game) renderGame();
    renderLog();
    // The tutorial points at a running game; on the end screen it folds away
    // (not remembered as done: the next first game shows it again where it was).
    if (view && view.game && view.phase === "playing" && view.game.status === "running") tutorial.refresh();
    else tutorial.hide();
    scheduleTick();
  }

  // The step the table shows (a snapshot's seq, or the step of the last private
  // view): a test waits for the step the server holds instead of sleeping.
  function shows(seq) {
    if (typeof seq === "number") root.dataset.seq = String(seq);
  }

  whenRoomReady().then((roomSocket) => {
    socket = roomSocket;
    socket.addEventListener("sync", (event) => {
      const snapshot = /** @type {CustomEvent} */ (event).detail.view;
      view = snapshot && snapshot.phase ? snapshot : null;
      log = view && view.game && view.game.log ? view.game.log : [];
      if (view && view.game) delete view.game.log;
      render();
      shows(/** @type {CustomEvent} */ (event).detail.seq);
    });
    socket.addEventListener("event", (event) => {
      let finished = false;
      let gameOver = false;
      for (const change of /** @type {CustomEvent} */ (event).detail.events) {
        if (change.type === "log") {
          log = log.concat(change.entries);
          if (change.entries.some((entry) => entry.type === "game_over")) gameOver = true;
        }
        if (change.type === "finished") finished = true;
      }
      // The host ended a running game: no private view follows, so stop offering moves.
      // (A game the rules ended says game_over in the same step, and a view follows.)
      const ended = finished && !gameOver && view && view.phase === "playing";
      if (ended) {
        view.phase = "ended";
        if (view.game) view.game.legal_actions = [];
        render();
      } else {
        renderLog();
      }
    });
    socket.addEventListener("private", (event) => {
      for (const change of /** @type {CustomEvent} */ (event).detail.events) {
        if (change.type === "view") view = change.view;
      }
      render();
      shows(/** @type {CustomEvent} */ (event).detail.seq);
    });
    // The room's socket may have taken its first snapshot while this module was
    // still loading: ask for a fresh one, or the table stays empty until the next step.
    if (socket.seq !== null) socket.sync().catch(() => {});
  });
}
