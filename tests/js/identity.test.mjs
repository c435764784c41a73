// This browser's identity as src/belote/web/identity.js keeps it: an answer cut short is no answer,
// and a secret kept without its player is made whole again. Run with `node --test tests/js/`.
//
// A page that went elsewhere just as GET /api/me answered read a body cut short as {} from a 200:
// the identity was written back without its player, and every page after showed nobody.

import assert from "node:assert/strict";
import { test } from "node:test";

const KEY = "belote.identity";
const PLAYER = { id: "p-1", name: "Léa", tag: 4821, handle: "Léa#4821", password: false };
const stored = new Map();
globalThis.localStorage = {
  getItem: (k) => (stored.has(k) ? stored.get(k) : null),
  setItem: (k, v) => stored.set(k, String(v)),
  removeItem: (k) => stored.delete(k),
};
globalThis.window = { addEventListener() {} };

/** fetch answers with `answers` in turn: {status, body} (body undefined: a body cut short). */
let answers = [];
const asked = [];
globalThis.fetch = async (url, options = {}) => {
  asked.push({ url, auth: (options.headers || {}).Authorization });
  const { status, body } = answers.shift();
  return {
    ok: status >= 200 && status < 300,
    status,
    json: async () => {
      if (body === undefined) throw new TypeError("the body was cut short");
      return body;
    },
  };
};

async function fresh(name) {
  return import(`../../src/belote/web/identity.js?${name}`); // a module instance of its own
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("a secret kept without its player is made whole from GET /api/me", async () => {
  stored.set(KEY, JSON.stringify({ secret: "s-secret-0001" }));
  answers = [{ status: 200, body: { player: PLAYER } }];
  asked.length = 0;
  const id = await fresh("recover");
  await settle();
  assert.deepEqual(asked, [{ url: "/api/me", auth: "Bearer s-secret-0001" }]);
  assert.deepEqual(id.player(), PLAYER);
  assert.deepEqual(JSON.parse(stored.get(KEY)), { secret: "s-secret-0001", player: PLAYER });
});

test("a secret the server does not know is dropped", async () => {
  stored.set(KEY, JSON.stringify({ secret: "s-secret-0002" }));
  answers = [{ status: 401, body: { code: "no_identity", error: "no identity with that secret" } }];
  const id = await fresh("unknown");
  await settle();
  assert.equal(id.player(), null);
  assert.equal(stored.has(KEY), false);
});

test("a secret kept without its player stays when the server is out of reach, for the next page", async () => {
  stored.set(KEY, JSON.stringify({ secret: "s-secret-0003" }));
  answers = [{ status: 200, body: undefined }];
  const id = await fresh("unreached");
  await settle();
  assert.equal(id.player(), null);
  assert.deepEqual(JSON.parse(stored.get(KEY)), { secret: "s-secret-0003" });
});

test("an answer cut short is no answer, and refresh keeps the identity whole", async () => {
  stored.delete(KEY);
  const id = await fresh("cut");
  id.keep("s-secret-0004", PLAYER);
  answers = [{ status: 200, body: undefined }];
  const cut = await id.request("GET", "/api/me");
  assert.equal(cut.ok, false);
  assert.equal(cut.data.code, "server_error");
  answers = [{ status: 200, body: undefined }, { status: 200, body: {} }];
  assert.equal(await id.refresh(), null);
  assert.equal(await id.refresh(), null); // a 200 without a player changes nothing either
  assert.deepEqual(id.player(), PLAYER);
  assert.deepEqual(JSON.parse(stored.get(KEY)), { secret: "s-secret-0004", player: PLAYER });
  answers = [{ status: 200, body: { player: { ...PLAYER, name: "Zoé" }, friends: [] } }];
  assert.deepEqual((await id.refresh()).friends, []);
  assert.equal(id.player().name, "Zoé");
});
