// The tournaments' requests (docs/tournaments.md): who asks is this browser's identity
// (`Authorization: Bearer`), else its guest's token (`Authorization: Guest`, made the first time a
// guest plays); every answer as {ok, status, data}, a server out of reach as a refusal would be.

import { getLang } from "./i18n.js";
import * as identity from "./identity.js";
import { refusalText } from "./refusals.js";
import { authOf, guestToken } from "./tournament-core.js";
import { tw } from "./tournament-words.js";

/** The header of who asks; `makeGuest`: a guest without a token gets one (to play). */
export function askHeaders(makeGuest = false) {
  const secret = identity.secret();
  return authOf(secret, secret ? null : guestToken(makeGuest));
}

/** A request with who asks; an identity deleted elsewhere is forgotten and the request made again without it. */
export async function ask(method, url, body = undefined, { makeGuest = false, json = true } = {}) {
  const send = async () => {
    const headers = askHeaders(makeGuest);
    const options = { method, headers };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(url, options);
    } catch {
      return { ok: false, status: 0, data: { code: "network" } };
    }
    let data = {};
    if (json || !res.ok) {
      try {
        data = await res.json();
      } catch {
        // An answer without a body.
      }
    } else {
      data = await res.text();
    }
    return { ok: res.ok, status: res.status, data };
  };
  const first = await send();
  if (first.status === 401 && first.data && first.data.code === "no_identity" && identity.secret()) {
    identity.forget();
    return send();
  }
  return first;
}

/** A refusal in the page's language (refusals.js), or the tournaments' word for no answer. */
export function refusalWords(data) {
  if (!data || data.code === "network") return tw("network");
  return refusalText({ code: data.code, args: data.args || {}, message: data.error || data.message || "" }, getLang());
}
