// Pictures the page draws as inline SVG rather than with a symbol or emoji font, which many systems
// lack (an empty box where the picture should be): the match's trophy.
// Each is aria-hidden: what it means is said in words beside it or in its control's name.

function svg(cls, box, body) {
  return `<svg class="${cls}" viewBox="0 0 ${box} ${box}" aria-hidden="true" focusable="false">${body}</svg>`;
}

/** The winner's trophy at the end of a match: a gold cup on a wooden base, a star on its bowl. */
export const TROPHY = svg(
  "trophy-icon",
  48,
  `<path d="M14 10H7.5v3.5c0 6 4.5 10.5 10.5 11M34 10h6.5v3.5c0 6-4.5 10.5-10.5 11" fill="none" stroke="#c98d00" stroke-width="3" stroke-linecap="round"/>` +
    `<path d="M13 6h22v11c0 8.5-4.8 14-11 14S13 25.5 13 17z" fill="#f6c431" stroke="#a87400" stroke-width="1.5" stroke-linejoin="round"/>` +
    `<path d="M17.5 10v7c0 4 1.5 7.5 4 9.5" fill="none" stroke="#fff3c4" stroke-width="2" stroke-linecap="round"/>` +
    `<path d="M24 10.5l1.6 3.3 3.6.5-2.6 2.5.6 3.6-3.2-1.7-3.2 1.7.6-3.6-2.6-2.5 3.6-.5z" fill="#fff8dc"/>` +
    `<path d="M21.5 31h5v6h-5z" fill="#e0a81c" stroke="#a87400" stroke-width="1.2"/>` +
    `<path d="M16 37h16l2 5.5H14z" fill="#8a5a1a" stroke="#5e3c0e" stroke-width="1.2" stroke-linejoin="round"/>` +
    `<path d="M20 39.8h8" stroke="#f6c431" stroke-width="1.4" stroke-linecap="round"/>`,
);
