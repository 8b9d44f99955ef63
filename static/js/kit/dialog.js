// An accessible confirmation dialog built on <dialog>; resolves to true or false.
// Labels come from the page's <html lang> so the dialog speaks the page language.
const LABELS = {
  cs: { ok: "Ano", cancel: "Zrušit" },
  sk: { ok: "Áno", cancel: "Zrušiť" },
  en: { ok: "Yes", cancel: "Cancel" },
};

export function confirmDialog(message) {
  const labels = LABELS[document.documentElement.lang] || LABELS.en;
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "dialog";
    dialog.setAttribute("aria-labelledby", "dialog-message");
    const text = document.createElement("p");
    text.id = "dialog-message";
    text.textContent = message;
    const actions = document.createElement("div");
    actions.className = "dialog-actions";
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "button secondary";
    cancel.textContent = labels.cancel;
    const ok = document.createElement("button");
    ok.type = "button";
    ok.className = "button danger";
    ok.textContent = labels.ok;
    actions.append(cancel, ok);
    dialog.append(text, actions);
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
