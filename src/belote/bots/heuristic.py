"""The heuristic bot: the strategy of seed 000, one small function for each piece of its advice.

The bot reads only its ``PlayerView``. From it ``read_table`` works out what a careful player keeps
in their head: the cards still out, who may hold which of them (``belote.knowledge``: a player who
showed out of a suit, could not trump or could not go higher), and each side's count towards 82
(cards won, declarations, belote). Every decision is then a short list of the seed's advice tried
in order; the first that applies chooses the card. The play is a pure function of the view, so the
bot is deterministic whatever its seed.

The same advice plays every game. Sides are camps: at three hands the two defenders are partners
against the taker; at two hands each player is alone and may play its face-up table cards too. At
no-trumps and all-trumps nobody cuts, so the advice on trumps falls silent and the masters (aces,
or jacks then nines) are cashed; in Coinche the count is towards the contract, not 82. Coinche
bids come from ``belote.bots.coinche``: each mode's count of the hand and the expected score of
each contract.

>>> from belote.game import Deal
>>> deal = Deal.from_seed(7)
>>> bot = HeuristicBot(seed=1)
>>> while deal.phase != "done":
...     deal.apply(bot.act(deal.view(deal.to_move)))
>>> deal.result.outcome in ("made", "dedans", "litige", "capot", "thrown-in")
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from belote.auctions.contracts import CONTRACTS
from belote.auctions.turned import TURNED
from belote.bots.coinche import Style, choose_bid
from belote.cards import ACE, FULL_PACK, JACK, KING, NINE, QUEEN, SUIT_MASKS, TEN, Card, bits_of, mask_of
from belote.declarations import POINTS_BY_NAME
from belote.game import NAME_SUIT, PASS, TAKE, Action, PlayerView
from belote.knowledge import Knowledge
from belote.play import HIGHER, KEY, LAST_TRICK, POINTS, TRUMPS, beats
from belote.rules import Rules
from belote.scoring import BELOTE_POINTS, DEAL_POINTS

BELOTE = BELOTE_POINTS
TEN_POINTS = 10  # a ten or an ace: the cards worth feeding to a partner

# ----------------------------------------------------------------- taking: what a hand is worth

#: What a hand is worth to the side that takes with it: the points of the deal it can expect, its
#: score less the other side's. The weights were fitted by least squares on 40,000 deals in which one
#: seat took the turned card on whatever it held and four heuristic bots played the deal out; they
#: count six cards, the five held and the turned one, as the seed says: "take on what you can see".
TRUMP_HONOURS = {JACK: 81, NINE: 44, ACE: 18, TEN: 17, KING: 11, QUEEN: 11}
EACH_TRUMP = 11
THIRD_TRUMP = 10  # "three or four trumps ... is the ordinary taking hand"
EACH_TRUMP_BEYOND_THREE = 23
BELOTE_WORTH = 40  # the 20 of belote is never lost
OUTSIDE_ACE = 22  # "an ace outside trumps is a certain trick"
TEN_BESIDE_ITS_ACE = 8  # "and the ten beneath it is nearly one"
GUARDED_TEN = 10
VOID = 11  # a suit to trump
NOTHING = -139  # a hand of no trumps and no aces goes down
#: The seed's taking hands are taken a little short of the count (it costs nothing measurable).
ORDINARY_TAKING_HAND = 20
#: Take when the hand is worth this much; passing is not free either, since the other side may take.
TAKE_AT = 0
#: The last to speak in the first round may take a little lighter: nobody after them can take.
LATE_POSITION = 5
#: Name a suit in the second round at this worth (and only with its jack or nine and length).
NAME_AT = 0


def trump_worth(hand: int, trump: int) -> int:
    """ "Count what the turned suit would be worth in your hand before you take it." """
    trumps = hand & SUIT_MASKS[trump]
    n = trumps.bit_count()
    worth = n * EACH_TRUMP + (THIRD_TRUMP if n >= 3 else 0) + max(0, n - 3) * EACH_TRUMP_BEYOND_THREE
    for rank, honour in TRUMP_HONOURS.items():
        if trumps >> (8 * trump + rank) & 1:
            worth += honour
    if trumps >> (8 * trump + KING) & trumps >> (8 * trump + QUEEN) & 1:
        worth += BELOTE_WORTH
    return worth


def side_suits_worth(hand: int, trump: int) -> int:
    """ "Once the trumps are gone, an ace outside trumps is a certain trick": aces, tens, short suits."""
    worth = 0
    for suit in range(4):
        if suit == trump:
            continue
        held = hand & SUIT_MASKS[suit]
        ace = held >> (8 * suit + ACE) & 1
        if ace:
            worth += OUTSIDE_ACE
        if held >> (8 * suit + TEN) & 1:
            worth += TEN_BESIDE_ITS_ACE if ace else GUARDED_TEN if held.bit_count() >= 2 else 0
        if not held:
            worth += VOID
    return worth


def hand_worth(hand: int, trump: int) -> int:
    """What taking with ``trump`` as trumps is worth to this hand's side, in points of the deal.

    >>> hearts = 1
    >>> hand_worth(mask_of("JH 9H 7S 8D AC KC".split()), hearts)  # "the deal half won"
    30
    >>> hand_worth(mask_of("7H QS KS 8D AC KC".split()), hearts)  # one small trump
    -106
    """
    return NOTHING + trump_worth(hand, trump) + side_suits_worth(hand, trump)


def is_ordinary_taking_hand(hand: int, trump: int) -> bool:
    """ "The jack ... is a fine start ... Three or four trumps with an ace outside is the ordinary taking hand." """
    trumps = hand & SUIT_MASKS[trump]
    n = trumps.bit_count()
    jack = trumps >> (8 * trump + JACK) & 1
    nine = trumps >> (8 * trump + NINE) & 1
    outside_ace = any(hand >> (8 * s + ACE) & 1 for s in range(4) if s != trump)
    return bool((jack and (nine or n >= 3)) or (n >= 3 and outside_ace) or n >= 4)


def take_the_turned_card(view: PlayerView, extra: int | None = None) -> Action:
    """ "Remember that you will be dealt only two more cards ... so take on what you can see." """
    assert view.turned is not None
    trump = view.turned.suit
    hand = mask_of(view.hand) | 1 << view.turned
    worth = hand_worth(hand, trump) + (ORDINARY_TAKING_HAND if is_ordinary_taking_hand(hand, trump) else 0)
    bar = take_at(view.rules, extra) - (LATE_POSITION if len(view.bids) == view.rules.players - 1 else 0)
    return TAKE if worth >= bar else PASS


def take_at(rules: Rules, extra: int | None = None) -> int:
    """The worth a hand needs to take: alone against two at three hands, far more. ``extra``
    replaces the game's own addition to ``TAKE_AT``."""
    return TAKE_AT + (rules.game.take_extra if extra is None else extra)


def has_jack_or_nine_with_length(hand: int, suit: int) -> bool:
    """ "Name a suit only where you hold its jack or nine with length behind it." """
    held = hand & SUIT_MASKS[suit]
    jack = held >> (8 * suit + JACK) & 1
    nine = held >> (8 * suit + NINE) & 1
    outside_ace = any(hand >> (8 * s + ACE) & 1 for s in range(4) if s != suit)
    return bool((jack and held.bit_count() >= 3) or (nine and held.bit_count() >= 4 and outside_ace))


def name_a_suit(view: PlayerView, extra: int | None = None) -> Action:
    """ "Going down costs the whole 162, where passing costs nothing": name only a suit worth it."""
    assert view.turned is not None
    hand = mask_of(view.hand) | 1 << view.turned  # the turned card comes to whoever names a suit
    more = view.game.take_extra if extra is None else extra
    best: tuple[int, Action] = (NAME_AT + more - 1, PASS)
    for bid in view.legal:
        suit = bid - NAME_SUIT
        if 0 <= suit < 4 and has_jack_or_nine_with_length(hand, suit):
            worth = hand_worth(hand, suit)
            if worth > best[0]:
                best = (worth, bid)
    return best[1]


# ----------------------------------------------------------------- what the bot knows in the play


@dataclass(frozen=True)
class Table:
    """The play as a careful player sees it: the cards out, who may hold them, and the count.

    Sides are camps (``PlayerView.camps``): partners at four hands, the two defenders
    against the taker at three, each player alone at two. At two hands ``hand`` is every card this
    seat may play: its hand and its face-up table cards.
    """

    seat: int
    trump: int  # the trump mode: a suit, NO_TRUMP or ALL_TRUMP
    taker: int
    hand: int
    unseen: int  # every card neither in this hand nor played yet
    may_hold: tuple[int, ...]  # for each seat, the unseen cards it may hold
    count: tuple[int, int]  # each camp's points so far: cards won, declarations, belote
    remaining: int  # card points not yet won, with the last trick's ten
    tricks_left: int  # counting the trick on the table
    camps: tuple[int, ...] = (0, 1, 0, 1)
    #: Coinche: the points the takers must make (cards, declarations, belote); None: more than the defenders.
    goal: int | None = None
    #: Two hands: this seat's face-up table cards with a card face down under them.
    covering: int = 0

    @property
    def players(self) -> int:
        return len(self.camps)

    @property
    def camp(self) -> int:
        return self.camps[self.seat]

    @property
    def partners(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if s != self.seat and self.camps[s] == self.camp)

    @property
    def partner(self) -> int | None:
        p = self.partners
        return p[0] if p else None

    @property
    def takers(self) -> bool:
        return self.camps[self.taker] == self.camp

    @property
    def trumps(self) -> int:
        """The mask of the trump suit (none at no-trumps and all-trumps, where nobody cuts)."""
        return TRUMPS[self.trump]

    def key(self, c: int) -> int:
        return KEY[self.trump][c]

    def points(self, c: int) -> int:
        return POINTS[self.trump][c]

    def is_trump(self, c: int) -> bool:
        return c >> 3 == self.trump

    @property
    def opponents(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if self.camps[s] != self.camp)

    def same_camp(self, a: int, b: int) -> bool:
        return self.camps[a] == self.camps[b]


@dataclass(frozen=True)
class OnTable:
    """The trick being played: the suit led, the card winning it and whose it is, its points."""

    led: int
    best: int
    best_seat: int
    points: int
    to_come: tuple[int, ...]  # the seats still to play after this one

    @property
    def last_to_play(self) -> bool:
        return not self.to_come


def read_table(view: PlayerView) -> Table:
    """Everything the bot uses in the play, read from its view alone."""
    assert view.seat is not None and view.trump is not None and view.taker is not None
    knowledge = Knowledge.from_view(view)
    me, trump = view.seat, view.trump
    n = view.rules.players
    camps = view.camps
    hand = mask_of(view.hand)
    covering = 0
    if view.table:
        for up, down in view.table[me]:
            if up is not None:
                hand |= 1 << up
                covering |= down << up
    played = mask_of(view.played)
    unseen = ~hand & ~played & FULL_PACK
    may_hold = tuple(
        hand if s == me else (knowledge.hands[s] | knowledge.unknown & ~knowledge.excluded[s]) & unseen
        for s in range(n)
    )
    in_play = DEAL_POINTS - sum(view.won)
    out = view.game.out_of_play
    if out:
        # Cards lie out of play: count their share of the points not seen.
        points = POINTS[trump]
        seen = 0
        for s in range(n):
            seen |= knowledge.hands[s]
        out_of_sight = unseen & ~seen
        hidden = sum(points[c] for c in bits_of(out_of_sight))
        held = sum(knowledge.counts[s] for s in range(n) if s != me) - sum(
            knowledge.hands[s].bit_count() for s in range(n) if s != me
        )
        share = out / (out + held) if held + out else 0.0
        in_play -= round(hidden * share)
    goal = None
    if view.contract is not None:
        goal = min(view.contract.level, DEAL_POINTS)
    return Table(
        seat=me,
        trump=trump,
        taker=view.taker,
        hand=hand,
        unseen=unseen,
        may_hold=may_hold,
        count=_count(view, hand, camps),
        remaining=in_play,
        tricks_left=view.rules.tricks - len(view.tricks),
        camps=camps,
        goal=goal,
        covering=covering,
    )


def read_trick(view: PlayerView, table: Table) -> OnTable:
    """The trick on the table (``led`` is -1 when this seat leads)."""
    order = view.order
    i = order.index(table.seat)
    to_come = (order[i + 1 :] + order[:i])[: len(order) - 1 - len(view.trick)]
    if not view.trick:
        return OnTable(-1, -1, -1, 0, to_come)
    best_seat, best = view.trick[0]
    for seat, c in view.trick[1:]:
        if beats(table.trump, c, best):
            best_seat, best = seat, c
    points = sum(table.points(c) for _, c in view.trick)
    return OnTable(view.trick[0][1] >> 3, best, best_seat, points, to_come)


def _count(view: PlayerView, hand: int, camps: tuple[int, ...]) -> tuple[int, int]:
    """ "Keep a rough count as the tricks fall": each camp's card points, declarations and belote."""
    assert view.seat is not None and view.trump is not None
    count = view.won_by_camp()
    # After the first trick the camp whose declarations score shows their cards: all of that camp's count.
    scoring = {camps[seat] for seat, _, shown in view.declarations if shown}
    for seat, name, _ in view.declarations:
        if camps[seat] in scoring:
            count[camps[seat]] += POINTS_BY_NAME.get(name, 0)
    if view.trump < 4:
        pair = 1 << (8 * view.trump + QUEEN) | 1 << (8 * view.trump + KING)
        if view.belote:
            count[camps[view.belote[0][0]]] += BELOTE
        elif hand & pair == pair:
            count[camps[view.seat]] += BELOTE
    return (count[0], count[1])


# ----------------------------------------------------------------- reading the cards out


def is_master(table: Table, c: int) -> bool:
    """No card still out beats it in its suit ("the master card in each suit given what is gone")."""
    return not table.unseen & HIGHER[table.trump][c]


def can_take(table: Table, seat: int, led: int, best: int) -> bool:
    """Could ``seat``, still to play, take the trick from ``best``, as far as anyone can tell?"""
    cards = table.may_hold[seat]
    follows = bool(cards & SUIT_MASKS[led])
    if best >> 3 == led and cards & HIGHER[table.trump][best]:
        return True
    if follows or led == table.trump:
        return False
    # Shown out of the suit led (or every card of it is accounted for): it may trump, or overtrump.
    trumps = cards & table.trumps
    return bool(trumps & HIGHER[table.trump][best]) if table.is_trump(best) else bool(trumps)


def keeps_trick(table: Table, trick: OnTable, card: int, winner: int) -> bool:
    """Would ``card``, winning for ``winner``, hold the trick against the opponents still to play?"""
    return not any(can_take(table, s, trick.led, card) for s in trick.to_come if not table.same_camp(s, winner))


def ruffable(table: Table, suit: int) -> bool:
    """Has an opponent shown out of ``suit`` while it may still hold a trump?"""
    trumps = table.trumps
    return any(not table.may_hold[s] & SUIT_MASKS[suit] and table.may_hold[s] & trumps for s in table.opponents)


def opponents_hold_trumps(table: Table) -> bool:
    """May either opponent still hold a trump?"""
    return any(table.may_hold[s] & table.trumps for s in table.opponents)


# ----------------------------------------------------------------- counting to 82


def _made(table: Table, mine: int, theirs: int, remaining: int) -> bool:
    """Is the deal won for this seat's side whatever happens to the ``remaining`` points?"""
    if table.goal is not None:  # Coinche: the takers must reach their contract
        return mine >= table.goal if table.takers else theirs + remaining < table.goal
    return mine > theirs + remaining if table.takers else mine >= theirs + remaining


def _lost(table: Table, mine: int, theirs: int, remaining: int) -> bool:
    """Is the deal lost for this seat's side whatever happens to the ``remaining`` points?"""
    if table.goal is not None:
        return mine + remaining < table.goal if table.takers else theirs >= table.goal
    return theirs >= mine + remaining if table.takers else theirs > mine + remaining


def deal_in_balance(table: Table) -> bool:
    """ "Keep a rough count as the tricks fall": can either side still win the deal?"""
    mine, theirs = table.count[table.camp], table.count[1 - table.camp]
    return not _made(table, mine, theirs, table.remaining) and not _lost(table, mine, theirs, table.remaining)


def trick_decides_deal(table: Table, trick: OnTable, card: int) -> bool:
    """ "When you are defending and close to 82 ... make sure of the one that gets you there." """
    mine, theirs = table.count[table.camp], table.count[1 - table.camp]
    if _made(table, mine, theirs, table.remaining):
        return False
    value = trick.points + table.points(card) + (LAST_TRICK if table.tricks_left == 1 else 0)
    return _made(table, mine + value, theirs, table.remaining - value)


#: How near the end a lone trump is kept for the last trick (earlier, it is needed to draw trumps).
LAST_TRICKS_TO_WATCH = 3


def hold_a_trump_for_the_last_trick(table: Table) -> bool:
    """ "When you are taking and short, the last trick's ten is often the difference, so hold a trump for it." """
    trumps = table.hand & table.trumps
    endgame = 1 < table.tricks_left <= LAST_TRICKS_TO_WATCH
    return trumps.bit_count() == 1 and endgame and deal_in_balance(table)


# ----------------------------------------------------------------- following to a trick


def feed_partner(table: Table, trick: OnTable, legal: Sequence[Card]) -> Card:
    """ "Throw a ten or an ace onto it ... a ten that would otherwise die under a trump is safe there." """
    plain = [c for c in legal if not table.is_trump(c)]
    if not plain:
        return shed_lowest(table, legal)  # following in trumps: keep the big ones for later
    # A ten that is not master dies otherwise; then aces and tens; then what would die anyway.
    return max(plain, key=lambda c: (table.points(c) >= TEN_POINTS, not is_master(table, c), table.points(c), -c))


def secure_partners_trick(table: Table, trick: OnTable, legal: Sequence[Card]) -> Card | None:
    """Partner's card may yet be beaten: "points in your partner's trick are your side's", so make it sure."""
    holding = [
        c
        for c in legal
        if c >> 3 == trick.led != table.trump
        and beats(table.trump, c, trick.best)
        and keeps_trick(table, trick, c, table.seat)
    ]
    return min(holding, key=table.key) if holding else None


def shed_lowest(table: Table, legal: Sequence[Card]) -> Card:
    """ "When an opponent is winning and you cannot win, play your lowest-value legal card." """
    return min(
        legal,
        key=lambda c: (
            table.is_trump(c),
            is_master(table, c),
            table.points(c),
            bares_a_ten(table, c),
            uncovers_nothing(table, c),
            table.key(c),
        ),
    )


def uncovers_nothing(table: Table, c: int) -> bool:
    """Two hands: a face-up table card with one face down under it turns that one up once played:
    among cards of equal use, play it first (one more card to choose from, and one fewer unknown)."""
    return not table.covering >> c & 1


def bares_a_ten(table: Table, c: int) -> bool:
    """Would playing ``c`` leave a ten alone in its suit, with its ace still out?"""
    suit = c >> 3
    ten = suit * 8 + TEN
    held = table.hand & SUIT_MASKS[suit]
    return c != ten and held >> ten & 1 == 1 and held.bit_count() == 2 and not is_master(table, ten)


def win_cheaply(table: Table, trick: OnTable, winners: list[Card], legal: Sequence[Card]) -> Card:
    """ "Win it with the lowest sufficient card, unless last to play where the cheapest winner is right." """
    if trick.last_to_play:
        return min(winners, key=table.key)
    sure = [c for c in winners if keeps_trick(table, trick, c, table.seat)]
    in_trumps = table.is_trump(winners[0])
    if in_trumps:
        # "When second hand, don't waste high trumps on tricks worth nothing"; a sure trump for a rich trick.
        if sure and (trick.points >= TEN_POINTS or any(trick_decides_deal(table, trick, c) for c in sure)):
            return min(sure, key=table.key)
        return min(winners, key=table.key)  # "use the lowest trump that wins"
    if sure:
        return min(sure, key=table.key)
    return shed_lowest(table, legal)  # a winner that will be beaten wastes a card


def follow(table: Table, trick: OnTable, legal: Sequence[Card]) -> Card:
    """Play to a trick someone else has led."""
    if trick.best_seat in table.partners:
        if keeps_trick(table, trick, trick.best, trick.best_seat):
            return feed_partner(table, trick, legal)
        # "Never trump or overtrump a partner's winning card when you are free not to."
        return secure_partners_trick(table, trick, legal) or shed_lowest(table, legal)
    winners = [c for c in legal if beats(table.trump, c, trick.best)]
    if not winners:
        return shed_lowest(table, legal)
    return win_cheaply(table, trick, winners, legal)


# ----------------------------------------------------------------- leading


def draw_trumps(table: Table, options: Sequence[Card]) -> Card | None:
    """ "If you hold the jack, lead it ... Follow with the nine": draw trumps while the opponents hold some."""
    if not table.takers or not opponents_hold_trumps(table):
        return None
    masters = [c for c in options if table.is_trump(c) and is_master(table, c)]
    return max(masters, key=table.key) if masters else None


def cash_masters(table: Table, options: Sequence[Card]) -> Card | None:
    """ "An ace outside trumps is a certain trick and the ten beneath it is nearly one": cash the masters."""
    masters = [c for c in options if not table.is_trump(c) and is_master(table, c) and not ruffable(table, c >> 3)]
    return max(masters, key=lambda c: (table.points(c), -c)) if masters else None


def lead_long_suit(table: Table, options: Sequence[Card]) -> Card | None:
    """ "The defending side ... leads its long suit to make the takers trump early and run short." """
    if table.takers:
        return None
    plain = [c for c in options if not table.is_trump(c) and not dies_under_its_ace(table, c)]
    if not plain:
        return None
    length = {s: (table.hand & SUIT_MASKS[s]).bit_count() for s in range(4)}
    suit = max({c >> 3 for c in plain}, key=lambda s: (length[s], -s))
    return min((c for c in plain if c >> 3 == suit), key=table.key)


def dies_under_its_ace(table: Table, c: int) -> bool:
    """ "Do not lead a ten while the ace of its suit is out and not yet played." """
    return c & 7 == TEN and not table.is_trump(c) and bool(table.unseen >> ((c >> 3) * 8 + ACE) & 1)


def lead_low(table: Table, options: Sequence[Card]) -> Card:
    """Lead what gives least away: a low card outside trumps, never a ten under its ace if it can be helped."""
    plain = [c for c in options if not table.is_trump(c)]
    if not plain:  # only trumps: a master wins, a small one goes cheap
        masters = [c for c in options if is_master(table, c)]
        return max(masters, key=table.key) if masters else min(options, key=table.key)
    return min(
        plain,
        key=lambda c: (dies_under_its_ace(table, c), table.points(c), uncovers_nothing(table, c), table.key(c), c),
    )


LEADS: tuple[Callable[[Table, Sequence[Card]], Card | None], ...] = (draw_trumps, cash_masters, lead_long_suit)


def lead(table: Table, legal: Sequence[Card]) -> Card:
    """Lead to a trick: the first piece of advice that applies chooses the card."""
    options = list(legal)
    if hold_a_trump_for_the_last_trick(table):
        options = [c for c in options if not table.is_trump(c)] or options
    for advice in LEADS:
        c = advice(table, options)
        if c is not None:
            return c
    return lead_low(table, options)


# ----------------------------------------------------------------- the bot


class HeuristicBot:
    """Plays the strategy of seed 000: take on the jack or nine, feed the partner, draw trumps, count."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        self.seed = seed  # the play is a pure function of the view: the seed changes nothing
        #: Coinche: how boldly to bid (``belote.bots.coinche.Style``'s fields as options)
        fields = {f for f in Style.__dataclass_fields__}
        self.style = Style(**{k: float(v) for k, v in options.items() if k in fields})
        #: The worth needed to take beyond ``TAKE_AT`` (by default the game's ``Variant.take_extra``)
        take = options.get("take_extra")
        self.take_extra = None if take is None else int(take)

    def act(self, view: PlayerView) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        if view.phase == "bidding":
            return BIDDING[view.game.auction.name](self, view)
        table = read_table(view)
        trick = read_trick(view, table)
        cards = [a for a in view.legal if isinstance(a, Card)]
        return lead(table, cards) if trick.led < 0 else follow(table, trick, cards)

    def _take_or_name(self, view: PlayerView) -> Action:
        """The turned card: take it in the first round, name a suit in the second."""
        if TAKE in view.legal:
            return take_the_turned_card(view, self.take_extra)
        return name_a_suit(view, self.take_extra)

    def _contract(self, view: PlayerView) -> Action:
        """Coinche: bid by the count (``belote.bots.coinche``), in the bot's style."""
        return choose_bid(view, mask_of(view.hand), style=self.style)


#: How the bot bids in each auction (``Auction.name``).
BIDDING: dict[str, Callable[[HeuristicBot, PlayerView], Action]] = {
    TURNED.name: HeuristicBot._take_or_name,
    CONTRACTS.name: HeuristicBot._contract,
}
