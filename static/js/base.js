// Small behaviours shared by every page: menu, language switcher, theme toggle,
// confirmation dialogs for destructive forms, and the nickname suggestion button.
import "./download.js";
import { confirmDialog } from "./kit/dialog.js";

const root = document.documentElement;

function currentTheme() {
  if (root.dataset.theme) return root.dataset.theme;
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

for (const button of document.querySelectorAll("[data-theme-toggle]")) {
  button.setAttribute("aria-pressed", String(currentTheme() === "dark"));
  button.addEventListener("click", () => {
    const next = currentTheme() === "dark" ? "light" : "dark";
    root.dataset.theme = next;
    try {
      localStorage.setItem("matika-theme", next);
    } catch (e) {
      /* the choice then lasts for this page only */
    }
    button.setAttribute("aria-pressed", String(next === "dark"));
  });
}

const navToggle = document.querySelector(".nav-toggle");
if (navToggle) {
  navToggle.addEventListener("click", () => {
    const open = navToggle.getAttribute("aria-expanded") !== "true";
    navToggle.setAttribute("aria-expanded", String(open));
    document.getElementById(navToggle.getAttribute("aria-controls")).classList.toggle("open", open);
  });
}

for (const select of /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll("select[data-autosubmit]"))) {
  select.addEventListener("change", () => select.form.submit());
}

for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll("form[data-confirm]"))) {
  form.addEventListener("submit", async (event) => {
    if (form.dataset.confirmed === "yes") return;
    event.preventDefault();
    if (await confirmDialog(form.dataset.confirm)) {
      form.dataset.confirmed = "yes";
      form.requestSubmit(/** @type {SubmitEvent} */ (event).submitter || undefined);
    }
  });
}

// A taken nickname comes back with free ones as buttons: a tap puts one in the field.
document.addEventListener("click", (event) => {
  /** @type {HTMLElement | null} */
  const button = event.target instanceof Element ? event.target.closest("[data-use-nickname]") : null;
  if (!button) return;
  /** @type {HTMLInputElement | null} */
  const target = document.querySelector(button.dataset.target);
  if (!target) return;
  target.value = button.dataset.useNickname;
  target.setCustomValidity("");
  target.focus();
});

for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("[data-suggest-nickname]"))) {
  button.addEventListener("click", async () => {
    /** @type {HTMLInputElement} */
    const target = document.querySelector(button.dataset.target);
    button.disabled = true;
    try {
      const response = await fetch(button.dataset.url, { headers: { Accept: "application/json" } });
      if (!response.ok) throw new Error(String(response.status));
      target.value = (await response.json()).nickname;
      target.focus();
    } catch (e) {
      target.setCustomValidity("");
    } finally {
      button.disabled = false;
    }
  });
}
