// The poker room settings (games/poker/templates/poker/room/_settings_fields.html),
// on the poker page's "new group game / duel" form and on the class page: the
// seconds field only matters in hard mode.
for (const field of document.querySelectorAll("[data-pr-seconds-field]")) {
  const form = field.closest("form");
  if (!form) continue;
  const sync = () => {
    const hard = form.querySelector("input[name=difficulty]:checked")?.value === "hard";
    field.hidden = !hard;
    field.querySelector("input").disabled = !hard;
  };
  form.addEventListener("change", sync);
  sync();
}
