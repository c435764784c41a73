// What the pages say of players (docs/players.md), without a browser: a handle split for display,
// the addresses of profiles and friend links, numbers as people read them ("—" for none), a rating's
// change, the invitations waiting, the friends in the order a list shows them. identity.js, the
// table page's panels, the profile and the leaderboard draw with these; tests/js/people.test.mjs
// checks them under node.

/** A handle's name and tag: "Léa#4821" -> {name: "Léa", tag: "4821"} (the last # splits them). */
export function splitHandle(handle) {
  const text = String(handle ?? "");
  const at = text.lastIndexOf("#");
  if (at <= 0) return { name: text, tag: "" };
  return { name: text.slice(0, at), tag: text.slice(at + 1) };
}

/** The handle of a player as the server names them: its own, or its name and four-digit tag. */
export function handleOf(player) {
  if (!player) return "";
  if (player.handle) return player.handle;
  return `${player.name}#${String(player.tag).padStart(4, "0")}`;
}

/** Whether text reads as a handle: a name, then # and four digits ("Léa#4821"). */
export function looksLikeHandle(text) {
  return /^[^#]*\S[^#]*#\d{4}$/u.test(String(text ?? "").trim());
}

/**
 * A handle as HTML: the name, then the tag in its own quieter span, each escaped by `esc` (the
 * name is a person's text, never markup).
 */
export function handleHtml(player, esc) {
  const { name, tag } = splitHandle(handleOf(player));
  const tagged = tag ? `<span class="handle-tag">#${esc(tag)}</span>` : "";
  return `<span class="handle"><span class="handle-name">${esc(name)}</span>${tagged}</span>`;
}

/** The address of a player's profile page. */
export function profileUrl(id) {
  return `/players/${encodeURIComponent(id)}`;
}

/** The link that asks whoever opens it to add `id` as a friend. */
export function friendLink(origin, id) {
  return `${origin}/?friend=${encodeURIComponent(id)}`;
}

/** What the table page opens with for its identity: a transfer code, a friend to add (or null). */
export function identityLink(search) {
  const q = new URLSearchParams(search);
  const transfer = (q.get("transfer") || "").trim();
  const friend = (q.get("friend") || "").trim();
  return { transfer: transfer || null, friend: friend || null };
}

// ---------------------------------------------------------------------- numbers
const NONE = "\u2014"; // an em dash: nothing to count yet

/** A whole number or a decimal in the language's way ("1 234,5" in French); "—" for null. */
export function num(value, lang = "en", digits = 0) {
  if (value === null || value === undefined || Number.isNaN(value)) return NONE;
  return Number(value).toLocaleString(lang === "fr" ? "fr-FR" : "en-GB", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** A rate (0..1) as a percentage: "75%" in English, "75 %" (a narrow space) in French; "—" for null. */
export function percent(rate, lang = "en") {
  if (rate === null || rate === undefined || Number.isNaN(rate)) return NONE;
  const n = Math.round(rate * 100);
  return lang === "fr" ? `${n}\u202f%` : `${n}%`;
}

/** A signed change: "+12", "−8" (a minus sign), "±0"; "" for null. */
export function signed(n) {
  if (n === null || n === undefined || Number.isNaN(n)) return "";
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return "\u00b10";
}

/** What a rated match did to a player's rating (after − before), or null when it moved none. */
export function ratingChange(match, playerId) {
  const change = match && match.changes ? match.changes[playerId] : null;
  if (!change || typeof change.after !== "number" || typeof change.before !== "number") return null;
  return change.after - change.before;
}

/** The side (an index of `match.sides`) where `playerId` sat, or -1. */
export function sideOf(match, playerId) {
  return (match.sides || []).findIndex((side) => side.some((seat) => seat.player === playerId));
}

/** How a match ended for the side `side`: "won", "lost" or "tied" (the winner is null at a tie). */
export function outcomeOf(match, side) {
  if (side < 0) return null;
  if (match.winner === null || match.winner === undefined) {
    const best = Math.max(...match.score);
    return match.score[side] === best ? "tied" : "lost";
  }
  return match.winner === side ? "won" : "lost";
}

// ---------------------------------------------------------------------- friends and invitations
/** Friends as a list shows them: online first (those at a table before the others), then by name. */
export function sortFriends(friends) {
  const rank = (f) => (f.online ? (f.table ? 0 : 1) : 2);
  return [...friends].sort((a, b) => rank(a) - rank(b) || handleOf(a).localeCompare(handleOf(b)));
}

/** The key of an invitation: one per table and code. */
export function invitationKey(inv) {
  return `${inv.table}|${inv.invite}`;
}

/**
 * The invitations to show: those of `held` and `incoming`, one per table (the latest wins), none
 * expired at `now` (unix seconds, as `expires`) nor dismissed (`dismissed`: a set of keys), the
 * latest first.
 */
export function mergeInvitations(held, incoming, now, dismissed = new Set()) {
  const byTable = new Map();
  for (const inv of [...held, ...incoming]) {
    if (!inv || typeof inv.table !== "string" || typeof inv.invite !== "string") continue;
    if (typeof inv.expires === "number" && inv.expires <= now) continue;
    if (dismissed.has(invitationKey(inv))) continue;
    byTable.delete(inv.table);
    byTable.set(inv.table, inv);
  }
  return [...byTable.values()].reverse();
}

/** Whether a chat line comes from a seat whose person is blocked (`players`: the state's seats). */
export function fromBlocked(line, players, blocked) {
  if (!line || !line.seat || !blocked || blocked.size === 0) return false;
  const seat = players ? players[line.seat] : null;
  return Boolean(seat && seat.player && blocked.has(seat.player));
}
