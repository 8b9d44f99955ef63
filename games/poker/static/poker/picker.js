// Number picker (výber čísel): a deck for games on paper. The deck in progress
// lives in localStorage, so it survives closing the tab; only Reshuffle resets it.

import { gettext, interpolate } from "../js/kit/i18n.js";
import { closeDialog, openDialog, randomSeed, readStorage, writeStorage } from "./common.js";
import { JOKER, PyRandom, buildDeck, shuffle } from "./deck.js";
import { DEFAULT_TABLE, getTable } from "./scoring.js";

const STORAGE_KEY = "matika-poker-picker";
const root = document.getElementById("poker-picker");

const cardText = (card) => (card === JOKER ? "★" : String(card));

function freshDeck(table) {
  return { table, deck: shuffle(buildDeck(table), new PyRandom(randomSeed())), drawn: [] };
}

function loadState() {
  const saved = readStorage(STORAGE_KEY, null);
  if (saved && Array.isArray(saved.deck) && Array.isArray(saved.drawn)) {
    try {
      getTable(saved.table);
      return saved;
    } catch (e) {
      /* an unknown table: start afresh */
    }
  }
  return freshDeck(DEFAULT_TABLE);
}

if (root) {
  let state = loadState();
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("poker-picker-table"));
  const card = document.getElementById("poker-card");
  const drawButton = /** @type {HTMLButtonElement} */ (document.getElementById("poker-picker-draw"));
  const dialog = document.getElementById("poker-reshuffle-dialog");

  const render = () => {
    select.value = state.table;
    const last = state.drawn.length ? state.drawn[state.drawn.length - 1] : null;
    card.textContent = last === null ? "–" : cardText(last);
    card.classList.toggle("is-joker", last === JOKER);
    card.setAttribute("aria-label", last === JOKER ? gettext("Joker") : card.textContent);
    document.getElementById("poker-picker-count").textContent = state.deck.length
      ? interpolate(gettext("%(drawn)s drawn, %(left)s left"), { drawn: state.drawn.length, left: state.deck.length })
      : gettext("The deck is empty. Reshuffle to start again.");
    drawButton.disabled = state.deck.length === 0;
    const history = document.getElementById("poker-history");
    history.replaceChildren(
      ...state.drawn.map((value) => {
        const item = document.createElement("li");
        item.textContent = cardText(value);
        return item;
      }),
    );
    const spec = getTable(state.table).deck;
    const values = [...Array(spec.values).keys()].map((i) => i + 1);
    if (spec.jokers) values.push(JOKER);
    const head = document.createElement("tr");
    const counts = document.createElement("tr");
    const label = document.createElement("th");
    label.scope = "row";
    label.textContent = gettext("Value");
    head.append(label);
    const left = document.createElement("th");
    left.scope = "row";
    left.textContent = gettext("Left");
    counts.append(left);
    for (const value of values) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = cardText(value);
      head.append(th);
      const td = document.createElement("td");
      const remaining = state.deck.filter((c) => c === value).length;
      td.textContent = String(remaining);
      td.dataset.value = String(value);
      td.classList.toggle("is-empty", remaining === 0);
      counts.append(td);
    }
    document.querySelector("#poker-remaining tbody").replaceChildren(head, counts);
  };

  const draw = () => {
    if (!state.deck.length) return;
    state = { ...state, deck: state.deck.slice(1), drawn: [...state.drawn, state.deck[0]] };
    writeStorage(STORAGE_KEY, state);
    render();
  };

  const reshuffle = (table) => {
    state = freshDeck(table);
    writeStorage(STORAGE_KEY, state);
    render();
  };

  drawButton.addEventListener("click", draw);
  document.getElementById("poker-picker-reshuffle").addEventListener("click", () => {
    openDialog(dialog);
    document.getElementById("poker-reshuffle-confirm").focus();
  });
  document.getElementById("poker-reshuffle-confirm").addEventListener("click", () => {
    closeDialog(dialog);
    reshuffle(select.value);
  });
  select.addEventListener("change", () => {
    if (state.drawn.length === 0) {
      reshuffle(select.value);
    } else {
      // Changing the deck means a new shuffle: ask first, like Reshuffle.
      openDialog(dialog, { onCancel: () => render() });
      document.getElementById("poker-reshuffle-confirm").focus();
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    if (event.target instanceof HTMLSelectElement || event.target instanceof HTMLInputElement) return;
    const isG = event.key === "g" || event.key === "G";
    const isSpace = event.key === " " && !(event.target instanceof HTMLButtonElement);
    if (!isG && !isSpace) return;
    event.preventDefault();
    draw();
  });
  writeStorage(STORAGE_KEY, state);
  render();
}
