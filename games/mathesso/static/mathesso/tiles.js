// A Mathesso tile's coloured side, as the server draws it: every look in the
// catalogue carries its picture (`svg`, games/mathesso/presentation.py
// `face_svg`, which also draws the rules page), so a tile is drawn in one place.
// The page adopts a copy per tile and renames the picture's ids (gradients), so
// two copies of one face never share one. SVG attributes, never style="".
import { svgEl as el } from "../js/kit/dom.js";

// The id prefix the server gives the board's pictures (presentation.BOARD_UID).
const SERVER_UID = "mtf";
let counter = 0;
const parsed = new Map();

// The colour-blind aid: one shape per ruler colour (number), for the ruler strip;
// the shapes come with the catalogue's ruler (games/mathesso/presentation.py).
export const MARKS = {};

export function useRuler(ruler) {
  for (const colour of ruler) MARKS[colour.number] = colour.mark;
}

function parse(markup) {
  let svg = parsed.get(markup);
  if (!svg) {
    // The HTML parser puts <svg> and its children in the SVG namespace.
    const template = document.createElement("template");
    template.innerHTML = markup;
    svg = template.content.firstElementChild;
    parsed.set(markup, svg);
  }
  return svg;
}

export function faceSvg(look, label) {
  const text = label || String(look.value);
  if (!look.svg) {
    // Not in the catalogue (never expected): the value on a plain tile.
    const plain = el("svg", { class: "mt-face", viewBox: "0 0 100 100", role: "img", "aria-label": text });
    plain.append(el("text", { class: "mt-digits", x: 50, y: 62, "text-anchor": "middle", "font-size": 40 }, look.value));
    return plain;
  }
  counter += 1;
  const uid = `mtf${counter}`;
  const svg = /** @type {Element} */ (parse(look.svg).cloneNode(true));
  for (const node of svg.querySelectorAll("[id]")) node.id = uid + node.id.slice(SERVER_UID.length);
  for (const node of svg.querySelectorAll("[fill^='url(#']")) {
    node.setAttribute("fill", (node.getAttribute("fill") || "").replace(`url(#${SERVER_UID}`, `url(#${uid}`));
  }
  svg.setAttribute("aria-label", text);
  return svg;
}

// The look of the tile with this face and b/w side (factorial and CJV tiles differ by side).
export function lookOf(catalogue, face, bw) {
  const entry = catalogue.faces[face];
  if (!entry) return null;
  return entry.tiles.find((t) => String(t.bw) === String(bw)) || entry.tiles[0];
}
