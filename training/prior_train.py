"""Train the card-play prior (``belote.bots.prior``) on the search bot's decisions (``prior_data.py``).

A 141-H-32 ReLU network, float32 numpy, Adam with a cosine decay, the softmax over the legal cards
and its cross-entropy with the card the bot chose; the last 10% of the decisions held out. Then the
integer model: each hidden unit scaled so that its largest first-layer weight or bias is 2^14, the
second layer (in sixteenths of a nat) rounded to int16 range with the largest power of two that
fits, which is the shift. Deterministic for a seed (numpy's BLAS kept to one thread).

    python training/prior_train.py --data training/data/prior-classic.npz training/data/prior-coinche.npz \
        --out src/belote/data/card-prior.npz --hidden 64 --epochs 40 --seed 1
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from belote.bots.prior import _PLACE, INPUTS, SCALE, PriorModel, hand_inputs, public_inputs, winning


def load(paths: list[Path]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Inputs (N, 141) float32, legal (N, 32) bool in the permuted order, target (N,), mode (N,)."""
    xs, legals, targets, modes = [], [], [], []
    for path in paths:
        with np.load(path) as f:
            d = {name: f[name].tolist() for name in f.files}
        n = len(d["mode"])
        x = np.zeros((n, INPUTS), dtype=np.float32)
        legal = np.zeros((n, 32), dtype=bool)
        target = np.zeros(n, dtype=np.int64)
        for i in range(n):
            mode, seat = int(d["mode"][i]), int(d["seat"][i])
            trick = [int(c) for c in d["trick"][i] if c >= 0]
            seats = [int(s) for s in d["trick_seats"][i] if s >= 0]
            ours = [(s - seat) % 2 == 0 for s in seats]
            top = winning(mode, trick)
            best_ours = top >= 0 and ours[top]
            active = public_inputs(mode, bool(d["took"][i]), int(d["before"][i]), trick, ours, best_ours) + hand_inputs(
                mode, int(d["hand"][i])
            )
            x[i, active] = 1.0
            place = _PLACE[mode]
            lm = int(d["legal"][i])
            for c in range(32):
                if lm >> c & 1:
                    legal[i, place[c]] = True
            target[i] = place[int(d["choice"][i])]
            modes.append(mode)
        xs.append(x)
        legals.append(legal)
        targets.append(target)
    return np.concatenate(xs), np.concatenate(legals), np.concatenate(targets), np.array(modes)


def forward(params, x, legal):
    w1, b1, w2, b2 = params
    z = x @ w1 + b1
    h = np.maximum(z, 0)
    logits = h @ w2 + b2
    logits = np.where(legal, logits, -1e9)
    logits = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(logits) * legal
    p = e / e.sum(axis=1, keepdims=True)
    return z, h, p


def nll(params, x, legal, target) -> float:
    _, _, p = forward(params, x, legal)
    return float(-np.log(np.maximum(p[np.arange(len(target)), target], 1e-12)).mean())


def train(x, legal, target, hidden: int, epochs: int, batch: int, lr: float, seed: int):
    rng = np.random.default_rng(seed)
    n = len(x)
    inputs, outputs = x.shape[1], legal.shape[1]  # the prior's: INPUTS and 32 (the learned policy uses it too)
    params = [
        (rng.standard_normal((inputs, hidden)) * np.sqrt(2 / 20)).astype(np.float32),
        np.zeros(hidden, dtype=np.float32),
        (rng.standard_normal((hidden, outputs)) * np.sqrt(1 / hidden)).astype(np.float32),
        np.zeros(outputs, dtype=np.float32),
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    t = 0
    steps = epochs * ((n + batch - 1) // batch)
    for _epoch in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, batch):
            idx = order[start : start + batch]
            xb, lb, tb = x[idx], legal[idx], target[idx]
            z, h, p = forward(params, xb, lb)
            g = p.copy()
            g[np.arange(len(idx)), tb] -= 1.0
            g /= len(idx)
            gw2 = h.T @ g
            gb2 = g.sum(0)
            gh = (g @ params[2].T) * (z > 0)
            gw1 = xb.T @ gh
            gb1 = gh.sum(0)
            t += 1
            rate = lr * (0.01 + 0.99 * 0.5 * (1 + np.cos(np.pi * t / steps)))
            for i, gr in enumerate((gw1, gb1, gw2, gb2)):
                m[i] = 0.9 * m[i] + 0.1 * gr
                v[i] = 0.999 * v[i] + 0.001 * gr * gr
                mh = m[i] / (1 - 0.9**t)
                vh = v[i] / (1 - 0.999**t)
                params[i] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
    return params


def quantise(params) -> PriorModel:
    w1, b1, w2, b2 = (np.asarray(p, dtype=np.float64) for p in params)
    big = np.maximum(np.abs(w1).max(axis=0), np.abs(b1))
    s = (1 << 14) / np.maximum(big, 1e-9)
    w1i = np.round(w1 * s).astype(np.int64)
    b1i = np.round(b1 * s).astype(np.int64)
    a = w2 * SCALE / s[:, None]
    shift = int(np.floor(np.log2(((1 << 15) - 1) / np.abs(a).max())))
    shift = max(1, min(40, shift))
    w2i = np.round(a * 2.0**shift).astype(np.int64)
    b2i = np.round(b2 * SCALE * 2.0**shift).astype(np.int64)
    return PriorModel(w1i, b1i, w2i, b2i, shift)


def int_nll(model: PriorModel, x, legal, target) -> tuple[float, float]:
    """The integer model's held-out cross-entropy (nats) and how often its best card is the one chosen."""
    hidden = model._b1 + x.astype(np.float64) @ model._w1
    logits = model.logits_of(hidden) / SCALE
    logits = np.where(legal, logits, -1e9)
    logits -= logits.max(axis=1, keepdims=True)
    e = np.exp(logits) * legal
    p = e / e.sum(axis=1, keepdims=True)
    picked = p[np.arange(len(target)), target]
    return float(-np.log(np.maximum(picked, 1e-12)).mean()), float((p.argmax(axis=1) == target).mean())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, nargs="+", required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    t0 = time.time()
    x, legal, target, _modes = load(a.data)
    n = len(x)
    rng = np.random.default_rng(a.seed)
    order = rng.permutation(n)
    cut = n - n // 10
    tr, te = order[:cut], order[cut:]
    uniform = float(np.log(legal[te].sum(axis=1)).mean())
    print(
        f"{n} decisions ({len(te)} held out); a uniform choice: {uniform:.3f} nats; loaded in {time.time() - t0:.0f} s"
    )
    params = train(x[tr], legal[tr], target[tr], a.hidden, a.epochs, a.batch, a.lr, a.seed)
    f_nll = nll(params, x[te], legal[te], target[te])
    model = quantise(params)
    i_nll, top = int_nll(model, x[te], legal[te], target[te])
    print(f"held out: float {f_nll:.3f} nats, integer {i_nll:.3f} nats, the bot's card first {top:.1%}", end="")
    print(f"; {time.time() - t0:.0f} s")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        a.out,
        W1=model.w1,
        b1=model.b1,
        W2=model.w2,
        b2=model.b2,
        shift=np.int64(model.shift),
        version=np.int64(1),
        samples=np.int64(n),
        nll=np.float64(i_nll),
        uniform_nll=np.float64(uniform),
        top1=np.float64(top),
    )
    print(f"-> {a.out} (shift {model.shift})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
