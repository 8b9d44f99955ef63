// The "new group game / duel" form: the seconds field only matters in hard mode.
const form = document.querySelector("[data-testid=new-room-form]");
if (form) {
  const field = form.querySelector("[data-pr-seconds-field]");
  const sync = () => {
    const hard = form.querySelector("input[name=difficulty]:checked")?.value === "hard";
    field.hidden = !hard;
    field.querySelector("input").disabled = !hard;
  };
  form.addEventListener("change", sync);
  sync();
}
