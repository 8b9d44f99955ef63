// The poker room settings (games/poker/templates/poker/room/_settings_fields.html),
// on the poker page's "new group game / duel" form and on the class page: the
// seconds field only matters in hard mode.
for (const field of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-pr-seconds-field]"))) {
  const form = field.closest("form");
  if (!form) continue;
  const sync = () => {
    /** @type {HTMLInputElement | null} */
    const picked = form.querySelector("input[name=difficulty]:checked");
    const hard = picked?.value === "hard";
    field.hidden = !hard;
    field.querySelector("input").disabled = !hard;
  };
  form.addEventListener("change", sync);
  sync();
}
