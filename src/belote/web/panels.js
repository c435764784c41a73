// The table page's panels for players (docs/players.md): the home screen's corner for the identity
// (the first visit's offer of a name, then the handle, Friends, Your identity, the leaderboard),
// the Your identity panel (rename, password, another device, signing in here, deleting), the
// Friends panel (add by handle or link, requests, remove, block, invite to the lobby one hosts),
// the lobby's friends to invite, and the open tables of Play online. The identity itself, its
// requests and the invitations' banner are identity.js's; the controller (app.js) hands in what
// only it knows: its question box, the lobby it hosts, the words of a refusal, how to join a table.

import { $, esc, setHtml } from "./dom.js";
import { gameTitle, getLang, t } from "./i18n.js";
import * as id from "./identity.js";
import { friendLink, handleHtml, looksLikeHandle, profileUrl, sortFriends } from "./people.js";
import { copyText } from "./lobby.js";

let deps = null;
const el = {};
let note = { identity: "", friends: "" }; // the last thing said in each panel (role=status)
let transfer = null; // the last transfer code made: {code, link, qr, expires}
let pendingFriend = null; // a friend link opened before there was an identity
let invited = new Map(); // friend id -> when they were invited to this lobby (the button says so)
let openTables = null; // the last list of open tables, or null before it came

/**
 * Starts the panels. `deps`: {ask(text, yes) -> Promise<bool>, hosting() -> {table, invite} | null,
 * refusal(data) -> words, joinOpen(table) -> Promise (sits at an open table), nameField() -> the
 * name typed on the home screen}.
 */
export function setupPanels(given) {
  deps = given;
  Object.assign(el, {
    who: $('[data-testid="who"]'),
    whoNew: $('[data-testid="who-new"]'),
    whoBar: $('[data-testid="who-bar"]'),
    whoError: $('[data-testid="who-error"]'),
    identity: $('[data-testid="identity-dialog"]'),
    friends: $('[data-testid="friends-dialog"]'),
    friendLists: $('[data-testid="friend-lists"]'),
    friendLink: $('[data-testid="friend-link"]'),
    lobbyFriends: $('[data-testid="lobby-friends"]'),
    openTables: $('[data-testid="open-tables"]'),
    openList: $('[data-testid="open-tables-list"]'),
  });
  el.whoNew.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = el.whoNew.elements.name.value.trim();
    el.whoError.textContent = "";
    if (!name) {
      el.whoError.textContent = t("badName");
      return;
    }
    const answer = await id.create(name);
    if (!answer.ok) el.whoError.textContent = deps.refusal(answer.data);
    else afterSignIn();
  });
  el.whoNew.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-act]");
    if (!b) return;
    if (b.dataset.act === "later") id.setPutOff(true);
    else if (b.dataset.act === "sign-in") openIdentity({ signIn: true });
  });
  el.whoBar.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-act]");
    if (b && b.dataset.act === "identity") openIdentity();
    else if (b && b.dataset.act === "friends") openFriends();
  });
  for (const dialog of [el.identity, el.friends]) {
    dialog.addEventListener("click", (ev) => {
      if (ev.target.closest('[data-role="close"]') || ev.target === dialog) dialog.close();
    });
  }
  el.identity.addEventListener("submit", onIdentitySubmit);
  el.identity.addEventListener("click", onIdentityClick);
  el.friends.addEventListener("submit", onFriendsSubmit);
  el.friends.addEventListener("click", onFriendsClick);
  el.lobbyFriends.addEventListener("click", onFriendsClick);
  el.openTables.addEventListener("click", (ev) => {
    const b = ev.target.closest("[data-act]");
    if (!b) return;
    if (b.dataset.act === "refresh") loadOpenTables();
    else if (b.dataset.act === "join-open") {
      const table = (openTables || []).find((x) => x.table === b.dataset.table);
      if (table) deps.joinOpen(table);
    }
  });
  id.onIdentity(() => {
    drawWho();
    drawFriendLists();
    if (el.identity.open) drawIdentity();
    if (el.friends.open) drawFriends();
  });
  drawWho();
}

/** Everything in the page's language again (after a change of language). */
export function retranslate() {
  drawWho();
  if (el.identity.open) drawIdentity();
  if (el.friends.open) drawFriends();
  drawFriendLists();
  drawOpenTables();
  id.drawInvitations();
}

// ---------------------------------------------------------------------- the home screen's corner
function drawWho() {
  const p = id.player();
  const offer = !p && !id.putOff();
  el.whoNew.hidden = !offer;
  el.whoBar.hidden = offer;
  if (offer) return;
  const friends = (id.me() && id.me().friends) || [];
  const online = friends.filter((f) => f.online).length;
  const asking = ((id.me() && id.me().asking) || []).length;
  const count = online || asking ? `<span class="count" data-testid="friends-count">${online || asking}</span>` : "";
  const countWords = asking ? t("friendsAsking", { n: asking }) : online ? t("friendsOnline", { n: online }) : "";
  setHtml(
    el.whoBar,
    p
      ? `<a class="who-me" href="${esc(profileUrl(p.id))}" data-testid="me-link" aria-label="${esc(t("yourProfileOf", { handle: p.handle }))}">${handleHtml(p, esc)}</a>` +
          `<button type="button" class="pill" data-act="friends" data-testid="friends-open">${esc(t("friendsTitle"))}${count}` +
          (countWords ? `<span class="sr-only">, ${esc(countWords)}</span>` : "") +
          `</button>` +
          `<button type="button" class="pill" data-act="identity" data-testid="identity-open">${esc(t("identityShort"))}</button>` +
          `<a class="pill" href="/leaderboard" data-testid="leaderboard-link">${esc(t("leaderboardTitle"))}</a>`
      : `<button type="button" class="pill" data-act="identity" data-testid="identity-open">${esc(t("whoPick"))}</button>` +
          `<a class="pill" href="/leaderboard" data-testid="leaderboard-link">${esc(t("leaderboardTitle"))}</a>`,
  );
}

// ---------------------------------------------------------------------- Your identity
/** Opens Your identity: `signIn` opens its sign-in part, `say` says something at its top. */
export function openIdentity({ signIn = false, say = "" } = {}) {
  note.identity = say;
  transfer = null;
  for (const f of el.identity.querySelectorAll("form")) f.reset();
  drawIdentity();
  el.identity.querySelector('[data-testid="sign-in"]').open = signIn || !id.player();
  if (!el.identity.open) el.identity.showModal();
  if (id.player()) id.refresh();
}

function drawIdentity() {
  const p = id.player();
  for (const part of el.identity.querySelectorAll("[data-when]")) part.hidden = (part.dataset.when === "some") !== Boolean(p);
  el.identity.querySelector('[data-testid="identity-note"]').textContent = note.identity;
  const summary = el.identity.querySelector('[data-testid="sign-in"] summary');
  summary.textContent = t(p ? "signInOther" : "signInTitle");
  for (const e of el.identity.querySelectorAll("[data-error]")) e.textContent = "";
  if (!p) return;
  const link = el.identity.querySelector('[data-testid="identity-profile"]');
  link.href = profileUrl(p.id);
  link.innerHTML = handleHtml(p, esc);
  const rename = el.identity.querySelector('[data-form="rename"]').elements.name;
  if (document.activeElement !== rename) rename.value = p.name;
  el.identity.querySelector('[data-testid="password-status"]').textContent = t(p.password ? "passwordSet" : "passwordNone");
  el.identity.querySelector('[data-form="password"]').elements.username.value = p.handle; // for password managers
  el.identity.querySelector('[data-testid="password-remove"]').hidden = !p.password;
  el.identity.querySelector('[data-testid="password-set"]').textContent = t(p.password ? "passwordChange" : "passwordSetBtn");
  drawTransfer();
}

function drawTransfer() {
  const box = el.identity.querySelector('[data-testid="transfer"]');
  box.hidden = !transfer;
  if (!transfer) return;
  box.querySelector('[data-testid="transfer-code"]').textContent = transfer.code.replace(/(.{5})(?=.)/g, "$1 ");
  box.querySelector('[data-testid="transfer-link"]').value = transfer.link;
  // The server's SVG, shown as a picture (an <img> of a data: address): whatever it holds, nothing
  // in it runs, and none of it becomes part of the page's markup.
  const img = document.createElement("img");
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(transfer.qr)}`;
  img.alt = t("transferQr");
  img.width = img.height = 180;
  box.querySelector('[data-testid="transfer-qr"]').replaceChildren(img);
  const until = new Date(transfer.expires * 1000).toLocaleTimeString(getLang() === "fr" ? "fr-FR" : "en-GB", { hour: "2-digit", minute: "2-digit" });
  box.querySelector('[data-testid="transfer-expires"]').textContent = t("transferExpires", { time: until });
}

function formError(form, words) {
  const p = form.querySelector("[data-error]");
  if (p) p.textContent = words || "";
}

function say(words) {
  note.identity = words;
  el.identity.querySelector('[data-testid="identity-note"]').textContent = words;
}

async function onIdentitySubmit(ev) {
  ev.preventDefault();
  const form = ev.target;
  const f = form.elements;
  formError(form, "");
  let answer;
  switch (form.dataset.form) {
    case "create":
      answer = await id.create(f.name.value.trim());
      if (answer.ok) {
        say(t("identityMade", { handle: answer.data.player.handle }));
        afterSignIn();
      }
      break;
    case "claim":
      answer = await signInHere("code", { code: f.code.value });
      break;
    case "login":
      answer = await signInHere("login", { handle: f.handle.value.trim(), password: f.password.value });
      break;
    case "rename":
      answer = await id.change("POST", "/api/me/name", { name: f.name.value.trim() });
      if (answer.ok) say(t("renamed", { handle: answer.data.player.handle }));
      break;
    case "password": {
      const pw = f.password.value;
      if (pw.length < 8 || pw.length > 128) {
        formError(form, t("passwordLength"));
        return;
      }
      answer = await id.change("POST", "/api/me/password", { password: pw });
      if (answer.ok) {
        f.password.value = "";
        say(t("passwordSaved"));
      }
      break;
    }
    default:
      return;
  }
  if (answer && !answer.ok) formError(form, deps.refusal(answer.data));
  else drawIdentity();
}

/** Signs in with a code or a password; with an identity here already, asks first (it is replaced). */
async function signInHere(how, body) {
  const p = id.player();
  if (p && !(await deps.ask(t("replaceIdentity", { handle: p.handle }), t("signIn")))) return { ok: true };
  const answer = await id.signIn(how, body);
  if (answer.ok) {
    say(t("signedIn", { handle: answer.data.player.handle }));
    afterSignIn();
  }
  return answer;
}

async function onIdentityClick(ev) {
  const b = ev.target.closest("[data-act]");
  if (!b) return;
  switch (b.dataset.act) {
    case "transfer": {
      const answer = await id.request("POST", "/api/me/transfer", {});
      if (!answer.ok) return say(deps.refusal(answer.data));
      transfer = answer.data;
      drawTransfer();
      el.identity.querySelector('[data-testid="transfer-code"]').focus();
      break;
    }
    case "copy-transfer": {
      const copied = await copyText(el.identity.querySelector('[data-testid="transfer-link"]'));
      b.textContent = t(copied ? "copied" : "copy");
      setTimeout(() => (b.textContent = t("copy")), 1600);
      break;
    }
    case "password-remove": {
      if (!(await deps.ask(t("passwordRemoveAsk"), t("passwordRemove")))) return;
      const answer = await id.change("POST", "/api/me/password", { password: null });
      say(answer.ok ? t("passwordRemoved") : deps.refusal(answer.data));
      drawIdentity();
      break;
    }
    case "delete": {
      const p = id.player();
      if (!p || !(await deps.ask(t("deleteAsk", { handle: p.handle }), t("deleteIdentity")))) return;
      const answer = await id.deleteIdentity();
      say(answer.ok ? t("deleted") : deps.refusal(answer.data));
      drawIdentity();
      break;
    }
    case "forget": {
      const p = id.player();
      if (!p || !(await deps.ask(t("forgetAsk", { handle: p.handle }), t("forgetIdentity")))) return;
      id.forget();
      id.setPutOff(true);
      say(t("forgotten"));
      drawIdentity();
      break;
    }
    default:
      break;
  }
}

/** A new identity here: what the server holds of it, and a friend link opened before it existed. */
async function afterSignIn() {
  await id.refresh();
  if (pendingFriend) {
    const friend = pendingFriend;
    pendingFriend = null;
    await offerFriend(friend);
  }
}

// ---------------------------------------------------------------------- Friends
let friendsTimer = null;
export function openFriends() {
  note.friends = "";
  drawFriends();
  if (!el.friends.open) el.friends.showModal();
  if (id.player()) id.refresh();
  // Who is online changes while the panel is open: asked again now and then.
  clearInterval(friendsTimer);
  friendsTimer = setInterval(() => {
    if (!el.friends.open) {
      clearInterval(friendsTimer);
      friendsTimer = null;
    } else if (id.player()) id.refresh();
  }, 20000);
}

function drawFriends() {
  const p = id.player();
  for (const part of el.friends.querySelectorAll("[data-when]")) part.hidden = (part.dataset.when === "some") !== Boolean(p);
  el.friends.querySelector('[data-testid="friends-note"]').textContent = note.friends;
  if (!p) return;
  el.friendLink.value = friendLink(location.origin, p.id);
}

function personHtml(person, buttons, extra = "") {
  const status = extra ? `<span class="person-status">${extra}</span>` : "";
  return (
    `<li class="person${person.online ? " online" : ""}" data-testid="person" data-player="${esc(person.id)}">` +
    `<span class="person-who"><a href="${esc(profileUrl(person.id))}">${handleHtml(person, esc)}</a>${status}</span>` +
    `<span class="person-buttons">${buttons}</span></li>`
  );
}

function button(act, person, words, cls = "", extra = "") {
  const label = `${words} ${person.handle}`;
  return (
    `<button type="button" class="btn small ${cls}" data-act="${act}" data-player="${esc(person.id)}" data-handle="${esc(person.handle)}" ` +
    `data-testid="${act}-${esc(person.id)}" aria-label="${esc(label)}"${extra}>${esc(words)}</button>`
  );
}

/** Where a friend is: online (at a table of some game) or not. */
function whereWords(f) {
  if (!f.online) return `<span class="dot off" aria-hidden="true"></span>${esc(t("offline"))}`;
  const at = f.table ? t("atTable", { game: gameTitle(f.table.variant) }) : t("online");
  return `<span class="dot on" aria-hidden="true"></span>${esc(at)}`;
}

function inviteButton(f) {
  const host = deps.hosting();
  if (!host || !f.online) return "";
  const done = invited.has(f.id);
  return button("invite", f, t(done ? "invitedDone" : "invite"), "primary", done ? " disabled" : "");
}

function listHtml(title, people, row, testid) {
  if (!people.length) return "";
  return `<section class="people-part" data-testid="${testid}"><h3>${esc(title)} <span class="n">${people.length}</span></h3><ul class="people-list">${people.map(row).join("")}</ul></section>`;
}

/** The lists of the Friends panel and of the lobby, from what GET /api/me said last. */
export function drawFriendLists() {
  const m = id.me();
  const friends = m ? sortFriends(m.friends || []) : [];
  if (el.friendLists) {
    const html = !m
      ? `<p class="note">${esc(t("loading"))}</p>`
      : [
          listHtml(t("friendsAskingTitle"), m.asking || [], (p) => personHtml(p, button("accept", p, t("accept"), "primary") + button("block", p, t("block"))), "friends-asking"),
          friends.length
            ? listHtml(t("friendsTitle"), friends, (f) => personHtml(f, inviteButton(f) + button("remove", f, t("remove")) + button("block", f, t("block")), whereWords(f)), "friends-list")
            : `<p class="note" data-testid="friends-empty">${esc(t("friendsEmpty"))}</p>`,
          listHtml(t("friendsAskedTitle"), m.asked || [], (p) => personHtml(p, button("remove", p, t("cancelRequest")), esc(t("waitingAnswer"))), "friends-asked"),
          listHtml(t("blockedTitle"), m.blocked || [], (p) => personHtml(p, button("unblock", p, t("unblock"))), "friends-blocked"),
        ].join("");
    setHtml(el.friendLists, html);
  }
  drawLobbyFriends();
}

function drawLobbyFriends() {
  const host = deps && deps.hosting();
  const m = id.me();
  const friends = m ? sortFriends(m.friends || []) : [];
  const show = Boolean(host && id.player() && friends.length);
  el.lobbyFriends.hidden = !show;
  if (!show) return;
  const list = el.lobbyFriends.querySelector("ul");
  setHtml(list, friends.map((f) => personHtml(f, inviteButton(f), whereWords(f))).join(""));
  el.lobbyFriends.querySelector("h3").textContent = t("lobbyFriendsTitle");
}

/** The lobby this page hosts changed (or is gone): its friends to invite, asked again now and then. */
let lobbyTimer = null;
export function hostingChanged() {
  const host = deps.hosting();
  if (!host) {
    invited = new Map();
    clearInterval(lobbyTimer);
    lobbyTimer = null;
  } else if (!lobbyTimer && id.player()) {
    id.refresh();
    lobbyTimer = setInterval(() => id.refresh(), 20000);
  }
  drawLobbyFriends();
}

async function onFriendsSubmit(ev) {
  ev.preventDefault();
  const form = ev.target;
  if (form.dataset.form !== "add-friend") return;
  const text = form.elements.handle.value.trim();
  formError(form, "");
  if (!looksLikeHandle(text)) {
    formError(form, t("handleHelp"));
    return;
  }
  const answer = await id.change("POST", "/api/me/friends", { player: text });
  if (!answer.ok) {
    formError(form, deps.refusal(answer.data));
    return;
  }
  form.reset();
  sayFriends(id.friendAddedWords(answer.data.player.handle, answer.data.player.id));
}

function sayFriends(words) {
  note.friends = words;
  const p = el.friends.querySelector('[data-testid="friends-note"]');
  if (p) p.textContent = words;
}

async function onFriendsClick(ev) {
  const b = ev.target.closest("[data-act]");
  if (!b) return;
  const who = b.dataset.player;
  const handle = b.dataset.handle;
  let answer = null;
  switch (b.dataset.act) {
    case "identity":
      el.friends.close();
      openIdentity();
      return;
    case "copy-friend": {
      const copied = await copyText(el.friendLink);
      b.textContent = t(copied ? "copied" : "copy");
      setTimeout(() => (b.textContent = t("copy")), 1600);
      return;
    }
    case "accept":
      answer = await id.change("POST", "/api/me/friends", { player: who });
      if (answer.ok) sayFriends(id.friendAddedWords(handle, who));
      break;
    case "remove":
      if (!(await deps.ask(t("removeAsk", { handle }), t("remove")))) return;
      answer = await id.change("DELETE", `/api/me/friends/${encodeURIComponent(who)}`);
      if (answer.ok) sayFriends(t("friendRemoved", { handle }));
      break;
    case "block":
      if (!(await deps.ask(t("blockAsk", { handle }), t("block")))) return;
      answer = await id.change("POST", "/api/me/blocks", { player: who });
      if (answer.ok) sayFriends(t("blockedDone", { handle }));
      break;
    case "unblock":
      answer = await id.change("DELETE", `/api/me/blocks/${encodeURIComponent(who)}`);
      if (answer.ok) sayFriends(t("unblockedDone", { handle }));
      break;
    case "invite": {
      const host = deps.hosting();
      if (!host) return;
      b.disabled = true;
      answer = await id.request("POST", "/api/me/invite", { player: who, table: host.table, invite: host.invite });
      if (answer.ok) {
        invited.set(who, Date.now());
        sayFriends(t("invitedFriend", { handle }));
        drawFriendLists();
      } else b.disabled = false;
      break;
    }
    default:
      return;
  }
  if (answer && !answer.ok) sayFriends(deps.refusal(answer.data));
  drawFriendLists();
}

// ---------------------------------------------------------------------- links the page opens with
/** A transfer link (`?transfer=CODE`): the identity it carries, here, once the player agrees. */
export async function claimLink(code) {
  const answer = await signInHere("code", { code });
  if (answer.data && answer.data.player) openIdentity({ say: t("signedIn", { handle: answer.data.player.handle }) });
  else if (!answer.ok) openIdentity({ signIn: true, say: deps.refusal(answer.data) });
}

/** A friend link (`?friend=ID`): who it is, then added after a question; a name is chosen first. */
export async function friendLinkOpened(friendId) {
  if (!id.player()) {
    pendingFriend = friendId;
    openIdentity({ say: t("friendNeedsName") });
    return;
  }
  await offerFriend(friendId);
}

async function offerFriend(friendId) {
  const p = id.player();
  if (!p || friendId === p.id) return;
  const found = await id.request("GET", `/api/players/${encodeURIComponent(friendId)}`, undefined, { auth: false });
  if (!found.ok) {
    openFriends();
    sayFriends(deps.refusal(found.data));
    return;
  }
  const handle = found.data.handle;
  if (!(await deps.ask(t("addFriendAsk", { handle }), t("addFriend")))) return;
  const answer = await id.change("POST", "/api/me/friends", { player: friendId });
  openFriends();
  sayFriends(answer.ok ? id.friendAddedWords(handle, friendId) : deps.refusal(answer.data));
}

// ---------------------------------------------------------------------- open tables
/** Asks for the open tables (Play online shows them). */
export async function loadOpenTables() {
  const answer = await id.request("GET", "/api/open-tables", undefined, { auth: false });
  openTables = answer.ok ? answer.data.tables || [] : [];
  drawOpenTables();
}

function drawOpenTables() {
  if (!el.openList) return;
  const empty = el.openTables.querySelector('[data-testid="open-tables-empty"]');
  const list = openTables || [];
  empty.hidden = openTables === null || list.length > 0;
  setHtml(
    el.openList,
    list
      .map((x) => {
        const people = Object.values(x.people || {});
        const facts = [
          x.host ? t("openHost", { name: esc(x.host) }) : "",
          esc(people.length === 1 ? t("openPeopleOne") : t("openPeople", { n: people.length })),
          esc(x.free.length === 1 ? t("openFreeOne") : t("openFree", { n: x.free.length })),
        ].filter(Boolean);
        const rated = x.rated ? `<span class="tag rated">${esc(t("rated"))}</span>` : "";
        const game = gameTitle(x.variant);
        return (
          `<li class="open-table" data-testid="open-table" data-table="${esc(x.table)}">` +
          `<span class="open-what"><b>${esc(game)}</b>${rated}<span class="open-facts">${facts.join(" · ")}</span></span>` +
          `<button type="button" class="btn primary small" data-act="join-open" data-table="${esc(x.table)}" data-testid="open-join" ` +
          `aria-label="${esc(t("openJoinLabel", { game, host: x.host || "" }))}">${esc(t("join"))}</button></li>`
        );
      })
      .join(""),
  );
}
