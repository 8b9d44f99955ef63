// The printable board: the browser's print dialog, on a button press.
const button = document.getElementById("poker-print");
if (button) button.addEventListener("click", () => window.print());
