"""The positions the leaf network learns from: trick boundaries with 6, 5 and 4 cards in each hand, and
their exact double-dummy value for the side to lead (``belote.solver.leaf`` states the leaf).

Each unit of work is one deal played up to the boundary of four cards left, three positions taken
on the way (each hand holding 6, then 5, then 4 cards):

- random legal play (``--random-share``, 25% by default): a shuffled pack, a mode drawn with the
  classes' shares (a suit one half, no trumps one quarter, all trumps one quarter), a random leader
  and direction of play, every card drawn among the legal ones;
- heuristic play (``HeuristicBot`` at the four seats), the rest: half of it classic deals (the
  bidding as the bots bid it; deals thrown in are dealt again), a quarter Coinche deals played at no
  trumps and a quarter at all trumps (``Deal.taken``: a seat drawn to have bid 80 to 110 in that mode),
  so that each class of the network has its share of realistic positions.

Each heuristic position is also, with probability ``--resolve`` (0.5), valued in one other mode drawn
the same way: the same cards in another mode are still a valid position, and a solve costs much less
than a deal played by the bots.

Every value is ``value(Position(hands, mode, leader, step=step, rules=..., tricks_won=(1, 1)))``:
card points and the last ten, capot closed for both sides. Deterministic for a seed.

    python training/leaf_data.py --positions 300000 --seed 1 --out training/data/leaf-1.npz
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from belote.bots.heuristic import HeuristicBot
from belote.contracts import Contract
from belote.game import Deal
from belote.play import beats, legal_mask
from belote.rules import PRESETS
from belote.solver import Position, value

CARD_COUNTS = (6, 5, 4)
#: Where a sample came from (the ``source`` array).
RANDOM, CLASSIC, COINCHE, RESOLVED = 0, 1, 2, 3
SOURCE_NAMES = ("random", "classic", "coinche", "resolved")
PLAY_RULES = PRESETS["classic"].play


def draw_mode(rng: random.Random) -> int:
    """A mode with the classes' shares: a suit 1/2, no trumps 1/4, all trumps 1/4."""
    u = rng.random()
    if u < 0.5:
        return rng.randrange(4)
    return 4 if u < 0.75 else 5


def solve(hands: tuple[int, ...], mode: int, leader: int, step: int) -> int:
    return value(Position(hands, mode, leader=leader, step=step, rules=PLAY_RULES, tricks_won=(1, 1)))


def random_play(rng: random.Random) -> list[tuple[tuple[int, ...], int, int, int]]:
    """A random deal played at random to four cards each: its three boundary positions."""
    deck = list(range(32))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[8 * s : 8 * s + 8]) for s in range(4)]
    mode = draw_mode(rng)
    leader = rng.randrange(4)
    step = rng.choice((1, 3))
    out = []
    for n in range(8, 3, -1):
        if n in CARD_COUNTS:
            out.append((tuple(hands), mode, leader, step))
        if n == CARD_COUNTS[-1]:
            break
        best, best_seat, led = -1, -1, -1
        for r in range(4):
            seat = (leader + step * r) % 4
            partner = best_seat >= 0 and (best_seat - seat) % 2 == 0
            legal = legal_mask(mode, hands[seat], best, partner, PLAY_RULES.flags, led)
            cards = [c for c in range(32) if legal >> c & 1]
            c = rng.choice(cards)
            hands[seat] ^= 1 << c
            if best < 0:
                best, best_seat, led = c, seat, c >> 3
            elif beats(mode, c, best):
                best, best_seat = c, seat
        leader = best_seat
    return out


def boundaries(deal: Deal, bot: HeuristicBot) -> list[tuple[tuple[int, ...], int, int, int]]:
    """Play a deal with the bots from where it stands to four cards each: its three boundary positions."""
    out = []
    while deal.phase != "done":
        if deal.phase == "play" and not deal.trick:
            n = deal.hand_mask(deal.to_move).bit_count()
            if n in CARD_COUNTS:
                out.append((tuple(deal.hands[:4]), deal.mode, deal.leader, deal.step))
            if n <= CARD_COUNTS[-1]:
                break
        deal.apply(bot.act(deal.view(deal.to_move)))
    return out


def heuristic_play(rng: random.Random, bot: HeuristicBot) -> tuple[int, list[tuple[tuple[int, ...], int, int, int]]]:
    """A deal played by the bots: classic (half the time) or Coinche at no trumps / all trumps."""
    u = rng.random()
    if u < 0.5:
        while True:
            deal = Deal.from_seed(rng.getrandbits(48), PRESETS["classic"], dealer=rng.randrange(4))
            while deal.phase == "bidding":
                deal.apply(bot.act(deal.view(deal.to_move)))
            if deal.phase == "play":
                return CLASSIC, boundaries(deal, bot)
    mode = 4 if u < 0.75 else 5
    deal = Deal.from_seed(rng.getrandbits(48), PRESETS["coinche"], dealer=rng.randrange(4))
    taker = rng.randrange(4)
    contract = Contract(level=rng.choice((80, 90, 100, 110)), mode=mode, bidder=taker)
    return COINCHE, boundaries(deal.taken(taker, mode, contract), bot)


def generate(
    positions: int,
    seed: int,
    random_share: float = 0.25,
    resolve: float = 0.5,
    quiet: bool = False,
    max_seconds: float = 0.0,
) -> dict[str, np.ndarray]:
    """``positions`` positions (or those made within ``max_seconds``: a prefix of the same sequence)."""
    rng = random.Random(seed)
    bot = HeuristicBot(seed=seed)
    hands: list[tuple[int, ...]] = []
    modes: list[int] = []
    leaders: list[int] = []
    steps: list[int] = []
    values: list[int] = []
    sources: list[int] = []
    start = last = time.perf_counter()

    def add(pos: tuple[tuple[int, ...], int, int, int], mode: int, source: int) -> None:
        h, _, leader, step = pos
        hands.append(h)
        modes.append(mode)
        leaders.append(leader)
        steps.append(step)
        values.append(solve(h, mode, leader, step))
        sources.append(source)

    while len(values) < positions:
        if rng.random() < random_share:
            for pos in random_play(rng):
                add(pos, pos[1], RANDOM)
        else:
            source, found = heuristic_play(rng, bot)
            for pos in found:
                add(pos, pos[1], source)
                if rng.random() < resolve:
                    other = draw_mode(rng)
                    while other == pos[1]:
                        other = draw_mode(rng)
                    add(pos, other, RESOLVED)
        now = time.perf_counter()
        if max_seconds and now - start > max_seconds:
            break
        if not quiet and now - last > 30:
            last = now
            print(f"{len(values)} positions, {now - start:.0f} s", file=sys.stderr, flush=True)
    k = min(positions, len(values))
    return {
        "hands": np.array(hands[:k], dtype=np.uint32).reshape(-1, 4),
        "mode": np.array(modes[:k], dtype=np.int8),
        "leader": np.array(leaders[:k], dtype=np.int8),
        "step": np.array(steps[:k], dtype=np.int8),
        "value": np.array(values[:k], dtype=np.int16),
        "source": np.array(sources[:k], dtype=np.int8),
        "seed": np.array(seed, dtype=np.int64),
        "seconds": np.array(time.perf_counter() - start),
    }


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, required=True, help="how many positions to write")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, required=True, help="the .npz to write (training/data/...)")
    p.add_argument("--random-share", type=float, default=0.25, help="the share of deals played at random")
    p.add_argument("--resolve", type=float, default=0.5, help="how often a bots' position is valued in another mode")
    p.add_argument("--max-seconds", type=float, default=0.0, help="stop early after this long (0: never)")
    args = p.parse_args(argv)
    data = generate(args.positions, args.seed, args.random_share, args.resolve, max_seconds=args.max_seconds)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **data)
    n = data["hands"][:, 0].astype(np.int64)
    cards = np.array([int(x).bit_count() for x in n])
    modes = data["mode"]
    cls = np.where(modes < 4, 0, modes - 3)
    print(
        f"{len(cards)} positions in {float(data['seconds']):.1f} s -> {args.out}\n"
        f"  by class (trumps, no trumps, all trumps): {np.bincount(cls, minlength=3).tolist()}\n"
        f"  by cards (4, 5, 6): {[int((cards == c).sum()) for c in (4, 5, 6)]}\n"
        f"  by source {SOURCE_NAMES}: {np.bincount(data['source'], minlength=4).tolist()}"
    )


if __name__ == "__main__":
    main()
