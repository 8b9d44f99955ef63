// The "New homework" form: only the chosen game's settings are shown, and the
// seconds per number only for a hard game.
const form = document.getElementById("homework-form");

function sync() {
  if (!form) return;
  const game = form.elements.game ? form.elements.game.value : "";
  for (const input of form.querySelectorAll("[data-game]")) {
    const field = input.closest(".field") || input.parentElement;
    let shown = input.dataset.game === game;
    if (shown && input.name.endsWith("__seconds_per_card")) {
      const difficulty = form.elements[`${game}__difficulty`];
      shown = !difficulty || difficulty.value === "hard";
    }
    field.hidden = !shown;
    input.disabled = !shown;
  }
}

if (form) {
  form.addEventListener("change", sync);
  sync();
}
