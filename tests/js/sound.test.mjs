// The table's sounds (src/belote/web/sound.js) with a fake AudioContext and a fake localStorage:
// node --test tests/js/
//
// Each test imports a fresh copy of the module (a query string makes a new module), so that the
// AudioContext it makes lazily and the gesture listeners it sets are its own.

import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

const SOURCE = new URL("../../src/belote/web/sound.js", import.meta.url);
let copies = 0;

class FakeParam {
  constructor(value = 1) {
    this.value = value;
    this.events = [];
  }
  setValueAtTime(v, t) { this.events.push(["set", v, t]); }
  linearRampToValueAtTime(v, t) { this.events.push(["linear", v, t]); }
  exponentialRampToValueAtTime(v, t) { this.events.push(["exp", v, t]); }
  cancelScheduledValues(t) { this.events.push(["cancel", t]); }
}

class FakeNode {
  constructor(ctx, kind) {
    this.kind = kind;
    this.outputs = [];
    ctx.nodes.push(this);
  }
  connect(node) { this.outputs.push(node); }
  start(t, offset, length) { this.started = [t, offset, length]; }
  stop(t) { this.stopped = t; }
}

class FakeAudioContext {
  static made = [];
  constructor() {
    this.state = FakeAudioContext.startState;
    this.currentTime = 10;
    this.sampleRate = 8000;
    this.nodes = [];
    this.resumes = 0;
    this.destination = { kind: "destination" };
    FakeAudioContext.made.push(this);
  }
  resume() {
    this.resumes += 1;
    return FakeAudioContext.resumeWith(this);
  }
  createGain() { return Object.assign(new FakeNode(this, "gain"), { gain: new FakeParam(1) }); }
  createOscillator() {
    return Object.assign(new FakeNode(this, "oscillator"), { type: "sine", frequency: new FakeParam(440) });
  }
  createBiquadFilter() {
    return Object.assign(new FakeNode(this, "filter"), { frequency: new FakeParam(350), Q: new FakeParam(1) });
  }
  createBufferSource() { return Object.assign(new FakeNode(this, "buffer"), { buffer: null }); }
  createBuffer(channels, length, rate) {
    const data = new Float32Array(length);
    return { channels, length, rate, getChannelData: () => data };
  }
  sources() { return this.nodes.filter((n) => n.kind === "oscillator" || n.kind === "buffer"); }
}

class FakeStorage {
  constructor(items = {}) { this.items = { ...items }; }
  getItem(k) { return Object.hasOwn(this.items, k) ? this.items[k] : null; }
  setItem(k, v) { this.items[k] = String(v); }
}

// The page's window: the listeners the module sets, and a way to fire a gesture.
const listeners = {};
function gesture(type) {
  for (const fn of [...(listeners[type] || [])]) fn({ type });
}

beforeEach(() => {
  FakeAudioContext.made = [];
  FakeAudioContext.startState = "running";
  FakeAudioContext.resumeWith = (ctx) => {
    ctx.state = "running";
    return Promise.resolve();
  };
  for (const k of Object.keys(listeners)) delete listeners[k];
  globalThis.AudioContext = FakeAudioContext;
  globalThis.localStorage = new FakeStorage();
  globalThis.addEventListener = (type, fn) => (listeners[type] ??= []).push(fn);
  globalThis.removeEventListener = (type, fn) => {
    listeners[type] = (listeners[type] || []).filter((f) => f !== fn);
  };
  delete globalThis.__beloteSounds;
});

async function fresh() {
  copies += 1;
  return import(`${SOURCE.href}?copy=${copies}`);
}

// ------------------------------------------------------------------ the recipes

test("every sound is short, but the end of a match", async () => {
  const sound = await fresh();
  assert.deepEqual(sound.SOUNDS, ["card", "turn", "trick", "deal", "win", "lose"]);
  for (const name of ["card", "turn", "trick", "deal"]) {
    assert.ok(sound.duration(name) < 0.3, `${name} lasts ${sound.duration(name)} s`);
  }
  assert.ok(sound.duration("trick", { won: false }) < 0.3);
  assert.ok(Math.abs(sound.duration("card") - 0.07) < 1e-9);
  assert.ok(Math.abs(sound.duration("deal") - 0.23) < 1e-9);
  assert.ok(Math.abs(sound.duration("win") - 0.96) < 1e-9);
  assert.ok(Math.abs(sound.duration("lose") - 0.88) < 1e-9);
});

test("a trick lost does not sound like a trick won", async () => {
  const sound = await fresh();
  const pitches = (voices) => voices.map((v) => Math.round(v.from));
  assert.deepEqual(pitches(sound.recipe("trick")), [523, 659, 784]); // up: C E G
  assert.deepEqual(pitches(sound.recipe("trick", { won: false })), [392, 311]); // down: G E♭
});

test("the sounds are quiet: no voice above the master volume", async () => {
  const sound = await fresh();
  assert.equal(sound.VOLUME, 0.16);
  for (const name of sound.SOUNDS) {
    for (const v of sound.recipe(name)) assert.ok(v.peak > 0 && v.peak <= 1, `${name}: peak ${v.peak}`);
  }
});

test("an unknown sound is an error that names the sounds, and is not counted", async () => {
  const sound = await fresh();
  assert.throws(() => sound.play("bell"), {
    name: "RangeError",
    message: 'no sound "bell": the sounds are card, turn, trick, deal, win, lose',
  });
  assert.throws(() => sound.play("toString"), RangeError);
  assert.deepEqual(globalThis.__beloteSounds ?? { played: {}, muted: {} }, { played: {}, muted: {} });
});

// ------------------------------------------------------------------ playing

test("the AudioContext is made on the first sound, once", async () => {
  const sound = await fresh();
  assert.equal(FakeAudioContext.made.length, 0);
  assert.equal(sound.audioState(), "none");
  assert.equal(sound.play("card"), true);
  assert.equal(sound.play("card"), true);
  assert.equal(FakeAudioContext.made.length, 1);
  assert.equal(sound.audioState(), "running");
  assert.deepEqual(globalThis.__beloteSounds, { played: { card: 2 }, muted: {} });
});

test("a sound's voices go through their envelope and the master gain to the speakers, and stop in time", async () => {
  const sound = await fresh();
  sound.play("turn");
  const [ctx] = FakeAudioContext.made;
  const master = ctx.nodes[0];
  assert.equal(master.kind, "gain");
  assert.deepEqual(master.outputs, [ctx.destination]);
  assert.equal(master.gain.value, 0.16);
  const oscillators = ctx.sources();
  assert.deepEqual(oscillators.map((o) => o.kind), ["oscillator", "oscillator"]);
  assert.deepEqual(oscillators.map((o) => Math.round(o.frequency.events[0][1])), [659, 880]);
  for (const o of oscillators) {
    const [envelope] = o.outputs;
    assert.equal(envelope.kind, "gain");
    assert.deepEqual(envelope.outputs, [master]);
    assert.ok(o.started[0] >= 10 && o.stopped <= 10 + 0.3, `from ${o.started[0]} to ${o.stopped}`);
    // It starts and ends silent (no click).
    assert.equal(envelope.gain.events[0][1], 0.0001);
    assert.equal(envelope.gain.events.at(-1)[1], 0.0001);
  }
});

test("the card sound is filtered noise over a low knock", async () => {
  const sound = await fresh();
  sound.play("card");
  const [ctx] = FakeAudioContext.made;
  const [noise, knock] = ctx.sources();
  assert.equal(noise.kind, "buffer");
  assert.equal(noise.buffer.length, 4000); // half a second of noise at 8 kHz, made once
  assert.equal(noise.outputs[0].kind, "filter");
  assert.equal(noise.outputs[0].type, "bandpass");
  assert.equal(knock.kind, "oscillator");
  sound.play("deal");
  const buffers = ctx.sources().filter((s) => s.kind === "buffer");
  assert.equal(buffers.length, 5);
  assert.ok(buffers.every((b) => b.buffer === noise.buffer));
});

// ------------------------------------------------------------------ muting

test("muted: nothing is made or played, each call is counted as muted, and it is remembered", async () => {
  const sound = await fresh();
  assert.equal(sound.muted(), false);
  sound.setMuted(true);
  assert.equal(globalThis.localStorage.getItem("belote.muted"), "1");
  assert.equal(sound.muted(), true);
  for (const name of sound.SOUNDS) assert.equal(sound.play(name), false);
  sound.play("trick", { won: false });
  assert.equal(FakeAudioContext.made.length, 0);
  assert.deepEqual(globalThis.__beloteSounds, {
    played: {},
    muted: { card: 1, turn: 1, trick: 2, deal: 1, win: 1, lose: 1 },
  });
  const later = await fresh(); // the next visit
  assert.equal(later.muted(), true);
  later.setMuted(false);
  assert.equal(globalThis.localStorage.getItem("belote.muted"), "0");
  assert.equal(later.muted(), false);
});

test("muting silences the master gain at once; unmuting brings it back", async () => {
  const sound = await fresh();
  sound.play("win");
  const [ctx] = FakeAudioContext.made;
  const master = ctx.nodes[0];
  sound.setMuted(true);
  assert.deepEqual(master.gain.events.slice(-2), [["cancel", 10], ["set", 0, 10]]);
  sound.setMuted(false);
  assert.deepEqual(master.gain.events.slice(-1), [["set", 0.16, 10]]);
});

test("a page whose storage is refused mutes for itself", async () => {
  globalThis.localStorage = {
    getItem() { throw new Error("denied"); },
    setItem() { throw new Error("denied"); },
  };
  const sound = await fresh();
  assert.equal(sound.muted(), false);
  sound.setMuted(true);
  assert.equal(sound.muted(), true);
  assert.equal(sound.play("card"), false);
});

// ------------------------------------------------------------------ the first gesture

test("the first gesture makes and resumes the audio, then stops listening", async () => {
  FakeAudioContext.startState = "suspended";
  const sound = await fresh();
  assert.deepEqual(Object.keys(listeners).sort(), ["keydown", "pointerdown", "touchend"]);
  gesture("pointerdown");
  assert.equal(FakeAudioContext.made.length, 1);
  assert.equal(FakeAudioContext.made[0].resumes, 1);
  assert.deepEqual(Object.values(listeners).flat(), []);
  gesture("keydown");
  assert.equal(FakeAudioContext.made[0].resumes, 1);
  assert.equal(sound.audioState(), "running");
});

test("a muted page's first gesture makes no audio", async () => {
  globalThis.localStorage = new FakeStorage({ "belote.muted": "1" });
  await fresh();
  gesture("pointerdown");
  assert.equal(FakeAudioContext.made.length, 0);
});

test("a sound asked for before the audio may start plays once it resumes, unless that comes too late", async () => {
  FakeAudioContext.startState = "suspended";
  let release;
  FakeAudioContext.resumeWith = (ctx) =>
    new Promise((resolve) => {
      release = () => {
        ctx.state = "running";
        resolve();
      };
    });
  const sound = await fresh();
  const realNow = Date.now;
  let now = 1_000_000;
  Date.now = () => now;
  try {
    assert.equal(sound.play("card"), true);
    const [ctx] = FakeAudioContext.made;
    assert.equal(ctx.sources().length, 0);
    now += 50; // resumed 50 ms later: still worth hearing
    release();
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(ctx.sources().length, 2);

    ctx.state = "suspended"; // the tab was put away
    sound.play("turn");
    now += 2000; // and the browser resumed the audio two seconds later: the sound is dropped
    release();
    await Promise.resolve();
    await Promise.resolve();
    assert.equal(ctx.sources().length, 2);
    assert.deepEqual(globalThis.__beloteSounds.played, { card: 1, turn: 1 });
  } finally {
    Date.now = realNow;
  }
});

test("without Web Audio the calls are still counted and nothing breaks", async () => {
  delete globalThis.AudioContext;
  const sound = await fresh();
  assert.equal(sound.play("deal"), false);
  assert.deepEqual(globalThis.__beloteSounds, { played: { deal: 1 }, muted: {} });
});
