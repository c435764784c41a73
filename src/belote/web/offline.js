// The table page without the network: its service worker (sw.js), which keeps the page's files so
// that it opens offline, and the notice that says the table needs the network. This module needs
// only the words (and the sound's setting): it runs even while the table's modules wait for the server (games.js), which is
// all they do without the network.
//
// The notice shows while the browser says it is offline, and on a page the service worker opened
// from its copy (marked data-offline) until the table's modules have what they waited for.

import { pageLang, setLang, t, tIn, translatePage } from "./i18n.js";
import { muted } from "./sound.js";

const note = document.querySelector('[data-testid="offline"]');
const fromCopy = document.documentElement.hasAttribute("data-offline");
let started = false; // the table's modules have the games: the page is the table again

function showNote() {
  const offline = !navigator.onLine || (fromCopy && !started);
  if (offline) {
    const lang = pageLang();
    note.lang = lang;
    note.querySelector('[data-i18n="offlineTitle"]').textContent = tIn(lang, "offlineTitle");
    note.querySelector('[data-i18n="offlineHelp"]').textContent = tIn(lang, "offlineHelp");
  }
  note.hidden = !offline;
}

if (fromCopy) {
  // Nothing else will put the page in the reader's language before the server answers (app.js waits).
  setLang(pageLang());
  translatePage();
  document.querySelector('[data-testid="mute"]').setAttribute("aria-label", t(muted() ? "soundOff" : "soundOn"));
}
showNote();
window.addEventListener("offline", showNote);
window.addEventListener("online", showNote);
import("./games.js").then(() => {
  started = true;
  showNote();
});

if ("serviceWorker" in navigator) {
  // After the page's own requests: the worker's install asks for the same files, from the browser's cache.
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch((e) => console.warn("no service worker:", e));
  });
}
