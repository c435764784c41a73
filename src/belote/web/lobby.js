// A private table's lobby: who sits where (at four, partners opposite), a button on each free seat,
// and the table's links. The page's own seat is drawn at the bottom, as at the table.

import { esc } from "./dom.js";
import { screenPos } from "./seats.js";

/**
 * The seats of the table's game (games.js: four, three or two) as HTML. `me` is the page's seat (null
 * for a spectator), `players` the seats taken (name, bot), `host` the host's seat, `t` the words.
 */
export function lobbySeatsHtml({ me, players, host, t, game }) {
  return game.seats.map((seat) => seatHtml(seat, { me, players, host, t, game })).join("");
}

function seatHtml(seat, { me, players, host, t, game }) {
  const pos = screenPos(seat, me || game.bottom, game.players);
  const p = players[seat];
  const marks = [];
  if (p && seat === host) marks.push(`<span class="mark host">${esc(t("host"))}</span>`);
  if (seat === me) marks.push(`<span class="mark you">${esc(t("youMark"))}</span>`);
  else if (me && seat === game.partner(me)) marks.push(`<span class="mark">${esc(t("partner"))}</span>`);
  let body;
  if (p) {
    body = `<div class="lobby-player" data-testid="lobby-player-${seat}">${esc(p.name)}</div>`;
    if (p.away && seat !== me) body += `<div class="lobby-gone" data-testid="lobby-gone-${seat}">${esc(t("goneMark"))}</div>`;
  } else {
    body = `<div class="lobby-free">${esc(t("freeSeat"))}</div>`;
    if (me) {
      body +=
        `<button type="button" class="btn" data-action="sit" data-seat="${seat}" data-testid="sit-${seat}">` +
        `${esc(t("sitHere"))}</button>`;
    }
  }
  return (
    `<div class="lobby-seat pos-${pos}${p ? " taken" : ""}${seat === me ? " mine" : ""}" data-testid="lobby-seat-${seat}" ` +
    `data-seat="${seat}"><div class="lobby-seat-name">${esc(t(`seat${seat}`))}${marks.join("")}</div>${body}</div>`
  );
}

/** The full addresses of a table's links, to copy and send. */
export function tableLinks(table, invite, watch) {
  const base = `${location.origin}/?table=${encodeURIComponent(table)}`;
  return {
    invite: invite ? `${base}&invite=${encodeURIComponent(invite)}` : "",
    watch: watch ? `${base}&watch=${encodeURIComponent(watch)}` : "",
  };
}

/** Copies text to the clipboard; falls back to selecting the field where the clipboard is refused. */
export async function copyText(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

/**
 * Shares a link with the system's share sheet where there is one (phones), else copies it.
 * Returns "shared", "copied", or "" when neither happened (the person closed the sheet).
 */
export async function shareLink(input, text) {
  if (navigator.share) {
    try {
      await navigator.share({ title: document.title, text, url: input.value });
      return "shared";
    } catch (e) {
      if (e && e.name === "AbortError") return "";
    }
  }
  return (await copyText(input)) ? "copied" : "";
}
