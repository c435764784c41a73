// What the tournaments' pages share (issue 27, docs/tournaments.md): who asks (an identity, or a
// guest's token this browser keeps), the private tournaments this browser created or opened from a
// link (with their invitation), the addresses of a tournament, of a board's traveller and of its
// review, and the numbers as the pages write them. Plain functions but for localStorage: the tests
// run them under node (tests/js/tournament.test.mjs).

import { tw } from "./tournament-words.js";

export const GUEST_KEY = "belote.guest"; // a guest's token: 32 url-safe characters, made once
export const KEPT_KEY = "belote.tournaments"; // [{id, invite, name, game, closes, kept}]
const MAX_KEPT = 30;
const NONE = "\u2014"; // an em dash: nothing to say yet

// ---------------------------------------------------------------------- who asks
/** A new guest's token: 32 characters of A–Z a–z 0–9 - _ (24 random bytes). */
export function newGuestToken(random = (n) => crypto.getRandomValues(new Uint8Array(n))) {
  const bytes = random(24);
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let out = "";
  for (let i = 0; i < 24; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out += abc[(n >> 18) & 63] + abc[(n >> 12) & 63] + abc[(n >> 6) & 63] + abc[n & 63];
  }
  return out;
}

/** This browser's guest token (made and kept when `make`), or null. */
export function guestToken(make = false) {
  try {
    let token = localStorage.getItem(GUEST_KEY);
    if (token && /^[A-Za-z0-9_-]{16,128}$/.test(token)) return token;
    if (!make) return null;
    token = newGuestToken();
    localStorage.setItem(GUEST_KEY, token);
    return token;
  } catch {
    return null; // storage refused: a guest cannot keep their results
  }
}

/** The header that says who asks: the identity's secret, else the guest's token, else nothing. */
export function authOf(secret, guest) {
  if (secret) return { Authorization: `Bearer ${secret}` };
  if (guest) return { Authorization: `Guest ${guest}` };
  return {};
}

// ---------------------------------------------------------------------- the private ones kept
function readKept() {
  try {
    const list = JSON.parse(localStorage.getItem(KEPT_KEY));
    return Array.isArray(list) ? list.filter((x) => x && typeof x.id === "string" && typeof x.invite === "string") : [];
  } catch {
    return [];
  }
}

/** The private tournaments this browser created or opened, the latest first. */
export function keptTournaments() {
  return readKept();
}

/** Keeps a private tournament (its public facts and its invitation), first in the list. */
export function keepTournament(t, invite) {
  if (!t || !invite) return;
  const entry = { id: t.id, invite, name: t.name || "", game: t.game, closes: t.closes, kept: Date.now() };
  const list = readKept().filter((x) => x.id !== t.id);
  try {
    localStorage.setItem(KEPT_KEY, JSON.stringify([entry, ...list].slice(0, MAX_KEPT)));
  } catch {
    // Storage refused: the list is simply not kept.
  }
}

export function forgetTournament(id) {
  try {
    localStorage.setItem(KEPT_KEY, JSON.stringify(readKept().filter((x) => x.id !== id)));
  } catch {
    // Storage refused.
  }
}

/** The invitation kept for a tournament, or null (a daily one has none). */
export function inviteOf(id) {
  const found = readKept().find((x) => x.id === id);
  return found ? found.invite : null;
}

// ---------------------------------------------------------------------- addresses
function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** A tournament's page; with `board`, its traveller opened. */
export function tournamentUrl(id, { invite = null, board = null } = {}) {
  return `/tournaments/${encodeURIComponent(id)}${query({ invite, board })}`;
}

/** An API path of a tournament (`rest`: "", "/ranking", "/boards/3/traveller"...), with its invitation. */
export function apiPath(id, rest = "", invite = null, extra = {}) {
  return `/api/tournaments/${encodeURIComponent(id)}${rest}${query({ invite, ...extra })}`;
}

/** The review of a board: the person's deal and the bots' line. */
export function boardReviewUrl(id, board, invite = null) {
  return `/review${query({ tournament: id, board, invite })}`;
}

// ---------------------------------------------------------------------- numbers and times
function locale(lang) {
  return lang === "fr" ? "fr-FR" : "en-GB";
}

/** A percentage (0 to 100) as the language writes it: "62.5%", "62,5 %"; `fixed`: always `digits` decimals. */
export function pct(value, lang = "en", digits = 1, fixed = false) {
  if (value === null || value === undefined || Number.isNaN(value)) return NONE;
  const n = Number(value).toLocaleString(locale(lang), { minimumFractionDigits: fixed ? digits : 0, maximumFractionDigits: digits });
  return lang === "fr" ? `${n}\u202f%` : `${n}%`;
}

/** A signed number: "+12.5", "−3" (a minus sign), "±0"; "—" for null. */
export function signedNum(value, lang = "en", digits = 1) {
  if (value === null || value === undefined || Number.isNaN(value)) return NONE;
  const r = Math.round(Number(value) * 10 ** digits) / 10 ** digits;
  const n = Math.abs(r).toLocaleString(locale(lang), { maximumFractionDigits: digits });
  if (r > 0) return `+${n}`;
  if (r < 0) return `\u2212${n}`;
  return "\u00b10";
}

/** A span of time in words: "3 h 20 min", "2 d 4 h", "12 min", "less than a minute". */
export function spanWords(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return tw("days", { d, h });
  if (h > 0) return tw("hours", { h, m });
  if (m > 0) return tw("minutes", { m });
  return tw("lessThanMinute");
}

/** When a tournament closes or opens, from `now` (unix seconds): "closes in 3 h 20 min". */
export function whenWords(t, now, dateWords) {
  if (t.state === "soon" || now < t.opens) return tw("opensIn", { time: spanWords(t.opens - now) });
  if (t.state === "closed" || now >= t.closes) return tw("closedOn", { date: dateWords(t.closes) });
  return tw("closesIn", { time: spanWords(t.closes - now) });
}

// ---------------------------------------------------------------------- a tournament for its player
/** The board to play next (1-based): one under way first, else the first to play; null when none. */
export function nextBoard(mine) {
  const list = mine || [];
  const going = list.find((b) => b.state === "playing");
  if (going) return going.board;
  const next = list.find((b) => b.state === "to_play");
  return next ? next.board : null;
}

/** What the player did so far: boards played, of how many, and the mean of their percentages (or null). */
export function progress(mine) {
  const list = mine || [];
  const played = list.filter((b) => b.state === "played");
  const percents = played.map((b) => b.percent).filter((p) => typeof p === "number");
  const mean = percents.length ? percents.reduce((a, b) => a + b, 0) / percents.length : null;
  return { played: played.length, boards: list.length, percent: mean };
}

/** Where a person sits at a board's table: South, or North at two hands (server/room.py person_seat). */
export function personSeat(seats) {
  return seats.includes("S") ? "S" : "N";
}

/** A line's points, the person's side's first: [ours, ...theirs] (`teams`: the game's, `mine`: the person's). */
export function pointsFromMe(points, teams, mine) {
  const i = Math.max(0, teams.indexOf(mine));
  return [points[i], ...points.filter((_, j) => j !== i)];
}

/**
 * A traveller's rows, best first: the people's lines and the bots' line (`kind` "people" or "bots"),
 * the bots' line after the people's of the same score.
 */
export function travellerRows(traveller) {
  const rows = (traveller.lines || []).map((line) => ({ kind: "people", ...line }));
  if (traveller.bots) {
    const bots = { kind: "bots", n: 0, names: [], mine: false, ...traveller.bots };
    const at = rows.findIndex((r) => r.score < bots.score);
    rows.splice(at < 0 ? rows.length : at, 0, bots);
  }
  return rows;
}

/** The ranking's rows to show: the page's, and the asker's own after them when it is not among them. */
export function rankingRows(page) {
  const rows = (page && page.rows) || [];
  const you = page && page.you;
  if (!you || rows.some((r) => r.entrant === you.entrant)) return { rows, you: null };
  return { rows, you };
}

/** A month "YYYY-MM" moved by `by` months. */
export function shiftMonth(month, by) {
  const [y, m] = month.split("-").map(Number);
  const index = y * 12 + (m - 1) + by;
  return `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** The month of a date (unix seconds, UTC): "YYYY-MM". */
export function monthOf(seconds) {
  const d = new Date(seconds * 1000);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

/** A name as the server takes it: 1 to 24 characters once trimmed; null when it is not one. */
export function checkName(raw) {
  const name = String(raw || "").trim().replace(/\s+/g, " ");
  return name.length >= 1 && name.length <= 24 ? name : null;
}

/** A datetime-local field's value for a date (unix seconds), in the browser's time zone. */
export function localInput(seconds) {
  const d = new Date(seconds * 1000);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
