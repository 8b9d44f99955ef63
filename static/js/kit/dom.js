// @ts-check
// Tiny DOM helpers for the game pages. Data (nicknames, numbers) only ever goes
// in as text or attributes, never as markup, and styling is by class: the strict
// Content-Security-Policy allows no inline style.

/**
 * An HTML element: el("li", { className: "badge", text: "…", attrs: { "data-id": 3 } }, [child, "text"]).
 * @template {string} K
 * @param {K} tag
 * @param {{ className?: string, text?: string | number, attrs?: Record<string, unknown> }} [options]
 * @param {(Node | string)[]} [children]
 * @returns {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement}
 */
export function el(tag, { className, text, attrs } = {}, children = []) {
  const node = /** @type {any} */ (document.createElement(tag));
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  if (attrs) for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An SVG element with presentation attributes (never style=): svgEl("rect", { width: 100 }).
 * @param {string} name
 * @param {Record<string, unknown>} [attrs]
 * @param {string | number | null} [text]
 * @returns {SVGElement}
 */
export function svgEl(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = String(text);
  return node;
}
