// The coach's game review: step through the moves on a read-only board; the
// player's cell and the coach's cell of each move are marked. The texts come
// translated from the server (games/poker/coach_review.py).

import { gettext, interpolate, numberText } from "../js/kit/i18n.js";
import { buildBoard, paintBoard } from "./board.js";

const root = document.getElementById("poker-review");
const data = document.getElementById("poker-review-data");
const steps = data ? JSON.parse(data.textContent) : [];

if (root && steps.length) {
  const board = buildBoard(document.getElementById("poker-board"));
  const rows = [...root.querySelectorAll("tr[data-row]")];
  let current = 0;

  const show = (index) => {
    current = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[current];
    paintBoard(board, { cells: step.cells, lines: step.lines });
    board.cells.forEach((node, cell) => {
      node.classList.toggle("is-player", cell === step.cell);
      node.classList.toggle("is-coach", cell === step.coach && step.coach !== step.cell);
    });
    document.getElementById("poker-review-counter").textContent = interpolate(gettext("Move %(number)s of %(count)s"), {
      number: current + 1,
      count: steps.length,
    });
    const cost = step.cost ? ` ${interpolate(gettext("Cost: %(cost)s"), { cost: numberText(step.cost, 1) })}` : "";
    document.getElementById("poker-review-move").textContent = `${step.text}${cost}`;
    rows.forEach((row, index) => row.classList.toggle("is-current", index === current));
    /** @type {HTMLButtonElement} */ (document.getElementById("poker-review-prev")).disabled = current === 0;
    /** @type {HTMLButtonElement} */ (document.getElementById("poker-review-next")).disabled = current === steps.length - 1;
  };

  document.getElementById("poker-review-first").addEventListener("click", () => show(0));
  document.getElementById("poker-review-prev").addEventListener("click", () => show(current - 1));
  document.getElementById("poker-review-next").addEventListener("click", () => show(current + 1));
  document.getElementById("poker-review-last").addEventListener("click", () => show(steps.length - 1));
  for (const link of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-goto]"))) {
    link.addEventListener("click", () => show(Number(link.dataset.goto) - 1));
  }
  document.addEventListener("keydown", (event) => {
    if (/** @type {Element} */ (event.target).closest("input, textarea, select")) return;
    if (event.key === "ArrowRight") show(current + 1);
    else if (event.key === "ArrowLeft") show(current - 1);
  });
  show(0);
}
