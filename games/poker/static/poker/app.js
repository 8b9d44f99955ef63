// Every poker page: register the service worker (offline play), offer "Install
// app" where the browser supports it, and say so when the page is offline.

const script = document.getElementById("poker-app-script");

if (script && "serviceWorker" in navigator) {
  navigator.serviceWorker.register(script.dataset.sw, { scope: script.dataset.scope }).catch(() => {
    /* without a service worker the pages simply need the network */
  });
}

let deferredPrompt = null;
/** @returns {NodeListOf<HTMLElement>} */
const installButtons = () => document.querySelectorAll("#poker-install, [data-install]");

window.addEventListener("beforeinstallprompt", (event) => {
  event.preventDefault();
  deferredPrompt = event;
  for (const button of installButtons()) button.hidden = false;
  // The browser installs directly: the by-hand instructions are not needed.
  const help = document.getElementById("poker-install-help");
  if (help) help.hidden = true;
});

window.addEventListener("appinstalled", () => {
  deferredPrompt = null;
  for (const button of installButtons()) button.hidden = true;
});

for (const button of installButtons()) {
  button.addEventListener("click", async () => {
    if (!deferredPrompt) return;
    deferredPrompt.prompt();
    await deferredPrompt.userChoice;
    deferredPrompt = null;
    for (const other of installButtons()) other.hidden = true;
  });
}

function showConnection(offline) {
  const note = document.getElementById("poker-offline-note");
  if (note) note.hidden = !offline;
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-needs-server]"))) {
    node.hidden = offline;
  }
}

/** navigator.onLine only knows about the network cable, so ask the server too:
 * any answer at all means it is reachable. */
async function checkConnection() {
  if (navigator.onLine === false) {
    showConnection(true);
    return;
  }
  if (!script || !script.dataset.probe) return;
  try {
    await fetch(script.dataset.probe, { method: "HEAD", cache: "no-store" });
    showConnection(false);
  } catch (error) {
    showConnection(true);
  }
}

window.addEventListener("online", checkConnection);
window.addEventListener("offline", checkConnection);
checkConnection();
