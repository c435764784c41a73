// What the profile and the leaderboard pages share: their language (the table page's, or ?lang=,
// switched by a button and kept for every page), the identity's handle in the header, and the
// invitations of friends, shown as on the table page (Join takes the seat, then opens the table).

import { $ } from "./dom.js";
import { getLang, keepPageLang, pageLang, setLang, t, translatePage } from "./i18n.js";
import * as identity from "./identity.js";
import { refusalText } from "./refusals.js";
import { translateTw } from "./tournament-words.js";

/** Words for a refusal of the server, in the page's language. */
export function refused(data) {
  return refusalText({ code: data.code, args: data.args || {}, message: data.error || data.message || "" }, getLang());
}

/**
 * Starts a page: its language, its header, its invitations. `draw()` draws the page (again after a
 * change of language or of identity); `title()` is the page's title in the current language.
 */
export function startPage({ draw, title }) {
  const lang = $('[data-testid="lang"]');
  const meLink = $('[data-testid="me-link"]');
  const presence = new identity.Presence((msg) => identity.absorb([msg]));
  const apply = (l) => {
    setLang(l);
    translatePage();
    translateTw();
    document.title = title();
    const other = l === "fr" ? "en" : "fr";
    lang.textContent = other === "fr" ? "Français" : "English";
    lang.lang = other;
    identity.drawMeLink(meLink);
    identity.drawInvitations();
  };
  lang.addEventListener("click", () => {
    const next = getLang() === "fr" ? "en" : "fr";
    keepPageLang(next);
    apply(next);
    draw();
  });
  identity.onIdentity(() => {
    identity.drawMeLink(meLink);
    presence.want(true);
    draw();
  });
  apply(pageLang());
  identity.showInvitations((inv) => identity.joinElsewhere(inv, refused));
  presence.want(true);
  identity.refresh();
}

/** A date as the page's language writes it: "5 December 2025". */
export function dateWords(seconds, { time = false, short = false } = {}) {
  const options = short ? { day: "numeric", month: "short", year: "2-digit" } : { day: "numeric", month: "long", year: "numeric" };
  if (time) Object.assign(options, { hour: "2-digit", minute: "2-digit" });
  return new Date(seconds * 1000).toLocaleString(getLang() === "fr" ? "fr-FR" : "en-GB", options);
}

/**
 * The page's own question box (its <dialog data-testid="confirm-dialog">): resolves true for yes.
 */
export function ask(text, yes) {
  const box = $('[data-testid="confirm-dialog"]');
  return new Promise((resolve) => {
    box.querySelector('[data-testid="confirm-text"]').textContent = text;
    box.querySelector('[data-testid="confirm-yes"]').textContent = yes;
    box.querySelector('[data-testid="confirm-no"]').textContent = t("cancel");
    box.returnValue = "";
    box.addEventListener("close", () => resolve(box.returnValue === "yes"), { once: true });
    box.showModal();
  });
}

export { t };
