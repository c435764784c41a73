"""The heuristic bot (``belote.bots.heuristic``): one test per piece of the seed's strategy.

Positions are real deals: ``deal_of`` builds the deck that gives each seat the hand written for it
(the first five cards in the first distribution, the rest in the second, the taker's hand holding
the turned card), the bidding is made, and the tricks before the position are played by hand. W
deals, so N speaks and leads first; hearts are trumps unless a test says otherwise.
"""

from __future__ import annotations

from belote.bots.base import RandomBot, make_bot
from belote.bots.heuristic import HeuristicBot
from belote.cards import CLUBS, SPADES, Card, parse_card
from belote.game import NAMES, PASS, TAKE, Deal, PlayerView
from belote.play import POINTS
from belote.rules import PRESETS, Rules

N, E, S, W = range(4)
HEARTS = 1


def parsed(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def deck_of(hands: dict[int, str], turned: str, taker: int | None = None, dealer: int = W) -> list[int]:
    """A deck that deals each seat the cards written for it; cards nobody was given fill the gaps."""
    turned_card = parse_card(turned)
    given = {seat: [c for c in parsed(text) if not (seat == taker and c == turned_card)] for seat, text in hands.items()}
    named = {c for cs in given.values() for c in cs} | {turned_card}
    spare = [c for c in range(32) if c not in named]
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    deck = [-1] * 32
    for k, seat in enumerate(order):
        first = given.get(seat, [])[:5]
        first += [spare.pop() for _ in range(5 - len(first))]
        for place, c in zip((3 * k, 3 * k + 1, 3 * k + 2, 12 + 2 * k, 13 + 2 * k), first, strict=True):
            deck[place] = c
    deck[20] = turned_card
    rest = [c for seat in order for c in given.get(seat, [])[5:]]  # the second distribution, in order
    deck[21:] = rest + spare
    assert sorted(deck) == list(range(32))
    return deck


def deal_of(
    hands: dict[int, str], turned: str, taker: int, rules: Rules | None = None, second_round: bool = False
) -> Deal:
    """The deal in play: ``taker`` took the turned card (or named its suit in the second round)."""
    deal = Deal(rules or Rules(), W, deck_of(hands, turned, taker))
    if second_round:
        for _ in range(4):
            deal.apply(PASS)
    while deal.to_move != taker:
        deal.apply(PASS)
    deal.apply(NAMES[parse_card(turned).suit] if second_round else TAKE)
    for seat, text in hands.items():
        assert sorted(deal.hand(seat)) == sorted(parsed(text)), seat
    return deal


def play(deal: Deal, cards: str) -> None:
    for c in parsed(cards):
        deal.apply(c)


def bot_plays(deal: Deal) -> str:
    return str(HeuristicBot(seed=0).act(deal.view(deal.to_move)))


def bidding_view(hand: str, turned: str, passes: int = 0) -> PlayerView:
    """The view of the player to speak after ``passes`` passes (four or more: the second round)."""
    seat = (W + 1 + passes) % 4
    deal = Deal(Rules(), W, deck_of({seat: hand}, turned))
    for _ in range(passes):
        deal.apply(PASS)
    assert deal.to_move == seat and sorted(deal.hand(seat)) == sorted(parsed(hand))
    return deal.view(seat)


def bid(hand: str, turned: str, passes: int = 0) -> int:
    return HeuristicBot(seed=0).act(bidding_view(hand, turned, passes))


# ----------------------------------------------------------------- taking

# "The jack alone is a fine start ... the jack with the nine is the deal half won ... Three or four
# trumps with an ace outside is the ordinary taking hand."


def test_takes_on_the_jack_with_two_more_trumps() -> None:
    assert bid("JH 8H TS 7S 9D", turned="7H") == TAKE


def test_takes_on_the_jack_and_the_nine() -> None:
    assert bid("9H KS 8S QD 7C", turned="JH") == TAKE


def test_takes_on_three_trumps_with_an_ace_outside() -> None:
    assert bid("9H AH AS KD 7C", turned="8H") == TAKE


def test_passes_without_jack_or_nine_and_one_small_trump() -> None:
    assert bid("AS KS AD QC 8C", turned="7H") == PASS


def test_passes_on_small_trumps_alone() -> None:
    # "Take on what you can see": two small trumps and nothing outside is no hand.
    assert bid("8H QS 9D 8D 7C", turned="7H") == PASS


def test_second_round_names_a_suit_held_with_its_jack_and_length() -> None:
    assert bid("JS 9S 7S AD 8C", turned="8H", passes=4) == NAMES[SPADES]


def test_second_round_names_a_suit_with_its_nine_and_three_more_and_an_ace() -> None:
    assert bid("9C QC 8C 7C AD", turned="8H", passes=4) == NAMES[CLUBS]


def test_second_round_passes_without_jack_or_nine() -> None:
    # Four spades to the ace and king, but neither the jack nor the nine: going down costs 162.
    assert bid("AS KS QS 8S AD", turned="8H", passes=4) == PASS


def test_second_round_never_names_the_turned_suit() -> None:
    # The hand is made for hearts, which can no longer be named; nothing else is worth naming.
    assert bid("JH 9H AH 7S 8D", turned="8H", passes=4) == PASS


# ----------------------------------------------------------------- playing with your partner

# N took hearts (the 9 turned); N and S against E and W.
PARTNERS = {
    N: "AS QS JH 9H AD 7D AC 7C",
    E: "7S JS 7H 8H KD 8D KC 8C",
    S: "TS 8S AH QD 9D QC 9C JC",
    W: "KS 9S TH QH KH TD JD TC",
}


def test_feeds_the_ten_to_a_partner_winning_with_the_ace() -> None:
    # "Throw a ten or an ace onto it ... points in your partner's trick are your side's."
    deal = deal_of(PARTNERS, turned="9H", taker=N)
    play(deal, "AS 7S")
    assert bot_plays(deal) == "TS"


def test_does_not_trump_a_partners_trick_and_throws_a_ten_instead() -> None:
    # S has no diamond: free to trump N's ace, it throws the ten of clubs, which would die under the ace.
    deal = deal_of(
        {
            N: "AD KD QS 7S JH 9H AC 7C",
            E: "7D 8D JS 8S 8H KC 8C 9C",
            S: "AS 9S KS AH 7H TC QC JC",
            W: "TD JD 9D QD TS TH QH KH",
        },
        turned="9H",
        taker=N,
    )
    play(deal, "AD 8D")
    assert bot_plays(deal) == "TC"


# E took hearts; N leads a diamond, which neither E nor S holds.
NO_DIAMONDS = {
    N: "8D QD KD AD QS KS QC KC",
    E: "8H 9H TH KH 7S 8S 7C 8C",
    S: "7H QH AH JH AS TS AC TC",
    W: "7D 9D TD JD 9S JS 9C JC",
}


def test_overtrumps_the_opponents_with_the_lowest_trump_that_wins() -> None:
    # E trumps with the eight, and S must trump higher: the queen will do, the ace and the jack are kept.
    deal = deal_of(NO_DIAMONDS, turned="9H", taker=E)
    play(deal, "8D 8H")
    assert bot_plays(deal) == "QH"


def test_second_hand_does_not_waste_a_high_trump_on_a_trick_worth_nothing() -> None:
    # E must trump N's eight of diamonds: with the nine and the king too, the eight of trumps is enough.
    deal = deal_of(NO_DIAMONDS, turned="9H", taker=E)
    play(deal, "8D")
    assert bot_plays(deal) == "8H"
