// The Matematici hub: confirm before deleting a saved deck.
import { confirmDialog } from "../js/kit/dialog.js";

for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll("form[data-confirm]"))) {
  form.addEventListener("submit", async (event) => {
    if (form.dataset.confirmed === "true") return;
    event.preventDefault();
    if (await confirmDialog(form.dataset.confirm)) {
      form.dataset.confirmed = "true";
      form.requestSubmit();
    }
  });
}
