// The table's sounds, made in code with the Web Audio API (no audio files): short and quiet.
//
//   import { play, muted, setMuted } from "./sound.js";
//   play("card");                   // a card laid down
//   play("turn");                   // your turn
//   play("trick");                  // a trick won by your side; play("trick", { won: false }) for one lost
//   play("deal"); play("win"); play("lose");
//   setMuted(true);                 // kept in localStorage ("belote.muted"); muted() says which
//
// The AudioContext is made on the first sound or the first gesture (a tap, a click, a key), whichever
// comes first, and resumed on that gesture: browsers keep audio silent until the person has touched
// the page. A sound asked for while the audio is still waiting for that gesture is dropped if it
// cannot start at once, rather than heard late with all the others.
// Every call is counted in window.__beloteSounds = { played: { card: 3 }, muted: { trick: 1 } }.

export const MUTED_KEY = "belote.muted";
export const VOLUME = 0.16; // the loudest any sound gets, on a scale of 1
export const SOUNDS = ["card", "turn", "trick", "deal", "win", "lose"];
const LATE = 0.15; // seconds: a sound that could not start within this is not played at all
const GESTURES = ["pointerdown", "keydown", "touchend"];

// Notes (Hz) of the little tunes.
const C4 = 261.63, E4b = 311.13, G4 = 392.0, C5 = 523.25, E5 = 659.25, G5 = 783.99, A5 = 880.0, C6 = 1046.5;

// A voice: a tone ({ wave, from, to }) or a burst of noise through a band-pass filter ({ noise: Hz }),
// starting `at` seconds into the sound, `length` seconds long, its loudest at `peak` (0..1, times VOLUME).
const tone = (wave, from, at, length, peak, to = from) => ({ wave, from, to, at, length, peak });
const noise = (hz, at, length, peak) => ({ noise: hz, at, length, peak });

const RECIPES = {
  // A card snapped onto the felt: a short bright rustle over a soft knock.
  card: () => [noise(2600, 0, 0.07, 0.9), tone("sine", 170, 0, 0.06, 0.45, 90)],
  // Two soft bell notes, rising.
  turn: () => [tone("sine", E5, 0, 0.13, 0.55), tone("sine", A5, 0.09, 0.19, 0.5)],
  // Won: three quick notes up. Lost: two notes down, softer.
  trick: ({ won = true } = {}) =>
    won
      ? [
          tone("triangle", C5, 0, 0.09, 0.5),
          tone("triangle", E5, 0.07, 0.09, 0.5),
          tone("triangle", G5, 0.14, 0.14, 0.5),
        ]
      : [tone("triangle", G4, 0, 0.11, 0.4), tone("triangle", E4b, 0.09, 0.17, 0.35)],
  // Four cards flicked round the table.
  deal: () => [0, 0.06, 0.12, 0.18].map((at, i) => noise(2200 + 300 * i, at, 0.05, 0.7)),
  // A bright arpeggio that lands on a chord.
  win: () => [
    tone("triangle", C5, 0, 0.14, 0.5),
    tone("triangle", E5, 0.12, 0.14, 0.5),
    tone("triangle", G5, 0.24, 0.14, 0.5),
    tone("triangle", C6, 0.36, 0.6, 0.45),
    tone("sine", G5, 0.36, 0.6, 0.3),
    tone("sine", E5, 0.36, 0.6, 0.3),
  ],
  // A slow fall to a low note.
  lose: () => [
    tone("sine", G4, 0, 0.2, 0.45),
    tone("sine", E4b, 0.18, 0.22, 0.45),
    tone("sine", C4, 0.38, 0.5, 0.45, C4 * 0.97),
  ],
};

/** The voices of a sound (throws a RangeError for a name that is not one). */
export function recipe(name, options = {}) {
  const make = Object.hasOwn(RECIPES, name) ? RECIPES[name] : null;
  if (!make) throw new RangeError(`no sound ${JSON.stringify(name)}: the sounds are ${SOUNDS.join(", ")}`);
  return make(options);
}

/** How long a sound lasts, in seconds. */
export function duration(name, options = {}) {
  return Math.max(...recipe(name, options).map((v) => v.at + v.length));
}

// ------------------------------------------------------------------ muting, remembered

let mutedHere = false; // when localStorage cannot be used

export function muted() {
  try {
    const kept = globalThis.localStorage?.getItem(MUTED_KEY);
    return kept == null ? mutedHere : kept === "1";
  } catch {
    return mutedHere;
  }
}

export function setMuted(on) {
  mutedHere = Boolean(on);
  try {
    globalThis.localStorage?.setItem(MUTED_KEY, mutedHere ? "1" : "0");
  } catch {
    // private browsing or storage refused: muted for this page only
  }
  if (master) {
    // Sounds already playing stop at once when muted.
    const now = audio.currentTime;
    master.gain.cancelScheduledValues(now);
    master.gain.setValueAtTime(mutedHere ? 0 : VOLUME, now);
  }
  if (!mutedHere) wake(); // unmuting is a click: the moment the browser lets audio start
}

// ------------------------------------------------------------------ the counters tests read

export function counters() {
  const c = (globalThis.__beloteSounds ??= { played: {}, muted: {} });
  c.played ??= {};
  c.muted ??= {};
  return c;
}

function count(kind, name) {
  const c = counters()[kind];
  c[name] = (c[name] || 0) + 1;
}

// ------------------------------------------------------------------ the audio graph

let audio = null; // the AudioContext, made when first needed
let master = null; // every sound goes through this gain to the speakers
let noiseBuffer = null;

function context() {
  if (audio) return audio;
  const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Context) return null;
  try {
    audio = new Context();
  } catch {
    return null;
  }
  master = audio.createGain();
  master.gain.value = muted() ? 0 : VOLUME;
  master.connect(audio.destination);
  return audio;
}

/** The audio's state, for tests: "none" before the first sound or gesture, else the context's. */
export function audioState() {
  return audio ? audio.state : "none";
}

function wake() {
  const ctx = context();
  if (ctx && ctx.state === "suspended") ctx.resume().catch(() => {});
}

function unlock() {
  for (const g of GESTURES) globalThis.removeEventListener?.(g, unlock, true);
  if (!muted()) wake();
}

for (const g of GESTURES) globalThis.addEventListener?.(g, unlock, { capture: true, passive: true });

function whiteNoise(ctx) {
  if (!noiseBuffer) {
    const n = Math.floor(ctx.sampleRate * 0.5);
    noiseBuffer = ctx.createBuffer(1, n, ctx.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    for (let i = 0; i < n; i++) data[i] = Math.random() * 2 - 1;
  }
  return noiseBuffer;
}

/** Each voice scheduled from the context's present time: its source, its envelope, to the master gain. */
export function schedule(ctx, voices, out) {
  const start = ctx.currentTime + 0.005;
  for (const v of voices) {
    const t = start + v.at;
    const end = t + v.length;
    const envelope = ctx.createGain();
    envelope.gain.setValueAtTime(0.0001, t);
    envelope.gain.linearRampToValueAtTime(v.peak, t + Math.min(0.008, v.length / 4));
    envelope.gain.exponentialRampToValueAtTime(0.0001, end);
    envelope.connect(out);
    let source;
    if (v.noise) {
      source = ctx.createBufferSource();
      source.buffer = whiteNoise(ctx);
      const band = ctx.createBiquadFilter();
      band.type = "bandpass";
      band.frequency.value = v.noise;
      band.Q.value = 1.2;
      source.connect(band);
      band.connect(envelope);
      source.start(t, Math.random() * 0.4, v.length + 0.01);
    } else {
      source = ctx.createOscillator();
      source.type = v.wave;
      source.frequency.setValueAtTime(v.from, t);
      if (v.to !== v.from) source.frequency.exponentialRampToValueAtTime(v.to, end);
      source.connect(envelope);
      source.start(t);
    }
    source.stop(end + 0.01);
  }
}

/**
 * Play a sound: "card", "turn", "trick" (options { won: false } for a trick lost), "deal", "win" or
 * "lose". Returns whether it was played (false when muted or when the browser has no audio).
 */
export function play(name, options = {}) {
  const voices = recipe(name, options);
  if (muted()) {
    count("muted", name);
    return false;
  }
  count("played", name);
  const ctx = context();
  if (!ctx) return false;
  if (ctx.state === "running") {
    schedule(ctx, voices, master);
  } else {
    // The context's clock stands still while it is suspended: the page's clock says how late it is.
    const asked = Date.now();
    ctx.resume().then(
      () => {
        if ((Date.now() - asked) / 1000 < LATE && !muted()) schedule(ctx, voices, master);
      },
      () => {},
    );
  }
  return true;
}
