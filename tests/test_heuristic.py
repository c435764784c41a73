"""The heuristic bot (``belote.bots.heuristic``): one test per piece of the seed's strategy.

Positions are real deals: ``deal_of`` builds the deck that gives each seat the hand written for it
(the first five cards in the first distribution, the rest in the second, the taker's hand holding
the turned card), the bidding is made, and the tricks before the position are played by hand. W
deals, so N speaks and leads first; hearts are trumps unless a test says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

from belote.bots import Bot, RandomBot, make_bot
from belote.bots.heuristic import HeuristicBot
from belote.cards import CLUBS, SPADES, Card, parse_card
from belote.game import NAMES, PASS, TAKE, Deal, PlayerView
from belote.rules import PRESETS, Rules

N, E, S, W = range(4)


def parsed(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def deck_of(hands: dict[int, str], turned: str, taker: int | None = None, dealer: int = W) -> list[int]:
    """A deck that deals each seat the cards written for it; cards nobody was given fill the gaps."""
    turned_card = parse_card(turned)
    given: dict[int, list[int]] = {
        seat: [c for c in parsed(text) if not (seat == taker and c == turned_card)] for seat, text in hands.items()
    }
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
    # The jack, the eight and the turned seven, a guarded ten of spades, no club.
    assert bid("JH 8H TS 7S 9D", turned="7H") == TAKE


def test_takes_on_the_jack_and_the_nine() -> None:
    # The nine and the turned jack, and nothing else worth a point.
    assert bid("9H KS 8S QD 7C", turned="JH") == TAKE


def test_takes_on_three_trumps_with_an_ace_outside() -> None:
    # The nine, the ace and the turned eight of hearts, and the ace of spades.
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


def test_cannot_win_plays_the_lowest_value_card() -> None:
    # "When an opponent is winning and you cannot win, play your lowest-value legal card."
    deal = deal_of(PARTNERS, turned="9H", taker=N)
    play(deal, "7D KD")
    assert bot_plays(deal) == "9D"


def test_wins_with_the_lowest_sufficient_card() -> None:
    # With the ace in its own hand the ten of clubs is master: E takes N's seven with it, not the ace.
    deal = deal_of(
        {
            N: "7C 9C JH 9H AH 7S 8S 7D",
            E: "AC TC 8C 9S TS QD KD 7H",
            S: "JC QC KC JS QS AD TD 8H",
            W: "KS AS 9D 8D JD TH QH KH",
        },
        turned="9H",
        taker=N,
    )
    play(deal, "7C")
    assert bot_plays(deal) == "TC"


# ----------------------------------------------------------------- leading trumps


def test_taker_leads_the_jack_then_the_nine_then_cashes_an_ace() -> None:
    # "If you hold the jack, lead it ... Follow with the nine. Once the trumps are gone, an ace
    # outside trumps is a certain trick."
    deal = deal_of(PARTNERS, turned="9H", taker=N)
    assert bot_plays(deal) == "JH"
    play(deal, "JH 7H AH TH")
    assert bot_plays(deal) == "9H"  # W still holds trumps
    play(deal, "9H 8H 8S QH")
    assert bot_plays(deal) in {"AS", "AD", "AC"}  # no trump left to draw: cash a master


def test_defender_leads_its_long_suit_not_a_trump() -> None:
    # "The defending side ... leads its long suit to make the takers trump early and run short."
    deal = deal_of(
        {
            N: "9S 7H 8D 7D KC QC 8C 7C",
            E: "AS TS JH 9H AH AD AC TC",
            S: "7S 8S JS 8H 9D TD JD 9C",
            W: "QS KS TH QH KH QD KD JC",
        },
        turned="9H",
        taker=E,
    )
    assert bot_plays(deal) == "7C"


# ----------------------------------------------------------------- counting to 82

# N took hearts; six tricks are played and N, to lead, holds the jack of trumps and the seven of
# spades. E still has the seven of trumps, W the eight of spades. Led now, the jack takes the seven
# of trumps and the last trick goes to W; kept back, it takes the last trick and its ten.
LAST_TRICK_HANDS = {
    N: "7S 9S KS 9H JH QH QD QC",
    E: "JS 7H 8H 7D 8D JD AD TC",
    S: "TS TH KH 9D TD KD 8C 9C",
    W: "8S QS AS AH 7C JC KC AC",
}
SIX_TRICKS = "QH 8H TH AH  QS 9S JS TS  9C AC QC TC  AS KS JD KH  TD JC QD AD  7D KD KC 9H"


def finish(deal: Deal, first: str) -> str:
    """The outcome when ``first`` is played now and four heuristic bots play the rest."""
    deal = deal.copy()
    play(deal, first)
    bots = [HeuristicBot(seed=s) for s in range(4)]
    while deal.phase != "done":
        deal.apply(bots[deal.to_move].act(deal.view(deal.to_move)))
    assert deal.result is not None
    return deal.result.outcome


def test_holds_a_trump_for_the_last_trick_when_the_count_is_close() -> None:
    # "When you are taking and short, the last trick's ten is often the difference, so hold a trump for it."
    deal = deal_of(LAST_TRICK_HANDS, turned="9H", taker=N, rules=Rules(declarations=False))
    play(deal, SIX_TRICKS)
    assert deal.won == (58, 74) and deal.to_move == N  # 30 points to come: the takers need 25 of them
    assert bot_plays(deal) == "7S"
    assert finish(deal, "7S") == "made"
    assert finish(deal, "JH") == "dedans"


def test_draws_the_last_trump_when_the_deal_is_already_made() -> None:
    # The same cards at the end, but the takers have 95 to 37: nothing to hold back for, so "draw trumps".
    deal = deal_of(
        {
            N: "7S 9S 9H TH JH QH TC QC",
            E: "QS 7H 8H KH AH 8D TD QD",
            S: "TS AS 9D JD AD 8C JC KC",
            W: "8S JS KS 7D KD 7C 9C AC",
        },
        turned="TH",
        taker=N,
        rules=Rules(declarations=False),
    )
    play(deal, "TC KH JC 9C  AH AD KS 9H  TH 8H AS 7D  9S QS TS JS  KC AC QC QD  KD QH TD JD")
    assert deal.won == (95, 37) and deal.to_move == N
    assert sorted(str(c) for c in deal.hand(N)) == ["7S", "JH"] and "7H" in [str(c) for c in deal.hand(E)]
    assert bot_plays(deal) == "JH"


# ----------------------------------------------------------------- every deal, every rule


def play_out(deal: Deal, bots: Sequence[Bot]) -> None:
    """Play ``deal`` to the end, each seat's bot shown only its own view; every action must be legal."""
    while deal.phase != "done":
        view = deal.view(deal.to_move)
        action = bots[deal.to_move].act(view)
        assert action in view.legal, (action, view.legal)
        deal.apply(action)


def test_always_plays_a_legal_action_under_every_preset() -> None:
    for name, rules in PRESETS.items():
        for seed in range(200):
            # All four seats heuristic, or one side heuristic against random bots: more kinds of positions.
            kinds = ("heuristic",) * 4 if seed % 3 == 0 else ("heuristic", "random") * 2
            if seed % 3 == 2:
                kinds = kinds[1:] + kinds[:1]
            bots = [make_bot(kind, seed=seed * 4 + s) for s, kind in enumerate(kinds)]
            deal = Deal.from_seed(seed, rules, dealer=seed % 4)
            play_out(deal, bots)
            assert deal.result is not None, name


def test_the_same_view_gives_the_same_action_whatever_the_seed() -> None:
    deal = Deal.from_seed(11)
    bots = [HeuristicBot(seed=1), HeuristicBot(seed=2)]
    while deal.phase != "done":
        view = deal.view(deal.to_move)
        action = bots[0].act(view)
        assert bots[1].act(view) == action
        deal.apply(action)


def test_registered_under_its_name() -> None:
    bot = make_bot("heuristic", seed=3)
    assert isinstance(bot, HeuristicBot) and bot.name == "heuristic"


def test_beats_the_random_bot_by_more_than_twenty_points_a_deal() -> None:
    # Duplicate: each deal is played twice with the teams swapped, so the cards cancel out.
    margin = 0
    deals = 200
    for seed in range(deals):
        for heuristic_side in (0, 1):
            bots: list[Bot] = [
                HeuristicBot(seed=seed * 4 + s) if s & 1 == heuristic_side else RandomBot(seed=seed * 4 + s)
                for s in range(4)
            ]
            deal = Deal.from_seed(seed, dealer=seed % 4)
            play_out(deal, bots)
            assert deal.result is not None
            points = deal.result.points
            margin += points[heuristic_side] - points[1 - heuristic_side]
    assert margin / (2 * deals) > 20
