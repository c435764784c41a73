"""The decisions the card-play prior learns from: every card the search bot chose with a choice to make.

The search bot without the prior (``prior_pool=0``, as the packaged weights were made) plays whole
matches at the four seats of a four-handed game (classic or Coinche); each card decision with two
legal cards or more is kept, as the raw facts the prior's inputs are read from
(``belote.bots.prior.hand_inputs`` and ``public_inputs``): the trump mode, whether the seat's side
took, the seat's hand, the cards of the tricks already played, the cards of the trick on the table
with who played them, the legal cards and the card chosen. Deterministic for a seed.

    python training/prior_data.py --game classic --deals 2500 --seed 100000 --out training/data/prior-classic.npz
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from belote.bots import make_bot
from belote.cards import mask_of
from belote.game import Match
from belote.rules import PRESETS

COLUMNS = ("mode", "took", "hand", "before", "trick", "trick_seats", "legal", "choice", "seat", "step")


def decisions(game: str, seed: int) -> list[tuple]:
    """The kept decisions of the first deal of the match of ``seed`` (none if it was thrown in)."""
    rules = PRESETS[game]
    match = Match(rules, seed, seed % rules.players)
    bots = [make_bot("search", seed=seed * 7 + s, prior_pool=0) for s in range(rules.players)]
    deal = match.deal
    out = []
    while match.deal is deal and not match.over:
        seat = match.to_move
        view = match.view(seat)
        action = bots[seat].act(view)
        if view.phase == "play" and len(view.legal) > 1 and 0 <= action < 32:
            before = 0
            for t in view.tricks:
                for c in t.cards:
                    before |= 1 << int(c)
            trick = [int(c) for _, c in view.trick] + [-1] * (3 - len(view.trick))
            seats = [s for s, _ in view.trick] + [-1] * (3 - len(view.trick))
            legal = 0
            for c in view.legal:
                if 0 <= c < 32:
                    legal |= 1 << int(c)
            out.append(
                (
                    int(view.trump),
                    int(view.camps[seat] == view.camps[view.taker]),
                    mask_of(view.hand),
                    before,
                    trick,
                    seats,
                    legal,
                    int(action),
                    seat,
                    rules.step,
                )
            )
        match.apply(action)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=("classic", "coinche"), default="classic")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--seed", type=int, default=100000)
    p.add_argument("--out", type=Path, required=True)
    a = p.parse_args(argv)
    rows: list[tuple] = []
    t0 = time.time()
    for i in range(a.deals):
        rows.extend(decisions(a.game, a.seed + i))
        if (i + 1) % 200 == 0:
            print(f"{i + 1} deals, {len(rows)} decisions, {time.time() - t0:.0f} s", file=sys.stderr)
    cols = list(zip(*rows, strict=True))
    arrays = {name: np.array(col, dtype=np.int64) for name, col in zip(COLUMNS, cols, strict=True)}
    a.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(a.out, **arrays)
    print(f"{len(rows)} decisions from {a.deals} {a.game} deals in {time.time() - t0:.0f} s -> {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
