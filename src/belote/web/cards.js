// Card faces and the card back, drawn as SVG by the page (no image files, no fonts to fetch).
// A card is named as the server names it: rank letter then suit letter, "JH", "TH" (ten), "7S".

import { getLang, tIn } from "./i18n.js";

export const SUITS = "SHDC";
export const RANKS = "789TJQKA";
const RED = new Set(["H", "D"]);
const INK = { red: "#c4202b", black: "#1c1f24" };

// The suit shapes in a 100 x 100 box, so that they look the same on every system.
const SHAPES = {
  H: '<path d="M50 94C26 72 2 56 2 30 2 13 15 3 29 3c10 0 17 6 21 15C54 9 61 3 71 3c14 0 27 10 27 27 0 26-24 42-48 64z"/>',
  D: '<path d="M50 2 88 50 50 98 12 50z"/>',
  S:
    '<path d="M50 2C72 26 98 42 98 63c0 15-11 25-24 25-9 0-16-5-20-11 1 10 5 17 13 23H33c8-6 12-13 13-23-4 6-11 11-20 11C13 88 2 78 2 63 2 42 28 26 50 2z"/>',
  C:
    '<circle cx="50" cy="27" r="22"/><circle cx="25" cy="60" r="22"/><circle cx="75" cy="60" r="22"/>' +
    '<circle cx="50" cy="55" r="12"/><path d="M46 55c0 20-5 33-14 43h36c-9-10-14-23-14-43z"/>',
};

export function suitColor(suit) {
  return RED.has(suit) ? INK.red : INK.black;
}

export function isRed(suit) {
  return RED.has(suit);
}

/** The shape of a suit placed at (x, y) with the given size, inside an SVG. */
function pip(suit, x, y, size, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return `<g transform="translate(${x - size / 2} ${y - size / 2}) scale(${s})${rot}" fill="${suitColor(suit)}">${SHAPES[suit]}</g>`;
}

/** A small standalone suit symbol, for text (trump badge, bids, the score panel). */
export function suitIcon(suit, label = "") {
  const title = label ? `<title>${label}</title>` : "";
  return (
    `<svg class="suit-icon suit-${suit}" viewBox="0 0 100 100" role="img" aria-label="${label || suit}">` +
    `${title}<g fill="${suitColor(suit)}">${SHAPES[suit]}</g></svg>`
  );
}

const RANK_LABELS = {
  en: { 7: "7", 8: "8", 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" },
  fr: { 7: "7", 8: "8", 9: "9", T: "10", J: "V", Q: "D", K: "R", A: "A" },
};

export function rankLabel(rank, lang = "en") {
  return (RANK_LABELS[lang] || RANK_LABELS.en)[rank];
}

// The card is a 100 x 140 box. The indices keep to a column at the left edge (and, upside down, at
// the right), x 2.5..19.5; the pips and the court picture keep to x 22..78, so that neither ever
// runs into the other, whatever the rank and however small the card is drawn.
const PAPER = "#fffdf8";
const FONT =
  "'DejaVu Sans Condensed', 'Roboto Condensed', sans-serif-condensed, 'Avenir Next Condensed', 'Arial Narrow', system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

// Where the pips of the number cards go (x, y, upside down): two columns and the middle line, the
// lower half turned over as on a printed deck.
const ROWS4 = [26, 55.33, 84.67, 114];
const SIDES = (ys) => ys.flatMap((y) => [[31, y, y > 70], [69, y, y > 70]]);
const PIPS = {
  7: [...SIDES([26, 70, 114]), [50, 48]],
  8: [...SIDES([26, 70, 114]), [50, 48], [50, 92, true]],
  9: [...SIDES(ROWS4), [50, 70]],
  T: [...SIDES(ROWS4), [50, 40.67], [50, 99.33, true]],
};

// ---------------------------------------------------------------------- lettering
// The letters a face shows (its indices, a court card's name) are drawn once in the page, in one
// hidden <defs>, and each face shows them by reference (<use>). A face then holds no text of its
// own: a card button's visible label is its picture, and its accessible name (cardName) says what
// the picture shows, instead of the letters of both corners and both halves read as words
// ("CHARLES CHARLES K K"). A <use> takes its fill from the face, so one drawing serves both colours.
const LETTERING_ID = "card-lettering";
const lettered = new Set();

/** The id of a lettering drawn in the page's <defs>, drawn there on first use (nothing outside a page). */
function lettering(key, text, size, width) {
  const id = `card-text-${key}`;
  if (typeof document === "undefined" || lettered.has(id)) return id;
  let defs = document.getElementById(LETTERING_ID);
  if (!defs) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("width", "0");
    svg.setAttribute("height", "0");
    svg.style.position = "absolute";
    svg.innerHTML = `<defs id="${LETTERING_ID}"></defs>`;
    document.body.append(svg);
    defs = svg.firstElementChild;
  }
  if (!defs.querySelector(`[id="${id}"]`)) {
    defs.insertAdjacentHTML(
      "beforeend",
      `<text id="${id}" x="0" y="0" text-anchor="middle" font-family="${FONT}" font-weight="700" font-size="${size}" ` +
        `textLength="${width}" lengthAdjust="spacingAndGlyphs">${text}</text>`,
    );
  }
  lettered.add(id);
  return id;
}

/** A rank's index: the label squeezed to a set width (17 for "10"), so that it keeps to its column. */
function corner(rank, suit, lang) {
  const label = rankLabel(rank, lang);
  const id = lettering(`rank-${label}`, label, 23, label.length > 1 ? 17 : 13);
  return (
    `<use class="card-rank" href="#${id}" x="11" y="24" fill="${suitColor(suit)}" data-label="${label}"/>` +
    `<g class="card-index-suit">${pip(suit, 11, 35.5, 13)}</g>`
  );
}

// ---------------------------------------------------------------------- court cards
// A court card is a framed double-headed portrait: the upper half drawn once from shared pieces
// (robe, collar, head, hair, headgear, what the figure holds) and turned about the card's centre
// for the lower half. Colours follow the suit: red suits wear red with blue, black suits dark blue
// with red; gold and the face are the same on every card.
const SKIN = "#f6d9b4";
const GOLD = "#e2ac2f";
const LINE = "#3a2a1c";
const DRESS = {
  H: { robe: "#c4202b", trim: "#2456a6", hair: "#8a5424" },
  D: { robe: "#c4202b", trim: "#2456a6", hair: "#b8662a" },
  S: { robe: "#24355f", trim: "#c4202b", hair: "#2b2118" },
  C: { robe: "#24355f", trim: "#c4202b", hair: "#6b4423" },
};
const THIN = `stroke="${LINE}" stroke-width="0.7" stroke-linejoin="round"`;

function robe(d) {
  return (
    `<path d="M23.5 70V59c0-6 4-8.5 10-10L43 45h14l9.5 4c6 1.5 10 4 10 10v11z" fill="${d.robe}" ${THIN}/>` +
    // the front of the robe: a gold band with the trim colour's stripes
    `<path d="M45 46h10l1.5 24h-13z" fill="${GOLD}" ${THIN}/>` +
    `<path d="M47.4 52h5.2M47 58h6M46.6 64h6.8" stroke="${d.trim}" stroke-width="1.6"/>` +
    // the arm across, to the hand that holds the sceptre, the flower or the halberd
    `<path d="M26 54c3-4 8-5 11-3l3 9c-2 2-6 3-9 2z" fill="${d.trim}" ${THIN}/>` +
    `<path d="M31.6 57.8l2.8-1.2 1.6 4.4-2.9 1z" fill="${GOLD}" ${THIN}/>` +
    // a sash of the trim colour across the other side
    `<path d="M60 60c5-1.5 10-1.5 16 0v3c-6-1.2-11-1.2-16 0z" fill="${d.trim}" ${THIN}/>`
  );
}

function collar(rank, d) {
  // the queen's necklace, the men's pleated ruff
  if (rank === "Q")
    return `<path d="M40 41c3 5 17 5 20 0l2 3c-4 6-20 6-24 0z" fill="${GOLD}" ${THIN}/><circle cx="50" cy="48" r="1.6" fill="${d.trim}" ${THIN}/>`;
  const pleats = "q2 4.5 4 0".repeat(6);
  return `<path d="M38 43${pleats}l-1 -3.5h-22z" fill="#ffffff" ${THIN}/>`;
}

function face() {
  return (
    `<path d="M46.5 37h7v6h-7z" fill="${SKIN}" ${THIN}/>` +
    `<ellipse cx="50" cy="30" rx="7.2" ry="8.6" fill="${SKIN}" ${THIN}/>` +
    `<path d="M45.2 27.6q1.8-1.2 3.4 0M51.4 27.6q1.8-1.2 3.4 0" fill="none" stroke="${LINE}" stroke-width="0.6"/>` +
    `<circle cx="47" cy="29.6" r="0.85" fill="${LINE}"/><circle cx="53" cy="29.6" r="0.85" fill="${LINE}"/>` +
    `<path d="M50.4 30q-1.6 2.6-.4 3.8" fill="none" stroke="#b07a55" stroke-width="0.6" stroke-linecap="round"/>` +
    `<path d="M47.8 35.8q2.2 1.3 4.4 0" fill="none" stroke="#b0323a" stroke-width="0.9" stroke-linecap="round"/>`
  );
}

function hair(rank, d) {
  if (rank === "K")
    return (
      `<path d="M42.6 25c-1.5 5-1 9 0 12 2 6 5 9.5 7.4 9.5s5.4-3.5 7.4-9.5c1-3 1.5-7 0-12-1 4-2 7-3 8.5-2 2-6.8 2-8.8 0-1-1.5-2-4.5-3-8.5z" fill="${d.hair}" ${THIN}/>` +
      `<path d="M45.5 35.2q4.5-2.6 9 0" fill="none" stroke="${d.hair}" stroke-width="1.6" stroke-linecap="round"/>`
    );
  if (rank === "Q")
    return `<path d="M42.8 24c-3 6-4 14-5.5 21 3 1 6 0 8-2-2-5-2.5-12-1-17zM57.2 24c3 6 4 14 5.5 21-3 1-6 0-8-2 2-5 2.5-12 1-17z" fill="${d.hair}" ${THIN}/>`;
  return `<path d="M42.8 25c-1 4-.5 8 1.5 11l1-6zM57.2 25c1 4 .5 8-1.5 11l-1-6z" fill="${d.hair}" ${THIN}/>`;
}

function headgear(rank, d) {
  if (rank === "K")
    return (
      `<path d="M42 24.5 40.5 13l4.3 5L50 10.5l5.2 7.5 4.3-5L58 24.5z" fill="${GOLD}" ${THIN}/>` +
      `<path d="M42 21.5h16v3H42z" fill="${d.trim}" ${THIN}/>` +
      `<circle cx="40.5" cy="13" r="1.3" fill="${d.robe}" ${THIN}/><circle cx="50" cy="10.5" r="1.4" fill="${d.robe}" ${THIN}/>` +
      `<circle cx="59.5" cy="13" r="1.3" fill="${d.robe}" ${THIN}/>`
    );
  if (rank === "Q")
    return (
      `<path d="M43 23.5c-.5-2.5 0-4.5 1-6 .8 1.5 2 2.2 3.2 2.2C47.8 17 48.7 15.5 50 14.2c1.3 1.3 2.2 2.8 2.8 5.5 1.2 0 2.4-.7 3.2-2.2 1 1.5 1.5 3.5 1 6z" fill="${GOLD}" ${THIN}/>` +
      `<circle cx="50" cy="20.6" r="1.2" fill="${d.trim}"/>` +
      `<path d="M43 23.5q7-2.4 14 0" fill="none" stroke="${d.hair}" stroke-width="1.4"/>`
    );
  return (
    `<path d="M55.5 17.5c2.5-4.5 6.5-6.5 9.5-6.5-3 1.5-5.5 3.5-7 7.5z" fill="${GOLD}" ${THIN}/>` +
    `<path d="M40 24c0-5 4.5-8 10-8s10 3 10 8c-3-1.5-6.5-2-10-2s-7 .5-10 2z" fill="${d.trim}" ${THIN}/>` +
    `<path d="M41.5 23.2q8.5-3 17 0" fill="none" stroke="${GOLD}" stroke-width="1.2"/>`
  );
}

// What the figure holds, at its right hand (the left of the card): a sceptre, a flower, a halberd.
function held(rank, d) {
  const hand = `<circle cx="31" cy="58.5" r="2.7" fill="${SKIN}" ${THIN}/>`;
  if (rank === "K")
    return (
      `<path d="M30 68V19h2v49z" fill="${GOLD}" ${THIN}/>` +
      `<path d="M31 9.5c1.8 2 2.6 4 0 8.5-2.6-4.5-1.8-6.5 0-8.5zM31 18c-3-.5-5-2.5-5.5-5 2.5 0 4.5 1.5 5.5 5zM31 18c3-.5 5-2.5 5.5-5-2.5 0-4.5 1.5-5.5 5z" fill="${GOLD}" ${THIN}/>` +
      hand
    );
  if (rank === "Q")
    return (
      `<path d="M31 68C30 55 32 40 31 26" fill="none" stroke="#2f7d3a" stroke-width="1.3"/>` +
      `<path d="M31 44c-4-1-6-3-6.5-6 3 0 5.5 2 6.5 6z" fill="#2f7d3a" ${THIN}/>` +
      `<circle cx="28" cy="24" r="2.6" fill="${d.trim}" ${THIN}/><circle cx="34" cy="24" r="2.6" fill="${d.trim}" ${THIN}/>` +
      `<circle cx="31" cy="20.5" r="2.6" fill="${d.trim}" ${THIN}/><circle cx="31" cy="26.5" r="2.6" fill="${d.trim}" ${THIN}/>` +
      `<circle cx="31" cy="23.5" r="1.8" fill="${GOLD}" ${THIN}/>` +
      hand
    );
  return (
    `<path d="M30.2 68V14.5h1.6v53.5z" fill="#8a5a2b" ${THIN}/>` +
    `<path d="M31 9.5l1.5 5h-3zM31.8 15c3.5 0 6 2.5 6 6.5-2-1-4-1.5-6-1.5zM30.2 16c-2.5 0-4 1.5-4.5 3.5 1.5-.5 3-.8 4.5-.8z" fill="#b9c0c8" ${THIN}/>` +
    hand
  );
}

// The head and what is worn on it, drawn at a small size and enlarged about the neck.
const HEAD = "translate(50 51) scale(1.1) translate(-50 -46)";

// The names the French deck gives its court cards, written up the side of each portrait.
const NAMES = {
  K: { S: "DAVID", H: "CHARLES", D: "CÉSAR", C: "ALEXANDRE" },
  Q: { S: "PALLAS", H: "JUDITH", D: "RACHEL", C: "ARGINE" },
  J: { S: "OGIER", H: "LA HIRE", D: "HECTOR", C: "LANCELOT" },
};

function courtName(rank, suit) {
  const name = NAMES[rank][suit];
  const length = Math.min(24, name.length * 3);
  const id = lettering(`name-${rank}${suit}`, name, 5, length);
  return `<use href="#${id}" transform="translate(74.6 ${23 + length / 2}) rotate(-90)" fill="${suitColor(suit)}"/>`;
}

function courtHalf(rank, suit) {
  const d = DRESS[suit];
  return (
    `<path d="M22.6 70V7.6h54.8V70z" fill="${isRed(suit) ? "#fdf1e6" : "#eef1f7"}"/>` +
    robe(d) +
    `<g transform="${HEAD}">${collar(rank, d) + hair(rank, d) + face() + headgear(rank, d)}</g>` +
    held(rank, d) +
    pip(suit, 70, 16, 10) +
    courtName(rank, suit)
  );
}

function court(rank, suit) {
  const half = courtHalf(rank, suit);
  return (
    `<g class="card-figure" data-rank="${rank}">` +
    half +
    `<g transform="rotate(180 50 70)">${half}</g>` +
    `<path d="M22.6 70h54.8" stroke="${suitColor(suit)}" stroke-width="0.8"/>` +
    `<rect x="22.6" y="7.6" width="54.8" height="124.8" rx="2.5" fill="none" stroke="${suitColor(suit)}" stroke-width="1.3"/>` +
    `</g>`
  );
}

function middle(rank, suit) {
  if (rank === "J" || rank === "Q" || rank === "K") return court(rank, suit);
  const pips = rank === "A" ? pip(suit, 50, 70, 54) : PIPS[rank].map(([x, y, f]) => pip(suit, x, y, 18, f)).join("");
  return `<g class="card-pips">${pips}</g>`;
}

const faces = new Map();

/** The face of a card, as an SVG element string; `code` is like "JH" or "TD". */
export function cardFace(code, lang = "en") {
  const key = code + lang;
  if (!faces.has(key)) faces.set(key, drawFace(code[0], code[1], lang));
  return faces.get(key);
}

function drawFace(rank, suit, lang) {
  return (
    `<svg class="card-svg" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">` +
    `<rect class="card-paper" x="0.75" y="0.75" width="98.5" height="138.5" rx="8" fill="${PAPER}" stroke="#9aa0a6" stroke-width="1.5"/>` +
    middle(rank, suit) +
    `<g class="card-index">${corner(rank, suit, lang)}</g>` +
    `<g class="card-index" transform="rotate(180 50 70)">${corner(rank, suit, lang)}</g>` +
    `</svg>`
  );
}

let backPattern = null;

/** The back of a card: a blue lattice in a white border. */
export function cardBack() {
  if (backPattern === null) {
    const lines = [];
    for (let k = -140; k <= 100; k += 10) {
      lines.push(`M${8 + k} 8l124 124`);
      lines.push(`M${92 - k} 8l-124 124`);
    }
    backPattern = lines.join("");
  }
  return (
    `<svg class="card-svg" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">` +
    `<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="8" fill="${PAPER}" stroke="#9aa0a6" stroke-width="1.5"/>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" fill="#1f4e8c"/>` +
    `<svg x="7" y="7" width="86" height="126" viewBox="7 7 86 126">` +
    `<path d="${backPattern}" stroke="#6f9bd6" stroke-width="1.4" fill="none"/></svg>` +
    `<rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#c9d8ef" stroke-width="1.2"/>` +
    `<circle cx="50" cy="70" r="15" fill="#1f4e8c" stroke="#c9d8ef" stroke-width="1.5"/>` +
    `<g transform="translate(41 61) scale(0.18)" fill="#f2f5fb">${SHAPES.S}</g>` +
    `</svg>`
  );
}

// The order of cards within a suit, highest first.
const PLAIN_ORDER = "AT KQJ987".replace(" ", "");
const TRUMP_ORDER = "J9ATKQ87";

/**
 * A hand sorted by suit, trumps first once chosen, colours alternating where they can, and each
 * suit from the highest card down (in trump order for trumps). `trump` is a suit letter, or the
 * Coinche modes "NT" (no trumps: every suit in plain order) and "AT" (all trumps: in trump order).
 */
export function sortHand(cards, mode = null) {
  const allTrumps = mode === "AT";
  const trump = mode && mode.length === 1 && SUITS.includes(mode) ? mode : null;
  const present = new Set(cards.map((c) => c[1]));
  const others = SUITS.split("").filter((s) => s !== trump);
  let best = null;
  let bestScore = Infinity;
  for (const order of permutations(others)) {
    const seq = (trump ? [trump, ...order] : order).filter((s) => present.has(s));
    let score = 0;
    for (let i = 1; i < seq.length; i++) if (isRed(seq[i]) === isRed(seq[i - 1])) score++;
    if (score < bestScore) {
      bestScore = score;
      best = trump ? [trump, ...order] : order;
    }
  }
  const suitIndex = (s) => best.indexOf(s);
  const rankIndex = (c) => (allTrumps || c[1] === trump ? TRUMP_ORDER : PLAIN_ORDER).indexOf(c[0]);
  return [...cards].sort((a, b) => suitIndex(a[1]) - suitIndex(b[1]) || rankIndex(a) - rankIndex(b));
}

function* permutations(items) {
  if (items.length <= 1) {
    yield items;
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const p of permutations(rest)) yield [items[i], ...p];
  }
}

/** A card in words or short text: "10♥", for logs and messages. */
export function cardText(code, lang = "en") {
  return rankLabel(code[0], lang) + ({ S: "♠", H: "♥", D: "♦", C: "♣" })[code[1]];
}

/**
 * A card's accessible name: what its face shows, then the card in words, in the page's language or
 * `lang`: "J♥, jack of hearts", "V♥, valet de cœur". A button's name holds its visible label.
 */
export function cardName(code, lang = getLang()) {
  const words = tIn(lang, "cardWords", { rank: tIn(lang, `rank${code[0]}`), suit: tIn(lang, `suit${code[1]}`) });
  return `${cardText(code, lang)}, ${words}`;
}
