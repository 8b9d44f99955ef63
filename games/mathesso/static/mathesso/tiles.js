// Drawing a Mathesso tile's coloured side as SVG from its picture: the `picture`
// the server sends with a face-up tile, or a face's `look` in the catalogue (both
// are games/mathesso/rules/tiles.py `Picture.to_json`, so they draw alike).
// The same picture as games/mathesso/presentation.py draws for the rules page;
// SVG attributes, never style="", so the strict CSP holds.
import { svgEl as el } from "../js/kit/dom.js";

let counter = 0;

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
  const size = digits.length === 1 ? 62 : digits.length === 2 ? 50 : 38;
  if (look.behind !== null && look.behind !== undefined) {
    svg.append(
      el("text", { x: 50, y: 64, "text-anchor": "middle", "font-size": 44, "font-weight": 700, fill: "#ffffff", "fill-opacity": 0.28 }, look.behind),
    );
  }
  const text = el("text", {
    x: 50,
    y: 50 + size * 0.36,
    "text-anchor": "middle",
    "font-size": size,
    "font-weight": 800,
    stroke: look.background === "black" ? "#000000" : "#ffffff",
    "stroke-width": 3,
    "paint-order": "stroke",
  });
  digits.forEach((digit, i) => {
    let fill = digit.colours[0];
    if (digit.colours.length === 2) {
      const gid = `${uid}-d${i}`;
      const gradient = el("linearGradient", { id: gid, x1: 0, y1: 0, x2: 1, y2: 0 });
      gradient.append(el("stop", { offset: "50%", "stop-color": digit.colours[0] }));
      gradient.append(el("stop", { offset: "50%", "stop-color": digit.colours[1] }));
      defs.append(gradient);
      fill = `url(#${gid})`;
    }
    text.append(el("tspan", { fill }, digit.digit));
  });
  svg.append(text);
  // Dots under a zero's 0 tell the two black 12s apart (they do not pair).
  const dots = look.dots || 0;
  for (let i = 0; i < dots; i += 1) {
    svg.append(el("circle", { class: "mt-dot", cx: 50 + (i - (dots - 1) / 2) * 16, cy: 88, r: 5, fill: "#ffffff" }));
  }
  if (look.hint) svg.append(el("text", { x: 82, y: 92, "text-anchor": "middle", "font-size": 16, fill: "#111111" }, look.hint));
  if (look.design) svg.append(el("text", { x: 14, y: 20, "text-anchor": "middle", "font-size": 14, fill: "#111111" }, "I".repeat(look.design)));
  return svg;
}

// The look of the tile with this face and b/w side (factorial and CJV tiles differ by side).
export function lookOf(catalogue, face, bw) {
  const entry = catalogue.faces[face];
  if (!entry) return null;
  return entry.tiles.find((t) => String(t.bw) === String(bw)) || entry.tiles[0];
}
