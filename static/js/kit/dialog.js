// @ts-check
// An accessible confirmation dialog built on <dialog>; resolves to true or false.
// Labels come from the page's <html lang> so the dialog speaks the page language.
import { el } from "./dom.js";

const LABELS = {
  cs: { ok: "Ano", cancel: "Zrušit" },
  sk: { ok: "Áno", cancel: "Zrušiť" },
  en: { ok: "Yes", cancel: "Cancel" },
};

/**
 * @param {string} message
 * @param {{ok?: string, cancel?: string}} [words] button labels instead of yes/cancel
 * @returns {Promise<boolean>}
 */
export function confirmDialog(message, words = {}) {
  const labels = { ...(LABELS[document.documentElement.lang] || LABELS.en), ...words };
  return new Promise((resolve) => {
    const cancel = el("button", { className: "button secondary", text: labels.cancel, attrs: { type: "button" } });
    const ok = el("button", { className: "button danger", text: labels.ok, attrs: { type: "button" } });
    const dialog = el("dialog", { className: "dialog", attrs: { "aria-labelledby": "dialog-message" } }, [
      el("p", { text: message, attrs: { id: "dialog-message" } }),
      el("div", { className: "dialog-actions" }, [cancel, ok]),
    ]);
    document.body.append(dialog);
    const finish = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    cancel.addEventListener("click", () => finish(false));
    ok.addEventListener("click", () => finish(true));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish(false);
    });
    dialog.showModal();
    cancel.focus();
  });
}
