// Hints at a solo table (docs/protocol.md, `hint`): the Hint button and its key, and the answer
// drawn on the table: the card marked in the hand (or the bid in the bidding box) and, in a small
// panel, what the search bot expects of its best three cards. The server works the hint out from
// the seat's own view and counts it; this page only asks, once per position, and draws the answer
// while the position it was given for is still the table's.

import { cardText } from "./cards.js";
import { bidHtml, modeHtml, modeWord, parseBid } from "./coinche.js";
import { esc, setHtml } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { myTurn } from "./state.js";

/** What this page asked and was answered: the position asked at, and the answer with its position. */
const H = { asked: null, answer: null };

/** A position of the deal: a hint is good for that position alone. */
export function positionKey(v) {
  return v ? `${v.deal_number}|${v.bids.length}|${v.hand.length}|${v.trick.length}|${v.tricks.length}` : "";
}

/** Whether this table gives hints to this page: a solo table with the setting on, to its person. */
export function hintsOn(T) {
  return T.kind === "solo" && Boolean(T.seat && T.msg && T.msg.settings && T.msg.settings.hints);
}

function askable(T, U) {
  return hintsOn(T) && T.view && T.waiting !== "continue" && (myTurn(T, "play", U.connected) || myTurn(T, "bidding", U.connected));
}

/** Ask for a hint (the button, the key ?): once per position; false when there is nothing to ask. */
export function askHint(T, U, send) {
  if (!askable(T, U)) return false;
  const key = positionKey(T.view);
  if (H.asked === key || (H.answer && H.answer.key === key)) return false;
  if (!send({ type: "hint" })) return false;
  H.asked = key;
  return true;
}

/** The server's answer, for the position the table is at (the server sends none for a position gone by). */
export function onHint(T, msg) {
  H.answer = { key: positionKey(T.view), msg };
  H.asked = null;
}

/** A refusal came: the button may be pressed again. */
export function hintRefused() {
  H.asked = null;
}

/** The hints this page's seat used in the match (the table's count, kept by the server). */
export function hintsUsed(T) {
  return (T.seat && T.msg && T.msg.hints && T.msg.hints[T.seat]) || 0;
}

/** The line of the match summary: the hints used, at a table that gives them (or gave some). */
export function hintsUsedHtml(T) {
  const n = hintsUsed(T);
  if (!hintsOn(T) && !n) return "";
  return `<p class="note hints-used" data-testid="hints-used" data-count="${n}">${esc(t("hintsUsed", { n }))}</p>`;
}

function bidWords(bid, turned) {
  if (bid === "pass") return esc(t("pass"));
  if (bid === "take") return `${esc(t("take"))} ${turned ? modeHtml(turned[1], t) : ""}`;
  if (bid === "coinche" || bid === "surcoinche") return esc(t(`${bid}Say`));
  if (parseBid(bid)) return bidHtml(bid, t);
  return `${modeHtml(bid, t)} ${esc(modeWord(bid, t))}`;
}

function points(p) {
  const n = Math.round(p * 10) / 10;
  return `${n > 0 ? "+" : n < 0 ? "−" : ""}${Math.abs(n)}`;
}

/** The button, the marked card or bid, and the panel, for the table as it is now. */
export function drawHint(el, T, U) {
  const on = askable(T, U) && !U.elsewhere;
  const key = positionKey(T.view);
  const answer = on && H.answer && H.answer.key === key ? H.answer.msg : null;
  const waiting = on && H.asked === key;
  el.hintBtn.hidden = !on || Boolean(answer); // the answer's panel takes the button's place
  el.hintBtn.disabled = waiting || Boolean(answer);
  el.hintBtn.classList.toggle("busy", waiting);
  el.hintBtn.textContent = t(waiting ? "hintThinking" : "hintBtn");
  el.hintBtn.title = t("hintKey");
  for (const node of document.querySelectorAll(".hinted")) node.classList.remove("hinted");
  if (!answer) {
    el.hintPanel.hidden = true;
    el.hintPanel.dataset.key = "";
    return;
  }
  // A card of the hand, or at two hands one face up on the player's side of the table.
  const selector =
    answer.phase === "play"
      ? `[data-testid="hand-card"][data-card="${answer.action}"], [data-testid="table-card"][data-seat="${T.seat}"][data-card="${answer.action}"]`
      : `[data-bid="${answer.action}"]`;
  const target = document.querySelector(selector);
  if (target) target.classList.add("hinted");
  const drawn = `${key}|${getLang()}|${answer.action}`;
  el.hintPanel.hidden = false;
  if (el.hintPanel.dataset.key === drawn) return;
  el.hintPanel.dataset.key = drawn;
  const lang = getLang();
  let html;
  if (answer.phase === "play") {
    html = `<p class="hint-head" data-testid="hint-action" data-action="${answer.action}">${esc(t("hintPlay", { card: cardText(answer.action, lang) }))}</p>`;
    if (answer.best.length) {
      const rows = answer.best
        .map(
          (b) =>
            `<li data-testid="hint-value" data-card="${b.action}"${b.action === answer.action ? ' class="chosen"' : ""}>` +
            `<span class="hint-card">${esc(cardText(b.action, lang))}</span><b>${points(b.points)}</b></li>`,
        )
        .join("");
      html += `<p class="hint-note">${esc(t("hintValues"))}</p><ol class="hint-values">${rows}</ol>`;
    } else {
      html += `<p class="hint-note">${esc(t("hintNoValues"))}</p>`;
    }
  } else {
    const bid = bidWords(answer.action, T.view && T.view.turned);
    html = `<p class="hint-head" data-testid="hint-action" data-action="${esc(answer.action)}">${esc(t("hintBid", { bid: "\u0000" })).replace("\u0000", bid)}</p>`;
  }
  setHtml(el.hintPanel, html);
}
