// Small helpers shared by the poker pages: translations from Django's
// JavaScript catalogue (with an identity fallback when it failed to load
// offline), dialogs, time and randomness.

// Call sites use the name `gettext` so the translation tools extract them.
export function gettext(text) {
  return typeof window.gettext === "function" ? window.gettext(text) : text;
}

/** Fill named placeholders: tf(gettext("%(n)s left"), { n: 3 }). */
export function tf(text, values) {
  return text.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
}

/** Seconds since the epoch, the unit the engine uses. */
export function nowSeconds() {
  return Date.now() / 1000;
}

/** A 64-bit seed from the browser's cryptographic generator. */
export function randomSeed() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return (BigInt(words[0]) << 32n) | BigInt(words[1]);
}

/** Open a <dialog> modally; buttons marked data-close and Esc close it. */
export function openDialog(dialog, { onCancel } = {}) {
  if (!dialog.dataset.wired) {
    dialog.dataset.wired = "1";
    for (const button of dialog.querySelectorAll("[data-close]")) {
      button.addEventListener("click", () => {
        dialog.close();
        if (dialog.onCancelled) dialog.onCancelled();
      });
    }
    dialog.addEventListener("cancel", () => {
      if (dialog.onCancelled) dialog.onCancelled();
    });
  }
  dialog.onCancelled = onCancel || null;
  if (!dialog.open) dialog.showModal();
}

export function closeDialog(dialog) {
  if (dialog.open) dialog.close();
}

export function readStorage(key, fallback = null) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch (e) {
    return fallback;
  }
}

export function writeStorage(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch (e) {
    return false;
  }
}
