// Joining a class: the typed-name field is needed only when the student says
// their name is not in the roster, so it shows only then (without JS it always shows).
/** @type {HTMLElement | null} */
const typedBox = document.querySelector("[data-typed-name]");
/** @type {NodeListOf<HTMLInputElement>} */
const choices = document.querySelectorAll("input[name=member]");

function update(focus) {
  /** @type {HTMLInputElement | null} */
  const picked = document.querySelector("input[name=member]:checked");
  // A refused name keeps its field (and the error beside it) in view.
  const refused = Boolean(typedBox.querySelector(".error"));
  const typing = Boolean(picked && picked.value === "") || refused;
  typedBox.hidden = !typing;
  if (typing && focus) typedBox.querySelector("input").focus({ preventScroll: true });
}

if (typedBox && choices.length) {
  for (const choice of choices) choice.addEventListener("change", () => update(true));
  update(false);
}
