"""Train the leaf network (``belote.solver.leaf``) on the positions of ``leaf_data.py``: numpy only.

One small MLP per class (trumps, no trumps, all trumps): 128 binary inputs, ``H`` ReLU units, one
output, the value for the side to lead. Adam on minibatches, a Huber loss (close to the absolute
error that is the measure), each sample's suits permuted at random in every batch (at trumps the
three plain suits, at no trumps and all trumps all four: the value does not change). The last
``--holdout`` share of the positions (whole deals, as written) is held out.

The float network is then made integer as the spec says: each hidden unit rescaled so that its
largest first-layer weight or bias is ``2**A_BITS`` (ReLU is positively homogeneous: the second
layer takes the scale back), the second layer rounded to int16 range with the largest power of two
that fits, ``shift`` the sum of the two exponents. The integer model's held-out error is checked
against the float one's, and the integer model against ``belote.solver.leaf.LeafModel`` bit for bit.

    python training/leaf_train.py --data training/data/leaf-1.npz --out src/belote/data/leaf-value.npz --seed 1
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from pathlib import Path

# One thread: the machine is shared, and BLAS threads fighting over two cores are many times slower.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from belote.play import LAST_TRICK, POINTS  # noqa: E402
from belote.solver.leaf import CLASSES, INPUTS, LeafModel, suit_perm  # noqa: E402

VERSION = 1
#: The first layer of a hidden unit in integers: its largest weight (or bias) is 2**A_BITS.
A_BITS = 14
CLASS_NAMES = ("trumps", "no trumps", "all trumps")
CARD_COUNTS = (4, 5, 6)

Array = np.ndarray


def load(paths: list[Path]) -> dict[str, Array]:
    parts = [dict(np.load(p)) for p in paths]
    keys = ("hands", "mode", "leader", "step", "value", "source")
    return {k: np.concatenate([p[k] for p in parts]) for k in keys}


def feature_matrix(hands: Array, mode: Array, leader: Array, step: Array) -> Array:
    """The inputs of every position as a dense (N, 128) uint8 matrix (``leaf.features`` in numpy)."""
    n = len(hands)
    x = np.zeros((n, INPUTS), dtype=np.uint8)
    bit = np.arange(32, dtype=np.uint32)
    rows = np.arange(n)
    dest = np.array([[8 * suit_perm(m)[c >> 3] + (c & 7) for c in range(32)] for m in range(6)])
    for r in range(4):
        seat = (leader.astype(np.int64) + step.astype(np.int64) * r) % 4
        held = ((hands[rows, seat][:, None] >> bit) & 1).astype(np.uint8)  # (N, 32) by card
        for m in range(6):
            sel = mode == m
            if sel.any():
                x[np.ix_(sel, 32 * r + dest[m])] = held[sel]
    return x


def limits(hands: Array, mode: Array) -> Array:
    """``A`` of each position: the points of the cards held, and the last ten."""
    held = hands[:, 0] | hands[:, 1] | hands[:, 2] | hands[:, 3]
    bits = ((held[:, None] >> np.arange(32, dtype=np.uint32)) & 1).astype(np.int64)
    pts = np.array(POINTS, dtype=np.int64)[mode.astype(np.int64)]
    return (bits * pts).sum(axis=1) + LAST_TRICK


def column_perms(cls: int) -> Array:
    """The input permutations of a class's symmetries: (P, 128) gather indices."""
    perms = [(0, *p) for p in itertools.permutations((1, 2, 3))] if cls == 0 else list(itertools.permutations(range(4)))
    out = []
    for p in perms:
        idx = [32 * r + 8 * p[s] + rank for r in range(4) for s in range(4) for rank in range(8)]
        # x_new[32r + 8 p[s] + rank] = x[32r + 8s + rank]: as a gather, x_new = x[:, inv]
        inv = np.empty(INPUTS, dtype=np.int64)
        inv[np.array(idx)] = np.arange(INPUTS)
        out.append(inv)
    return np.array(out)


class MLP:
    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        f32 = np.float32
        self.w1 = rng.normal(0.0, np.sqrt(2.0 / 20), (INPUTS, hidden)).astype(f32)  # about 20 active inputs
        self.b1 = np.full(hidden, 0.1, dtype=f32)
        self.w2 = rng.normal(0.0, np.sqrt(1.0 / hidden), hidden).astype(f32)
        self.b2 = np.zeros(1, dtype=f32)

    def params(self) -> list[Array]:
        return [self.w1, self.b1, self.w2, self.b2]

    def predict(self, x: Array, batch: int = 65536) -> Array:
        out = np.empty(len(x))
        for i in range(0, len(x), batch):
            h = np.maximum(x[i : i + batch] @ self.w1 + self.b1, 0.0)
            out[i : i + batch] = h @ self.w2 + self.b2[0]
        return out


def train_class(
    x: Array, y: Array, hidden: int, epochs: int, batch: int, lr: float, delta: float, cls: int, seed: int
) -> tuple[MLP, float, float]:
    """The float network of one class; targets are standardised inside (and given back in points)."""
    rng = np.random.default_rng(seed)
    mean, scale = float(y.mean()), float(y.std()) or 1.0
    t = ((y - mean) / scale).astype(np.float32)
    d = delta / scale
    net = MLP(hidden, rng)
    params = net.params()
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    b1_, b2_, eps = 0.9, 0.999, 1e-8
    perms = column_perms(cls)
    n = len(x)
    steps = epochs * (n // batch)
    k = 0
    xf = np.empty((batch, INPUTS), dtype=np.float32)
    for epoch in range(epochs):
        order = rng.permutation(n)
        loss_sum = 0.0
        for i in range(n // batch):
            idx = order[i * batch : (i + 1) * batch]
            p = perms[rng.integers(len(perms), size=batch)]
            np.copyto(xf, x[idx[:, None], p])
            tb = t[idx]
            z = xf @ net.w1 + net.b1
            h = np.maximum(z, 0.0)
            out = h @ net.w2 + net.b2[0]
            err = out - tb
            loss_sum += float(np.abs(err).mean())
            g = np.clip(err, -d, d) / batch  # Huber's gradient
            gw2 = h.T @ g
            gb2 = np.array([g.sum()], dtype=np.float32)
            gh = np.outer(g, net.w2) * (z > 0)
            gw1 = xf.T @ gh
            gb1 = gh.sum(axis=0)
            k += 1
            rate = np.float32(lr * 0.5 * (1 + np.cos(np.pi * k / steps)) + lr * 0.01)  # cosine to 1%
            for j, (pp, gg) in enumerate(zip(params, (gw1, gb1, gw2, gb2), strict=True)):
                m[j] = b1_ * m[j] + (1 - b1_) * gg
                v[j] = b2_ * v[j] + (1 - b2_) * gg * gg
                mh = m[j] / (1 - b1_**k)
                vh = v[j] / (1 - b2_**k)
                pp -= rate * mh / (np.sqrt(vh) + eps)
        print(
            f"    class {cls} epoch {epoch + 1}/{epochs}: train MAE {loss_sum / (n // batch) * scale:.2f}",
            file=sys.stderr,
            flush=True,
        )
    # back to points, in float64
    net.w1, net.b1 = net.w1.astype(np.float64), net.b1.astype(np.float64)
    net.w2 = net.w2.astype(np.float64) * scale
    net.b2 = net.b2.astype(np.float64) * scale + mean
    return net, mean, scale


def quantize(nets: list[MLP]) -> tuple[Array, Array, Array, Array, int]:
    """The integer network of the spec from the float ones."""
    hidden = len(nets[0].b1)
    w1s, b1s, w2s = [], [], []
    for net in nets:
        c = np.maximum(np.abs(net.w1).max(axis=0), np.abs(net.b1))
        c = np.where(c > 0, c, 1.0)
        w1s.append(net.w1 / c)
        b1s.append(net.b1 / c)
        w2s.append(net.w2 * c)
    big = max(float(np.abs(w).max()) for w in w2s)
    b = int(np.floor(np.log2(32767 / big)))
    shift = A_BITS + b
    W1 = np.stack([np.rint(w * (1 << A_BITS)) for w in w1s]).astype(np.int32)
    B1 = np.stack([np.rint(w * (1 << A_BITS)) for w in b1s]).astype(np.int32)
    W2 = np.stack([np.rint(w * 2.0**b) for w in w2s]).astype(np.int32)
    B2 = np.array([round(float(net.b2[0]) * 2.0**shift) for net in nets], dtype=np.int64)
    assert W1.shape == (CLASSES, INPUTS, hidden) and np.abs(W1).max() < 1 << 15 and np.abs(B1).max() < 1 << 15
    assert np.abs(W2).max() < 1 << 15 and shift >= 1
    return W1, B1, W2, B2, shift


def int_predict(x: Array, cls: Array, W1: Array, B1: Array, W2: Array, B2: Array, shift: int) -> Array:
    """The spec's integer network on a matrix of inputs, before the clamp (exact in int64)."""
    out = np.empty(len(x), dtype=np.int64)
    for k in range(CLASSES):
        sel = np.flatnonzero(cls == k)
        for i in range(0, len(sel), 65536):
            s = sel[i : i + 65536]
            h = np.maximum(x[s].astype(np.int64) @ W1[k].astype(np.int64) + B1[k], 0)
            assert np.abs(h).max(initial=0) < 1 << 31
            o = h @ W2[k].astype(np.int64) + B2[k]
            out[s] = (o + (1 << (shift - 1))) >> shift
    return out


def report(
    name: str, pred: Array, y: Array, cls: Array, cards: Array, source: Array | None = None
) -> dict[tuple[int, int], float]:
    err = np.abs(pred - y)
    table: dict[tuple[int, int], float] = {}
    print(f"  {name}: held-out MAE {err.mean():.3f}")
    for k in range(CLASSES):
        row = []
        for c in (*CARD_COUNTS, 0):
            sel = (cls == k) & ((cards == c) if c else True)
            mae = float(err[sel].mean()) if sel.any() else float("nan")
            table[k, c] = mae
            row.append(f"{c or 'all'}: {mae:6.3f}")
        print(f"    {CLASS_NAMES[k]:>10}  " + "  ".join(row))
    if source is not None:
        names = ("random", "classic", "coinche", "resolved")
        print("    by source: " + "  ".join(f"{names[s]} {err[source == s].mean():.3f}" for s in range(4)))
    return table


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", type=Path, nargs="+", required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--delta", type=float, default=3.0, help="Huber's threshold, in points")
    p.add_argument("--holdout", type=float, default=0.1)
    p.add_argument("--limit", type=int, default=0, help="use only the first N training positions (0: all)")
    args = p.parse_args(argv)
    start = time.perf_counter()
    data = load(args.data)
    n = len(data["value"])
    x = feature_matrix(data["hands"], data["mode"], data["leader"], data["step"])
    y = data["value"].astype(np.float64)
    mode = data["mode"].astype(np.int64)
    cls = np.where(mode < 4, 0, mode - 3)
    cards = np.array([int(h).bit_count() for h in data["hands"][:, 0]])
    cut = int(n * (1 - args.holdout))
    train = np.arange(cut if not args.limit else min(cut, args.limit))
    test = np.arange(cut, n)
    print(f"{n} positions: {len(train)} to train, {len(test)} held out ({time.perf_counter() - start:.0f} s)")

    nets = []
    for k in range(CLASSES):
        tr = train[cls[train] == k]
        print(f"  class {k} ({CLASS_NAMES[k]}): {len(tr)} positions", file=sys.stderr)
        net, _, _ = train_class(
            x[tr], y[tr], args.hidden, args.epochs, args.batch, args.lr, args.delta, k, args.seed * 10 + k
        )
        nets.append(net)
    xt, yt, ct, nt = x[test], y[test], cls[test], cards[test]
    a = limits(data["hands"][test], data["mode"][test])
    # the trivial predictor: the training mean of each class and card count
    base = np.zeros(len(test))
    for k in range(CLASSES):
        for c in CARD_COUNTS:
            sel_tr = (cls[train] == k) & (cards[train] == c)
            base[(ct == k) & (nt == c)] = np.rint(y[train][sel_tr].mean()) if sel_tr.any() else 0.0
    report("mean of the class and card count", base, yt, ct, nt)
    fl = np.zeros(len(test))
    for k in range(CLASSES):
        sel = ct == k
        fl[sel] = nets[k].predict(xt[sel].astype(np.float64))
    report("float network", np.clip(fl, 0, a), yt, ct, nt)
    W1, B1, W2, B2, shift = quantize(nets)
    iv = np.clip(int_predict(xt, ct, W1, B1, W2, B2, shift), 0, a)
    table = report(f"integer network (H={args.hidden}, shift={shift})", iv, yt, ct, nt, data["source"][test])
    mae = np.array([table[k, 0] for k in range(CLASSES)])
    mae_cards = np.array([[table[k, c] for c in CARD_COUNTS] for k in range(CLASSES)])

    model = LeafModel(W1, B1, W2, B2, shift)
    rng = np.random.default_rng(args.seed)
    for i in rng.choice(len(test), size=min(300, len(test)), replace=False):
        j = test[i]
        hands = tuple(int(h) for h in data["hands"][j])
        got = model.value(hands, int(mode[j]), int(data["leader"][j]), int(data["step"][j]))
        assert got == iv[i], (j, got, iv[i])
    print("  LeafModel.value agrees with the integer network on 300 held-out positions")

    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        args.out,
        W1=W1,
        b1=B1,
        W2=W2,
        b2=B2,
        shift=np.array(shift, dtype=np.int64),
        version=np.array(VERSION, dtype=np.int64),
        samples=np.array(n, dtype=np.int64),
        trained=np.array(len(train), dtype=np.int64),
        seed=np.array(args.seed, dtype=np.int64),
        mae=mae.astype(np.float32),
        mae_by_cards=mae_cards.astype(np.float32),
    )
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes) in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
