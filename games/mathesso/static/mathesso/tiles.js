// Drawing a Mathesso tile's coloured side as SVG from its picture: the `picture`
// the server sends with a face-up tile, or a face's `look` in the catalogue (both
// are games/mathesso/rules/tiles.py `Picture.to_json`, so they draw alike).
// The same picture as games/mathesso/presentation.py draws for the rules page;
// SVG attributes, never style="", so the strict CSP holds.
import { svgEl as el } from "../js/kit/dom.js";

let counter = 0;

// The colour-blind aid: one shape per ruler colour (number), on tiles and ruler;
// the shapes come with the catalogue's ruler (games/mathesso/presentation.py).
export const MARKS = {};

// The server paints a digit with its ruler colour's hex; the page draws it with
// that colour's ink for the current theme (mathesso.css --mt-ink-<number>).
const rulerByHex = new Map();

export function useRuler(ruler) {
  rulerByHex.clear();
  for (const colour of ruler) {
    rulerByHex.set(colour.hex.toLowerCase(), String(colour.number));
    MARKS[colour.number] = colour.mark;
  }
}

function inkOf(hex) {
  const lower = String(hex).toLowerCase();
  if (rulerByHex.has(lower)) return rulerByHex.get(lower);
  return lower === "#ffffff" ? "white" : "plain";
}

export function faceSvg(look, label) {
  counter += 1;
  const uid = `mtf${counter}`;
  const svg = el("svg", { class: "mt-face", viewBox: "0 0 100 100", role: "img", "aria-label": label || String(look.value) });
  const defs = el("defs");
  svg.append(defs);
  const colours = look.background_hex;
  if (look.background === "circle") {
    svg.append(el("rect", { width: 100, height: 100, rx: 10, fill: colours[0] }));
    svg.append(el("circle", { cx: 50, cy: 50, r: 40, fill: "none", stroke: colours[1], "stroke-width": 6 }));
  } else if (colours.length === 1) {
    svg.append(el("rect", { width: 100, height: 100, rx: 10, fill: colours[0] }));
  } else {
    const vertical = look.background === "rainbow";
    const gradient = el("linearGradient", { id: `${uid}-bg`, x1: 0, y1: 0, x2: vertical ? 0 : 1, y2: 1 });
    const step = 100 / colours.length;
    colours.forEach((colour, i) => {
      gradient.append(el("stop", { offset: `${i * step}%`, "stop-color": colour }));
      gradient.append(el("stop", { offset: `${(i + 1) * step}%`, "stop-color": colour }));
    });
    defs.append(gradient);
    svg.append(el("rect", { width: 100, height: 100, rx: 10, fill: `url(#${uid}-bg)` }));
  }
  const digits = look.digits;
  const black = look.background === "black";
  const size = digits.length === 1 ? 58 : digits.length === 2 ? 46 : 36;
  // Digits sit on a plate in the theme's ink colours (mathesso.css), so every
  // colour reads at WCAG AA on a grey, yellow or rainbow tile alike.
  if (!black) svg.append(el("rect", { class: "mt-plate", x: 12, y: 14, width: 76, height: 76, rx: 14 }));
  if (look.behind !== null && look.behind !== undefined) {
    svg.append(el("text", { class: "mt-behind", x: 50, y: 64, "text-anchor": "middle", "font-size": 44, "font-weight": 700 }, look.behind));
  }
  const text = el("text", {
    class: black ? "mt-digits is-on-black" : "mt-digits",
    x: 50,
    y: (black ? 50 : 44) + size * 0.36,
    "text-anchor": "middle",
    "font-size": size,
    "font-weight": 800,
  });
  const marks = [];
  digits.forEach((digit, i) => {
    const inks = digit.colours.map(inkOf);
    let fill = null;
    if (digit.colours.length === 2) {
      const gid = `${uid}-d${i}`;
      const gradient = el("linearGradient", { id: gid, x1: 0, y1: 0, x2: 1, y2: 0 });
      gradient.append(el("stop", { offset: "50%", class: `mt-stop-${inks[0]}` }));
      gradient.append(el("stop", { offset: "50%", class: `mt-stop-${inks[1]}` }));
      defs.append(gradient);
      fill = `url(#${gid})`;
    }
    const tspan = el("tspan", fill ? { fill, "data-inks": inks.join(" ") } : { class: `mt-ink-${inks[0]}`, "data-inks": inks[0] }, digit.digit);
    text.append(tspan);
    for (const ink of inks) if (MARKS[ink]) marks.push(ink);
  });
  svg.append(text);
  // A shape per ruler colour under the digits, the same as on the ruler, so
  // red 2, green 5 and dark green 6 differ without seeing colour.
  if (!black && marks.length) {
    const gap = 15;
    marks.forEach((ink, i) => {
      svg.append(
        el("text", { class: `mt-mark mt-ink-${ink}`, x: 50 + (i - (marks.length - 1) / 2) * gap, y: 84, "text-anchor": "middle", "font-size": 12, "aria-hidden": "true" }, MARKS[ink]),
      );
    });
  }
  // Dots under a zero's 0 tell the two black 12s apart (they do not pair).
  const dots = look.dots || 0;
  for (let i = 0; i < dots; i += 1) {
    svg.append(el("circle", { class: "mt-dot", cx: 50 + (i - (dots - 1) / 2) * 16, cy: 88, r: 5, fill: "#ffffff" }));
  }
  if (look.hint) svg.append(el("text", { class: "mt-ink-plain", x: 76, y: 84, "text-anchor": "middle", "font-size": 14 }, look.hint));
  if (look.design) svg.append(el("text", { x: 14, y: 20, "text-anchor": "middle", "font-size": 14, fill: "#111111" }, "I".repeat(look.design)));
  return svg;
}

// The look of the tile with this face and b/w side (factorial and CJV tiles differ by side).
export function lookOf(catalogue, face, bw) {
  const entry = catalogue.faces[face];
  if (!entry) return null;
  return entry.tiles.find((t) => String(t.bw) === String(bw)) || entry.tiles[0];
}
