// Joining a class: the typed-name field is needed only when the student's
// name is not in the roster, so it shows only then (without JS it always shows).
const typedBox = document.querySelector("[data-typed-name]");
const choices = document.querySelectorAll("input[name=member]");

function update() {
  const picked = document.querySelector("input[name=member]:checked");
  const typing = !picked || picked.value === "";
  typedBox.hidden = !typing;
  if (typing && picked) typedBox.querySelector("input").focus({ preventScroll: true });
}

if (typedBox && choices.length) {
  for (const choice of choices) choice.addEventListener("change", update);
  const picked = document.querySelector("input[name=member]:checked");
  typedBox.hidden = Boolean(picked && picked.value !== "");
}
