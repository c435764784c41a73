"""The bots at every game: Coinche, three hands, two hands; whole matches, the bids of Coinche, worlds drawn."""

from __future__ import annotations

import random

import pytest

from belote.bots import make_bot
from belote.bots.coinche import count
from belote.cards import FULL_PACK, Card, mask_of, parse_card
from belote.contracts import ALL_TRUMP, CAPOT, COINCHE, SURCOINCHE, contract_of, is_contract
from belote.game import PASS, Deal, Match, PlayerView
from belote.knowledge import OUT, Knowledge
from belote.rules import PRESETS, Rules
from belote.variants import VARIANTS, find_variant
from games import OTHER_GAMES

#: Coinche: the places of the deck each player takes (three, two, three), in playing order.
COINCHE_PLACES = find_variant("coinche").first_places()

N, E, S, W = range(4)
HEARTS = 1
#: The games beside the classic one (its bots play in tests/test_bots.py and tests/test_arena.py), and Coinche
#: without declarations.
MATCHES = {
    **{game: Rules(variant=game) for game in OTHER_GAMES},
    "coinche-sans-annonces": PRESETS["coinche-sans-annonces"],
}
#: The games where cards are hidden from every hand: out of play, or face down on the table.
HIDDEN_CARDS = [name for name, game in VARIANTS.items() if game.out_of_play or game.table_cards]


def short(preset: str, deals: int = 2) -> Rules:
    return Rules.from_dict({"deals": deals}, base=MATCHES[preset])


def bot_options(name: str) -> dict[str, float]:
    return {"think": 0.25} if name == "search" else {}


@pytest.mark.parametrize("preset", MATCHES)
@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_every_bot_plays_whole_matches_of_every_game_legally(preset: str, name: str) -> None:
    rules = short(preset, 2 if name == "search" else 4)
    for seed in range(2 if name == "search" else 6):
        m = Match(rules, seed=seed)
        bots = [make_bot(name, seed=seed * 10 + s, **bot_options(name)) for s in range(rules.players)]
        while not m.over:
            seat = m.to_move
            assert seat is not None
            view = m.view(seat)
            action = bots[seat].act(view)
            assert action in view.legal, (preset, name, seed, action)
            m.apply(action, seat=seat)
        assert m.deals_played == rules.deals


def test_a_search_game_replays_exactly() -> None:
    def play(preset: str) -> list[int]:
        m = Match(short(preset, 1), seed=5)
        bots = [make_bot("search", seed=s, think=0.25) for s in range(m.rules.players)]
        while not m.over:
            seat = m.to_move
            assert seat is not None
            m.apply(bots[seat].act(m.view(seat)), seat=seat)
        return m.actions

    for preset in OTHER_GAMES:
        assert play(preset) == play(preset)


# ----------------------------------------------------------------- worlds drawn at three and two hands


@pytest.mark.parametrize("variant", HIDDEN_CARDS)
def test_worlds_keep_what_nobody_may_see_out_of_every_hand(variant: str) -> None:
    rules = Rules(variant=variant)
    rng = random.Random(3)
    checked = 0
    for seed in range(12):
        m = Match(rules, seed=seed)
        while not m.over and len(m.deals) < 2:
            deal = m.deal
            if deal.phase == "play":
                seat = m.to_move
                assert seat is not None
                view = m.view(seat)
                k = Knowledge.from_view(view)
                hands, under = k.sample_world(rng)
                assert hands[seat] == deal.hand_mask(seat)
                seen = mask_of(view.played)
                for s in range(rules.players):
                    if s != seat:
                        assert hands[s] & seen == 0
                        assert hands[s] & k.excluded[s] == 0
                        assert k.hands[s] & ~hands[s] == 0  # the known cards (the turned card, face-up cards)
                if rules.game.out_of_play:
                    # The cards out of play (eight at three hands) are nobody's: the hands hold the
                    # cards in play only.
                    pile = k.sample(rng)[OUT]
                    assert pile.bit_count() == rules.game.out_of_play
                    in_hands = 0
                    for h in hands:
                        in_hands |= h
                    assert in_hands.bit_count() == 32 - rules.game.out_of_play - len(view.played)
                else:
                    assert under is not None
                    real_under = deal.under
                    assert real_under is not None
                    # A card lies under each face-up card that really has one, and under no other.
                    visible = deal.hand_mask(0) | deal.hand_mask(1) | seen
                    for up in range(32):
                        hidden = real_under[up] >= 0 and not visible >> real_under[up] & 1
                        in_play = (visible & ~seen) >> up & 1 or up in [c for _, c in view.trick]
                        assert (under[up] >= 0) == bool(hidden and in_play), (seed, up)
                    downs = [c for c in under if c >= 0]
                    everything = seen
                    for h in hands:
                        everything |= h
                    for c in downs:
                        assert not everything >> c & 1
                        everything |= 1 << c
                    assert everything == FULL_PACK
                checked += 1
            actions = m.legal_actions()
            m.apply(actions[rng.randrange(len(actions))])
    assert checked > 100


# ----------------------------------------------------------------- Coinche bids on hands made by hand


def coinche_deal(hands: dict[int, str], dealer: int = W) -> Deal:
    """A Coinche deal giving each seat the cards written for it (the rest dealt from what is left)."""
    given = {seat: [parse_card(t) for t in text.split()] for seat, text in hands.items()}
    named = {c for cs in given.values() for c in cs}
    spare = [c for c in range(32) if c not in named]
    deck = [-1] * 32
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    for k, seat in enumerate(order):
        cards = given.get(seat, [])
        cards = cards + [Card(spare.pop()) for _ in range(8 - len(cards))]
        for place, c in zip(COINCHE_PLACES[k], cards, strict=True):
            deck[place] = c
    deal = Deal(Rules(variant="coinche"), dealer, deck)
    for seat, cards in given.items():
        assert sorted(deal.hand(seat)) == sorted(cards)
    return deal


def bid_after(hands: dict[int, str], bids: list[str]) -> PlayerView:
    """The view of the seat to speak after ``bids`` (N speaks first: W deals)."""
    from belote.game import parse_action

    deal = coinche_deal(hands)
    for b in bids:
        deal.apply(parse_action(b))
    return deal.view(deal.to_move)


BIDDERS = ["heuristic", "search"]


@pytest.mark.parametrize("name", BIDDERS)
def test_the_jack_nine_and_ace_of_hearts_with_two_aces_open_in_hearts(name: str) -> None:
    view = bid_after({N: "JH 9H AH 7H AS AD 8C 7S"}, [])
    action = make_bot(name, seed=1).act(view)
    assert is_contract(action)
    level, mode = contract_of(action)
    assert mode == HEARTS and level <= 120


@pytest.mark.parametrize("name", BIDDERS)
def test_four_jacks_bid_all_trumps(name: str) -> None:
    view = bid_after({N: "JS JH JD JC 9S 7H 8D 7C"}, [])
    action = make_bot(name, seed=1).act(view)
    assert is_contract(action) and contract_of(action)[1] == ALL_TRUMP


@pytest.mark.parametrize("name", BIDDERS)
def test_a_hand_that_takes_every_trick_bids_capot(name: str) -> None:
    view = bid_after({N: "JH 9H AH TH KH QH AS AD"}, [])
    action = make_bot(name, seed=1).act(view)
    assert is_contract(action) and contract_of(action) == (CAPOT, HEARTS)
    # A king without its ten may lose a trick: no capot then.
    view = bid_after({N: "JH 9H AH 7H 8H AS KS AD"}, [])
    action = make_bot(name, seed=1).act(view)
    assert is_contract(action) and contract_of(action)[0] < CAPOT


@pytest.mark.parametrize("name", BIDDERS)
def test_an_empty_hand_passes(name: str) -> None:
    view = bid_after({N: "7S 8S 7H 8H 7D 8D 7C 8C"}, [])
    assert make_bot(name, seed=1).act(view) == PASS
    # And over a contract of the other side, it neither coinches nor bids.
    view = bid_after({E: "7S 8S 7H 8H 7D 8D 7C 8C"}, ["100H"])
    assert make_bot(name, seed=1).act(view) == PASS


@pytest.mark.parametrize("name", BIDDERS)
def test_a_defender_holding_the_jack_and_nine_of_trumps_and_aces_coinches_a_high_bid(name: str) -> None:
    view = bid_after({E: "JH 9H 7H AS AD AC TS 8D"}, ["130H"])
    assert COINCHE in view.legal
    assert make_bot(name, seed=1).act(view) == COINCHE


@pytest.mark.parametrize("name", BIDDERS)
def test_partner_supports_the_opening_and_never_coinches_it(name: str) -> None:
    # N opens hearts; S holds the king and queen, the ten and two aces: hearts or pass, or no-trumps
    # on its aces; over an opponent's bid it competes or lets it stand, never for another suit.
    south = "TH KH QH AS AD AC 7S 8D"
    for bids in (["80H", "pass"], ["80H", "90S"]):
        view = bid_after({N: "JH 9H AH 7H 8S 7D 8C 7C", S: south}, bids)
        action = make_bot(name, seed=1).act(view)
        assert action == PASS or (is_contract(action) and contract_of(action)[1] in (HEARTS, 4)), bids


def test_surcoinche_only_when_sure() -> None:
    # N bids hearts, E coinches; S (with nothing) lets it stand, then N decides.
    south = "7S 8S 7D 8D 9D 7C 8C 9C"
    weak = bid_after({N: "JH 9H 8H 7H TS TD QC KC", S: south}, ["80H", "coinche"])
    assert SURCOINCHE in weak.legal and weak.seat == S
    assert make_bot("heuristic").act(weak) == PASS
    weak = bid_after({N: "JH 9H 8H 7H TS TD QC KC", S: south}, ["80H", "coinche", "pass"])
    assert weak.seat == N and make_bot("heuristic").act(weak) == PASS
    strong = bid_after({N: "JH 9H AH TH KH QH AS AD", S: south}, ["80H", "coinche", "pass"])
    assert make_bot("heuristic").act(strong) == SURCOINCHE


def test_the_count_of_a_hand_follows_the_mode() -> None:
    hearts = mask_of(["JH", "9H", "AH", "7H", "AS", "AD", "8C", "7S"])
    jacks = mask_of(["JS", "JH", "JD", "JC", "9S", "7H", "8D", "7C"])
    aces = mask_of(["AS", "TS", "KS", "AH", "TH", "AD", "TD", "AC"])
    assert max(range(6), key=lambda m: count(hearts, m)) == HEARTS
    assert max(range(6), key=lambda m: count(jacks, m)) == ALL_TRUMP
    assert max(range(6), key=lambda m: count(aces, m)) == 4  # no-trumps


def test_the_contract_bid_is_one_of_the_legal_actions_from_every_seat() -> None:
    rng = random.Random(1)
    bot = make_bot("heuristic")
    for seed in range(200):
        deal = Deal.from_seed(seed, Rules(variant="coinche"), dealer=seed % 4)
        while deal.phase == "bidding":
            view = deal.view(deal.to_move)
            action = bot.act(view) if rng.random() < 0.8 else view.legal[rng.randrange(len(view.legal))]
            assert action in view.legal
            deal.apply(action)


# ----------------------------------------------------------------- no cheating in Coinche


def _coinche_redeal(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The same Coinche deal with the cards hidden from ``seat`` dealt again among the others, consistently."""
    view = deal.view(seat)
    hands = Knowledge.from_view(view).sample(rng)
    played = [0, 0, 0, 0]
    for i, c in enumerate(deal.plays):
        played[deal.seat_of_play(i)] |= 1 << c
    deck = list(deal.deck)
    order = [(deal.dealer + 1 + i) % 4 for i in range(4)]
    for k, s in enumerate(order):
        cards = [c for c in range(32) if (hands[s] | played[s]) >> c & 1]
        for place, c in zip(COINCHE_PLACES[k], cards, strict=True):
            deck[place] = c
    twin = Deal(deal.rules, deal.dealer, deck)
    for a in deal.actions:
        twin.apply(a)
    return twin


@pytest.mark.parametrize("name", ["heuristic", "search"])
def test_a_coinche_decision_does_not_depend_on_hidden_cards(name: str) -> None:
    rng = random.Random(7)
    bidder = make_bot("heuristic")
    checked = 0
    for seed in range(6):
        deal = Deal.from_seed(seed, Rules(variant="coinche"), dealer=seed % 4)
        steps = rng.randrange(0, 24)
        while deal.phase != "done" and steps:
            view = deal.view(deal.to_move)
            deal.apply(bidder.act(view) if deal.phase == "bidding" else view.legal[0])
            steps -= 1
        if deal.phase == "done":
            continue
        seat = deal.to_move
        for _ in range(200):  # the declarations announced must come out the same
            twin = _coinche_redeal(deal, seat, rng)
            if twin.view(seat) == deal.view(seat):
                break
        assert twin.view(seat) == deal.view(seat)
        options = bot_options(name)
        a = make_bot(name, seed=3, **options).act(deal.view(seat))
        b = make_bot(name, seed=3, **options).act(twin.view(seat))
        assert a == b
        checked += 1
    assert checked >= 3


def _three_handed_redeal(m: Match, seat: int, rng: random.Random) -> Match:
    """The same three-handed match with the cards hidden from ``seat`` (the others' hands and the
    eight out of play) dealt again consistently with its view."""
    deal = m.deal
    k = Knowledge.from_view(m.view(seat))
    holdings = k.sample(rng)
    played = [0, 0, 0]
    for i, c in enumerate(deal.plays):
        played[deal.seat_of_play(i)] |= 1 << c
    new = [holdings[s] | played[s] for s in range(3)] + [holdings[OUT]]
    start = [*deal.start_hands, FULL_PACK]
    deck = list(deal.deck)
    places: dict[int, list[int]] = {h: [] for h in range(4)}
    for i, c in enumerate(deck):
        if c == deal.turned:
            continue
        owner = next(h for h in range(4) if start[h] >> c & 1)
        places[owner].append(i)
    for h in range(4):
        if h == seat:
            continue
        cards = [c for c in range(32) if new[h] >> c & 1 and c != deal.turned]
        assert len(cards) == len(places[h])
        for i, c in zip(places[h], cards, strict=True):
            deck[i] = c
    twin = Match(m.rules, seed=m.seed, first_dealer=m.first_dealer)
    twin.deals[-1] = Deal(m.rules, deal.dealer, deck, deal.pending)
    for a in deal.actions:
        twin.apply(a)
    return twin


@pytest.mark.parametrize("name", ["heuristic", "search"])
def test_a_three_handed_decision_does_not_depend_on_hidden_cards(name: str) -> None:
    rng = random.Random(5)
    bidder = make_bot("heuristic", take_extra=-200)  # someone takes at once
    checked = 0
    for seed in range(5):
        m = Match(PRESETS["three-handed"], seed=seed)
        while m.deal.phase == "bidding":
            m.apply(bidder.act(m.view(m.to_move)))
        for _ in range(rng.randrange(0, 18)):
            m.apply(m.legal_actions()[0])
        seat = m.to_move
        assert seat is not None
        for _ in range(300):  # the declarations announced must come out the same
            twin = _three_handed_redeal(m, seat, rng)
            if twin.view(seat) == m.view(seat):
                break
        assert twin.view(seat) == m.view(seat)
        assert [twin.deal.hand_mask(s) for s in range(3)] != [m.deal.hand_mask(s) for s in range(3)] or len(
            m.deal.plays
        ) > 15
        options = bot_options(name)
        assert make_bot(name, seed=3, **options).act(m.view(seat)) == make_bot(name, seed=3, **options).act(
            twin.view(seat)
        )
        checked += 1
    assert checked == 5
