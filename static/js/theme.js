// Applies the saved colour theme before the page paints (loaded in <head>, not a module).
(function () {
  try {
    var saved = localStorage.getItem("matika-theme");
    if (saved === "dark" || saved === "light") {
      document.documentElement.dataset.theme = saved;
    }
  } catch (e) {
    /* storage may be blocked; the system preference applies */
  }
})();
