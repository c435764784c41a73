// Card faces and the card back, drawn as SVG by the page (no image files, no fonts to fetch).
// A card is named as the server names it: rank letter then suit letter, "JH", "TH" (ten), "7S".

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

// Where the pips of the number cards go, on a 100 x 140 card (x, y, upside down).
const PIPS = {
  7: [[30, 30], [70, 30], [50, 52], [30, 70], [70, 70], [30, 110, 1], [70, 110, 1]],
  8: [[30, 30], [70, 30], [50, 50], [30, 70], [70, 70], [50, 90, 1], [30, 110, 1], [70, 110, 1]],
  9: [[30, 30], [70, 30], [30, 56], [70, 56], [50, 70], [30, 84, 1], [70, 84, 1], [30, 110, 1], [70, 110, 1]],
  T: [[30, 30], [70, 30], [50, 46], [30, 58], [70, 58], [30, 82, 1], [70, 82, 1], [50, 94, 1], [30, 110, 1], [70, 110, 1]],
};

const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif";

function corner(rank, suit, lang) {
  const label = rankLabel(rank, lang);
  const size = label.length > 1 ? 21 : 24;
  const color = suitColor(suit);
  return (
    `<text x="12" y="27" text-anchor="middle" font-family="${FONT}" font-weight="700" font-size="${size}" ` +
    `letter-spacing="-1.5" fill="${color}">${label}</text>` +
    pip(suit, 12, 41, 15)
  );
}

function middle(rank, suit, lang) {
  if (rank === "A") return pip(suit, 50, 70, 58);
  if (PIPS[rank]) return PIPS[rank].map(([x, y, f]) => pip(suit, x, y, 19, Boolean(f))).join("");
  // Court cards: a framed panel with the letter and the suit.
  const color = suitColor(suit);
  const band = isRed(suit) ? "#fbe3e0" : "#e4e9f2";
  return (
    `<rect x="22" y="26" width="56" height="88" rx="6" fill="${band}" stroke="${color}" stroke-width="1.6"/>` +
    `<rect x="26" y="30" width="48" height="80" rx="4" fill="none" stroke="${color}" stroke-width="0.6" opacity="0.6"/>` +
    `<text x="50" y="86" text-anchor="middle" font-family="${FONT}" font-weight="700" font-size="46" ` +
    `fill="${color}">${rankLabel(rank, lang)}</text>` +
    pip(suit, 50, 44, 16) +
    pip(suit, 50, 100, 12, true)
  );
}

/** The face of a card, as an SVG element string; `code` is like "JH" or "TD". */
export function cardFace(code, lang = "en") {
  const rank = code[0];
  const suit = code[1];
  return (
    `<svg class="card-svg" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">` +
    `<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="8" fill="#fffdf8" stroke="#9aa0a6" stroke-width="1.5"/>` +
    corner(rank, suit, lang) +
    `<g transform="rotate(180 50 70)">${corner(rank, suit, lang)}</g>` +
    middle(rank, suit, lang) +
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
    `<rect x="0.75" y="0.75" width="98.5" height="138.5" rx="8" fill="#fffdf8" stroke="#9aa0a6" stroke-width="1.5"/>` +
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
