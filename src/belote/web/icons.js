// Pictures the page draws as inline SVG rather than with a symbol or emoji font, which many systems
// lack (an empty box where the picture should be): the match's trophy and the quick reactions.
// Each is aria-hidden: what it means is said in words beside it or in its control's name.

const INK = "#3a2a1c";
const SKIN = `fill="#ffd23f" stroke="#b98500" stroke-width="1.2" stroke-linejoin="round"`;
const FACE = `<circle cx="16" cy="16" r="13" fill="#ffd23f" stroke="#c99400" stroke-width="1.2"/>`;
const LINE = `fill="none" stroke="${INK}" stroke-linecap="round" stroke-linejoin="round"`;

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

const STAR = (x, y, r) => {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const d = i % 2 ? r * 0.45 : r;
    points.push(`${(x + d * Math.cos(a)).toFixed(1)} ${(y + d * Math.sin(a)).toFixed(1)}`);
  }
  return `<path d="M${points.join("L")}z" fill="#ffc21a" stroke="#b98500" stroke-width="1" stroke-linejoin="round"/>`;
};

/** The quick reactions' pictures, by the server's names (room.REACTIONS). */
export const REACTION_ICONS = {
  // a thumb up
  well_played:
    `<path d="M4.5 14.5h5.5v13H4.5z" fill="#2f6fb5" stroke="#1d4a7d" stroke-width="1.2" stroke-linejoin="round"/>` +
    `<path d="M10 15l4.8-7.4c.8-1.3 1.4-2.6 1.5-4.2.1-1.6 3-1.6 3.5.6.5 2.2-.4 4.8-1.4 6.8h6.6c2 0 3.1 1.9 2.5 3.5 1.2.6 1.5 2.2.8 3.3 1 .7 1.1 2.2.3 3.1.8.8.6 2.6-.8 3.2-.6.3-1.6.5-2.9.5H14c-1.6 0-2.9-.4-4-1z" ${SKIN}/>` +
    `<path d="M20.5 14.6h5.7M21 18.5h5.2M21.4 22.3h4.4" fill="none" stroke="#b98500" stroke-width="1" stroke-linecap="round"/>`,
  // two hands clapping, fingers up
  bravo:
    `<g transform="rotate(-20 12 19)"><rect x="7.5" y="9" width="9" height="19" rx="4.5" ${SKIN}/>` +
    `<path d="M10.3 9.8v5M12 9.2v5.6M13.7 9.8v5" fill="none" stroke="#b98500" stroke-width="0.9" stroke-linecap="round"/></g>` +
    `<g transform="rotate(20 20 19)"><rect x="15.5" y="9" width="9" height="19" rx="4.5" ${SKIN}/>` +
    `<path d="M18.3 9.8v5M20 9.2v5.6M21.7 9.8v5" fill="none" stroke="#b98500" stroke-width="0.9" stroke-linecap="round"/></g>` +
    `<path d="M16 1.5v4M9 3.5l2 3.3M23 3.5l-2 3.3" fill="none" stroke="#e08a00" stroke-width="1.8" stroke-linecap="round"/>`,
  // two cards fanned, and a star
  nice_trick:
    `<rect x="4.5" y="8" width="12.5" height="18" rx="2" transform="rotate(-14 10.75 17)" fill="#fff" stroke="#6b7280" stroke-width="1.2"/>` +
    `<rect x="12" y="9" width="12.5" height="18" rx="2" transform="rotate(8 18.25 18)" fill="#fff" stroke="#6b7280" stroke-width="1.2"/>` +
    `<path d="M18 24.5c-3-2.4-5-4-5-6.3 0-1.3 1-2.3 2.3-2.3 1.1 0 1.9.6 2.7 1.6.8-1 1.6-1.6 2.7-1.6 1.3 0 2.3 1 2.3 2.3 0 2.3-2 3.9-5 6.3z" fill="#c4202b"/>` +
    STAR(25, 7.5, 6),
  // a heart
  thanks:
    `<path d="M16 27.5C9 22 3.5 17.8 3.5 11.8 3.5 8.4 6.2 5.8 9.6 5.8c2.7 0 4.8 1.5 6.4 3.9 1.6-2.4 3.7-3.9 6.4-3.9 3.4 0 6.1 2.6 6.1 6 0 6-5.5 10.2-12.5 15.7z" fill="#e23a4a" stroke="#a8162a" stroke-width="1.2" stroke-linejoin="round"/>` +
    `<path d="M8.5 10.5c.6-1.5 1.9-2.2 3.3-2" fill="none" stroke="#ffd0d5" stroke-width="1.8" stroke-linecap="round"/>`,
  // a face that clenches its teeth
  oops:
    FACE +
    `<path d="M8.5 9.2l4-1.3M23.5 9.2l-4-1.3" ${LINE} stroke-width="1.4"/>` +
    `<circle cx="11.5" cy="13.5" r="2.1" fill="${INK}"/><circle cx="20.5" cy="13.5" r="2.1" fill="${INK}"/>` +
    `<rect x="9" y="19" width="14" height="6" rx="2.4" fill="#fff" stroke="${INK}" stroke-width="1.2"/>` +
    `<path d="M9 22h14M12.5 19v6M16 19v6M19.5 19v6" fill="none" stroke="${INK}" stroke-width="0.9"/>`,
  // a sad face with a tear
  sorry:
    FACE +
    `<path d="M8.5 11.5l3.8-2.2M23.5 11.5l-3.8-2.2" ${LINE} stroke-width="1.4"/>` +
    `<circle cx="11.5" cy="14.5" r="1.8" fill="${INK}"/><circle cx="20.5" cy="14.5" r="1.8" fill="${INK}"/>` +
    `<path d="M10.5 24c2.8-3.2 8.2-3.2 11 0" ${LINE} stroke-width="1.7"/>` +
    `<path d="M22.5 17c1.3 1.9 2.1 3.1 2.1 4.1a2.1 2.1 0 0 1-4.2 0c0-1 .8-2.2 2.1-4.1z" fill="#3b8fe0"/>`,
  // a stopwatch running
  hurry:
    `<path d="M1.5 14h4M1 18.5h5M1.5 23h4" fill="none" stroke="#6b7280" stroke-width="1.6" stroke-linecap="round"/>` +
    `<circle cx="18.5" cy="18.5" r="10" fill="#fff" stroke="#334155" stroke-width="2"/>` +
    `<path d="M18.5 18.5V10.5a8 8 0 0 1 7.6 5.5z" fill="#ffd6da"/>` +
    `<path d="M15.5 3.5h6M18.5 3.5v5M26.5 8.5l1.8-1.8" fill="none" stroke="#334155" stroke-width="2" stroke-linecap="round"/>` +
    `<path d="M18.5 18.5l4.5-4.5" fill="none" stroke="#c4202b" stroke-width="2" stroke-linecap="round"/>` +
    `<circle cx="18.5" cy="18.5" r="1.5" fill="#334155"/>`,
  // two hands shaking, a sleeve from each side
  good_game:
    `<path d="M0.5 20.5l7-7 4.5 4.5-7 7z" fill="#2f6fb5" stroke="#1d4a7d" stroke-width="1.2" stroke-linejoin="round"/>` +
    `<path d="M31.5 20.5l-7-7-4.5 4.5 7 7z" fill="#d2453c" stroke="#9b2a23" stroke-width="1.2" stroke-linejoin="round"/>` +
    `<path d="M8.5 14.5l5.4-5c1.3-1.2 3.2-1.3 4.6-.2l7 5.2-7.2 8.2c-1.2 1.4-3.3 1.5-4.6.2z" ${SKIN}/>` +
    `<path d="M16.2 12.4l4.6 4.2M14.3 14.4l4.4 4.1M12.4 16.5l4.1 3.8M13.9 9.5c2.2-.7 4.1.1 5.4 1.9" fill="none" stroke="#b98500" stroke-width="1" stroke-linecap="round"/>`,
};

/** A reaction's picture (the words go beside it, or in its control's name); nothing for one it has none of. */
export function reactionIcon(name) {
  const body = REACTION_ICONS[name];
  return body ? svg("react-icon", 32, body) : "";
}
