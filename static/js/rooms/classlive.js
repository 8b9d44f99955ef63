// @ts-check
// The class on a class game's host pages (the room page and the projector):
// who is waiting for the teacher's approval, approved right here one by one or
// all at once (the teacher need not leave the running game), and the class's
// roster names for the room's list of seats (room.js listens for "matika:roster").
import { confirmDialog } from "../kit/dialog.js";
import { el } from "../kit/dom.js";
import { gettext, interpolate, ngettext } from "../kit/i18n.js";

const EVERY_MS = 4000;
const PATIENCE_MS = 8000;

/**
 * @typedef {{ id: number, name: string, nickname: string }} Waiting
 * @typedef {{ count: number, waiting: Waiting[], roster: Record<string, string> }} ClassLive
 */

/** @param {HTMLElement} section */
export function watchClassWaiting(section) {
  const title = /** @type {HTMLElement} */ (section.querySelector("[data-class-waiting-title]"));
  const list = /** @type {HTMLElement | null} */ (section.querySelector("[data-class-waiting-list]"));
  const all = /** @type {HTMLButtonElement} */ (section.querySelector("[data-class-approve-all]"));
  const token = /** @type {HTMLInputElement} */ (section.querySelector("input[name=csrfmiddlewaretoken]"));
  /** @type {number[]} */
  let shown = [];
  let stopped = false;
  /** @type {number | undefined} */
  let timer;

  /** @param {ClassLive} data */
  const render = (data) => {
    shown = data.waiting.map((member) => member.id);
    section.hidden = data.count === 0;
    title.textContent = interpolate(
      ngettext(
        "%(count)s pupil is waiting for your approval to join the class",
        "%(count)s pupils are waiting for your approval to join the class",
        data.count,
      ),
      { count: data.count },
    );
    all.hidden = list !== null && data.count < 2; // one waiting: its own button
    if (list) {
      list.replaceChildren(
        ...data.waiting.map((member) => {
          const approve = el("button", { className: "button small secondary", text: gettext("Approve"), attrs: { type: "button" } });
          approve.addEventListener("click", () => send([member.id]));
          const name = member.nickname && member.nickname !== member.name ? `${member.name} (${member.nickname})` : member.name;
          return el("li", { attrs: { "data-member-id": member.id } }, [el("span", { text: name }), " ", approve]);
        }),
      );
    }
    document.dispatchEvent(new CustomEvent("matika:roster", { detail: data.roster }));
  };

  const poll = async () => {
    window.clearTimeout(timer);
    if (stopped) return;
    if (!document.hidden) {
      const controller = new AbortController();
      const patience = window.setTimeout(() => controller.abort(), PATIENCE_MS);
      try {
        const response = await fetch(/** @type {string} */ (section.dataset.url), {
          credentials: "same-origin",
          headers: { Accept: "application/json" },
          signal: controller.signal,
        });
        // Logged out or no longer the class's teacher: nothing more to show.
        if (response.status === 403 || response.status === 404 || response.redirected) {
          stopped = true;
          section.hidden = true;
          return;
        }
        if (response.ok) render(await response.json());
      } catch (error) {
        /* offline or slow: the next tick asks again */
      } finally {
        window.clearTimeout(patience);
      }
    }
    timer = window.setTimeout(poll, EVERY_MS);
  };

  /** @param {number[]} ids */
  const send = async (ids) => {
    try {
      await fetch(/** @type {string} */ (section.dataset.approveUrl), {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": token.value, Accept: "application/json" },
        body: JSON.stringify({ members: ids }),
      });
    } catch (error) {
      /* the list shows who still waits */
    }
    poll();
  };

  all.addEventListener("click", async () => {
    const ids = [...shown];
    const question = interpolate(
      ngettext("Approve %(count)s waiting pupil?", "Approve all %(count)s waiting pupils?", ids.length),
      { count: ids.length },
    );
    if (ids.length && (await confirmDialog(question))) send(ids);
  });
  poll();
}

for (const section of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-class-waiting]"))) {
  watchClassWaiting(section);
}
