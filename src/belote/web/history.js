// The history drawer, openable at any time (on a phone as on a desktop): the deal under way (every
// bid round by round, the contract, each declaration and what became of it, every trick played) and
// the match's score sheet. Drawn from the table's state (state.js); it sends nothing.

import { cardText } from "./cards.js";
import { auctionOf } from "./auctions.js";
import { contractHtml } from "./coinche.js";
import { esc } from "./dom.js";
import { colon, getLang, t } from "./i18n.js";
import { currentDeal, declarationsOf, teamsFromMe } from "./state.js";
import { declarationsNoteHtml, matchSheetHtml } from "./view.js";
import { wordsFor } from "./words.js";

/** The seats in the order of play from the dealer's left (the first to speak). */
function speakingOrder(T, dealer) {
  const order = (T.view && T.view.order) || T.game.seats;
  const i = order.indexOf(dealer);
  return i < 0 ? order : [...order.slice(i + 1), ...order.slice(0, i + 1)];
}

function bidCell(T, w, bid, turned) {
  return auctionOf(T.game).bidHtml(bid, w, turned);
}

/** The bidding as a table: one column per seat, one row per round of speaking. */
function biddingHtml(T, w, deal) {
  const seats = speakingOrder(T, deal.dealer);
  const rows = [];
  for (let i = 0; i < deal.bids.length; i += seats.length) {
    const cells = seats.map((seat, j) => {
      const b = deal.bids[i + j];
      return b ? `<td data-testid="history-bid" data-seat="${b[0]}" data-bid="${esc(b[1])}" class="${b[1] === "pass" ? "pass" : ""}">${bidCell(T, w, b[1], deal.turned)}</td>` : "<td></td>";
    });
    rows.push(`<tr>${cells.join("")}</tr>`);
  }
  if (!rows.length) rows.push(`<tr><td colspan="${seats.length}" class="empty">${esc(t("noBidYet"))}</td></tr>`);
  const turned = deal.turned ? `<p class="note">${esc(t("turned"))}${colon()}${esc(cardText(deal.turned, getLang()))}</p>` : "";
  return (
    `<h3>${esc(t("bidding"))}</h3>${turned}<div class="sheet-scroll" tabindex="0" role="region" aria-label="${esc(t("bidding"))}"><table class="sheet bidding" data-testid="history-bidding"><thead><tr>` +
    seats.map((s) => `<th scope="col">${esc(w.labelName(s))}${deal.dealer === s ? ` <span class="chip dealer" aria-label="${esc(t("dealer"))}">D</span>` : ""}</th>`).join("") +
    `</tr></thead><tbody>${rows.join("")}</tbody></table></div>`
  );
}

function contractLineHtml(T, w, deal) {
  if (!deal.trump) return "";
  const what = deal.contract ? contractHtml(deal.contract, t) : `${w.suitHtml(deal.trump)} ${esc(w.suitWord(deal.trump))}`;
  return `<p class="history-contract" data-testid="history-contract"><b>${esc(t("contract"))}</b> ${what} · ${esc(w.tsSeat("takenBy", deal.taker, { seat: w.seatName(deal.taker) }))}</p>`;
}

/** The tricks played: each one's cards by seat, its winner marked, and its points. */
function tricksHtml(T, w, deal) {
  if (!deal.cards.length) return "";
  const lang = getLang();
  const done = deal.tricks.map((tr) => ({ ...tr, open: false }));
  const inPlay = deal.cards.length % T.game.players;
  if (inPlay) done.push({ number: deal.tricks.length + 1, cards: deal.cards.slice(-inPlay), winner: null, points: null, open: true });
  const items = done.map((tr) => {
    const cards = tr.cards
      .map(([seat, card]) => `<span class="h-card${seat === tr.winner ? " winner" : ""}" title="${esc(w.seatName(seat))}">${esc(w.seatName(seat))} ${esc(cardText(card, lang))}</span>`)
      .join("");
    const result = tr.open ? esc(t("trickUnderway")) : `${esc(w.seatName(tr.winner))} +${tr.points}`;
    return `<li data-testid="history-trick"><span class="n">${tr.number}</span><span class="cards">${cards}</span><span class="won">${result}</span></li>`;
  });
  return `<h3>${esc(t("tricksPlayed"))}</h3><ol class="history-tricks">${items.join("")}</ol>`;
}

/** The drawer's content: `tab` is "deal" (the deal under way) or "match" (the score sheet). */
export function historyHtml(T, tab) {
  const w = wordsFor(T);
  const tabs = ["deal", "match"]
    .map((x) => `<button type="button" role="tab" class="tab" data-tab="${x}" data-testid="history-tab-${x}" aria-selected="${x === tab}">${esc(t(x === "deal" ? "thisDeal" : "scoreSheet"))}</button>`)
    .join("");
  let body = "";
  if (tab === "match") {
    const cols = teamsFromMe(T);
    const score = T.view ? cols.map((x) => `${esc(w.sideFull(x))}${colon()}<b>${T.view.score[x] ?? 0}</b>`).join(" · ") : "";
    body = `<p class="history-score">${score}</p>${matchSheetHtml(T, null, "match-sheet")}`;
  } else {
    const deal = currentDeal(T);
    if (!deal) body = `<p class="note">${esc(t("noDealYet"))}</p>`;
    else {
      body = `<h3 class="deal-title">${esc(t("deal", { n: deal.number }))}</h3>` + biddingHtml(T, w, deal) + contractLineHtml(T, w, deal);
      if (declarationsOf(deal).length) body += declarationsNoteHtml({ T, w }, deal);
      body += tricksHtml(T, w, deal);
    }
  }
  return `<div class="tabs" role="tablist">${tabs}</div><div class="history-body" data-testid="history-body-${tab}">${body}</div>`;
}
