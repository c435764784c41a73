"""The search bot: deals drawn consistent with what its seat knows, each solved double dummy.

For a card: draw worlds (every hidden hand placed consistently with the view, ``belote.knowledge``),
value every legal card in each world with the double-dummy solver, turn the card points into the
score of the deal (made or dedans at the line, capot, declarations, belote), and play the card
with the best mean score for its side. For a bid: draw the hidden hands and the rest of the pack,
solve the whole deal with each trump it may choose, blend the mean score as takers with the
heuristic's fitted count of the hand (a dozen solved worlds alone are too few for so wide a spread),
and take when the result clears a margin. Every draw is seeded from the bot's seed and the view, so
a game replays exactly and two views that are the same give the same decision.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import replace
from typing import Any

from belote.bots.base import register
from belote.bots.heuristic import HeuristicBot, hand_worth
from belote.cards import SUIT_MASKS, mask_of
from belote.declarations import POINTS_BY_NAME, belote_holder, best_side, find_declarations, name_key
from belote.game import NAMES, PASS, TAKE, Action, PlayerView
from belote.knowledge import Knowledge, Plausibility
from belote.play import LAST_TRICK, POINTS
from belote.rules import Rules
from belote.scoring import score_deal
from belote.solver import Position, card_values, value

PLAYERS = 4


class SearchBot:
    """Perfect-information Monte Carlo over consistent deals, solved by the double-dummy solver."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        think: float = 1.0,
        worlds: int = 20,
        bid_worlds: int = 12,
        take_margin: float = -20.0,
        bidding: str = "search",
        tie_margin: float = 2.0,
        bid_blend: float = 0.5,
        **_: Any,
    ) -> None:
        self.seed = 0 if seed is None else seed
        self.worlds = max(1, round(worlds * think))
        self.bid_worlds = max(1, round(bid_worlds * think))
        self.take_margin = take_margin
        if bidding not in ("search", "heuristic"):
            raise ValueError("bidding is 'search' or 'heuristic'")
        self._heuristic = HeuristicBot(seed) if bidding == "heuristic" else None
        self.tie_margin = tie_margin
        self.bid_blend = bid_blend
        self._tiebreak = HeuristicBot(seed) if tie_margin > 0 else None

    # ----------------------------------------------------------------- common
    def _rng(self, view: PlayerView) -> random.Random:
        """A generator seeded by the bot's seed and everything the view shows, nothing else."""
        key = repr(
            (
                self.seed,
                view.seat,
                [str(c) for c in view.hand],
                [str(c) for c in view.played],
                [(s, str(b)) for s, b in view.bids],
                None if view.turned is None else str(view.turned),
                view.dealer,
            )
        )
        return random.Random(int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big"))

    def act(self, view: PlayerView) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        if view.phase == "bidding":
            return self._heuristic.act(view) if self._heuristic is not None else self._bid(view)
        return self._card(view)

    # ----------------------------------------------------------------- play
    def _card(self, view: PlayerView) -> Action:
        assert view.seat is not None and view.trump is not None and view.taker is not None
        me = view.seat
        side = me & 1
        rules = view.rules
        rng = self._rng(view)
        knowledge = Knowledge.from_view(view)
        leader = view.trick[0][0] if view.trick else _next_leader(view)
        trick = tuple(c for _, c in view.trick)
        tricks_won = [0, 0]
        for t in view.tricks:
            tricks_won[t.winner & 1] += 1
        totals = {c: 0.0 for c in view.legal}
        raw = {c: 0.0 for c in view.legal}
        points = POINTS[view.trump]
        on_table = sum(points[c] for c in trick)
        public = _public_declarations(view)
        plausible = Plausibility(view)
        # Late in the deal a world is cheap to solve and fewer cards are hidden: draw more of them.
        worlds = self.worlds + self.worlds * len(view.tricks) // 3
        for _ in range(worlds):
            hands = plausible.draw(knowledge, rng)
            remaining = on_table + sum(points[c] for h in hands for c in _bits(h)) + LAST_TRICK
            pos = Position(
                hands=(hands[0], hands[1], hands[2], hands[3]),
                mode=view.trump,
                leader=leader,
                trick=trick,
                step=rules.step,
                undertrump=rules.undertrump,
                tricks_won=(tricks_won[0], tricks_won[1]),
            )
            belote = _world_belote(view, hands)
            for c, v in card_values(pos).items():
                mine_capot = v > remaining
                mine = v - 90 if mine_capot else v
                theirs_capot = tricks_won[side] == 0 and v == 0
                cards = [0, 0]
                cards[side] = view.won[side] + mine
                cards[1 - side] = view.won[1 - side] + remaining - mine
                capots = (mine_capot, theirs_capot)
                totals[c] += _utility(rules, side, view.taker & 1, cards, capots, public, belote, view.pending)
                raw[c] += v
        best = max(totals.values())
        close = [c for c in view.legal if totals[c] >= best - self.tie_margin * worlds]
        if len(close) > 1 and self._tiebreak is not None:
            # Cards the worlds cannot tell apart: play the one good practice chooses (it knows what
            # the solver cannot: that the other players do not see the cards).
            choice = self._tiebreak.act(replace(view, legal=tuple(close)))
            if choice in close:
                return choice
        return max(close, key=lambda c: (totals[c], raw[c], -points[c], -c))

    # ----------------------------------------------------------------- bidding
    def _bid(self, view: PlayerView) -> Action:
        assert view.seat is not None and view.turned is not None
        rng = self._rng(view)
        knowledge = Knowledge.from_view(view)
        me = view.seat
        candidates: list[tuple[Action, int]] = []
        if TAKE in view.legal:
            candidates.append((TAKE, view.turned.suit))
        else:
            hand = mask_of(view.hand)
            for b in NAMES:
                suit = b - NAMES[0]
                if b in view.legal and _worth_trying(hand, suit):
                    candidates.append((b, suit))
        if not candidates:
            return PASS
        order = [(view.dealer + view.rules.step * (i + 1)) % PLAYERS for i in range(PLAYERS)]
        worlds = [self._deal_world(view, knowledge, rng, me) for _ in range(self.bid_worlds)]
        best: tuple[float, Action] = (self.take_margin, PASS)
        for action, suit in candidates:
            total = 0.0
            for hands in worlds:
                total += self._taker_utility(view.rules, me, suit, hands, order)
            mean = total / len(worlds)
            if self.bid_blend:
                # The solved worlds are few and their scores spread wide: lean on the fitted count too.
                hand = mask_of(view.hand) | 1 << view.turned
                mean = (1 - self.bid_blend) * mean + self.bid_blend * hand_worth(hand, suit)
            if mean > best[0]:
                best = (mean, action)
        return best[1]

    def _deal_world(self, view: PlayerView, knowledge: Knowledge, rng: random.Random, taker: int) -> list[int]:
        """Eight cards for everyone as if ``taker`` took: the hidden five, then the rest of the pack."""
        assert view.turned is not None
        hands = knowledge.sample(rng)
        rest = [c for c in range(32) if not (sum(hands) | 1 << view.turned) >> c & 1]
        rng.shuffle(rest)
        for s in range(PLAYERS):
            n = 2 if s == taker else 3
            for c in rest[:n]:
                hands[s] |= 1 << c
            rest = rest[n:]
        hands[taker] |= 1 << view.turned
        return hands

    def _taker_utility(self, rules: Rules, me: int, trump: int, hands: list[int], order: list[int]) -> float:
        side = me & 1
        leader = order[0]
        v = value(
            Position(
                hands=(hands[0], hands[1], hands[2], hands[3]),
                mode=trump,
                leader=leader,
                step=rules.step,
                undertrump=rules.undertrump,
            )
        )
        leader_capot = v > 162
        leader_cards = v - 90 if leader_capot else v
        other_capot = v == 0
        cards = [0, 0]
        cards[leader & 1] = leader_cards
        cards[1 - (leader & 1)] = 162 - leader_cards
        mine_capot = leader_capot if leader & 1 == side else other_capot
        theirs_capot = other_capot if leader & 1 == side else leader_capot
        declarations = [0, 0]
        if rules.declarations:
            declared = [find_declarations(h, trump, rules.declaration_card_reuse) for h in hands]
            best = best_side(declared, order, [s & 1 for s in range(PLAYERS)], rules.declaration_tie)
            if best is not None:
                declarations[best] = sum(d.points for s in range(PLAYERS) if s & 1 == best for d in declared[s])
        belote = [0, 0]
        holder = belote_holder(hands, trump)
        if holder is not None:
            belote[holder & 1] = 20
        tricks = (8, 0) if mine_capot else (0, 8) if theirs_capot else (4, 4)
        if side == 1:
            tricks = (tricks[1], tricks[0])
        r = score_deal(
            rules, side, (cards[0], cards[1]), tricks, (declarations[0], declarations[1]), (belote[0], belote[1])
        )
        return r.points[side] - r.points[1 - side]


def _worth_trying(hand: int, suit: int) -> bool:
    """Second round: only a suit held with its jack or nine, or four long, is worth solving."""
    held = hand & SUIT_MASKS[suit]
    return bool(held >> (8 * suit + 4) & 1 or held >> (8 * suit + 2) & 1) or held.bit_count() >= 4


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _next_leader(view: PlayerView) -> int:
    if view.tricks:
        return view.tricks[-1].winner
    return (view.dealer + view.rules.step) % PLAYERS


def _public_declarations(view: PlayerView) -> tuple[int, int]:
    """The declaration points each side will score, as far as the table has heard."""
    if not view.rules.declarations or not view.declarations:
        return (0, 0)
    shown = {s & 1 for s, _n, cards in view.declarations if cards}
    if shown:
        side = shown.pop()
    else:  # before the cards are shown: the best name said (equal sequences cannot be told apart)
        side = max(view.declarations, key=lambda d: name_key(d[1]))[0] & 1
    total = sum(POINTS_BY_NAME[n] for s, n, _c in view.declarations if s & 1 == side)
    return (total, 0) if side == 0 else (0, total)


def _world_belote(view: PlayerView, hands: list[int]) -> tuple[int, int]:
    """Belote in this world: the king and queen of trumps in one hand, from the cards it started with."""
    assert view.trump is not None
    start = list(hands)
    step = view.rules.step
    for t in view.tricks:
        for i, c in enumerate(t.cards):
            start[(t.leader + i * step) % PLAYERS] |= 1 << c
    for s, c in view.trick:
        start[s] |= 1 << c
    holder = belote_holder(start, view.trump)
    if holder is None:
        return (0, 0)
    return (20, 0) if holder & 1 == 0 else (0, 20)


def _utility(
    rules: Rules,
    side: int,
    takers: int,
    cards: list[int],
    capots: tuple[bool, bool],
    declarations: tuple[int, int],
    belote: tuple[int, int],
    pending: int,
) -> float:
    """What the deal will be worth to ``side`` (its points less the other side's) with these card points.

    ``capots`` says whether ``side`` takes every trick of the deal, and whether the other side does.
    """
    tricks = (8, 0) if capots[0] else (0, 8) if capots[1] else (4, 4)
    if side == 1:
        tricks = (tricks[1], tricks[0])
    r = score_deal(rules, takers, (cards[0], cards[1]), tricks, declarations, belote, pending)
    return r.points[side] - r.points[1 - side]


register("search", SearchBot)
