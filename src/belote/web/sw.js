// The table page's service worker, served at /sw.js (server/assets.py), which puts two lines before
// this text: BUILD, the hash of the page's files, and FILES, the addresses of the table page's files
// in that build ("/" first: the page itself). It keeps those files in a cache of the build's own,
// so that the page opens without the network and says that the table needs it (offline.js). It
// keeps nothing else: no answer of the API, no websocket, nothing of a player's; every other
// request goes to the network as if there were no worker.
//
// A new build is a new worker (its first lines differ). It takes over at once (skipWaiting,
// clients.claim) and deletes the older caches: what it serves is either the page, asked of the
// network first, or files whose address names their bytes, so a page of the previous build that
// it takes over never gets a file of another build in place of its own.
/* global BUILD, FILES */

const CACHE = `belote-${BUILD}`;
const PREFIX = `/static/${BUILD}/`;
const KEPT = new Set(FILES.filter((url) => url.startsWith(PREFIX)));

self.addEventListener("install", (event) => {
  event.waitUntil(keep().then(() => self.skipWaiting()));
});

/** The build's files into its cache; the page asked for afresh, and refused unless it names this build's files. */
async function keep() {
  const cache = await caches.open(CACHE);
  const page = await fetch("/", { cache: "no-cache" });
  if (!page.ok || !(await page.clone().text()).includes(PREFIX)) throw new Error(`the page is not build ${BUILD}'s`);
  await cache.addAll([...KEPT]);
  await cache.put("/", page);
}

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("belote-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (url.pathname === "/") event.respondWith(page(request));
  } else if (KEPT.has(url.pathname) && !url.search) {
    event.respondWith(kept(request));
  }
});

/** The table page: the network's, or without it the kept copy, marked as such for offline.js. */
async function page(request) {
  try {
    return await fetch(request);
  } catch {
    const copy = await caches.match("/", { cacheName: CACHE });
    if (!copy) return Response.error();
    const text = (await copy.text()).replace("<html ", '<html data-offline="" ');
    return new Response(text, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  }
}

/** A file of this build: its bytes never change, so the kept copy is the file. */
async function kept(request) {
  return (await caches.match(request, { cacheName: CACHE })) || fetch(request);
}

// The notification of a person's turn (attention.js): a click brings the table's tab back.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(
    (async () => {
      const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const table = tabs.find((tab) => new URL(tab.url).pathname === "/");
      if (table) return table.focus();
      return self.clients.openWindow("/");
    })(),
  );
});
