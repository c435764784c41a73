"""What a seat knows of the hidden hands is always true, and the deals drawn from it fit the view."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from belote.actions import NO_BELOTE, parse_action
from belote.cards import FULL_PACK, HEARTS, mask_of, parse_card
from belote.declarations import belote_cards, belote_holder, find_declarations
from belote.game import PASS, PLAY, TAKE, Deal, Match, PlayerView
from belote.knowledge import OUT, Knowledge, Plausibility
from belote.play import beats, legal_mask
from belote.rules import PRESETS, Rules
from belote.variants import VARIANTS
from games import GAMES
from test_announcing import deck_for

N, E, S, W = range(4)


def _play_random(m: Match, rng: random.Random) -> None:
    actions = m.legal_actions()
    m.apply(actions[rng.randrange(len(actions))])


def real_holdings(deal: Deal) -> list[int]:
    """What each holder of ``Knowledge`` really holds: the players' playable cards, then the cards
    out of play (three hands) or each player's face-down cards (two hands)."""
    n = deal.players
    hands = [deal.hand_mask(s) for s in range(n)]
    if n == 3:
        held = mask_of(deal.plays)
        for h in hands:
            held |= h
        return [*hands, FULL_PACK & ~held]
    if n == 2:
        under = deal.under
        assert under is not None
        downs = [0, 0]
        seats = deal.play_seats()
        on_trick = [(seats[i], c) for i, c in enumerate(deal.plays) if i >= len(deal.plays) - len(deal.trick)]
        for s in range(2):
            tops = [c for c in range(32) if hands[s] >> c & 1] + [c for seat, c in on_trick if seat == s]
            for c in tops:
                if under[c] >= 0 and not (hands[s] >> under[c] & 1) and under[c] not in deal.plays:
                    downs[s] |= 1 << under[c]
        return [*hands, *downs]
    return hands


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_knowledge_never_contradicts_the_real_hands(preset: str) -> None:
    rules = PRESETS[preset]
    for seed in range(40 if rules.players == 4 else 25):
        m = Match(rules, seed=seed)
        rng = random.Random(seed)
        while not m.over and len(m.deals) < 2:
            deal = m.deal
            if deal.phase == "play":
                real = real_holdings(deal)
                for seat in range(rules.players):
                    k = Knowledge.from_view(m.view(seat))
                    assert k.holders == len(real)
                    for s in range(k.holders):
                        assert real[s] & k.excluded[s] == 0, (preset, seed, s)
                        assert k.hands[s] & ~real[s] == 0, (preset, seed, s)
                        assert k.counts[s] == real[s].bit_count(), (preset, seed, seat, s)
            _play_random(m, rng)


@pytest.mark.parametrize("variant", GAMES)
def test_sampled_deals_fit_the_view(variant: str) -> None:
    rules = Rules(variant=variant)
    for seed in range(40):
        m = Match(rules, seed=seed)
        rng = random.Random(seed)
        while not m.over and len(m.deals) < 2:
            if m.deal.phase == "play":
                seat = m.to_move
                assert seat is not None
                view = m.view(seat)
                k = Knowledge.from_view(view)
                hands = k.sample(rng)
                assert hands[seat] & mask_of(view.hand) == mask_of(view.hand)
                assert hands[seat] == m.deal.hand_mask(seat)  # its hand and its face-up cards
                everything = mask_of(view.played)
                for s, h in enumerate(hands):
                    assert h & k.excluded[s] == 0
                    assert everything & h == 0
                    everything |= h
                assert everything == FULL_PACK
                if rules.players == 3:
                    assert hands[OUT].bit_count() == 8
                world, under = k.sample_world(rng)
                assert len(world) == rules.players
                if rules.players == 2:
                    assert under is not None
                    downs = [c for c in under if c >= 0]
                    assert len(set(downs)) == len(downs)
                    assert not any(w >> c & 1 for w in world for c in downs)
            _play_random(m, rng)


def test_a_player_who_did_not_follow_is_void() -> None:
    # Fixed deck: N leads, and the position is checked against what each seat holds.
    deal = Deal(Rules(), 3, list(range(32)))  # dealer W: N is next and leads
    deal.apply(TAKE)  # N takes the turned card
    # Play the first trick: everyone follows or not as the hands make them.
    while len(deal.plays) < 4:
        deal.apply(deal.legal_actions()[-1])
    led = deal.plays[0] >> 3
    view = deal.view(deal.to_move)
    k = Knowledge.from_view(view)
    for i, c in enumerate(deal.plays):
        seat = (0 + i) % 4
        if c >> 3 != led and seat != view.seat:
            assert k.excluded[seat] & (0xFF << (8 * led)) == (0xFF << (8 * led))


def test_the_taker_holds_the_turned_card_until_played() -> None:
    deal = Deal.from_seed(11)
    deal.apply(PASS)
    deal.apply(TAKE)
    taker = deal.taker
    assert taker is not None and deal.turned is not None
    for seat in range(4):
        if seat != taker:
            k = Knowledge.from_view(deal.view(seat))
            assert k.hands[taker] >> deal.turned & 1


def test_bidding_knowledge_places_five_cards_each() -> None:
    deal = Deal.from_seed(5)
    k = Knowledge.from_view(deal.view(0))
    hands = k.sample(random.Random(3))
    assert [h.bit_count() for h in hands] == [5, 5, 5, 5]
    assert deal.turned is not None
    assert not any(h >> deal.turned & 1 for h in hands)


# ----------------------------------------------------------------- belote said, and not said
# Dealer West: North speaks first, takes the turned ace of hearts and leads. In SPLIT South holds the
# king of hearts but not the queen (North does); in TOGETHER South holds both.
SPLIT = [
    ["7S", "8S", "9S", "JH", "9H", "AH", "QH", "8C"],
    ["8D", "9D", "TD", "AS", "KS", "7H", "9C", "JC"],
    ["KH", "8H", "TH", "AD", "KD", "TS", "QS", "KC"],
    ["JS", "7C", "JD", "QD", "7D", "TC", "QC", "AC"],
]
TOGETHER = [
    ["7S", "8S", "9S", "JH", "9H", "AH", "7C", "8C"],
    ["8D", "9D", "TD", "AS", "KS", "7H", "9C", "JC"],
    ["KH", "QH", "TH", "AD", "KD", "TS", "QS", "KC"],
    ["JS", "8H", "JD", "QD", "7D", "TC", "QC", "AC"],
]


def hearts_taken(hands: list[list[str]], rules: Rules | None = None) -> Deal:
    deal = Deal(rules or Rules(), W, deck_for(hands, W, N, "AH"))
    deal.apply(TAKE)
    assert deal.phase == PLAY and deal.to_move == N
    return deal


def play(deal: Deal, *cards: str) -> Deal:
    for c in cards:
        deal.apply(parse_action(c))
    return deal


def excluded_unknown(view: PlayerView, seat: int) -> int:
    """The cards not placed that ``view``'s knowledge says ``seat`` does not hold."""
    k = Knowledge.from_view(view)
    return k.excluded[seat] & k.unknown


def test_a_king_of_trumps_played_without_belote_tells_its_player_has_not_the_queen() -> None:
    # The jack of hearts led: East plays its only heart, South the king, and no word of belote.
    deal = play(hearts_taken(SPLIT), "JH", "7H", "KH")
    assert deal.view(W).belote == ()
    assert excluded_unknown(deal.view(W), S) == mask_of([parse_card("QH")])
    # Under the jack nobody could go higher: the play alone tells nothing of the queen.
    assert excluded_unknown(deal.view(W), E) == excluded_unknown(deal.view(W), N) == 0
    k = Knowledge.from_view(deal.view(W))
    rng = random.Random(1)
    assert not any(k.sample(rng)[S] >> parse_card("QH") & 1 for _ in range(50))


def test_belote_said_places_the_queen_and_excludes_nothing_more() -> None:
    deal = play(hearts_taken(TOGETHER), "JH", "7H", "KH")
    view = deal.view(W)
    assert view.belote == ((S, "belote"),)
    k = Knowledge.from_view(view)
    assert k.hands[S] == mask_of([parse_card("QH")])
    assert excluded_unknown(view, S) == 0
    assert all(k.excluded[s] >> parse_card("QH") & 1 for s in (N, E))


def test_the_seat_that_kept_silent_infers_nothing_of_itself_nor_of_the_others() -> None:
    deal = play(hearts_taken(SPLIT), "JH", "7H", "KH")
    # South knows its hand: its own silence tells it nothing, and nothing else excludes the queen
    # from anyone yet (West has not played).
    k = Knowledge.from_view(deal.view(S))
    assert k.unknown >> parse_card("QH") & 1
    assert not any(k.excluded[s] >> parse_card("QH") & 1 for s in (N, E, W))
    # Nor does the seat holding the queen: it is not among the cards it reasons about.
    assert not Knowledge.from_view(deal.view(N)).unknown >> parse_card("QH") & 1


@pytest.mark.parametrize(
    "rules", [Rules(belote_counts=False), PRESETS["sans-annonces"]], ids=["belote-not-counted", "sans-annonces"]
)
def test_belote_is_said_under_every_rule_option_so_its_silence_tells_there_too(rules: Rules) -> None:
    together = play(hearts_taken(TOGETHER, rules), "JH", "7H", "KH")
    assert together.view(W).belote == ((S, "belote"),)
    split = play(hearts_taken(SPLIT, rules), "JH", "7H", "KH")
    assert excluded_unknown(split.view(W), S) == mask_of([parse_card("QH")])


def test_at_two_hands_a_silent_king_tells_the_queen_is_not_face_down_on_its_side_either() -> None:
    # North deals, East takes the turned card's hearts and leads; at the third trick East plays the
    # king of hearts in silence. The engine says belote for a player holding both in hand or on its
    # side of the table, face down or not: East holds the queen nowhere, not even under its own
    # cards, which it cannot see.
    deal = play(Deal.from_seed(35, Rules(variant="two-handed")), "take", "AS", "QS", "AH", "8H", "KH")
    queen = mask_of([parse_card("QH")])
    north = deal.view(N)
    assert north.belote == () and north.played_by[-1] == E
    assert excluded_unknown(north, E) == queen
    assert excluded_unknown(north, 2 + E) == queen  # East's face-down cards
    assert excluded_unknown(north, N) == mask_of([parse_card("JH")])  # under the ace of trumps led: no jack
    assert excluded_unknown(deal.view(E), 2 + E) == queen


# Coinche, dealer West: North bids first and leads; North holds the king of hearts, East the queen.
COINCHE_HANDS = [
    ["KH", "7S", "8S", "AD", "KD", "7C", "8C", "9C"],
    ["QH", "9S", "TS", "QD", "JD", "TC", "JC", "QC"],
    ["AH", "JS", "QS", "TD", "9D", "KC", "AC", "7H"],
    ["TH", "KS", "AS", "8D", "7D", "8H", "9H", "JH"],
]


def coinche_deal(contract: str) -> Deal:
    """North bids ``contract``, the others pass, North leads the king of hearts."""
    rules = Rules(variant="coinche")
    deck = [-1] * 32
    order = [N, E, S, W]
    for seat, places in zip(order, VARIANTS["coinche"].places, strict=True):
        for place, c in zip(places, COINCHE_HANDS[seat], strict=True):
            deck[place] = parse_card(c)
    deal = Deal(rules, W, deck)
    play(deal, contract, "pass", "pass", "pass")
    assert deal.phase == PLAY
    return play(deal, "KH")


def test_at_no_trumps_and_all_trumps_nobody_says_belote_and_a_silent_king_tells_nothing() -> None:
    queen = mask_of([parse_card("QH")])
    assert excluded_unknown(coinche_deal("80H").view(S), N) == queen
    assert excluded_unknown(coinche_deal("80S").view(S), N) == 0  # the king of hearts is no trump
    for contract in ("80NT", "80AT"):
        assert excluded_unknown(coinche_deal(contract).view(S), N) == 0, contract


# Sans annonces, hearts: South holds the king and the queen, East and West no heart at all.
QUIET_HOLDER = [
    ["JH", "9H", "AH", "7S", "8S", "9S", "7C", "8C"],
    ["8D", "9D", "TD", "AS", "KS", "9C", "JC", "TC"],
    ["KH", "QH", "TH", "8H", "7H", "AD", "KD", "TS"],
    ["JS", "QS", "JD", "QD", "7D", "KC", "QC", "AC"],
]


def test_a_belote_kept_quiet_is_believed_where_it_fits_and_dropped_where_no_deal_would() -> None:
    rules = PRESETS["sans-annonces"]
    deal = play(hearts_taken(QUIET_HOLDER, rules), "JH", "8D")
    deal.apply(parse_card("KH") | NO_BELOTE)  # a person keeps its belote quiet
    queen = parse_card("QH")
    # West has not shown out yet: the queen may be there, and the silence is believed (wrongly:
    # nobody at the table could tell).
    assert excluded_unknown(deal.view(W), S) == 1 << queen
    # West shows out of hearts too. North saw both others void: the queen can only be South's,
    # and the silence that says otherwise is dropped rather than leaving no deal.
    play(deal, "JD")
    k = Knowledge.from_view(deal.view(N))
    assert k.excluded[E] >> queen & 1 and k.excluded[W] >> queen & 1
    assert not k.excluded[S] >> queen & 1 and k.fits()
    assert k.sample(random.Random(2))[S] >> queen & 1


def test_fits_is_hall_condition() -> None:
    deal = play(hearts_taken(SPLIT), "JH", "7H", "KH")
    k = Knowledge.from_view(deal.view(W))
    assert k.fits()
    # North, East and South together need every card not placed: exclude one of them from a card
    # the others cannot have either, and no deal is left.
    rest = k.unknown
    assert not replace(k, excluded=(rest, rest, 0, 0)).fits()
    assert replace(k, excluded=(0, 0, 0, rest)).fits()  # West is the seat: excluding it changes nothing


# ----------------------------------------------------------------- declarations announced, not shown
def test_declarations_announced_but_not_shown_are_placed_and_the_draws_announce_them() -> None:
    # TOGETHER: North announces a tierce to the nine of spades, East a tierce to the ten of
    # diamonds, the better: after the first trick East shows it, North's is never shown.
    deal = hearts_taken(TOGETHER)
    while len(deal.tricks) < 1:
        deal.apply(deal.legal_actions()[0])
    view = deal.view(S)
    assert [(s, name, bool(cards)) for s, name, cards in view.declarations] == [
        (N, "tierce", False),
        (E, "tierce", True),
    ]
    k = Knowledge.from_view(view)
    rng = random.Random(3)
    played_by = view.cards_played_by()
    placements = set()
    for _ in range(30):
        placed = k.place_declarations(view, rng)
        assert placed is not None and placed.fits()
        # North's cards placed and played make a sequence, whatever the cards drawn beside them.
        assert find_declarations(placed.hands[N] | played_by[N], HEARTS)
        placements.add(placed.hands[N])
    assert len(placements) > 1  # drawn among the tierces North may have held, not always the same
    plausible = Plausibility(view)
    for _ in range(20):
        hands = plausible.draw(k, rng)
        names = sorted(d.name for d in find_declarations(hands[N] | played_by[N], HEARTS))
        assert names == ["tierce"]


# ----------------------------------------------------------------- the worlds drawn fit the public history
def fits_history(view: PlayerView, k: Knowledge, holdings: list[int]) -> str | None:
    """Why a world drawn from ``view``'s knowledge could not have been the real one (None: it could):
    a card played that its hand made illegal, or a belote said or not said that its hands contradict."""
    n = view.rules.players
    played_by = view.cards_played_by()
    start = [holdings[s] | played_by[s] for s in range(n)]
    if k.slots:  # two hands: the cards face down on a seat's side were dealt to it
        start = [start[s] | holdings[n + s] for s in range(n)]
    mode = view.trump
    assert mode is not None
    pair = belote_cards(mode) if mode < 4 else 0
    holder = belote_holder(start, mode) if pair else None
    said = view.belote[0][0] if view.belote else None
    if said is not None and holder != said:
        return f"{said} said belote, the world gives it to {holder}"
    if said is None and holder is not None and mask_of(view.played) & pair:
        return f"nobody said belote, the world gives it to {holder}"
    if k.slots:
        return None  # which cards lay face up when each was played is not replayed here
    flags = view.rules.play.flags
    camps = view.camps
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.trick[0][0], tuple(c for _, c in view.trick)))
    hands = list(start)
    for leader, cards in tricks:
        best, best_seat = -1, leader
        for i, c in enumerate(cards):
            seat = (leader + i * view.rules.step) % n
            partner = best >= 0 and camps[best_seat] == camps[seat]
            if not legal_mask(mode, hands[seat], best, partner, flags, cards[0] >> 3) >> c & 1:
                return f"{seat} could not have played {c} from {hands[seat]:#x}"
            hands[seat] &= ~(1 << c)
            if best < 0 or beats(mode, c, best):
                best, best_seat = c, seat
    return None


@pytest.mark.parametrize("variant", GAMES)
def test_every_world_drawn_fits_the_public_history(variant: str) -> None:
    """Over random deals: at every card of the play, the worlds the player to move draws let each
    card played have been legal, and give the king and queen of trumps to whoever said belote and
    to nobody when a first of them fell in silence."""
    rules = Rules(variant=variant)
    silences = 0
    for seed in range(60):
        deal = Deal.from_seed(seed, rules, dealer=seed % rules.players)
        rng = random.Random(seed)
        while deal.phase != "done":
            if deal.phase == PLAY:
                view = deal.view(deal.to_move)
                k = Knowledge.from_view(view)
                pair = belote_cards(deal.mode) if deal.mode < 4 else 0
                if pair & mask_of(deal.plays) and not view.belote and pair & k.unknown:
                    silences += 1
                for _ in range(3):
                    world = k.sample(rng)
                    why = fits_history(view, k, world)
                    assert why is None, (variant, seed, len(deal.plays), why)
            actions = deal.legal_actions()
            deal.apply(actions[rng.randrange(len(actions))])
    assert silences > 20  # the silence was put to the test


@pytest.mark.parametrize("variant", GAMES)
def test_a_belote_kept_quiet_never_leaves_a_seat_without_a_deal(variant: str) -> None:
    """A person may keep belote quiet: its silence then misleads, but every seat still draws deals."""
    rules = Rules(variant=variant)
    quiet = 0
    for seed in range(80):
        deal = Deal.from_seed(seed, rules)
        rng = random.Random(seed)
        while deal.phase != "done":
            action = rng.choice(deal.legal_actions())
            if deal.phase == PLAY and "belote" in deal.to_announce(deal.to_move):
                pair = belote_cards(deal.mode)
                if pair >> action & 1:
                    action |= NO_BELOTE
                    quiet += 1
            deal.apply(action)
            if deal.phase == PLAY and any(q & NO_BELOTE for q in deal.quiet):
                for seat in range(rules.players):
                    k = Knowledge.from_view(deal.view(seat))
                    assert k.fits(), (variant, seed, seat)
                    k.sample(rng)
    assert quiet > 5


# ----------------------------------------------------------------- the draw itself


def test_a_deal_is_drawn_as_the_plain_reference_says() -> None:
    """Seed 1: six cards for three holders; the third may take none, the fifth card (8) goes only to
    the first holder, the sixth (9) to the second or the third."""
    from belote.knowledge import _deal_plain

    assert _deal_plain(1, [0, 1, 2, 3, 8, 9], [3, 3, 3, 3, 1, 6], [3, 3, 0], [0, 0, 0], 5) == [266, 517, 0]
    assert _deal_plain(7, [0, 1, 2, 3, 8, 9], [3, 3, 3, 3, 1, 6], [4, 2, 0], [0, 0, 0], 5) == [267, 516, 0]
    # No holder may take card 8: no deal, whatever the attempts.
    assert _deal_plain(1, [0, 8], [1, 0], [1, 1], [0, 0], 50) is None
    # The bidding: holders full before every card is placed, the rest stays undealt.
    dealt = _deal_plain(3, [0, 1, 2], [3, 3, 3], [1, 1], [1 << 31, 0], 1)
    assert dealt == [1 << 31 | 1 << 1, 1 << 2]  # card 0 left in the pack


def test_the_c_module_draws_the_same_deals_as_the_reference() -> None:
    from belote.knowledge import _deal, _deal_plain
    from belote.solver import IMPLEMENTATION

    if IMPLEMENTATION != "belote.solver._dds":
        pytest.fail("the C solver was not built: ./scripts/test builds it")
    from belote.solver import _dds

    assert _deal is _dds.deal
    rng = random.Random(3)
    placed = 0
    for _ in range(3000):
        holders = rng.choice([2, 3, 4, 4])
        cards = rng.sample(range(32), rng.randrange(0, 25))
        allowed = [rng.randrange(1, 1 << holders) if rng.random() < 0.9 else 0 for _ in cards]
        room = [0] * holders
        for _c in cards:
            room[rng.randrange(holders)] += 1
        hands = [rng.getrandbits(8) << 24 for _ in range(holders)]
        args = (rng.getrandbits(64), cards, allowed, room, hands, rng.choice([1, 5, 50]))
        dealt = _deal_plain(*args)
        assert _dds.deal(*args) == dealt
        placed += dealt is not None
    assert placed > 500  # most of them place every card


@pytest.mark.parametrize(
    "args",
    [
        (1, [32], [1], [1], [0], 1),
        (1, [0], [1], [33], [0], 1),
        (1, [0, 1], [1], [1], [0], 1),
        (1, [0], [1], [1] * 9, [0] * 9, 1),
        (1, ["0"], [1], [1], [0], 1),
    ],
)
def test_the_c_module_refuses_what_is_not_a_draw(args: tuple[object, ...]) -> None:
    from belote.solver import _dds

    with pytest.raises((ValueError, TypeError, OverflowError)):
        _dds.deal(*args)
