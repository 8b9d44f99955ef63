// @ts-check
// Host pages whose teacher login has ended. A room socket acting by the teacher's
// session is told `session_ended` (logout in another tab, the idle timeout, a new
// password, another login in this browser) or `not_class_teacher` (taken off the
// class) and closed with 4403, which RoomSocket treats as final. This shows a
// clear notice instead of a generic error, with a login link back to this page.
//
// Use: watchHostSession(socket, container, { onEnded: () => hideNames() });
// (no import statement in comments: collectstatic's manifest storage reads them
// as imports, and this file importing itself is a cycle it cannot hash)

import { el } from "./dom.js";
import { gettext } from "./i18n.js";

export const ENDED_CODES = new Set(["session_ended", "not_class_teacher"]);

/** The login page, coming back to `location` (path and query) afterwards. */
export function loginUrlBack(location = window.location, login = "/accounts/login/") {
  return `${login}?next=${encodeURIComponent(location.pathname + location.search)}`;
}

/** The notice for an ended host login (`code` from the server's error), put first in `container`. */
export function showHostEnded(container, code, message = "") {
  const old = container.querySelector("[data-host-ended]");
  if (old) old.remove();
  const signedOut = code !== "not_class_teacher";
  const text = signedOut
    ? gettext("You have been signed out. Log in again to continue hosting.")
    : message || gettext("You are no longer a teacher of this class.");
  const children = [el("p", { text })];
  if (signedOut) {
    children.push(
      el("p", {}, [
        el("a", {
          className: "button",
          text: gettext("Log in"),
          attrs: { href: loginUrlBack(), "data-testid": "host-ended-login" },
        }),
      ]),
    );
  }
  const notice = el(
    "div",
    { className: "message message-error", attrs: { role: "alert", "data-host-ended": code, "data-testid": "host-ended" } },
    children,
  );
  container.prepend(notice);
  return notice;
}

/**
 * Show the notice when `socket` reports that the host's login ended; `onEnded(code)` runs first.
 * @param {EventTarget} socket
 * @param {Element} container
 * @param {{ onEnded?: (code: string) => void }} [options]
 */
export function watchHostSession(socket, container, { onEnded } = {}) {
  socket.addEventListener("error", (event) => {
    const detail = /** @type {CustomEvent} */ (event).detail || {};
    if (!ENDED_CODES.has(detail.code)) return;
    if (onEnded) onEnded(detail.code);
    showHostEnded(container, detail.code, detail.message);
  });
}
