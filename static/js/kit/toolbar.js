// @ts-check
// Every toolbar of the page (role="toolbar": a game's row of controls) is one
// Tab stop; the arrow keys move between its buttons (WAI-ARIA toolbar pattern,
// the roving focus of ./roving.js). So the board after it is a Tab press away.
import { roving } from "./roving.js";

for (const bar of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[role=toolbar]"))) {
  roving(bar, "button:not([hidden])");
}
