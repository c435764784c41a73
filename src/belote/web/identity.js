// This browser's identity (docs/players.md), optional everywhere: the secret the server gave when
// the player picked a name, kept in localStorage with the player's public face; the requests that
// carry it (`Authorization: Bearer <secret>`); what GET /api/me says (friends, requests, blocks,
// invitations); the socket that says hello so that friends see the player online and invitations
// arrive (`invited`); and the banner that shows an invitation anywhere on a page, with Join and
// Dismiss. The table page (app.js, panels.js), the profile and the leaderboard all use it.

import { esc } from "./dom.js";
import { gameTitle, t } from "./i18n.js";
import { handleHtml, invitationKey, mergeInvitations } from "./people.js";

const KEY = "belote.identity"; // {secret, player: {id, name, tag, handle, password}}
const LATER_KEY = "belote.identity.later"; // the first visit's offer to pick a name was put off
const DISMISSED_KEY = "belote.invitations.dismissed"; // {key: expires}

// ---------------------------------------------------------------------- what this browser keeps
function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key));
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage refused (a private window): the identity lasts for this page.
  }
}

function isPlayer(p) {
  return Boolean(p) && typeof p.id === "string";
}

function saved() {
  const value = read(KEY);
  return value && typeof value.secret === "string" && isPlayer(value.player) ? value : null;
}

let held = saved();

/**
 * A secret kept without its player (an earlier page wrote an answer cut short by leaving): the
 * server is asked once who it is, and the identity is whole again; a secret it does not know is
 * dropped.
 */
async function recover() {
  const value = read(KEY);
  if (held || !value || typeof value.secret !== "string" || typeof fetch !== "function") return;
  let res;
  let data;
  try {
    res = await fetch("/api/me", { headers: { Authorization: `Bearer ${value.secret}` } });
    data = await res.json();
  } catch {
    return; // out of reach: asked again by the next page
  }
  if (held) return; // an identity was picked meanwhile
  if (res.ok && isPlayer(data && data.player)) keep(value.secret, data.player);
  else if (res.status === 401 && data && data.code === "no_identity") write(KEY, null);
}

/** The identity's answer to GET /api/me, once asked (friends, requests, blocks, invitations). */
let mine = null;
const listeners = new Set();

function changed() {
  for (const fn of listeners) fn();
}

/** Calls `fn` whenever the identity or what the server says of it changes. */
export function onIdentity(fn) {
  listeners.add(fn);
}

// Another page of the site (another tab) kept or forgot an identity: this one follows.
if (typeof window !== "undefined") {
  window.addEventListener("storage", (ev) => {
    if (ev.key !== KEY && ev.key !== null) return;
    const now = saved();
    if ((now && now.secret) === (held && held.secret)) return;
    held = now;
    mine = null;
    changed();
  });
  recover();
}

/** The player of this browser ({id, name, tag, handle, password}), or null. */
export function player() {
  return held ? held.player : null;
}

/** The secret of this browser's identity, or null. */
export function secret() {
  return held ? held.secret : null;
}

/** What GET /api/me answered last, or null. */
export function me() {
  return mine;
}

/** Keeps an identity (its secret and player), as the server gave them. */
export function keep(newSecret, newPlayer) {
  held = { secret: newSecret, player: newPlayer };
  mine = null;
  write(KEY, held);
  changed();
}

/** Forgets the identity on this device only (the server keeps it: deleting is `deleteIdentity`). */
export function forget() {
  held = null;
  mine = null;
  write(KEY, null);
  changed();
}

/** Whether the first visit's offer to pick a name was put off (Not now). */
export function putOff() {
  return Boolean(read(LATER_KEY));
}

export function setPutOff(on) {
  write(LATER_KEY, on ? 1 : null);
  changed();
}

/** The header that carries the identity to the server, or none. */
export function authHeaders() {
  return held ? { Authorization: `Bearer ${held.secret}` } : {};
}

/**
 * What adding `otherId` (of `handle`) as a friend made of them, from what the server said since:
 * friends at once when they had added this identity already, else a request they may answer.
 */
export function friendAddedWords(handle, otherId) {
  const friends = (mine && mine.friends) || [];
  return t(friends.some((f) => f.id === otherId) ? "friendsNow" : "friendAdded", { handle });
}

/** The ids of the players this identity blocked. */
export function blockedIds() {
  return new Set(((mine && mine.blocked) || []).map((p) => p.id));
}

// ---------------------------------------------------------------------- requests
/**
 * A request to the server, as JSON, with the identity's header when `auth` and there is one:
 * {ok, status, data}. A server out of reach answers as a refusal would (status 0).
 */
export async function request(method, url, body = undefined, { auth = true } = {}) {
  const headers = { ...(auth ? authHeaders() : {}) };
  const options = { method, headers };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, options);
  } catch {
    return { ok: false, status: 0, data: { code: "server_error", args: {}, error: "the server could not be reached: try again" } };
  }
  let data = {};
  try {
    data = await res.json();
  } catch {
    // A body cut short (the page went elsewhere as it came) or not JSON: nothing to act on, even
    // with a status that said yes (an identity "refreshed" from it would lose its player).
    return { ok: false, status: res.status, data: { code: "server_error", args: {}, error: "the server's answer did not arrive whole: try again" } };
  }
  if (auth && held && res.status === 401 && data && data.code === "no_identity") forget(); // deleted elsewhere
  return { ok: res.ok, status: res.status, data };
}

/** Asks the server what it holds of this identity (GET /api/me); null without one. */
export async function refresh() {
  if (!held) return null;
  const asked = held.secret;
  const { ok, data } = await request("GET", "/api/me");
  if (!ok || !held || held.secret !== asked || !isPlayer(data && data.player)) return mine;
  mine = data;
  held = { ...held, player: data.player };
  write(KEY, held);
  changed();
  absorb(data.invitations || []);
  return mine;
}

/** A new identity called `name`: kept at once. */
export async function create(name) {
  const answer = await request("POST", "/api/players", { name }, { auth: false });
  if (answer.ok) {
    keep(answer.data.secret, answer.data.player);
    setPutOff(false);
  }
  return answer;
}

/** The identity of a transfer code (`claim`) or of a handle and its password (`login`), kept here. */
export async function signIn(how, body) {
  const answer = await request("POST", how === "code" ? "/api/players/claim" : "/api/players/login", body, { auth: false });
  if (answer.ok) keep(answer.data.secret, answer.data.player);
  return answer;
}

/** A change to the identity or its friends (POST or DELETE under /api/me), then what the server now says. */
export async function change(method, url, body = {}) {
  const answer = await request(method, url, body);
  if (answer.ok && answer.data && answer.data.player && answer.data.player.id === (held && held.player.id)) {
    held = { ...held, player: { ...held.player, ...answer.data.player } };
    write(KEY, held);
  }
  if (answer.ok) await refresh();
  return answer;
}

/** Deletes the identity on the server, then here. */
export async function deleteIdentity() {
  const answer = await request("DELETE", "/api/me", {});
  if (answer.ok) forget();
  return answer;
}

// ---------------------------------------------------------------------- the socket that says hello
// What the tests read: whether this page's own socket (Presence) has said hello, so that its person
// is online for their friends.
const presenceNow = { said: false };
window.__presence = {
  get said() {
    return presenceNow.said;
  },
};

/**
 * A socket of its own that says hello with the identity (the page is online for its friends) and
 * hears invitations; opened while `want(true)`, reopened after a loss with a growing pause. The
 * table page uses it while it has no table socket (that one says hello itself).
 */
export class Presence {
  constructor(onInvited) {
    this.onInvited = onInvited;
    this.ws = null;
    this.wanted = false;
    this.backoff = 1000;
    this.retry = null;
  }

  want(on) {
    const wanted = on && Boolean(held);
    if (wanted === this.wanted && (wanted === Boolean(this.ws) || this.retry)) return;
    this.wanted = wanted;
    if (wanted) this.open();
    else this.close();
  }

  open() {
    clearTimeout(this.retry);
    this.retry = null;
    if (this.ws || !held) return;
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
    this.ws = ws;
    const said = held.secret;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      ws.send(JSON.stringify({ type: "hello", player: said }));
      presenceNow.said = true;
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (!msg || typeof msg !== "object") return;
      if (msg.type === "invited") this.onInvited(msg);
      else if (msg.type === "error" && msg.code === "no_identity" && held && held.secret === said) {
        forget();
        this.want(false);
      } else if (msg.type === "error") this.backoff = 5000; // refused (too many): tried again later
    });
    ws.addEventListener("close", () => {
      if (this.ws !== ws) return;
      this.ws = null;
      presenceNow.said = false;
      if (!this.wanted) return;
      this.retry = setTimeout(() => this.open(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 30000);
    });
  }

  close() {
    clearTimeout(this.retry);
    this.retry = null;
    const old = this.ws;
    this.ws = null;
    presenceNow.said = false;
    if (old) old.close();
  }
}

// ---------------------------------------------------------------------- invitations
let waiting = []; // the invitations shown, the latest first
let joinWith = null; // the page's way to join a table of an invitation
let box = null; // the banner's node

function dismissed() {
  const kept = read(DISMISSED_KEY) || {};
  const now = Date.now() / 1000;
  return new Set(Object.keys(kept).filter((k) => kept[k] > now));
}

/** Takes invitations (GET /api/me's, or one `invited` message): the banner shows those still open. */
export function absorb(invitations) {
  waiting = mergeInvitations(waiting, invitations, Date.now() / 1000, dismissed());
  drawInvitations();
}

/** An invitation put away: not shown again, here or after a reload, for as long as it lasts. */
function dismiss(key) {
  const inv = waiting.find((i) => invitationKey(i) === key);
  waiting = waiting.filter((i) => invitationKey(i) !== key);
  const kept = read(DISMISSED_KEY) || {};
  const now = Date.now() / 1000;
  for (const k of Object.keys(kept)) if (kept[k] <= now) delete kept[k];
  kept[key] = inv && typeof inv.expires === "number" ? inv.expires : now + 600;
  write(DISMISSED_KEY, kept);
  drawInvitations();
}

/**
 * Shows invitations on this page: `join(invitation)` takes the seat (the table page sits and opens
 * the table; the other pages sit, then go to the table page). Invitations arrive through `absorb`.
 */
export function showInvitations(join) {
  joinWith = join;
  if (box) return;
  box = document.createElement("div");
  box.className = "invitations";
  box.dataset.testid = "invitations";
  box.setAttribute("role", "region");
  box.setAttribute("aria-live", "polite");
  box.hidden = true;
  box.addEventListener("click", async (ev) => {
    const b = ev.target.closest("[data-invitation]");
    if (!b) return;
    const key = b.dataset.invitation;
    const inv = waiting.find((i) => invitationKey(i) === key);
    if (!inv) return;
    if (b.dataset.act === "dismiss") {
      dismiss(key);
      return;
    }
    b.disabled = true;
    const said = await joinWith(inv);
    if (said) {
      b.disabled = false;
      const note = box.querySelector(`[data-note="${CSS.escape(key)}"]`);
      if (note) note.textContent = said;
      return;
    }
    dismiss(key);
  });
  document.body.append(box);
  watchDialogs();
  drawInvitations();
  // An invitation lasts ten minutes: gone from the banner when it ends.
  setInterval(() => {
    const before = waiting.length;
    waiting = mergeInvitations(waiting, [], Date.now() / 1000, dismissed());
    if (waiting.length !== before) drawInvitations();
  }, 15000);
}

/** The banner again (after a change of language, or of the invitations). */
export function drawInvitations() {
  if (!box) return;
  box.setAttribute("aria-label", t("invitationsTitle"));
  box.hidden = waiting.length === 0;
  box.innerHTML = waiting
    .map((inv) => {
      const key = esc(invitationKey(inv));
      const game = gameTitle(inv.variant);
      const who = inv.from ? handleHtml(inv.from, esc) : esc(t("someone"));
      return (
        `<div class="invitation" data-testid="invitation" data-table="${esc(inv.table)}">` +
        `<p class="invitation-text">${t("invitedBy", { who, game: esc(game) })}</p>` +
        `<p class="invitation-note" data-note="${key}" role="alert"></p>` +
        `<div class="invitation-buttons">` +
        `<button type="button" class="btn ghost" data-invitation="${key}" data-act="dismiss" data-testid="invitation-dismiss">${esc(t("dismiss"))}</button>` +
        `<button type="button" class="btn primary" data-invitation="${key}" data-act="join" data-testid="invitation-join">${esc(t("join"))}</button>` +
        `</div></div>`
      );
    })
    .join("");
  raise();
}

// A modal dialog makes the rest of the page inert: the banner goes inside the dialog on top, so that
// it is seen and its buttons can be pressed whatever is open.
const opened = [];

function watchDialogs() {
  const seen = new WeakSet();
  const observe = (dialog) => {
    if (seen.has(dialog)) return;
    seen.add(dialog);
    if (dialog.open) opened.push(dialog);
    new MutationObserver(() => {
      const i = opened.indexOf(dialog);
      if (i >= 0) opened.splice(i, 1);
      if (dialog.open) opened.push(dialog);
      raise();
    }).observe(dialog, { attributes: true, attributeFilter: ["open"] });
  };
  for (const d of document.querySelectorAll("dialog")) observe(d);
  new MutationObserver(() => {
    for (const d of document.querySelectorAll("dialog")) observe(d);
  }).observe(document.body, { childList: true });
}

function raise() {
  if (!box) return;
  const top = [...opened].reverse().find((d) => d.open && d.matches(":modal")) || document.body;
  if (box.parentElement !== top) top.append(box);
}

/**
 * Joining from another page than the table's: takes the seat (with the identity), keeps its token
 * where the table page looks for it, and opens the table page on it. Returns words to show when it
 * could not (the table is full, the invitation gone), else nothing.
 */
export async function joinElsewhere(inv, refusal) {
  const token = (() => {
    try {
      return localStorage.getItem(`belote.token.${inv.table}`);
    } catch {
      return null;
    }
  })();
  const link = `/?table=${encodeURIComponent(inv.table)}&invite=${encodeURIComponent(inv.invite)}`;
  if (!token) {
    const { ok, data } = await request("POST", `/api/tables/${encodeURIComponent(inv.table)}/sit`, {
      invite: inv.invite,
      name: (player() || {}).name || "",
    });
    if (!ok) return refusal(data);
    try {
      localStorage.setItem(`belote.token.${data.table}`, data.token);
    } catch {
      // Storage refused: the table page asks to sit again.
    }
  }
  location.href = link;
  return "";
}

// ---------------------------------------------------------------------- a page's header
/**
 * A secondary page's corner for the identity: the handle, linked to its profile, or nothing.
 * `node` is a link the page holds; it is hidden without an identity.
 */
export function drawMeLink(node) {
  const p = player();
  node.hidden = !p;
  if (!p) return;
  node.href = `/players/${encodeURIComponent(p.id)}`;
  node.innerHTML = handleHtml(p, esc);
  node.setAttribute("aria-label", t("yourProfileOf", { handle: p.handle }));
}
