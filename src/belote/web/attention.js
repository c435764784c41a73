// A person whose tab is hidden when their turn comes is told: the tab's title says so ("★ Your turn
// — Belote") until the tab is seen again or the turn has passed, and, when they asked for it, the
// browser shows a notification. Asking is a box of the settings ("Notify me when it is my turn"),
// off until the person ticks it, which is when the browser asks its permission: never on load.
//
//   attend(true)   at each drawing, whether it is the reader's turn (app.js)

import { t } from "./i18n.js";

const NOTIFY_KEY = "belote.notify"; // "1": the person asked to be notified
const TAG = "belote-turn"; // one notification at a time: the next turn's replaces it
const ICON = new URL("./icons/icon-192.png", import.meta.url).href; // this build's

const box = document.querySelector('[data-testid="notify-turn"]');
const refused = document.querySelector('[data-testid="notify-refused"]');
let mine = false; // the reader's turn, at the last drawing
let title = null; // the page's own title, while the tab's says it is the reader's turn
let shown = null; // the notification made without a service worker

const notifications = "Notification" in window;

/** Whether a notification is to be shown: asked for, and allowed by the browser. */
function notifying() {
  return notifications && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1";
}

/** Called at each drawing with whether it is the reader's turn (to bid or to play). */
export function attend(turn) {
  const came = turn && !mine;
  mine = turn;
  if (!turn) {
    unflag();
  } else if (came && document.hidden) {
    flag();
    if (notifying()) notify();
  }
}

function flag() {
  if (title === null) title = document.title;
  document.title = t("turnTitle");
}

function unflag() {
  if (title !== null) document.title = title;
  title = null;
  closeNotification();
}

async function notify() {
  const options = { body: t("turnNotifyBody"), tag: TAG, renotify: true, icon: ICON, lang: document.documentElement.lang };
  try {
    const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : null;
    if (registration && registration.active) {
      await registration.showNotification(t("turnNotify"), options); // the only way on a phone
    } else {
      shown = new Notification(t("turnNotify"), options);
      shown.onclick = () => {
        window.focus();
        shown.close();
      };
    }
  } catch (e) {
    console.warn("no notification:", e);
  }
}

async function closeNotification() {
  if (shown) shown.close();
  shown = null;
  if (!notifications || !("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.getRegistration();
  if (registration) for (const n of await registration.getNotifications({ tag: TAG })) n.close();
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden) unflag();
  else if (mine) flag(); // left during one's turn: the tab says it too
});

// The setting: ticking it asks the browser (a click: the gesture browsers want); a refusal is said.
function showSetting() {
  box.checked = notifying();
  refused.hidden = !(notifications && Notification.permission === "denied" && localStorage.getItem(NOTIFY_KEY) === "1");
}

if (box) {
  box.closest("label").hidden = !notifications;
  if (notifications) showSetting();
  box.addEventListener("change", async () => {
    localStorage.setItem(NOTIFY_KEY, box.checked ? "1" : "0");
    if (box.checked && Notification.permission === "default") await Notification.requestPermission();
    showSetting();
  });
}
