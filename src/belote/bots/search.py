"""The search bot: deals drawn consistent with what its seat knows, each solved double dummy.

For a card: draw worlds (every hidden card placed consistently with the view, ``belote.knowledge``:
at three hands the eight cards out of play aside, at two hands the face-down table cards laid under
their cards), value every legal card in each world with the double-dummy solver (camps: partners,
or the two defenders together against the taker), turn the card points into the score of the deal
(made or dedans at the line, or the Coinche contract with its coinche; capot, declarations,
belote), and play the card with the best mean score for its seat: its score less the mean of the
others'. In classic the worlds are drawn as a larger pool and kept in proportion to the chance, in
each, of the cards the others played (``belote.bots.prior``, ``prior_pool``; in Coinche
``contract_prior_pool``, off).

For a bid of the game with a turned card: draw the hidden hands and the rest of the pack, solve the
whole deal with each trump it may choose, blend the mean score as takers with the heuristic's
fitted count of the hand (a dozen solved worlds alone are too few for so wide a spread), and take
when the result clears a margin. At three and two hands it bids as the heuristic does. In Coinche:
draw whole deals weighted by what the bids said, solve each in the modes worth a look, and value
every contract (each level, made or failed, coinched or not, ``score_contract``) by its mean score
over the worlds blended with the heuristic's count; bid, pass, coinche or surcoinche by the best.

A world is searched through the trick on the table and the next one (``horizon``); beyond, while
more than five cards are left in each hand, the learned value of ``belote.solver.leaf`` stands for
the rest of the deal (``Position.leaf``): a tenth of the cost of solving every world to its end, for
the same play on average (docs/bots.md). ``horizon=None`` solves every world to its end.

Every draw is seeded from the bot's seed and the view, so a game replays exactly and two views
that are the same give the same decision.

Thinking is bounded by a budget of solver nodes, not of seconds, so that it still replays exactly
on any machine under any load (``NodeBudget``): a decision stops adding worlds once its budget is
spent (shared evenly among the trumps or contracts it compares), and leaves out a world whose solve
alone would pass half of it, or what is left of it. Most decisions never reach it (the median
decision spends a few thousand nodes in play, under a hundred thousand in the auction): it cuts
the slow tail, the first tricks of a deal when the hidden cards are many, and the Coinche auctions
that solve whole deals in three modes. With no world solved, the count or the heuristic decides.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import belote.bots.coinche as coinche
from belote.auctions.contracts import CONTRACTS
from belote.auctions.turned import TURNED
from belote.bots.heuristic import HeuristicBot, hand_worth
from belote.cards import SUIT_MASKS, bits_of, mask_of
from belote.contracts import Contract
from belote.declarations import POINTS_BY_NAME, belote_holder, find_declarations, name_key
from belote.game import NAMES, PASS, TAKE, Action, PlayerView
from belote.knowledge import Knowledge, Plausibility
from belote.play import LAST_TRICK, POINTS
from belote.rules import Rules
from belote.scoring import CAPOT_POINTS, DEAL_POINTS, margin, share
from belote.solver import NodeLimit, Position, card_values, nodes, value
from belote.variants import Tally
from belote.variants.base import complete_hands

PLAYERS = 4
CAPOT_BONUS = CAPOT_POINTS - DEAL_POINTS
#: The solver nodes a decision may spend at ``think=1``: about a fifth of a second of solving on one core
#: of this machine where it is slowest (two hands, no learned value), a tenth in the other games. Most
#: decisions spend a thousandth of it (docs/bots.md, "Tails").
BUDGET = 1_500_000
#: A world whose solve would pass this share of a budget is left out.
WORLD_SHARE = 2


class NodeBudget:
    """The solver nodes one part of a decision may spend, worlds solved one after another.

    A world is solved while some of the budget is left, and its solve is stopped (the world left
    out) past ``cap`` nodes or past what is left: a part spends at most its nodes (and one node more
    for each solve stopped). ``nodes=None`` is no bound.

    >>> from belote.cards import HEARTS, mask_of
    >>> hands = tuple(mask_of(h.split()) for h in ("JH 9H", "AS 7D", "10H 8C", "KS QS"))
    >>> pos = Position(hands, HEARTS, leader=0)  # two tricks: the solve visits 10 nodes
    >>> budget = NodeBudget(40, cap=10)
    >>> budget.value(pos), budget.left
    (162, 30)
    >>> budget = NodeBudget(40, cap=3)
    >>> budget.value(pos), budget.left  # past its cap: the world is left out, its nodes spent
    (None, 36)
    >>> budget = NodeBudget(8, cap=20)
    >>> budget.value(pos), budget.left, budget.open  # past what was left: spent
    (None, -1, False)
    """

    def __init__(self, nodes: int | None, cap: int | None = None) -> None:
        self.left = nodes
        self.cap = cap

    @property
    def open(self) -> bool:
        """Whether another world may be solved."""
        return self.left is None or self.left > 0

    @property
    def limit(self) -> int | None:
        """The nodes the next solve may visit."""
        if self.left is None:
            return self.cap
        return max(0, self.left if self.cap is None else min(self.cap, self.left))

    def value(self, pos: Position, keep: bool = False) -> int | None:
        """``belote.solver.value``, or None past the limit (``keep``: as there; a bot never keeps)."""
        try:
            return value(pos, self.limit, keep)
        except NodeLimit:
            return None
        finally:
            self._spend()

    def card_values(self, pos: Position) -> dict[int, int] | None:
        """``belote.solver.card_values``, or None past the limit."""
        try:
            return card_values(pos, self.limit)
        except NodeLimit:
            return None
        finally:
            self._spend()

    def _spend(self) -> None:
        spent = nodes()
        if self.left is not None:
            self.left -= spent


def _position(
    hands: list[int],
    mode: int,
    leader: int,
    trick: tuple[int, ...],
    rules: Rules,
    tricks_won: tuple[int, int],
    camps: tuple[int, ...],
    under: tuple[int, ...] | None,
    leaf: int = 0,
) -> Position:
    four = len(hands) == PLAYERS
    return Position.trusted(
        tuple(hands),
        mode,
        leader,
        trick,
        rules.step,
        rules.play,
        tricks_won,
        camps=None if four else camps,
        under=under,
        leaf=leaf if four and camps == (0, 1, 0, 1) and under is None else 0,
    )


class SearchBot:
    """Perfect-information Monte Carlo over consistent deals, solved by the double-dummy solver."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        think: float = 1.0,
        worlds: int = 12,
        late_worlds: int | None = None,
        bid_worlds: int = 12,
        take_margin: float = -20.0,
        bidding: str = "search",
        tie_margin: float = 2.0,
        bid_blend: float = 0.5,
        contract_worlds: int = 8,
        contract_modes: int = 2,
        two_handed_from: int = 6,
        budget: int = BUDGET,
        horizon: int | None = 1,
        exact_from: int = 5,
        prior_pool: float = 5.0,
        contract_prior_pool: float = 0.0,
        prior_temper: float = 0.5,
        prior_floor: float = 0.1,
        **_: Any,
    ) -> None:
        self.seed = 0 if seed is None else seed
        self.worlds = max(1, round(worlds * think))
        #: Worlds added for every three tricks played (by default as many as ``worlds``): late in
        #: a deal a world is cheap to solve.
        self.late_worlds = self.worlds if late_worlds is None else max(0, round(late_worlds * think))
        self.bid_worlds = max(1, round(bid_worlds * think))
        self.contract_worlds = max(1, round(contract_worlds * think))
        self.contract_modes = contract_modes
        #: Solver nodes a decision may spend (0: no bound); more thinking, more nodes.
        self.budget = round(budget * think)
        #: At two hands, the first tricks (sixteen cards each, half of them hidden) take the solver
        #: seconds a world: they are played as the heuristic plays them.
        self.two_handed_from = two_handed_from
        #: Tricks searched after the one on the table before the learned value stands for the rest
        #: (``belote.solver.leaf``; None: every world solved to the end), from hands of more than
        #: ``exact_from`` cards: below, a world is solved exactly in about as few nodes.
        self.horizon = horizon
        self.exact_from = exact_from
        #: The card-play prior (``belote.bots.prior``): draw ``prior_pool - 1`` times the first
        #: trick's worlds more than a card needs, and keep as many as it needs, each in proportion to
        #: how likely the others' cards played were in it (0 or 1: every world drawn is kept). In
        #: Coinche ``contract_prior_pool``: there each world kept costs many draws (the bids' counts
        #: weigh them), and the prior has shown no gain there yet (docs/bots.md).
        self.prior_pool = prior_pool
        self.contract_prior_pool = contract_prior_pool
        self.prior_temper = prior_temper
        self.prior_floor = prior_floor
        self.take_margin = take_margin
        if bidding not in ("search", "heuristic"):
            raise ValueError("bidding is 'search' or 'heuristic'")
        self._heuristic = HeuristicBot(seed) if bidding == "heuristic" else None
        self._fallback = HeuristicBot(seed)
        self.tie_margin = tie_margin
        self.bid_blend = bid_blend
        self._tiebreak = HeuristicBot(seed) if tie_margin > 0 else None

    # ----------------------------------------------------------------- common
    def _budget(self, parts: int) -> NodeBudget:
        """One of ``parts`` equal parts of a decision's budget."""
        if not self.budget:
            return NodeBudget(None)
        share = max(1, self.budget // parts)
        return NodeBudget(share, max(1, self.budget // WORLD_SHARE))

    def _leaf(self, cards: int) -> int:
        """The ``Position.leaf`` of a solve from a trick begun with ``cards`` in each hand."""
        if self.horizon is None or cards <= self.exact_from:
            return 0
        return max(0, cards - 1 - self.horizon)

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
                view.table,
            )
        )
        return random.Random(int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big"))

    def act(self, view: PlayerView) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        if view.phase == "bidding":
            if self._heuristic is not None:
                return self._heuristic.act(view)
            return BIDDING[view.game.auction.name](self, view)
        if view.game.table_cards and len(view.tricks) < self.two_handed_from:
            # With cards face down on the table a world is slow to solve from the first tricks.
            return self._fallback.act(view)
        return self._card(view)

    # ----------------------------------------------------------------- play
    def _card(self, view: PlayerView) -> Action:
        return self._choose_card(view, *self._card_totals(view))

    def _choose_card(
        self, view: PlayerView, totals: dict[Action, float], raw: dict[Action, float], solved: int
    ) -> Action:
        if not solved:
            return self._fallback.act(view)
        points = POINTS[view.trump] if view.trump is not None else POINTS[0]
        best = max(totals.values())
        close = [c for c in view.legal if totals[c] >= best - self.tie_margin * solved]
        if len(close) > 1 and self._tiebreak is not None:
            # Cards the worlds cannot tell apart: play the one good practice chooses (it knows what
            # the solver cannot: that the other players do not see the cards).
            choice = self._tiebreak.act(replace(view, legal=tuple(close)))
            if choice in close:
                return choice
        return max(close, key=lambda c: (totals[c], raw[c], -points[c], -c))

    def card_evaluation(self, view: PlayerView) -> tuple[Action, dict[Action, float] | None, int]:
        """The card the bot plays from ``view`` (the seat to play), what it expects from each legal
        card (the mean over its solved worlds of the seat's score less the others' mean), and how
        many worlds it solved.

        The worlds are those ``act`` draws, from the view alone, so the analysis of a deal shows the
        very numbers the bot chose by. No evaluation (None, 0 worlds) where the bot does not solve
        worlds: a forced card, the first tricks at two hands, or no world within the budget.
        """
        if (
            view.phase != "play"
            or len(view.legal) == 1
            or (view.game.table_cards and len(view.tricks) < self.two_handed_from)
        ):
            return self.act(view), None, 0
        totals, raw, solved = self._card_totals(view)
        choice = self._choose_card(view, totals, raw, solved)
        if not solved:
            return choice, None, 0
        return choice, {c: t / solved for c, t in totals.items()}, solved

    def _card_totals(self, view: PlayerView) -> tuple[dict[Action, float], dict[Action, float], int]:
        """Each legal card's score summed over the worlds solved, its card points summed, and the worlds solved."""
        assert view.seat is not None and view.trump is not None and view.taker is not None
        me = view.seat
        rules = view.rules
        camps = view.camps
        side = camps[me]
        rng = self._rng(view)
        knowledge = Knowledge.from_view(view)
        leader = view.trick[0][0] if view.trick else view.tricks[-1].winner if view.tricks else view.order[0]
        trick = tuple(int(c) for _, c in view.trick)
        tricks_won = [0, 0]
        for t in view.tricks:
            tricks_won[camps[t.winner]] += 1
        totals = {c: 0.0 for c in view.legal}
        raw = {c: 0.0 for c in view.legal}
        points = POINTS[view.trump]
        on_table = sum(points[c] for c in trick)
        score = _DealScore(view)
        plausible = Plausibility(view, evaluate=coinche.count)
        # Late in the deal a world is cheap to solve and fewer cards are hidden: draw more of them.
        worlds = self.worlds + self.late_worlds * len(view.tricks) // (3 * rules.tricks // 8)
        budget = self._budget(1)
        leaf = self._leaf(rules.tricks - len(view.tricks))
        solved = 0
        #: A world drawn again is not solved again (late in a deal, when few cards are hidden, most are).
        seen: dict[tuple[tuple[int, ...], tuple[int, ...] | None], dict[int, int]] = {}
        #: A card's value turns into the same score in every world with the same points left and the
        #: same belote.
        utilities: dict[tuple[int, int, int | None], float] = {}
        for hands, under in self._card_worlds(view, knowledge, plausible, rng, worlds):
            if not budget.open:
                break
            in_play = 0
            for h in hands:
                in_play |= h
            if under is not None:
                for c in (*bits_of(in_play), *trick):
                    if under[c] >= 0:
                        in_play |= 1 << under[c]
            remaining = on_table + sum(points[c] for c in bits_of(in_play)) + LAST_TRICK
            key = (tuple(hands), under)
            values = seen.get(key)
            if values is None:
                pos = _position(
                    hands, view.trump, leader, trick, rules, (tricks_won[0], tricks_won[1]), camps, under, leaf
                )
                values = budget.card_values(pos)
                if values is None:
                    continue
                seen[key] = values
            solved += 1
            belote = score.belote(hands, under)
            for c, v in values.items():
                u = utilities.get((v, remaining, belote))
                if u is None:
                    mine_capot = v > remaining
                    mine = v - CAPOT_BONUS if mine_capot else v
                    theirs_capot = tricks_won[side] == 0 and v == 0
                    u = utilities[v, remaining, belote] = score.utility(
                        mine, remaining - mine, mine_capot, theirs_capot, belote
                    )
                totals[c] += u
                raw[c] += v
        return totals, raw, solved

    def _card_worlds(
        self, view: PlayerView, knowledge: Knowledge, plausible: Plausibility, rng: random.Random, worlds: int
    ) -> Iterator[tuple[list[int], tuple[int, ...] | None]]:
        """The worlds a card is valued in: drawn one by one, or, with the prior, drawn as a pool and
        kept in proportion to the chance of the others' cards played in each (with repetition)."""
        factor = self.contract_prior_pool if view.game.auction.name == CONTRACTS.name else self.prior_pool
        pool = worlds + round(self.worlds * (factor - 1))
        others = any(s != view.seat for s in view.played_by)
        if pool <= worlds or not others or view.rules.players != 4 or view.game.table_cards:
            for _ in range(worlds):
                yield plausible.draw_world(knowledge, rng)
            return
        from belote.bots.prior import PlayPrior  # numpy: loaded when a bot first weighs its worlds

        drawn = [plausible.draw_world(knowledge, rng) for _ in range(pool)]
        weights = PlayPrior(view, temper=self.prior_temper, floor=self.prior_floor).weights([h for h, _ in drawn])
        total = 0.0
        for w in weights:
            total += w
        for _ in range(worlds):
            r = rng.random() * total
            acc = 0.0
            pick = drawn[-1]
            for w, world in zip(weights, drawn, strict=True):
                acc += w
                if r < acc:
                    pick = world
                    break
            yield pick

    # ----------------------------------------------------------------- bidding with a turned card
    def _take_or_name(self, view: PlayerView) -> Action:
        """The turned card: taking by solved worlds, written for two partnerships (else the heuristic's)."""
        if not view.game.partners:
            return self._fallback.act(view)
        return self._bid(view)

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
        worlds = [self._deal_world(view, knowledge, rng, me) for _ in range(self.bid_worlds)]
        best: tuple[float, Action] = (self.take_margin, PASS)
        for action, suit in candidates:
            budget = self._budget(len(candidates))
            total, solved = 0.0, 0
            for hands in worlds:
                if not budget.open:
                    break
                utility = self._taker_utility(view, me, suit, hands, budget)
                if utility is not None:
                    total += utility
                    solved += 1
            hand = mask_of(view.hand) | 1 << view.turned
            if not solved:  # no world within the budget: the fitted count alone
                mean: float = hand_worth(hand, suit)
            else:
                mean = total / solved
                if self.bid_blend:
                    # The solved worlds are few and their scores spread wide: lean on the fitted count too.
                    mean = (1 - self.bid_blend) * mean + self.bid_blend * hand_worth(hand, suit)
            if mean > best[0]:
                best = (mean, action)
        return best[1]

    def _deal_world(self, view: PlayerView, knowledge: Knowledge, rng: random.Random, taker: int) -> list[int]:
        """Eight cards for everyone as if ``taker`` took: the hidden five, then the game's second
        distribution from the rest of the pack, shuffled. (It is dealt to seats 0, 1, 2, 3 in turn:
        the pile is random, so any order would do, and this one keeps the worlds of earlier versions.)"""
        assert view.turned is not None
        hands = knowledge.sample(rng)
        rest = [c for c in range(32) if not (sum(hands) | 1 << view.turned) >> c & 1]
        rng.shuffle(rest)
        return complete_hands(hands, rest, range(view.rules.players), taker, view.turned)

    def _taker_utility(
        self, view: PlayerView, me: int, trump: int, hands: list[int], budget: NodeBudget
    ) -> float | None:
        """The taker's score less the others' in one world, or None if its solve passed the cap."""
        rules = view.rules
        side = me & 1
        order = view.order
        leader = order[0]
        v = budget.value(
            Position(
                hands=(hands[0], hands[1], hands[2], hands[3]),
                mode=trump,
                leader=leader,
                step=rules.step,
                rules=rules.play,
                leaf=self._leaf(rules.tricks),
            )
        )
        if v is None:
            return None
        cards, capots = _split(v, leader & 1)
        declarations, belote = _world_extras(view, hands, trump)
        tricks = (8, 0) if capots[0] else (0, 8) if capots[1] else (4, 4)
        r = view.game.score(rules, Tally(me, (cards[0], cards[1]), tricks, declarations, belote, 0, order))
        return r.points[side] - r.points[1 - side]

    # ----------------------------------------------------------------- Coinche
    def _contract_bid(self, view: PlayerView) -> Action:
        """Bid, pass, coinche or surcoinche: each contract valued over solved worlds and by the count."""
        assert view.seat is not None
        hand = mask_of(view.hand)
        valuer = _SolvedValuer(self, view, hand)
        return coinche.choose_bid(view, hand, valuer)


#: How the bot bids in each auction (``Auction.name``).
BIDDING: dict[str, Callable[[SearchBot, PlayerView], Action]] = {
    TURNED.name: SearchBot._take_or_name,
    CONTRACTS.name: SearchBot._contract_bid,
}


class _SolvedValuer(coinche.CountValuer):
    """Contracts valued over whole deals drawn from the view and solved double dummy, blended with the count."""

    def __init__(self, bot: SearchBot, view: PlayerView, hand: int) -> None:
        super().__init__(view, hand)
        self.bot = bot
        self.worlds: list[list[int]] | None = None
        #: mode -> for each world: each side's card points, capot, scoring declarations and belote
        self.solved: dict[int, list[tuple[list[int], tuple[bool, bool], tuple[int, ...], tuple[int, ...]]]] = {}
        self.wanted = self._modes_worth_solving()

    def _modes_worth_solving(self) -> set[int]:
        rules = self.view.rules
        modes = range(6) if rules.no_trump_all_trump else range(4)
        ranked = sorted(modes, key=lambda m: -self.side(m)[0])
        wanted = set(ranked[: self.bot.contract_modes])
        if self.auction.current is not None:
            wanted.add(self.auction.current[1])
        return wanted

    def _draw(self) -> list[list[int]]:
        if self.worlds is None:
            view = self.view
            rng = self.bot._rng(view)
            knowledge = Knowledge.from_view(view)
            plausible = Plausibility(view, evaluate=coinche.count)
            self.worlds = [plausible.draw(knowledge, rng) for _ in range(self.bot.contract_worlds)]
        return self.worlds

    def _solve(self, mode: int) -> list[tuple[list[int], tuple[bool, bool], tuple[int, ...], tuple[int, ...]]]:
        if mode not in self.solved:
            rules = self.view.rules
            leader = self.view.order[0]
            out = []
            budget = self.bot._budget(len(self.wanted))
            for hands in self._draw():
                if not budget.open:
                    break
                v = budget.value(
                    Position(
                        (hands[0], hands[1], hands[2], hands[3]),
                        mode,
                        leader,
                        (),
                        rules.step,
                        rules.play,
                        leaf=self.bot._leaf(rules.tricks),
                    )
                )
                if v is None:
                    continue
                cards, capots = _split(v, leader & 1)
                declarations, belote = _world_extras(self.view, hands, mode)
                out.append((cards, capots, declarations, belote))
            self.solved[mode] = out
        return self.solved[mode]

    def value(self, mode: int, level: int, multiplier: int, ours: bool, coinched: bool = False) -> float:
        counted = super().value(mode, level, multiplier, ours, coinched)
        if mode not in self.wanted:
            return counted
        view = self.view
        assert view.seat is not None
        side = view.seat & 1
        bidder = view.seat if ours else (view.seat + 1) % view.rules.players
        contract = Contract(level, mode, bidder, multiplier)
        total = 0.0
        worlds = self._solve(mode)
        if not worlds:  # none within the budget: the count alone
            return counted
        for cards, capots, declarations, belote in worlds:
            tricks = (0 if capots[1] else 4, 0 if capots[0] else 4)
            tally = Tally(
                bidder, (cards[0], cards[1]), tricks, declarations, belote, 0, view.order, contract, capots[bidder & 1]
            )
            r = view.game.score(view.rules, tally)
            total += r.points[side] - r.points[1 - side]
        blend = self.bot.bid_blend
        return (1 - blend) * total / len(worlds) + blend * counted


class _DealScore:
    """Turns the card points of a world's end into the seat's score less the others' mean."""

    def __init__(self, view: PlayerView) -> None:
        assert view.seat is not None and view.trump is not None and view.taker is not None
        self.view = view
        self.camps = camps = view.camps
        self.me = view.seat
        self.side = camps[view.seat]
        self.won = view.won_by_camp()
        self.declared = _public_declarations_by_seat(view, camps)
        self.start_by_seat = view.cards_played_by()
        self.won_by_seat = [0] * view.rules.players
        for t in view.tricks:
            self.won_by_seat[t.winner] += t.points
        self.taker_camp = camps[view.taker]
        #: each camp's seats in seat order, and the seat its tricks are counted on (the taker in its camp)
        self.seats = [[s for s in range(len(camps)) if camps[s] == c] for c in (0, 1)]
        self.counted = [view.taker if c == self.taker_camp else self.seats[c][0] for c in (0, 1)]

    def belote(self, hands: list[int], under: tuple[int, ...] | None) -> int | None:
        """The seat holding the king and queen of trumps in this world (from the cards it started with)."""
        trump = self.view.trump
        assert trump is not None
        if trump >= 4:
            return None
        start = [h | p for h, p in zip(hands, self.start_by_seat, strict=True)]
        if under is not None:  # two hands: the face-down cards under a seat's cards are that seat's
            for s in range(len(start)):
                for c in bits_of(start[s]):
                    if under[c] >= 0:
                        start[s] |= 1 << under[c]
        return belote_holder(start, trump)

    def utility(self, mine: int, theirs: int, mine_capot: bool, theirs_capot: bool, holder: int | None) -> float:
        """The seat's score less the mean of the others' when its camp ends with ``mine`` more card points.

        What a camp takes from now on is shared evenly among its seats (an odd point to the first
        in seat order, the taker's camp being one seat or partners); its tricks are counted on its
        first seat, the taker in the taker's camp (only whether a camp took none or all counts).
        """
        side = self.side
        cards = [0, 0]
        cards[side] = self.won[side] + mine
        cards[1 - side] = self.won[1 - side] + theirs
        tricks = [4, 4]
        if mine_capot:
            tricks[1 - side] = 0
        elif theirs_capot:
            tricks[side] = 0
        n = len(self.camps)
        by_seat, tricks_by_seat = [0] * n, [0] * n
        for camp in (0, 1):
            seats = self.seats[camp]
            future = cards[camp] - sum(self.won_by_seat[s] for s in seats)
            for s, part in zip(seats, share(future, len(seats)), strict=True):
                by_seat[s] = self.won_by_seat[s] + part
            tricks_by_seat[self.counted[camp]] = tricks[camp]
        game = self.view.game
        alone = mine_capot and side == self.taker_camp
        r = self.view.score_deal(
            game.by_team(by_seat), game.by_team(tricks_by_seat), game.by_team(self.declared), holder, alone
        )
        return margin(r.points, self.view.rules.team(self.me))


def _split(v: int, leader_side: int) -> tuple[list[int], tuple[bool, bool]]:
    """A whole deal's value for the leader's side turned into each side's card points (of 162) and capots."""
    leader_capot = v > DEAL_POINTS
    leader_cards = v - CAPOT_BONUS if leader_capot else v
    other_capot = v == 0
    cards = [0, 0]
    cards[leader_side] = leader_cards
    cards[1 - leader_side] = DEAL_POINTS - leader_cards
    capots = (leader_capot, other_capot) if leader_side == 0 else (other_capot, leader_capot)
    return cards, capots


def _world_extras(view: PlayerView, hands: list[int], trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """In a whole world of four hands: each side's declarations that score, and its belote."""
    rules = view.rules
    game = view.game
    declared = [find_declarations(h, trump, rules.declaration_card_reuse) for h in hands] if rules.declarations else []
    by_seat = game.scoring_declarations(rules, declared, list(view.order), list(game.team_of))
    return game.by_team(by_seat), game.belote_by_team(belote_holder(hands, trump))


def _worth_trying(hand: int, suit: int) -> bool:
    """Second round: only a suit held with its jack or nine, or four long, is worth solving."""
    held = hand & SUIT_MASKS[suit]
    return bool(held >> (8 * suit + 4) & 1 or held >> (8 * suit + 2) & 1) or held.bit_count() >= 4


def _public_declarations_by_seat(view: PlayerView, camps: tuple[int, ...]) -> list[int]:
    """The declaration points each seat will score, as far as the table has heard."""
    out = [0] * view.rules.players
    total = _public_declarations(view, camps)
    for s, n, _c in view.declarations:
        if total[camps[s]]:
            out[s] += POINTS_BY_NAME[n]
    return out


def _public_declarations(view: PlayerView, camps: tuple[int, ...]) -> tuple[int, int]:
    """The declaration points each camp will score, as far as the table has heard."""
    if not view.rules.declarations or not view.declarations:
        return (0, 0)
    shown = {camps[s] for s, _n, cards in view.declarations if cards}
    if shown:
        side = shown.pop()
    else:  # before the cards are shown: the best name said (equal sequences cannot be told apart)
        side = camps[max(view.declarations, key=lambda d: name_key(d[1]))[0]]
    total = sum(POINTS_BY_NAME[n] for s, n, _c in view.declarations if camps[s] == side)
    return (total, 0) if side == 0 else (0, total)


__all__ = ["SearchBot"]
