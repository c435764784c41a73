"""Coinche bidding: what a hand counts for each trump mode, what each contract is worth, which bid to make.

A hand's *count* for a mode is the card points (of 162, belote included; a capot counts its 252)
its side can expect in that mode with an average partner: a linear count of the hand's features
(the jack and nine of trumps, length, aces, tens beside them, voids; at no-trumps aces, tens and
long suits; at all-trumps jacks and nines), the weights fitted by least squares on random deals
played out in every mode (``WEIGHTS``). What partner's bids promised is added to it; what the
opponents' bids promised, less what this hand takes from them, gives their count.

Points made are then spread around the count (a normal law of ``SPREAD``), and each contract is
worth its expected score (``belote.scoring.score_contract``'s rules: made, the bid plus the points;
failed, 160 and the bid to the defenders; coinched, doubled): ``contract_value``. The bid chosen is
the one worth most, passing included.

>>> from belote.cards import mask_of
>>> hand = mask_of("JH 9H AH 7H AS AD 8C 7S".split())
>>> round(count(hand, 1)) > round(count(hand, 0))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from belote.cards import ACE, JACK, KING, NINE, QUEEN, TEN
from belote.contracts import (
    CAPOT,
    COINCHE,
    SURCOINCHE,
    TOP_PROMISE,
    bid_levels,
    contract_action,
    contract_of,
    is_contract,
)
from belote.game import PASS, Action, PlayerView
from belote.play import ALL_TRUMP, NO_TRUMP
from belote.rules import Rules
from belote.scoring import CAPOT_POINTS, DEAL_POINTS

# ----------------------------------------------------------------- a hand's count for each mode


def _suit(hand: int, suit: int) -> int:
    return hand >> (8 * suit) & 0xFF


def _has(held: int, rank: int) -> int:
    return held >> rank & 1


def _outside_terms(h: int) -> tuple[int, ...]:
    """A suit outside trumps: its ace, ten beside the ace, ten guarded without it, king beside both,
    void, singleton."""
    ace, ten = _has(h, ACE), _has(h, TEN)
    return (
        ace,
        ace & ten,
        (1 - ace) & ten & (h.bit_count() >= 2),
        ace & ten & _has(h, KING),
        int(h == 0),
        int(h.bit_count() == 1),
    )


def _no_trump_terms(h: int) -> tuple[int, ...]:
    """A suit at no-trumps: ace, ten beside it, ten guarded (three long) without it, king under both,
    length behind the ace, behind ace and ten, void, bare ten."""
    ace, ten, n = _has(h, ACE), _has(h, TEN), h.bit_count()
    return (
        ace,
        ace & ten,
        (1 - ace) & ten & (n >= 3),
        ace & ten & _has(h, KING),
        ace * max(0, n - 3),
        ace * ten * max(0, n - 3),
        int(h == 0),
        (1 - ace) & ten & (n < 3),
    )


def _all_trump_terms(h: int) -> tuple[int, ...]:
    """A suit at all-trumps: jack, nine beside it, nine guarded without it, ace under both, ace,
    ten beside the jack, length behind the jack, void."""
    jack, nine, n = _has(h, JACK), _has(h, NINE), h.bit_count()
    return (
        jack,
        jack & nine,
        (1 - jack) & nine & (n >= 2),
        jack & nine & _has(h, ACE),
        _has(h, ACE),
        _has(h, TEN) & jack,
        jack * max(0, n - 2),
        int(h == 0),
    )


#: Each suit's terms by its eight cards (a byte), read by the features below: a hand's count is
#: computed for every hand of every world the bots draw in Coinche.
_OUTSIDE = tuple(_outside_terms(h) for h in range(256))
_NO_TRUMP = tuple(_no_trump_terms(h) for h in range(256))
_ALL_TRUMP = tuple(_all_trump_terms(h) for h in range(256))


def _summed(table: tuple[tuple[int, ...], ...], hand: int, skip: int = -1) -> list[int]:
    """The terms of ``table`` added over the hand's suits (but ``skip``)."""
    rows = [table[hand >> (8 * s) & 0xFF] for s in range(4) if s != skip]
    return [sum(column) for column in zip(*rows, strict=True)]


def suit_features(hand: int, trump: int) -> tuple[float, ...]:
    """A suit as trumps: its honours and length, then the aces, tens, kings and voids outside."""
    t = _suit(hand, trump)
    n = t.bit_count()
    aces, tens_with_ace, tens_guarded, kings_with_ace_ten, voids, singletons = _summed(_OUTSIDE, hand, trump)
    jack, nine = _has(t, JACK), _has(t, NINE)
    return (
        jack,
        nine,
        _has(t, ACE),
        _has(t, TEN),
        _has(t, KING) + _has(t, QUEEN),
        n,
        max(0, n - 3),
        max(0, n - 4),
        jack * nine,
        _has(t, KING) * _has(t, QUEEN),
        aces,
        tens_with_ace,
        tens_guarded,
        kings_with_ace_ten,
        voids * min(n, 3),
        singletons * min(n, 3),
    )


def no_trump_features(hand: int) -> tuple[float, ...]:
    """No-trumps: aces, tens (beside the ace or guarded), kings under both, long suits headed by the ace."""
    terms = _summed(_NO_TRUMP, hand)
    return (*terms, terms[0] * terms[0])


def all_trump_features(hand: int) -> tuple[float, ...]:
    """All-trumps: jacks, nines (beside their jack or guarded), aces under both, length behind the jack."""
    terms = _summed(_ALL_TRUMP, hand)
    return (*terms, terms[0] * terms[0])


def features(hand: int, mode: int) -> tuple[float, ...]:
    if mode == NO_TRUMP:
        return no_trump_features(hand)
    if mode == ALL_TRUMP:
        return all_trump_features(hand)
    return suit_features(hand, mode)


#: The count's intercept, weights and lead bonus for each kind of mode (a suit, no-trumps,
#: all-trumps), and the spread of the points made around it (their standard deviation in the fit).
#: Fitted by least squares on 5,000 random deals, each played out in all six modes by four
#: heuristic bots with the player next to the dealer bidding 80 (20,000 hands for the suits, 5,000
#: for each of the other two): what a hand makes as these bots play, not with every card seen (solved
#: double dummy, strong hands make half as much again at no-trumps and all-trumps). The lead bonus
#: is half of what it was solved double dummy, the intercept set so that leading gives the fit.
WEIGHTS: dict[str, tuple[float, tuple[float, ...], float, float]] = {
    "suit": (
        43.7,
        (22.3, 11.8, 5.7, 3.5, -1.4, 3.3, 5.4, -5.4, 3.4, 22.3, 9.7, 2.2, 3.9, -3.5, 4.8, 1.8),
        10.0,
        31.8,
    ),
    "nt": (54.4, (10.8, 7.4, 7.3, -0.5, 3.5, -0.5, 1.5, 4.7, 1.3), 12.0, 25.2),
    "at": (53.3, (8.5, 9.3, 7.1, 3.5, -0.5, -1.0, 2.5, 1.8, 1.6), 14.0, 29.2),
}


def _kind(mode: int) -> str:
    return "nt" if mode == NO_TRUMP else "at" if mode == ALL_TRUMP else "suit"


def count(hand: int, mode: int, leads: bool | None = None) -> float:
    """The points this hand's side may expect in ``mode`` with an average partner (an 8-card hand);
    ``leads``: whether its side leads to the first trick (None: as likely as not)."""
    intercept, weights, lead, _ = WEIGHTS[_kind(mode)]
    total = 0.0
    for w, f in zip(weights, features(hand, mode), strict=True):
        total += w * f
    worth = intercept + total
    if leads is not None:
        worth += lead / 2 if leads else -lead / 2
    return worth


def spread(mode: int) -> float:
    return WEIGHTS[_kind(mode)][3]


#: The ranks of a suit from the strongest down: as trumps, and outside trumps.
TRUMP_RANKS = (JACK, NINE, ACE, TEN, KING, QUEEN, 8 - 7, 0)
PLAIN_RANKS = (ACE, TEN, KING, QUEEN, JACK, NINE, 1, 0)


def _top_run(held: int, ranks: tuple[int, ...]) -> int:
    """How many of the strongest cards of a suit the hand holds without a gap."""
    n = 0
    for r in ranks:
        if not held >> r & 1:
            break
        n += 1
    return n


def sure_capot(hand: int, mode: int) -> bool:
    """Every trick is this hand's whoever leads: at least five trumps headed by the jack, nine and ace
    (every other trump falls under them), and outside trumps only the top cards of their suits."""
    if mode >= 4:
        return False
    trumps = _suit(hand, mode)
    if trumps.bit_count() < 5 or _top_run(trumps, TRUMP_RANKS) < 3:
        return False
    return all(_top_run(_suit(hand, s), PLAIN_RANKS) == _suit(hand, s).bit_count() for s in range(4) if s != mode)


#: What an average hand counts: a side's half of the deal.
AVERAGE = 81.0
#: When partner's count is known, the spread of the side's points narrows to this share.
KNOWN_SPREAD = 0.8


@dataclass(frozen=True)
class Style:
    """How boldly to bid: the margins a bid must clear, and what passing with no contract is worth."""

    #: A bid must be worth this much more than passing: the counts are rough.
    bid_margin: float = 5.0
    #: Passing with no contract standing lets the other side open: it costs about this much. A bid
    #: over the other side's contract is made when worth more than letting it play, even if it
    #: is expected to lose too (tried in self-play: bolder than this, or only bids expected to win,
    #: lose points).
    open_pass: float = -30.0
    #: Coinche only with this much to gain: the other side knows its own hands.
    coinche_margin: float = 20.0
    #: Surcoinche only when sure: the coincher has seen its own hand.
    surcoinche_margin: float = 60.0
    #: A contract of L promises a count of about L + promise (one opens at 80 on counts from about 92 to 150).
    promise: float = 25.0
    #: How much of what the opponents' bids promised is taken from this side's count.
    opposed: float = 0.8
    #: How much of a hand's count above the average adds to partner's promise (the rest overlaps it).
    support: float = 0.8
    #: What a coinche says of the coincher's hand: the bidders' count falls by this much.
    coinche_says: float = 45.0


STYLE = Style()


# ----------------------------------------------------------------- what a contract is worth


def _phi(z: float) -> float:
    return math.exp(-z * z / 2) / math.sqrt(2 * math.pi)


def _cdf(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


#: The points a capot's count must reach to be likely made: every trick (252), less a little slack.
CAPOT_TARGET = 245.0


def make_chance(mean: float, sd: float, level: int) -> float:
    """The chance that points spread as N(mean, sd) reach ``level`` (a capot: every trick, 252)."""
    target = CAPOT_TARGET if level >= CAPOT else float(level)
    return 1 - _cdf((target - mean) / sd)


def contract_value(rules: Rules, level: int, mean: float, sd: float, multiplier: int = 1) -> float:
    """The expected score of the takers less the defenders' for a contract of ``level`` when the
    takers' points (cards, declarations, belote) spread as N(mean, sd)."""
    failed = rules.coinche_failed + level
    target = CAPOT_TARGET if level >= CAPOT else float(level)
    z = (target - mean) / sd
    p = 1 - _cdf(z)
    if multiplier > 1:
        return (2 * p - 1) * failed * multiplier
    # Made: the bid (and the points made, as the rules say) to the takers, the rest to the defenders.
    made_points = mean * p + sd * _phi(z)  # E[points; made]
    if level >= CAPOT:
        made = p * (level + (CAPOT_POINTS if rules.coinche_made == "points" else 0))
    elif rules.coinche_made == "points":
        made = p * (level - DEAL_POINTS) + 2 * made_points
    else:
        made = p * (level - DEAL_POINTS) + made_points
    return made - (1 - p) * failed


# ----------------------------------------------------------------- reading the auction


@dataclass(frozen=True)
class Auction:
    """The auction as one seat reads it."""

    seat: int
    current: tuple[int, int, int, int] | None  # level, mode, bidder, multiplier
    promised: dict[int, tuple[int, int]]  # seat -> its last contract (level, mode)
    coinched: bool
    leads: bool  # this seat's side leads to the first trick

    @property
    def ours(self) -> bool:
        return self.current is not None and self.current[2] & 1 == self.seat & 1

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4


def read_auction(view: PlayerView) -> Auction:
    assert view.seat is not None
    promised: dict[int, tuple[int, int]] = {}
    for seat, bid in view.bids:
        if is_contract(bid):
            promised[seat] = contract_of(bid)
    c = view.contract
    current = None if c is None else (c.level, c.mode, c.bidder, c.multiplier)
    first = view.order[0]
    return Auction(view.seat, current, promised, c is not None and c.multiplier > 1, first & 1 == view.seat & 1)


def promised_excess(level: int, style: Style = STYLE) -> float:
    """What a contract of ``level`` says its side holds beyond an average deal's half."""
    return min(level, TOP_PROMISE) + style.promise - AVERAGE


def side_count(hand: int, mode: int, auction: Auction, style: Style = STYLE) -> tuple[float, float]:
    """The points this seat's side may expect in ``mode``, and their spread, from its hand and the bids.

    Partner's contract in the mode replaces the average partner of the count by what it promised;
    the opponents' strongest contract takes what it promised from this side (in full in the same
    mode, half in another: their strength lies partly in their trumps).
    """
    mine = count(hand, mode, auction.leads)
    sd = spread(mode)
    partner = auction.promised.get(auction.partner)
    if partner is not None and partner[1] == mode:
        own = auction.promised.get(auction.seat)
        already = own[0] + style.promise if own is not None and own[1] == mode else AVERAGE
        mine = min(partner[0], TOP_PROMISE) + style.promise + style.support * (mine - already)
        sd *= KNOWN_SPREAD
    against = 0.0
    for o in ((auction.seat + 1) % 4, (auction.seat + 3) % 4):
        if o in auction.promised:
            level, their_mode = auction.promised[o]
            against = max(against, style.opposed * promised_excess(level, style) * (1.0 if their_mode == mode else 0.5))
    return mine - against, sd


def their_count(hand: int, auction: Auction, style: Style = STYLE) -> tuple[float, float]:
    """The opponents' expected points in their contract, and the spread: what this side does not take."""
    assert auction.current is not None
    mean, sd = side_count(hand, auction.current[1], auction, style)
    return DEAL_POINTS - mean, sd


# ----------------------------------------------------------------- the bid


def levels(rules: Rules) -> tuple[int, ...]:
    """The levels the bot considers: every one the table allows but the générale."""
    return bid_levels(rules.coinche_max_bid)


class CountValuer:
    """Values contracts by the counts: the side's points spread around its count (``contract_value``)."""

    def __init__(self, view: PlayerView, hand: int, style: Style = STYLE) -> None:
        self.view = view
        self.hand = hand
        self.style = style
        self.auction = read_auction(view)

    def side(self, mode: int) -> tuple[float, float]:
        """This seat's side's expected points in ``mode`` and their spread."""
        return side_count(self.hand, mode, self.auction, self.style)

    def value(self, mode: int, level: int, multiplier: int, ours: bool, coinched: bool = False) -> float:
        """This side's expected score less the other's for the contract of ``level`` in ``mode``,
        played by this side (``ours``) or by the other (the one standing); ``coinched``: the other
        side coinched this side's contract, so holds more than the count says."""
        rules = self.view.rules
        if ours and sure_capot(self.hand, mode):
            # Every trick taken: the bid and the 252 (or the bid alone), the other side nothing.
            if multiplier > 1:
                return (rules.coinche_failed + level) * multiplier
            return level + (CAPOT_POINTS if rules.coinche_made == "points" else 0)
        if ours:
            mean, sd = self.side(mode)
            if coinched:
                mean -= self.style.coinche_says
            return contract_value(rules, level, mean, sd, multiplier)
        mean, sd = their_count(self.hand, self.auction, self.style)
        return -contract_value(rules, level, mean, sd, multiplier)


def choose_bid(view: PlayerView, hand: int, valuer: CountValuer | None = None, style: Style = STYLE) -> Action:
    """The Coinche bid worth most to this seat's side: pass, a contract, coinche or surcoinche."""
    rules = view.rules
    valuer = valuer or CountValuer(view, hand, style)
    auction = valuer.auction
    legal = set(view.legal)
    cur = auction.current
    if SURCOINCHE in legal and cur is not None:
        stay = valuer.value(cur[1], cur[0], cur[3], True, coinched=True)
        double = valuer.value(cur[1], cur[0], rules.surcoinche, True, coinched=True)
        return SURCOINCHE if double > stay + style.surcoinche_margin else PASS
    # What passing is worth: the contract standing plays (or, with none yet, the other side may open).
    pass_value = style.open_pass if cur is None else valuer.value(cur[1], cur[0], cur[3], auction.ours)
    best: tuple[float, Action] = (pass_value + style.bid_margin, PASS)
    if COINCHE in legal and cur is not None:
        v = valuer.value(cur[1], cur[0], 2, False)
        if v > pass_value + style.coinche_margin and v > best[0]:
            best = (v, COINCHE)
    floor = 0 if cur is None else cur[0]
    modes = range(6) if rules.no_trump_all_trump else range(4)
    for mode in modes:
        for level in levels(rules):
            if level <= floor:
                continue
            action = contract_action(level, mode)
            if action not in legal:
                continue
            v = valuer.value(mode, level, 1, True)
            if v > best[0]:
                best = (v, action)
    return best[1]
