// Filter a grid of cards by kind and field (deck builder and card gallery).
export function setupFilters(scope, { onlyChosen = false } = {}) {
  const panel = scope.querySelector("[data-filters]");
  const grid = scope.querySelector("[data-card-grid]");
  if (!panel || !grid) return;
  panel.hidden = false;
  const kind = panel.querySelector("[data-filter-kind]");
  const field = panel.querySelector("[data-filter-field]");
  const chosen = panel.querySelector("[data-filter-chosen]");
  function apply() {
    for (const item of grid.querySelectorAll("[data-pick]")) {
      const fields = (item.dataset.fields || "").split(" ");
      const box = item.querySelector("input[type=checkbox]");
      item.hidden =
        (kind.value && item.dataset.kind !== kind.value) ||
        (field.value && !fields.includes(field.value)) ||
        (onlyChosen && chosen && chosen.checked && box && !box.checked);
    }
  }
  for (const control of [kind, field, chosen]) if (control) control.addEventListener("change", apply);
  apply();
}
