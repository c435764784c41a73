"""Train the learned bot's policy (``belote.bots.learned``) on the search bot's decisions (``belote dataset``).

Behaviour cloning: a 769-H-118 ReLU network reads the observation of each decision and is taught the
action the search bot took, by the cross-entropy of the softmax over the legal actions (the mask).
Every game and both phases in one network. The same trainer as the card-play prior's
(``prior_train.train``: float32 numpy, Adam with a cosine decay, deterministic for a seed with
numpy's BLAS on one thread). One deal in ten of each dataset is held out: its decisions give the
figures (how often the network's first choice is the search bot's, by game and phase). The weights
are kept as float16.

    belote dataset --game classic --deals 1500 --seed 101 --jobs 2 -o training/data/learned/classic
    belote dataset --game coinche --deals 1000 --seed 102 --jobs 2 -o training/data/learned/coinche
    belote dataset --game three-handed --deals 600 --seed 103 --jobs 2 -o training/data/learned/three-handed
    belote dataset --game two-handed --deals 600 --seed 104 --jobs 2 -o training/data/learned/two-handed
    python training/learned_train.py --data training/data/learned/* --out src/belote/data/learned-policy.npz \
        --hidden 256 --epochs 20 --seed 1
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
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
from belote.bots.learned import Policy
from belote.env.encoding import ACTIONS, OBS_SIZE
from prior_train import train


def load(folder: Path) -> dict[str, np.ndarray]:
    """A dataset's decisions: observation (N, 769) float32, mask (N, 118) bool, action, deal, phase."""
    t = pq.read_table(folder / "decisions.parquet", columns=["deal", "phase", "observation", "mask", "action"])
    n = t.num_rows
    return {
        "x": t["observation"].combine_chunks().flatten().to_numpy().reshape(n, OBS_SIZE).astype(np.float32),
        "legal": t["mask"].combine_chunks().flatten().to_numpy(zero_copy_only=False).reshape(n, ACTIONS),
        "target": t["action"].to_numpy().astype(np.int64),
        "deal": t["deal"].to_numpy(),
        "phase": t["phase"].to_numpy(),
    }


def agreement(policy: Policy, x: np.ndarray, legal: np.ndarray, target: np.ndarray) -> float:
    """How often the network's best legal action is the one taken."""
    scores = np.where(legal, policy.scores(x), -np.inf)  # a row an observation
    return float((scores.argmax(axis=1) == target).mean())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, nargs="+", required=True, help="folders written by belote dataset")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)

    sets = {folder.name: load(folder) for folder in args.data}
    train_parts, held = [], {}
    for name, d in sets.items():
        out = d["deal"] % 10 == 0
        held[name] = {k: v[out] for k, v in d.items()}
        train_parts.append({k: v[~out] for k, v in d.items()})
    x = np.concatenate([p["x"] for p in train_parts])
    legal = np.concatenate([p["legal"] for p in train_parts])
    target = np.concatenate([p["target"] for p in train_parts])
    print(f"{len(x)} decisions to learn from, {sum(len(h['x']) for h in held.values())} held out", flush=True)
    start = time.process_time()
    params = train(x, legal, target, args.hidden, args.epochs, args.batch, args.lr, args.seed)
    print(f"trained in {time.process_time() - start:.0f} s of CPU", flush=True)
    w1, b1, w2, b2 = (np.asarray(p, np.float16) for p in params)
    policy = Policy(w1, b1, w2, b2)
    for name, h in held.items():
        for phase, label in ((0, "bids"), (1, "cards")):
            pick = h["phase"] == phase
            if pick.any():
                share = agreement(policy, h["x"][pick], h["legal"][pick], h["target"][pick])
                print(f"held out, {name} {label}: the search bot's choice first in {share:.1%} of {pick.sum()}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, W1=w1, b1=b1, W2=w2, b2=b2)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
