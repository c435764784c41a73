// Small helpers shared by the page's modules: escaping text put into HTML, and writing HTML only
// when it changes (so that running animations do not restart on every state).

export const $ = (sel, root = document) => root.querySelector(sel);

/** Text made safe for HTML: a player's name or a chat line is shown as typed, never as markup. */
export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

const shownHtml = new WeakMap();

/** Replace the content of a node only when it changes, so that animations do not restart. */
export function setHtml(node, html) {
  if (shownHtml.get(node) === html) return;
  shownHtml.set(node, html);
  node.innerHTML = html;
}
