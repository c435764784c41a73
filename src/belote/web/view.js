// The table drawn from state: the table as the server told it (state.js) and what this page keeps
// for itself (the card being sent, bubbles, the bid level chosen...). `drawTable(el, table, ui)` writes
// the page; nothing here sends or changes state.

import { cardBack, cardFace, cardName, cardText, sortHand } from "./cards.js";
import { auctionOf } from "./auctions.js";
import { bidHtml, bidPanelHtml, contractHtml } from "./coinche.js";
import { addedHtml, sheetRowsHtml } from "./dealsheet.js";
import { esc, setHtml } from "./dom.js";
import { announceOffer } from "./flow.js";
import { colon, getLang, t } from "./i18n.js";
import { lobbySeatsHtml, tableLinks } from "./lobby.js";
import { reviewLinkHtml } from "./mygames.js";
import { profileUrl } from "./people.js";
import { pilesHtml } from "./piles.js";
import { GAMES } from "./games.js";
import { hintsUsedHtml } from "./hints.js";
import { TROPHY } from "./icons.js";
import { seatAt, SEATS, screenPos } from "./seats.js";
import { fillSettingsForm } from "./settings.js";
import {
  currentDeal, declarationsOf, handCount, lastScoredDeal, lastTrickShown, me, myTurn, panelShown, shared,
  teamsFromMe, tricksBy, turnLine,
} from "./state.js";
import { wordsFor } from "./words.js";
import { inviteOf, tournamentUrl } from "./tournament-core.js";
import { tw } from "./tournament-words.js";

export const TURNED_UP_MS = 2500; // how long a card just turned up on the table (two hands) is marked
const FLIP_MS = 450; // and how long it takes to turn

/** The settings of the table (a lobby's, or the match's), else this page's own. */
export function tableSettings(table, ui) {
  return (table.msg && table.msg.settings) || ui.settings;
}

/** Whether this page watches its table (it holds no seat token). */
export function spectating(U) {
  return Boolean(U.table) && !U.token;
}

/** Where a seat is drawn on this page. */
export function posOf(table, seat) {
  return screenPos(seat, me(table), table.game.players);
}

/** A card of a trick on the table, named for screen readers: whose it is and what it is. */
export function trickCardHtml(table, w, seat, card, winner, testid = "trick-card") {
  const name = `${w.seatName(seat)}${colon()}${cardText(card, getLang())}`;
  return (
    `<div class="trick-card pos-${posOf(table, seat)}${winner ? " winner" : ""}" data-testid="${testid}" data-seat="${seat}" ` +
    `data-card="${card}" role="img" aria-label="${esc(name)}" title="${esc(w.seatName(seat))}">${cardFace(card, getLang())}</div>`
  );
}

export function drawTable(el, table, ui) {
  const c = { el, T: table, U: ui, v: table.view, w: wordsFor(table), now: Date.now(), between: table.waiting === "continue" };
  drawChrome(c);
  drawScores(c);
  el.lastTrickBtn.disabled = !lastTrickShown(table);
  drawContract(c);
  for (const pos of SEATS) drawPlace(c, pos);
  drawCenter(c);
  drawHand(c);
  drawBids(c);
  drawTurn(c);
  drawPanel(c);
  drawLobby(c);
  setHtml(el.banner, ui.banner && ui.banner.until > c.now ? ui.banner.html : "");
}

/** What the page offers around the table: its buttons, the chat, the spectator's badge. */
function drawChrome({ el, T, U }) {
  const sharedTable = shared(T);
  const watching = spectating(U);
  el.app.dataset.players = String(T.game.players);
  el.app.dataset.variant = T.game.name;
  const board = tournamentBoard(T);
  el.newGame.hidden = sharedTable || watching || U.elsewhere || Boolean(board);
  el.home.hidden = !(sharedTable || watching);
  // A tournament's board: no new game, no settings, no hint; the way back to its tournament instead.
  el.tournamentLink.hidden = !board;
  if (board) el.tournamentLink.href = board.url;
  el.app.classList.toggle("shared", sharedTable);
  el.app.classList.toggle("spectating", watching);
  el.app.classList.toggle("chat-open", sharedTable && U.chatOpen);
  el.app.classList.toggle("offline", Boolean(U.table) && !U.connected);
  el.spectatorBadge.hidden = !watching;
  // N starts a new game only at a solo table: at a shared one the others play on.
  el.keys.dataset.i18n = sharedTable || board ? "keysHelpShared" : "keysHelp";
  el.keys.textContent = t(el.keys.dataset.i18n);
  el.chat.hidden = !sharedTable;
  el.chatToggle.hidden = !sharedTable;
  el.chatReadOnly.hidden = !watching; // a spectator writes too: the note says how their lines show
  el.chatUnread.hidden = U.unread === 0;
  el.chatUnread.textContent = String(U.unread);
  el.historyBtn.disabled = !T.view;
}

function drawScores({ el, T, U, v, w }) {
  // The reader's score first (Us, or You), then the others in the order of play.
  const html = teamsFromMe(T)
    .map(
      (x, i) =>
        `<span class="side ${i === 0 ? "side-us" : "side-them"}" data-team="${x}"><span class="side-name">${esc(w.sideHead(x))}</span> ` +
        `<b data-testid="score-${x}">${v ? v.score[x] ?? 0 : 0}</b></span>`,
    )
    .join(" "); // a space between the sides, as between their words in the scoreboard's name
  setHtml(el.scores, html);
  const s = tableSettings(T, U);
  el.target.textContent = v
    ? s.deals
      ? t("targetDeals", { n: Math.min(v.deal_number, s.deals), m: s.deals })
      : t("target", { n: s.target })
    : "";
  // Its name holds what it shows (the scores, then the target), after what it opens.
  const shown = [...teamsFromMe(T).map((x) => `${w.sideHead(x)} ${v ? v.score[x] ?? 0 : 0}`), el.target.textContent];
  el.scoreboard.setAttribute("aria-label", `${t("scoreSheet")}${colon()}${shown.filter(Boolean).join(", ")}`);
}

function drawContract({ el, T, v, w, between }) {
  for (const name of ["trump", "taker", "contract", "multiplier"]) el.contract.removeAttribute(`data-${name}`);
  if (!v || between) {
    setHtml(el.contract, "");
    setHtml(el.declarations, "");
    return;
  }
  const game = T.game;
  if (v.trump) {
    const won = tricksBy(T);
    const tricks = teamsFromMe(T).map((x) => `${esc(w.sideHead(x))} ${won[x]}`).join(" · ");
    const head = v.contract
      ? `<span class="trump-chip contract-chip">${contractHtml(v.contract, t)}</span>` +
        `<span>${esc(w.tsSeat("bidBy", v.taker, { seat: w.seatName(v.taker) }))}</span>`
      : `<span class="trump-chip">${w.suitHtml(v.trump)}${esc(t("trumps"))}</span>` +
        `<span>${esc(w.tsSeat("takenBy", v.taker, { seat: w.seatName(v.taker) }))}</span>`;
    setHtml(el.contract, `${head}<span class="tricks-won" data-testid="tricks-won">${esc(t("tricks"))}${colon()}${tricks}</span>`);
    el.contract.dataset.trump = v.trump;
    el.contract.dataset.taker = v.taker;
    if (v.contract) {
      el.contract.dataset.contract = `${v.contract.level}${v.contract.mode}`;
      el.contract.dataset.multiplier = String(v.contract.multiplier);
    }
  } else if (auctionOf(game).standing) {
    // The auction: the highest bid so far, and who bid it.
    const standing = v.contract
      ? `<span class="trump-chip contract-chip">${contractHtml(v.contract, t)}</span>` +
        `<span>${esc(w.tsSeat("bidBy", v.contract.bidder, { seat: w.seatName(v.contract.bidder) }))}</span>`
      : `<span>${esc(t("noBidYet"))}</span>`;
    setHtml(el.contract, `<span>${esc(t("deal", { n: v.deal_number }))}</span>${standing}`);
    if (v.contract) {
      el.contract.dataset.contract = `${v.contract.level}${v.contract.mode}`;
      el.contract.dataset.multiplier = String(v.contract.multiplier);
    }
  } else if (v.turned) {
    const round = v.bids.length >= game.players ? 2 : 1;
    setHtml(
      el.contract,
      `<span>${esc(t("deal", { n: v.deal_number }))}</span>` +
        `<span class="trump-chip">${esc(t("turned"))} ${esc(cardText(v.turned, getLang()))}</span>` +
        (round === 2 ? `<span>${esc(t("round2"))}</span>` : ""),
    );
  } else {
    setHtml(el.contract, "");
  }
  // Declarations stay on show through the deal, once made, with what became of them.
  const made = declarationsOf(currentDeal(T));
  const beloteText = v.belote.length ? `${esc(w.seatName(v.belote[0][0]))}${colon()}${v.belote.map(([, x]) => esc(t(x))).join(", ")}` : "";
  const declText = made.length
    ? `${esc(t("declarations"))}${colon()}` +
      made
        .map((d) => {
          const fate = d.fate && d.fate !== "scored" ? ` <span class="fate ${d.fate}">(${esc(t(`decl_${d.fate}`))})</span>` : "";
          return `<span class="decl ${d.fate || ""}" data-fate="${d.fate || ""}">${esc(w.seatName(d.seat))} ${esc(d.declarations.map(w.declName).join(", "))}${fate}</span>`;
        })
        .join(" · ")
    : "";
  setHtml(el.declarations, [declText, beloteText].filter(Boolean).join(" · "));
}

/** One place around the table: the seat drawn there, or nothing where nobody sits in this game. */
function drawPlace(c, pos) {
  const box = c.el.places[pos];
  const seat = seatAt(pos, me(c.T), c.T.game.players);
  box.classList.toggle("vacant", !seat);
  if (!seat) {
    box.dataset.seat = "";
    box.dataset.testid = `place-${pos}`;
    for (const part of seatParts(box)) setHtml(part, "");
    box.classList.remove("to-move");
    return;
  }
  drawSeat(c, seat, box);
}

/**
 * A place's two parts: the player (name, backs, bubble) and the cards on its table (two hands).
 * Each is drawn on its own, so that a bubble coming and going leaves the table cards (and a card
 * being turned up) alone. Both are laid out as the place's own children (display: contents).
 */
function seatParts(box) {
  if (!box.firstElementChild) box.innerHTML = `<div class="seat-body"></div><div class="seat-table"></div>`;
  return [box.firstElementChild, box.lastElementChild];
}

/** One seat: the name, marks, the cards held (backs), the cards on its table (two hands), a bubble. */
function drawSeat(c, seat, box) {
  const { T, U, v, w, now, between } = c;
  box.dataset.seat = seat;
  box.dataset.testid = `seat-${seat}`;
  const [body, tableBox] = seatParts(box);
  if (!v) {
    setHtml(body, "");
    setHtml(tableBox, "");
    box.classList.remove("to-move");
    return;
  }
  let html = seatLabelHtml(c, seat) + seatMarksHtml(c, seat);
  if (!w.isMe(seat)) {
    const n = between ? 0 : handCount(T, seat);
    const backs = Array.from({ length: n }, () => `<div class="back">${cardBack()}</div>`).join("");
    html += `<div class="backs" data-count="${n}" role="img" aria-label="${esc(t("cardsHeld", { n }))}">${backs}</div>`;
  }
  html += seatBubbleHtml(c, seat);
  setHtml(body, html);
  let piles = "";
  if (v.table && v.table[seat] && !between) {
    const turn = w.isMe(seat) && myTurn(T, "play", U.connected);
    piles = pilesHtml({
      seat,
      piles: v.table[seat],
      own: w.isMe(seat),
      turn,
      legal: new Set(turn ? v.legal : []),
      sending: U.sending,
      fresh: new Set(Object.keys(U.fresh).filter((x) => now - U.fresh[x] < TURNED_UP_MS)),
      flipping: new Set(Object.keys(U.fresh).filter((x) => now - U.fresh[x] < FLIP_MS)),
      lang: getLang(),
    });
  }
  setHtml(tableBox, piles);
  box.classList.toggle("to-move", !between && v.to_move === seat && !v.match_over);
}

function seatLabelHtml({ T, v, w, between }, seat) {
  const chips = [];
  if (!between && v.dealer === seat) chips.push(`<span class="chip dealer" title="${esc(t("dealer"))}" aria-label="${esc(t("dealer"))}">D</span>`);
  if (!between && v.taker === seat && v.trump) {
    const what = v.contract ? bidHtml(`${v.contract.level}${v.contract.mode}`, t) : w.suitHtml(v.trump);
    chips.push(`<span class="chip taker">${what}</span>`);
  }
  const p = T.players[seat];
  if (p && p.bot) chips.push(`<span class="chip bot" data-testid="bot-${seat}">${esc(t("bot"))}</span>`);
  // One's own clock is in the turn line, next to what to do; a player gone from the table is not
  // thinking: their seat says when a bot plays for them instead (seatMarksHtml).
  if (T.timer && T.timer.seat === seat && !w.isMe(seat) && !(p && p.away)) chips.push(`<span class="chip timer" data-testid="timer-${seat}" data-timer></span>`);
  let role = "";
  if (T.seat && T.game.partner(T.seat) === seat) role = `<span class="role">${esc(t("partner"))}</span>`;
  else if (T.game.defendersAlly && T.seat && v.trump && !between && ![T.seat, v.taker].includes(seat) && T.seat !== v.taker) {
    // Three hands: the two defenders play together against the taker for this deal; the label says so.
    role = `<span class="role ally" data-testid="ally-${seat}">${esc(t("ally"))} <span class="when">${esc(t("allyWhen"))}</span></span>`;
  } else if (shared(T) && w.isMe(seat)) role = `<span class="role">${esc(t("youMark"))}</span>`;
  return (
    `<div class="seat-label" data-testid="seat-label-${seat}"><span class="name" data-testid="name-${seat}">` +
    `${esc(w.labelName(seat))}</span>${role}${chips.join("")}</div>`
  );
}

/**
 * A visible mark when a person has left the table (their last socket closed: docs/protocol.md,
 * `players[seat].away`), or a bot plays for a person who let their turn time out. One's own seat
 * has none: one's own lost connection and stand-in are said in the turn line.
 */
function seatMarksHtml({ T, w }, seat) {
  const p = T.players[seat];
  if (!p || w.isMe(seat)) return "";
  if (p.away) {
    const when = goneWhen(T, seat);
    return (
      `<div class="standin gone" data-testid="gone-${seat}"><span>${esc(t("goneMark"))}</span>` +
      (when ? `<span class="sr-only">, </span><span class="when" data-gone="${seat}">${esc(when)}</span>` : "") +
      `</div>`
    );
  }
  if (!p.standin) return "";
  return `<div class="standin" data-testid="standin-${seat}">${esc(t("standin", { name: p.name }))}</div>`;
}

/** When the last state came, on this page's clock: a gone seat's countdown runs from it. */
let goneSeen = { msg: null, at: 0 };

/** What the mark of a person who has left says of the bot: in how long one plays for them, that one does, or nothing. */
function goneWhen(T, seat) {
  const p = T.players[seat];
  if (p.standin) return t("goneBot");
  if (p.away.standin_ms === null) return "";
  if (goneSeen.msg !== T.msg) goneSeen = { msg: T.msg, at: Date.now() };
  const s = Math.max(0, Math.ceil((goneSeen.at + p.away.standin_ms - Date.now()) / 1000));
  return t("goneBotIn", { s });
}

/** The countdowns of the seats whose person has left, ticked with the turn's clock. */
export function tickGone(T) {
  for (const node of document.querySelectorAll("[data-gone]")) {
    const p = T.players[node.dataset.gone];
    if (p && p.away) node.textContent = goneWhen(T, node.dataset.gone);
  }
}

/** The bubble: a chat line, a reaction or a saying, or this seat's latest bid while the bidding lasts. */
function seatBubbleHtml({ T, U, v, w, now, between }, seat) {
  const b = U.bubbles[seat];
  if (b && b.until > now && (!between || b.cls === "chat" || b.cls === "react")) {
    return `<div class="bubble ${b.cls}" data-testid="bubble-${seat}">${b.html}</div>`;
  }
  if (between || v.phase !== "bidding") return "";
  const mine = v.bids.filter(([s]) => s === seat);
  if (!mine.length) return "";
  const bid = mine[mine.length - 1][1];
  const text = auctionOf(T.game).bidHtml(bid, w, v.turned);
  const cls = bid === "pass" ? "pass" : bid === "coinche" || bid === "surcoinche" ? "say doubled" : "say";
  return `<div class="bubble ${cls}" data-testid="bubble-${seat}" data-bid="${esc(bid)}">${text}</div>`;
}

function drawCenter(c) {
  const { el, T, v, w, between } = c;
  if (!v || (v.phase === "bidding" && v.turned && !between)) {
    el.trick.classList.remove("done");
    el.trick.textContent = "";
    setHtml(
      el.turned,
      v
        ? `<div class="turned-card" data-testid="turned-card" data-card="${v.turned}" role="img" aria-label="${esc(`${t("turned")}${colon()}${cardText(v.turned, getLang())}`)}">${cardFace(v.turned, getLang())}</div>` +
            `<div class="caption">${esc(t("turned"))}</div>`
        : "",
    );
    return;
  }
  setHtml(el.turned, "");
  let cards;
  let done = false;
  let winner = null;
  let info = "";
  if (v.trick.length && !between) {
    cards = v.trick;
  } else {
    // A finished trick stays on the table until the next card arrives.
    const tr = lastTrickShown(T);
    cards = tr ? tr.cards : [];
    done = Boolean(tr);
    winner = tr ? tr.winner : null;
    if (tr) {
      const full = w.tsSeat("wonTrick", tr.winner, { seat: w.seatName(tr.winner), n: tr.points });
      info = `<div class="trick-info" title="${esc(full)}">${esc(w.seatName(tr.winner))} +${tr.points}</div>`;
    }
  }
  el.trick.classList.toggle("done", done);
  if (!done) el.trick.classList.remove("sweep");
  el.trick.dataset.winner = winner ? posOf(T, winner) : "";
  placeTrick(c, cards, winner, info);
}

/** Put the cards of a trick on the table, keeping those already there (so only a new card moves in). */
function placeTrick({ el, T, w }, cards, winner, info) {
  const box = el.trick;
  const lang = getLang();
  const keys = cards.map(([seat, card]) => `${seat}${card}${lang}${me(T)}${T.game.players}`);
  for (const child of [...box.children]) {
    if (!child.dataset.key || !keys.includes(child.dataset.key)) child.remove();
  }
  cards.forEach(([seat, card], i) => {
    let node = box.querySelector(`[data-key="${keys[i]}"]`);
    if (!node) {
      const tmp = document.createElement("div");
      tmp.innerHTML = trickCardHtml(T, w, seat, card, false);
      node = tmp.firstElementChild;
      node.dataset.key = keys[i];
      box.append(node);
    }
    node.classList.toggle("winner", seat === winner);
  });
  if (info) {
    const tmp = document.createElement("div");
    tmp.innerHTML = info;
    box.append(tmp.firstElementChild);
  }
}

function drawHand({ el, T, U, v, between }) {
  if (!v || between || !T.seat) {
    el.hand.innerHTML = "";
    el.hand.dataset.key = "";
    el.hand.setAttribute("aria-label", t("handName"));
    el.hand.classList.remove("my-turn", "waiting");
    return;
  }
  const mine = myTurn(T, "play", U.connected);
  const legal = new Set(mine ? v.legal : []);
  const cards = sortHand(v.hand, v.trump);
  const lang = getLang();
  const key = `${cards.join(",")}|${[...legal].join(",")}|${mine}|${U.sending}|${lang}`;
  el.hand.classList.toggle("my-turn", mine);
  el.hand.classList.toggle("waiting", !mine);
  el.hand.style.setProperty("--n", String(Math.max(cards.length, 2)));
  el.hand.setAttribute("aria-label", t(mine ? "handYourTurn" : "handLabel", { n: cards.length }));
  if (el.hand.dataset.key === key) return;
  el.hand.dataset.key = key;
  el.hand.innerHTML = cards
    .map((x, i) => {
      const ok = legal.has(x);
      const cls = ["card", mine ? (ok ? "legal" : "illegal") : "", U.sending === x ? "sending" : ""].join(" ");
      // Its name says whether it can be played now; a card that cannot is still focusable, to be read.
      const state = mine ? t(ok ? "cardPlayable" : "cardNotPlayable") : "";
      const label = [cardName(x, lang), state].filter(Boolean).join(", ");
      return (
        `<button type="button" class="${cls.trim()}" data-testid="hand-card" data-card="${x}" data-legal="${ok}" ` +
        `data-index="${i + 1}" aria-label="${esc(label)}" title="${i + 1}">${cardFace(x, lang)}</button>`
      );
    })
    .join("");
}

function drawBids(c) {
  const { el, T, U, v, w, between } = c;
  const mine = !between && myTurn(T, "bidding", U.connected);
  if (mine && auctionOf(T.game).panel) {
    drawCoincheBids(c);
    return;
  }
  if (!mine && !between && myTurn(T, "play", U.connected)) {
    drawAnnounce(c);
    return;
  }
  const key = mine ? v.legal.join(",") + getLang() + U.sending : "";
  if (el.bids.dataset.key === key) return;
  el.bids.dataset.key = key;
  el.bids.classList.remove("coinche");
  if (!mine) {
    el.bids.innerHTML = "";
    return;
  }
  el.bids.innerHTML = v.legal
    .map((bid) => {
      let label;
      if (bid === "pass") label = esc(t("pass"));
      else if (bid === "take") label = `${esc(t("take"))} ${w.suitHtml(v.turned[1])}`;
      else label = `${w.suitHtml(bid)}${esc(w.suitWord(bid))}`;
      const cls = bid === "pass" ? "btn ghost" : "btn primary";
      return `<button type="button" class="${cls}" data-testid="bid-${bid}" data-bid="${bid}"${U.sending ? " disabled" : ""}>${label}</button>`;
    })
    .join("");
}

/** Announcing by hand (flow.js): at the player's turn to play, a button for its declarations
 * (before its first card) and one for belote (while it holds the king and queen of trumps); each
 * pressed is said with the card played next, one not pressed is kept quiet. */
function drawAnnounce({ el, U, v, w }) {
  const offer = announceOffer(v, U.prefs);
  const key = `say|${offer.declarations.join(",")}|${offer.belote}|${U.saying.declarations}|${U.saying.belote}|${getLang()}|${U.sending}`;
  if (el.bids.dataset.key === key) return;
  el.bids.dataset.key = key;
  el.bids.classList.remove("coinche");
  const toggle = (what, label) =>
    `<button type="button" class="btn say" data-testid="say-${what}" data-say="${what}" aria-pressed="${U.saying[what]}"` +
    `${U.sending ? " disabled" : ""}>${esc(label)}</button>`;
  const what = offer.declarations.map(w.declName).join(", ");
  el.bids.innerHTML =
    (what ? toggle("declarations", t("announceBtn", { what })) : "") + (offer.belote ? toggle("belote", t("beloteBtn")) : "");
}

/** Coinche: the bid panel at the level the page holds (chosen afresh at each turn to bid: Page.bidsOffered). */
function drawCoincheBids({ el, U, v, w }) {
  const key = `coinche|${U.bidKey}|${U.bidLevel}|${getLang()}|${U.sending}`;
  if (el.bids.dataset.key === key) return;
  el.bids.dataset.key = key;
  el.bids.classList.add("coinche");
  el.bids.innerHTML = bidPanelHtml({
    legal: v.legal,
    rules: v.rules,
    contract: v.contract || null,
    bidderName: v.contract ? w.tsSeat("bidBy", v.contract.bidder, { seat: w.seatName(v.contract.bidder) }) : "",
    level: U.bidLevel,
    sending: U.sending,
    t,
  });
}

function drawTurn({ el, T, U, w }) {
  const line = U.elsewhere ? { key: "" } : turnLine(T, { connected: U.connected, hasTable: Boolean(U.table) });
  const text = line.key ? t(line.key, line.seat ? { seat: w.seatName(line.seat) } : {}) : "";
  const mine = Boolean(line.mine);
  const timer = mine && T.timer && T.timer.seat === T.seat ? ` <span class="chip timer" data-timer></span>` : "";
  setHtml(el.turn, esc(text) + timer);
  el.turn.classList.toggle("mine", mine);
  el.turn.classList.toggle("offline", Boolean(line.offline));
  el.turn.dataset.mine = String(mine);
  el.turn.dataset.state = line.offline ? "offline" : line.standin ? "standin" : mine ? "mine" : "";
  el.takeBack.hidden = !line.standin;
  // The newcomer's word on what taking means, at their first decision to take.
  el.takeHint.hidden = !(mine && U.takeHint && T.view && T.view.phase === "bidding");
  if (!el.takeHint.hidden) el.takeHint.textContent = t(auctionOf(T.game).hintKey);
}

function drawPanel(c) {
  const { el, T, U, v } = c;
  const deal = panelShown(T) && !U.panelHeld ? lastScoredDeal(T) : null;
  if (!deal) {
    el.panel.hidden = true;
    el.panel.dataset.key = "";
    return;
  }
  const key = `${deal.number}|${T.waiting}|${v.match_over}|${getLang()}|${U.sending}|${T.host}|${T.seat}|${JSON.stringify(T.timer)}|${countingNext(T, U)}`;
  if (el.panel.dataset.key === key && !el.panel.hidden) return;
  const opening = el.panel.hidden;
  el.panel.dataset.key = key;
  el.panelBody.innerHTML = panelHtml(c, deal);
  el.panel.hidden = false;
  el.panel.classList.toggle("match-end", Boolean(v.match_over));
  const button = el.panelBody.querySelector(".btn.primary");
  if (button && opening) button.focus({ preventScroll: true });
}

function panelHtml(c, deal) {
  const { T, U, v, w } = c;
  const game = T.game;
  const r = deal.result;
  const outcome = r.outcome;
  const cols = teamsFromMe(T);
  let html = "";
  const board = tournamentBoard(T);
  if (v.match_over && board) html += boardOverHtml(board);
  else if (v.match_over) html += winnerHtml(c);
  html += `<h2 id="panel-title">${esc(t("deal", { n: deal.number }))}<span class="outcome ${outcome}" data-testid="outcome" data-outcome="${outcome}">${esc(w.dealOutcome(outcome))}</span></h2>`;
  const row = (label, by, cls = "", testid = "") =>
    `<tr class="${cls}"${testid ? ` data-testid="${testid}"` : ""}><th scope="row">${label}</th>${cols.map((x) => `<td>${by(x)}</td>`).join("")}</tr>`;
  if (outcome === "thrown-in") {
    html += `<p>${esc(t(auctionOf(game).thrownInKey))}</p>`;
    html += `<table class="sheet"><tbody>${row(esc(t("matchScore")), (x) => v.score[x], "score", "row-score")}</tbody></table>`;
  } else {
    const taker = w.seatName(deal.taker);
    const takers = game.team(deal.taker);
    const contract = r.contract || deal.contract;
    if (contract) {
      const sentence = {
        made: w.tsSeat("coincheMadeLong", deal.taker, { seat: taker }),
        dedans: w.tsSeat("coincheFailedLong", deal.taker, { seat: taker }),
        litige: w.tsSeat("coincheMadeLong", deal.taker, { seat: taker }),
        capot: w.capotWords(r.capot || takers),
      }[outcome];
      html +=
        `<p class="contract-result" data-testid="panel-contract" data-contract="${contract.level}${contract.mode}" ` +
        `data-multiplier="${contract.multiplier}">${esc(t("contract"))} ${contractHtml(contract, t)} · ` +
        `${esc(w.tsSeat("bidBy", deal.taker, { seat: taker }))}</p>` +
        `<p data-testid="outcome-text">${esc(sentence)}</p>`;
    } else {
      const suit = w.suitWord(deal.trump);
      const sentence = {
        made: w.tsSeat("madeLong", deal.taker, { seat: taker, suit }),
        dedans: w.tsSeat("dedansLong", deal.taker, { seat: taker, suit }),
        litige: w.tsSeat("litigeLong", deal.taker, { seat: taker, suit, n: r.cards[takers] }),
        capot: w.capotWords(r.capot || takers),
      }[outcome];
      html += `<p data-testid="outcome-text">${w.suitHtml(deal.trump)} ${esc(sentence)}</p>`;
    }
    const tricks = Object.fromEntries(game.teams.map((x) => [x, 0]));
    for (const tr of deal.tricks) tricks[game.team(tr.winner)] += 1;
    // The reader's score in the first column, as on the scoreboard; the rows as the engine scored them.
    html +=
      `<table class="sheet" data-testid="deal-sheet"><thead><tr><td></td>${cols.map((x) => `<th scope="col" data-team="${x}">${esc(w.sideName(x))}</th>`).join("")}</tr></thead><tbody>` +
      row(esc(t("tricks")), (s) => tricks[s], "", "row-tricks") +
      sheetRowsHtml(r, cols) +
      addedHtml(r, cols) +
      row(esc(t("matchScore")), (s) => v.score[s], "score", "row-score") +
      `</tbody></table>`;
    html += declarationsNoteHtml(c, deal);
  }
  if (r.pending) html += `<p class="note" data-testid="pending">${esc(t("pending", { n: r.pending }))}</p>`;
  const s = tableSettings(T, U);
  if (!board) html += `<p class="note" data-testid="panel-target">${esc(
    s.deals ? t("targetDeals", { n: Math.min(deal.number, s.deals), m: s.deals }) : t("target", { n: s.target }),
  )}</p>`;
  if (!board) html += matchSheetHtml(T, deal);
  html += reviewLinkHtml(T, U, deal); // the deal's review (review.js), once it is finished
  if (v.match_over) html += hintsUsedHtml(T);
  html += `<div class="panel-buttons">${panelButtonsHtml(c)}</div>`;
  return html;
}

/** Every declaration of the deal and what became of it: counted, or beaten by the other side's, or cancelled by a tie. */
export function declarationsNoteHtml({ T, w }, deal) {
  const all = declarationsOf(deal);
  if (!all.length) return "";
  const points = new Map((deal.shown ? deal.shown.declarations : []).map((d) => [`${d.seat}${d.name}`, d.points]));
  const items = all.map((d) => {
    const what = d.declarations
      .map((name) => {
        const p = points.get(`${d.seat}${name}`);
        return p ? `${w.declName(name)} ${p}` : w.declName(name);
      })
      .join(", ");
    const fate = d.fate ? ` — ${t(`decl_${d.fate}`)}` : "";
    return `<li data-testid="declaration-fate" data-seat="${d.seat}" data-fate="${d.fate || ""}">${esc(`${w.seatName(d.seat)}${colon()}${what}${fate}`)}</li>`;
  });
  return `<div class="note decl-note"><b>${esc(t("declarations"))}</b><ul>${items.join("")}</ul></div>`;
}

/**
 * The tournament's board this table plays (the state's `board`, kind "tournament"): its number and
 * the way back to its tournament, where the board's results open (the invitation of a private one is
 * kept by the tournament's page); null at any other table.
 */
export function tournamentBoard(T) {
  const b = T.kind === "tournament" && T.msg ? T.msg.board : null;
  if (!b || typeof b.tournament !== "string") return null;
  return { ...b, url: tournamentUrl(b.tournament, { invite: inviteOf(b.tournament), board: b.board }) };
}

/** The end of a tournament's board: it is over, and its results are a tap away. */
function boardOverHtml(board) {
  return (
    `<div class="match-end-banner board-over" data-testid="board-over"><p class="match-title">${esc(tw("boardOf", { n: board.board }))}</p>` +
    `<p class="winner-line">${esc(tw("boardOver", { n: board.board }))}</p></div>`
  );
}

function winnerHtml({ T, v, w }) {
  const game = T.game;
  const win = v.match_winner;
  let line;
  let mine = false;
  if (!win) {
    line = t("winnerTie", { a: v.score[game.teams[0]] });
  } else {
    const a = v.score[win];
    const b = game.teams
      .filter((x) => x !== win)
      .map((x) => v.score[x])
      .join(" – ");
    mine = Boolean(T.seat && game.team(T.seat) === win);
    if (game.partners && mine) line = t("winnerUs", { partner: w.seatName(game.partner(T.seat)), a, b });
    else if (game.partners) line = t("winnerSide", { side: w.sideName(win), a, b });
    else if (w.isMe(win)) line = t("winnerYou", { a, b });
    else line = t("winnerPlayer", { side: w.sideName(win), a, b });
  }
  const cls = !T.seat || !win ? "" : mine ? " won" : " lost";
  const title = !T.seat || !win ? t("matchOver") : t(mine ? "matchWon" : "matchLost");
  return (
    `<div class="match-end-banner${cls}" data-testid="match-end"><div class="trophy" aria-hidden="true">${mine ? TROPHY : "♠♥♦♣"}</div>` +
    `<p class="match-title" data-testid="match-title">${esc(title)}</p>` +
    `<p class="winner-line" data-testid="match-winner" data-winner="${win || ""}">${esc(t("matchOver"))}${colon()}${esc(line)}</p></div>`
  );
}

/** Whether the next deal starts by itself after its count (the player's preference), not stopped for this deal. */
function countingNext(T, U) {
  const n = U.nextDeal;
  return Boolean(T.seat && T.view && U.prefs.autoNext > 0 && !(n.deal === T.view.deal_number && n.stopped));
}

/** What the reader can do once the score is read: go on, or after the match, play again. */
function panelButtonsHtml({ T, U, v, w }) {
  const button = (action, testid, text, cls = "btn primary") =>
    `<button type="button" class="${cls}" data-testid="${testid}" data-action="${action}">${text}</button>`;
  if (T.waiting === "continue") {
    const timer = T.timer && T.timer.seat === null ? ` <span class="timer-inline" data-timer></span>` : "";
    // The next deal by itself (the player's preference): its count, and a button to stay on the score.
    const counting = countingNext(T, U);
    const next = counting ? `<span class="next-deal" data-testid="next-deal" data-next-deal role="timer"></span>` : "";
    const stay = counting ? button("stay", "stay", esc(t("stay")), "btn ghost") : "";
    return next + stay + button("continue", "continue", esc(t("continue")) + timer);
  }
  if (!T.seat) return button("close-panel", "panel-close", esc(t("close")));
  if (!v.match_over) return "";
  const board = tournamentBoard(T);
  if (board) {
    // A tournament's board is one deal, played once: what is next is its results, in the tournament.
    return `<a class="btn primary" href="${esc(board.url)}" data-testid="back-to-tournament" data-action="tournament">${esc(tw("backToTournament"))}</a>`;
  }
  const profile = profileLinkHtml(T);
  if (T.kind === "solo") return profile + button("new-game", "panel-new-game", esc(t("newGame")));
  if (T.kind === "online") return profile + button("play-again", "play-again", esc(t("playAgain")));
  if (w.isMe(T.host)) {
    // The host may play the next match at another game: the server seats the people for it.
    const games = GAMES.map(
      ({ name }) => `<option value="${name}"${name === T.game.name ? " selected" : ""}>${esc(t(`variant_${name}`))}</option>`,
    ).join("");
    return (
      `<label class="rematch-game"><span>${esc(t("nextGame"))}</span><select data-testid="rematch-variant">${games}</select></label>` +
      profile +
      button("rematch", "panel-rematch", esc(t("newMatch")))
    );
  }
  return `<p class="note" data-testid="wait-host">${esc(t("waitHostNewMatch"))}</p>${profile}`;
}

/**
 * At a match's end, for a seat taken with an identity: its profile, where the match is kept with the
 * rating it moved (docs/players.md). The table stays open in this page's history.
 */
function profileLinkHtml(T) {
  const seat = T.players ? T.players[T.seat] : null;
  if (!seat || !seat.player) return "";
  return `<a class="btn ghost" href="${esc(profileUrl(seat.player))}" data-testid="panel-profile">${esc(t("yourProfile"))}</a>`;
}

/** The match's score sheet: each deal scored, its contract, result, points and the running total. */
export function matchSheetHtml(T, current = null, testid = "history") {
  const w = wordsFor(T);
  const cols = teamsFromMe(T);
  const rows = [];
  for (const d of T.deals) {
    if (!d.result) continue;
    const after = (s) => d.scoreBefore[s] + d.result.points[s];
    const c = d.result.contract || d.contract;
    let contract = "—";
    if (c) contract = `${esc(w.seatName(d.taker))} ${contractHtml(c, t)}`;
    else if (d.trump) contract = `${esc(w.seatName(d.taker))} ${w.suitHtml(d.trump)}`;
    rows.push(
      `<tr class="${d === current ? "current" : ""}"><td>${d.number}</td><td>${contract}</td>` +
        `<td>${esc(w.dealOutcome(d.result.outcome))}</td>${cols.map((x) => `<td>+${d.result.points[x]}</td>`).join("")}` +
        `<td>${cols.map(after).join(" – ")}</td></tr>`,
    );
  }
  if (!rows.length) rows.push(`<tr><td colspan="${cols.length + 4}" class="empty">${esc(t("noDealYet"))}</td></tr>`);
  return (
    `<h3>${esc(t("history"))}</h3><div class="sheet-scroll" tabindex="0" role="region" aria-label="${esc(t("history"))}"><table class="sheet history" data-testid="${testid}"><thead><tr>` +
    `<th scope="col">${esc(t("historyDeal"))}</th><th scope="col">${esc(t("historyContract"))}</th><th scope="col">${esc(t("historyResult"))}</th>` +
    `${cols.map((x) => `<th scope="col">${esc(w.sideHead(x))}</th>`).join("")}<th scope="col">${esc(t("total"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`
  );
}

/** A private table's lobby: the links, the seats, the rules (the host edits them) and Start. */
function drawLobby({ el, T, U, w }) {
  const open = Boolean(U.table) && T.status === "lobby";
  el.app.classList.toggle("in-lobby", open);
  el.lobby.hidden = !open;
  if (!open) return;
  const host = T.host;
  const isHost = w.isMe(host);
  const hostName = host && T.players[host] ? T.players[host].name : t("host");
  el.lobbyStatus.textContent = isHost ? t("lobbyHost") : t("lobbyWaitHost", { name: hostName });
  const links = tableLinks(U.table, T.msg && T.msg.invite, T.msg && T.msg.watch);
  el.links.hidden = !links.invite && !links.watch;
  el.inviteLink.value = links.invite;
  el.watchLink.value = links.watch;
  setHtml(el.lobbySeats, lobbySeatsHtml({ me: T.seat, players: T.players, host, t, game: T.game }));
  el.lobbySeats.dataset.players = String(T.game.players);
  el.lobbyForm.querySelector("fieldset").disabled = !isHost;
  // The host's own edits are not overwritten while a field is in use.
  if (!el.lobbyForm.contains(document.activeElement) || !isHost) fillSettingsForm(el.lobbyForm, tableSettings(T, U));
  el.lobbyStart.hidden = !isHost;
  el.lobbyActions.hidden = !isHost && !T.seat;
  el.lobbyLeave.hidden = isHost || !T.seat;
  for (const b of el.lobby.querySelectorAll('[data-action="share"]')) b.hidden = !isHost || !links.invite;
}

