// The settings of the games on the class page: the poker seconds field only
// matters in hard mode (as on the poker page's own form).
for (const form of document.querySelectorAll("form.start-form")) {
  const seconds = form.querySelector("[data-pr-seconds-field]");
  if (!seconds) continue;
  const sync = () => {
    const hard = form.querySelector("input[name=difficulty]:checked")?.value === "hard";
    seconds.hidden = !hard;
    seconds.querySelector("input").disabled = !hard;
  };
  form.addEventListener("change", sync);
  sync();
}
