// The 5×5 board as the page shows it: values, joker cells, live line scores
// and the score preview. It only draws what it is given; the rules live in
// game.js (browser games) or on the server.

export class BoardView {
  constructor(element) {
    this.element = element;
    this.cells = [...element.querySelectorAll(".poker-cell")];
    this.lines = new Map(
      [...element.querySelectorAll(".poker-line")].map((node) => [Number(node.dataset.line), node]),
    );
  }

  cell(index) {
    return this.cells[index];
  }

  /** Line scores in canonical order (rows, columns, main, anti-diagonal). */
  renderLines(lines) {
    lines.forEach((points, index) => {
      const node = this.lines.get(index);
      node.textContent = String(points);
      node.classList.toggle("is-scoring", points > 0);
    });
  }
}
