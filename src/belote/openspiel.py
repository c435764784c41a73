"""Belote as an OpenSpiel game: ``python_belote``, one deal of any of the four games.

Importing this module registers the game with ``pyspiel.register_game``; then
``pyspiel.load_game("python_belote", {"variant": "coinche"})`` gives a game whose states every
OpenSpiel algorithm can walk: chance nodes for the deal, then the bidding and the play of the
engine (``belote.game.Deal``), information states with perfect recall (a string and a tensor),
observations of the present (a string and a tensor), and ``resample_from_infostate``, which draws a
whole deal consistent with one seat's information state (``belote.knowledge``) so that IS-MCTS and
other searches over worlds run. docs/openspiel.md tells the parameters, the tensors' layout and the
chance model. This is an optional extra (``belote[openspiel]``): the engine never imports it.

The chance model: the shuffle is dealt card by card. Chance node ``k`` (0 to 30) draws the card at
place ``k`` of the pack, uniformly among the cards not drawn yet (at most 32 outcomes a node,
rather than one node of 32! outcomes); the last card takes the last place. The uniform product is
the uniform shuffle, and the engine then deals the pack as a dealer does (``Deal(rules, dealer,
deck)``). Each seat sees, while the pack is drawn, only the cards at the places of its own first
hand and the turned card; the other places are seen when the engine deals them.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel

from belote.actions import NAME_SUIT, PASS, TAKE, action_str
from belote.cards import CARDS, FULL_PACK, bits_of, format_cards, mask_of
from belote.contracts import COINCHE, LEVELS, SURCOINCHE, contract_of, is_contract
from belote.declarations import POINTS_BY_NAME
from belote.game import DONE, Deal, IllegalAction
from belote.knowledge import InconsistentView, Knowledge
from belote.rules import MATCH_OPTIONS, OPTIONS, Rules
from belote.scoring import BELOTE_POINTS, CAPOT_POINTS
from belote.variants import SEATS, Variant

__all__ = [
    "GAME_TYPE",
    "NAME",
    "PARAMETERS",
    "BeloteGame",
    "BeloteObserver",
    "BeloteState",
    "EngineBot",
    "Setup",
    "bid_slots",
    "info_state_layout",
    "observation_layout",
]

#: The name the game is registered under.
NAME = "python_belote"
#: Actions: the cards 0..31, then every bid of every auction (``belote.actions``): one space for all games.
NUM_ACTIONS = SURCOINCHE + 1
#: Chance nodes: the places of the pack drawn one by one; the 32nd card takes the last place.
CHANCE_NODES = 31
#: The game's parameters: every rule option of a deal (``belote.rules.OPTIONS`` but the match's,
#: ``MATCH_OPTIONS``) with its default, the dealer's seat, and what the returns are.
PARAMETERS: dict[str, Any] = {
    **{spec.name: spec.default for spec in OPTIONS if spec.name not in MATCH_OPTIONS},
    "dealer": 0,
    "utility": "difference",
}
#: The returns: a score's points less the mean of the others' (zero-sum), or its points.
UTILITIES = ("difference", "points")
#: Declarations by the name said at the table, in the order of the tensors' slots.
DECLARATION_NAMES: tuple[str, ...] = tuple(POINTS_BY_NAME)
#: A bid slot: who bid (players), what kind of bid, its mode, its level.
BID_KINDS = ("pass", "take", "name", "contract", "coinche", "surcoinche")
MODES = 6  # spades, hearts, diamonds, clubs, no-trumps, all-trumps
#: The most that all the declarations of one deal can be worth: every four of a kind that counts
#: (750), and in each suit at most a quinte and a tierce (120).
_ALL_DECLARATIONS = 750 + 4 * 120


def _game_type(utility: Any) -> Any:
    """The game's type; its utility is zero-sum for the returns by difference, general-sum for the points."""
    return pyspiel.GameType(
        short_name=NAME,
        long_name="Python Belote",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=PARAMETERS,
    )


#: The type registered (returns by difference, the default).
GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)


def bid_slots(rules: Rules) -> int:
    """The most bids a deal of these rules can hold: the slots of the tensors' bidding (the auction's
    ``max_bids``: the turned card's two rounds; in Coinche three passes, a contract at each level with
    two passes before each but the first, then two passes, a coinche and two more bids)."""
    return rules.game.auction.max_bids(rules)


def _utility_bound(rules: Rules) -> int:
    """A bound on what one score can make in one deal (the most, not a figure ever reached): the
    contract's most, then capot, every declaration, belote and the last trick's ten."""
    return rules.game.auction.most_contract_points(rules) + CAPOT_POINTS + _ALL_DECLARATIONS + BELOTE_POINTS + 10


def _bid_width(n: int) -> int:
    return n + len(BID_KINDS) + MODES + len(LEVELS)


def info_state_layout(rules: Rules) -> list[tuple[str, tuple[int, ...]]]:
    """The pieces of the information state tensor, in order: (name, shape). docs/openspiel.md tells each."""
    n, t = rules.players, rules.tricks
    return [
        ("dealer", (n,)),
        ("first_hand", (32,)),
        ("turned", (32,)),
        ("bids", (bid_slots(rules), _bid_width(n))),
        ("contract", (n + MODES + len(LEVELS) + 2,)),
        ("hand", (32,)),
        ("table", (n, 2, 32)),
        ("declared", (n, len(DECLARATION_NAMES))),
        ("shown", (n, 32)),
        ("belote", (n,)),
        ("tricks", (t, n + n * 32)),
    ]


def observation_layout(rules: Rules) -> list[tuple[str, tuple[int, ...]]]:
    """The pieces of the observation tensor, in order: (name, shape)."""
    n = rules.players
    return [
        ("phase", (3,)),
        ("dealer", (n,)),
        ("to_move", (n,)),
        ("hand", (32,)),
        ("turned", (32,)),
        ("last_bids", (n, _bid_width(n) - n)),
        ("contract", (n + MODES + len(LEVELS) + 2,)),
        ("trick", (n, 32)),
        ("played", (n, 32)),
        ("table", (n, 2, 32)),
        ("shown", (n, 32)),
        ("belote", (n,)),
        ("points", (n,)),
    ]


def _size(layout: list[tuple[str, tuple[int, ...]]]) -> int:
    return sum(int(np.prod(shape)) for _, shape in layout)


def rules_of(params: dict[str, Any]) -> Rules:
    """The rules a game's parameters name (the rule options only)."""
    return Rules.from_dict({k: v for k, v in params.items() if k not in ("dealer", "utility")})


@dataclass(frozen=True)
class Setup:
    """What a game's parameters fix for each of its states: the rules, the dealer, the returns,
    and the places of the pack each seat sees while it is drawn (its first hand, the turned card)."""

    rules: Rules
    dealer: int
    utility: str
    variant: Variant
    first_places: tuple[tuple[int, ...], ...]
    turned_place: int | None

    @classmethod
    def of(cls, params: dict[str, Any]) -> Setup:
        """The setup of ``params`` (missing ones take their defaults); raises ValueError on a wrong one."""
        merged = {**PARAMETERS, **params}
        unknown = sorted(set(merged) - set(PARAMETERS))
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]!r}; the parameters are: {', '.join(PARAMETERS)}")
        rules = rules_of(merged)
        dealer = merged["dealer"]
        if type(dealer) is not int or not 0 <= dealer < rules.players:
            raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}, not {dealer!r}")
        utility = merged["utility"]
        if utility not in UTILITIES:
            raise ValueError(f"utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
        variant = rules.game
        order = variant.order(dealer, rules.step)
        places = variant.first_places()
        return cls(
            rules,
            dealer,
            utility,
            variant,
            tuple(places[order.index(s)] for s in range(rules.players)),
            5 * rules.players if variant.turned_card else None,
        )


@functools.cache
def _setup(params: tuple[tuple[str, Any], ...]) -> Setup:
    return Setup.of(dict(params))


class BeloteGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of belote under the rules its parameters give (``PARAMETERS``)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        setup = Setup.of(given)
        rules = setup.rules
        bound = float(_utility_bound(rules))
        points = setup.utility == "points"
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=32,
            num_players=rules.players,
            min_utility=0.0 if points else -bound,
            max_utility=bound,
            utility_sum=None if points else 0.0,
            max_game_length=bid_slots(rules) + rules.players * rules.tricks,
        )
        super().__init__(_game_type(pyspiel.GameType.Utility.GENERAL_SUM) if points else GAME_TYPE, info, given)
        self.setup = setup

    def new_initial_state(self) -> BeloteState:
        return BeloteState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BeloteObserver:
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return BeloteObserver(self.setup, iig_obs_type, params)


class _Held:
    """The engine's deal inside a state: OpenSpiel clones a Python state by deep-copying its
    attributes, and a deal copies itself (``Deal.copy``) far faster than ``deepcopy`` would."""

    __slots__ = ("deal",)

    def __init__(self, deal: Deal) -> None:
        self.deal = deal

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.deal.copy())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what makes the deal: its rules, dealer and pack, and its actions."""
        d = self.deal
        return (_replay_deal, (d.rules, d.dealer, d.deck, [int(a) for a in d.actions]))


def _replay_deal(rules: Rules, dealer: int, deck: tuple[int, ...], actions: list[int]) -> _Held:
    deal = Deal(rules, dealer, deck)
    for a in actions:
        deal.apply(a)
    return _Held(deal)


class _Same:
    """The setup, held by each state: a clone (a deep copy of the state's attributes) shares it."""

    __slots__ = ("setup",)

    def __init__(self, setup: Setup) -> None:
        self.setup = setup

    def __deepcopy__(self, memo: dict[int, Any]) -> _Same:
        return self


class BeloteState(pyspiel.State):  # type: ignore[misc]
    """A deal being dealt (chance nodes), bid and played. Its history is the pack drawn, then the
    engine's actions: the same integers as ``belote.actions`` (cards 0..31, then the bids)."""

    def __init__(self, game: BeloteGame) -> None:
        super().__init__(game)
        # Read from the parameters, not from the game's Python attributes: a game OpenSpiel made in
        # C++ (a deserialised one) may reach a state without them.
        self._same = _Same(_setup(tuple(sorted(game.get_parameters().items()))))
        self.pack: list[int] = []
        self._held: _Held | None = None

    @property
    def setup(self) -> Setup:
        return self._same.setup

    @property
    def deal(self) -> Deal | None:
        """The engine's deal once the pack is drawn."""
        return None if self._held is None else self._held.deal

    # ----------------------------------------------------------------- the OpenSpiel state
    def current_player(self) -> int:
        deal = self.deal
        if deal is None:
            return int(pyspiel.PlayerId.CHANCE)
        if deal.phase == DONE:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(deal.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        deal = self.deal
        if deal is None or deal.phase == DONE or player != deal.to_move:
            return []
        return sorted(int(a) for a in deal.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        drawn = mask_of(self.pack)
        left = [c for c in range(32) if not drawn >> c & 1]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        deal = self.deal
        if deal is None:
            if action in self.pack or not 0 <= action < 32:
                raise ValueError(f"the card {action} cannot be drawn: it is not left in the pack")
            self.pack.append(action)
            if len(self.pack) == CHANCE_NODES:
                self.pack.append(bits_of(FULL_PACK & ~mask_of(self.pack))[0])
                game = self.setup
                self._held = _Held(Deal(game.rules, game.dealer, self.pack))
            return
        deal.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {CARDS[action]}"
        return action_str(action)

    def is_terminal(self) -> bool:
        deal = self.deal
        return deal is not None and deal.phase == DONE

    def returns(self) -> list[float]:
        """Each player's return: its score's points in the deal (``utility="points"``), or by
        default those less the mean of the other scores' (zero-sum: partners share their side's)."""
        game = self.setup
        n = game.rules.players
        deal = self.deal
        if deal is None or deal.result is None:
            return [0.0] * n
        points = deal.result.points
        variant = game.variant
        own = [float(points[variant.team(s)]) for s in range(n)]
        if game.utility == "points":
            return own
        teams = len(points)
        total = float(sum(points))
        return [o - (total - o) / (teams - 1) for o in own]

    def __str__(self) -> str:
        """Everything, hidden cards included (for people debugging)."""
        deal = self.deal
        game = self.setup
        if deal is None:
            return f"dealer {SEATS[game.dealer]}; drawn {format_cards(self.pack)}"
        lines = [f"dealer {SEATS[game.dealer]}; pack {format_cards(self.pack)}"]
        for s in range(game.rules.players):
            lines.append(f"{SEATS[s]}: {format_cards(bits_of(deal.hand_mask(s)))}")
        lines.append("actions: " + " ".join(action_str(a) for a in deal.actions))
        if deal.result is not None:
            lines.append(f"points: {list(deal.result.points)}")
        return "\n".join(lines)

    # ----------------------------------------------------------------- what a seat knows
    def seen_first(self, seat: int) -> list[int]:
        """The cards of ``seat``'s first hand drawn so far."""
        places = self.setup.first_places[seat]
        return [self.pack[i] for i in places if i < len(self.pack)]

    def turned(self) -> int | None:
        place = self.setup.turned_place
        if place is None or place >= len(self.pack):
            return None
        return self.pack[place]

    def start_hand(self, seat: int) -> int:
        """``seat``'s hand when the play starts (at two hands without its table cards); 0 before."""
        deal = self.deal
        if deal is None or not deal.start_hands:
            return 0
        hand = deal.start_hands[seat]
        return hand & ~deal.table_cards[seat] if deal.table_cards else hand

    def initial_table(self, seat: int) -> tuple[int, int]:
        """Two hands: ``seat``'s face-up table cards as dealt, and the face-down ones turned up so far."""
        deal = self.deal
        if deal is None or not deal.table_cards or deal.under is None:
            return 0, 0
        under = deal.under
        table = deal.table_cards[seat]
        ups = [u for u in bits_of(table) if under[u] >= 0]
        revealed = 0
        n = deal.players
        full = len(deal.plays) - len(deal.plays) % n
        taken = mask_of(deal.plays[:full])
        for u in ups:
            if taken >> u & 1:
                revealed |= 1 << under[u]
        return mask_of(ups), revealed

    def information_state(self, seat: int) -> str:
        """What ``seat`` has seen, in order: its first hand, the turned card, its hand at the
        start of play (with the table at two hands), and the deal's public events."""
        game = self.setup
        parts = [f"{game.variant.name} seat {SEATS[seat]} dealer {SEATS[game.dealer]}"]
        parts.append("first " + format_cards(sorted(self.seen_first(seat))))
        turned = self.turned()
        if turned is not None:
            parts.append(f"turned {CARDS[turned]}")
        deal = self.deal
        if deal is None:
            return "\n".join(parts)
        parts.append("bids " + " ".join(f"{SEATS[s]}:{b}" for s, b in zip(deal.bid_seats, deal.bids, strict=True)))
        if deal.start_hands:
            parts.append("hand " + format_cards(bits_of(self.start_hand(seat))))
            if deal.table_cards:
                ups = [format_cards(bits_of(self.initial_table(s)[0])) for s in range(deal.players)]
                parts.append("table " + " / ".join(ups))
        for event in deal.events():
            kind = event["type"]
            if kind in ("dealt", "bid"):
                continue
            parts.append(" ".join(_event_words(event)))
        return "\n".join(parts)

    def observation(self, seat: int) -> str:
        """What ``seat`` sees now: its hand, the turned card, the bids, the contract, the trick,
        the table at two hands (no memory of the tricks taken but their points)."""
        deal = self.deal
        game = self.setup
        head = f"{game.variant.name} seat {SEATS[seat]} dealer {SEATS[game.dealer]}"
        if deal is None:
            turned = self.turned()
            seen = format_cards(sorted(self.seen_first(seat)))
            return f"{head}\ndealing: first {seen}" + ("" if turned is None else f" turned {CARDS[turned]}")
        view = deal.view(seat)
        lines = [head, f"{view.phase}", "hand " + " ".join(str(c) for c in view.hand)]
        if view.turned is not None:
            lines.append(f"turned {view.turned}")
        lines.append("bids " + " ".join(f"{SEATS[s]}:{b}" for s, b in view.bids))
        if view.taker is not None and view.trump is not None:
            contract = "" if view.contract is None else f" {view.contract.name} x{view.contract.multiplier}"
            lines.append(f"taker {SEATS[view.taker]} trump {view.trump}{contract}")
        if view.table:
            lines.append(
                "table "
                + " / ".join(" ".join(f"{'?' if up is None else up}+{down}" for up, down in p) for p in view.table)
            )
        lines.append("trick " + " ".join(f"{SEATS[s]}:{c}" for s, c in view.trick))
        lines.append("won " + " ".join(str(w) for w in view.won))
        if view.declarations:
            lines.append(
                "declared " + " ".join(f"{SEATS[s]}:{name}:{format_cards(cs)}" for s, name, cs in view.declarations)
            )
        if view.belote:
            lines.append("belote " + " ".join(f"{SEATS[s]}:{w}" for s, w in view.belote))
        return "\n".join(lines)

    # ----------------------------------------------------------------- resampling
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BeloteState:
        """A state with the same information state for ``player_id`` (and so the same legal
        actions), its hidden cards drawn at random consistently with what that seat knows.

        The worlds come from ``belote.knowledge`` (voids, ceilings, known cards, who said belote
        and who did not, the declarations announced given cards that make them); each is dealt into
        a pack, the actions replayed, and the world kept when the seat's information state is the
        same (the declarations announced exactly, which the knowledge does not bind, decide the
        rest). ``probability_sampler`` seeds the draws.
        """
        if self.is_terminal():
            raise ValueError("the deal is over: there is nothing hidden left to draw")
        seed = int(probability_sampler() * 2**53)
        rng = random.Random(seed)
        target = self.information_state(player_id)
        for _ in range(_RESAMPLE_TRIES):
            pack = self._draw_pack(player_id, rng)
            state = None if pack is None else self._replayed(pack)
            if state is not None and state.information_state(player_id) == target:
                return state
        raise InconsistentView(f"no deal consistent with seat {SEATS[player_id]}'s information found")

    def _replayed(self, pack: list[int]) -> BeloteState | None:
        """A new state: ``pack`` drawn, then this state's actions; None if one is illegal there."""
        state: BeloteState = self.get_game().new_initial_state()
        deal = self.deal
        actions = [] if deal is None else [int(a) for a in deal.actions]
        for c in pack[: min(len(self.pack), CHANCE_NODES)]:
            state.apply_action(c)
        for a in actions:
            if a not in state.legal_actions():
                return None
            try:
                state.apply_action(a)
            except IllegalAction:
                return None
        return state

    def _draw_pack(self, seat: int, rng: random.Random) -> list[int] | None:
        """A whole pack consistent with what ``seat`` knows (its drawn prefix while dealing); None
        when the declarations placed first leave no room."""
        deal = self.deal
        game = self.setup
        if deal is None:
            return self._draw_while_dealing(seat, rng)
        view = deal.view(seat)
        knowledge = Knowledge.from_view(view).place_declarations(view, rng)
        if knowledge is None:
            return None
        try:
            hands, under = knowledge.sample_world(rng)
        except InconsistentView:  # the declarations placed first left too little room
            return None
        first_mine = mask_of(self.seen_first(seat))
        variant = game.variant
        if deal.taker is None:  # the bidding: the first hands, the rest anyhow
            return _pack_from(
                game, [first_mine if s == seat else h for s, h in enumerate(hands)], self.turned(), None, rng
            )
        n = deal.players
        played_by = view.cards_played_by()
        taker = deal.taker
        turned = self.turned()
        if deal.table_cards:
            return self._two_hands_pack(seat, hands, under, played_by, first_mine, rng)
        start = [hands[s] | played_by[s] for s in range(n)]
        if variant.bidding_hand == variant.playing_hand:  # every card of the hands was dealt before the bidding
            return _pack_from(game, start, None, None, rng)
        firsts = _first_hands(start, seat, first_mine, taker, turned, variant.bidding_hand, rng)
        seconds = [start[s] & ~firsts[s] & ~(1 << turned if turned is not None and s == taker else 0) for s in range(n)]
        return _pack_from(game, firsts, turned, (taker, seconds), rng)

    def _two_hands_pack(
        self,
        seat: int,
        hands: list[int],
        under: tuple[int, ...] | None,
        played_by: list[int],
        first_mine: int,
        rng: random.Random,
    ) -> list[int]:
        """Two hands in play: the table's pairs (turned up ones as they were, hidden ones drawn),
        the hands, then the pack that deals them."""
        deal = self.deal
        assert deal is not None and deal.under is not None and deal.taker is not None and under is not None
        game = self.setup
        n = deal.players
        taker = deal.taker
        turned = self.turned()
        assert turned is not None
        true_under = deal.under
        pairs: list[list[tuple[int, int]]] = []
        for s in range(n):
            ups, revealed = self.initial_table(s)
            row: list[tuple[int, int]] = []
            for up in bits_of(ups):
                down = true_under[up]
                row.append((up, down) if revealed >> down & 1 else (up, under[up]))
            pairs.append(row)
        table = [mask_of([c for p in row for c in p]) for row in pairs]
        in_hand = [(hands[s] & ~table[s]) | (played_by[s] & ~table[s]) for s in range(n)]
        firsts = _first_hands(in_hand, seat, first_mine, taker, turned, game.variant.bidding_hand, rng)
        other = 1 - taker
        extra = bits_of(in_hand[other] & ~firsts[other])
        assert len(extra) == 1
        pack = [-1] * 32
        order = game.variant.order(game.dealer, game.rules.step)
        for s in order:
            cards = bits_of(firsts[s])
            rng.shuffle(cards)
            for place, c in zip(game.first_places[s], cards, strict=True):
                pack[place] = c
        pos = 5 * n
        pack[pos] = turned
        pack[pos + 1] = extra[0]
        for k, s in enumerate(order):
            row = list(pairs[s])
            rng.shuffle(row)
            for i, (up, down) in enumerate(row):
                pack[pos + 2 + 5 * k + i] = down
                pack[pos + 12 + 5 * k + i] = up
        assert sorted(pack) == list(range(32)), pack
        return pack

    def _draw_while_dealing(self, seat: int, rng: random.Random) -> list[int]:
        """While the pack is drawn: the places the seat saw keep their cards, the others any card left."""
        seen = set(self.setup.first_places[seat])
        if self.setup.turned_place is not None:
            seen.add(self.setup.turned_place)
        kept = {i: c for i, c in enumerate(self.pack) if i in seen}
        rest = [c for c in range(32) if c not in kept.values()]
        rng.shuffle(rest)
        pack = []
        for i in range(32):
            pack.append(kept[i] if i in kept else rest.pop())
        return pack


#: How many worlds ``resample_from_infostate`` draws before it gives up (a real information state
#: keeps one in a few: only the announced declarations' names are left to chance).
_RESAMPLE_TRIES = 2000


def _first_hands(
    start: list[int], seat: int, mine: int, taker: int, turned: int | None, size: int, rng: random.Random
) -> list[int]:
    """Each seat's first hand: the seat's own as it saw it; another's, any ``size`` of its cards
    but the turned card (nobody else saw which of its cards came first)."""
    firsts: list[int] = []
    for s, hand in enumerate(start):
        if s == seat:
            firsts.append(mine)
            continue
        pool = bits_of(hand & ~(1 << turned if turned is not None and s == taker else 0))
        firsts.append(mask_of(rng.sample(pool, size)))
    return firsts


def _pack_from(
    game: Setup,
    firsts: list[int],
    turned: int | None,
    second: tuple[int, list[int]] | None,
    rng: random.Random,
) -> list[int]:
    """A pack that deals each seat its first hand (``firsts``), the turned card, and (once someone
    has taken) each seat's cards of the second distribution; the places left get the cards left."""
    variant = game.variant
    n = game.rules.players
    pack = [-1] * 32
    for s in range(n):
        cards = bits_of(firsts[s])
        rng.shuffle(cards)
        for place, c in zip(game.first_places[s], cards, strict=True):
            pack[place] = c
    used = 0
    for s in range(n):
        used |= firsts[s]
    if turned is not None and game.turned_place is not None:
        pack[game.turned_place] = turned
        used |= 1 << turned
    if second is not None:
        taker, seconds = second
        pos = 5 * n + 1
        for s in variant.order(game.dealer, game.rules.step):
            cards = bits_of(seconds[s])
            rng.shuffle(cards)
            want = 2 if s == taker else 3
            assert len(cards) == want, (s, cards)
            for c in cards:
                pack[pos] = c
                pos += 1
            used |= seconds[s]
    rest = bits_of(FULL_PACK & ~used)
    rng.shuffle(rest)
    for i in range(32):
        if pack[i] < 0:
            pack[i] = rest.pop()
    return pack


def _event_words(event: dict[str, Any]) -> list[str]:
    """A public event of the deal (``Deal.events``) as words of the information state string."""
    kind = event["type"]
    if kind == "card":
        return [event["seat"], event["card"], *([event["say"]] if "say" in event else [])]
    if kind == "trick":
        return ["trick", event["winner"], str(event["points"])]
    if kind == "trump":
        contract = event.get("contract")
        extra = [] if contract is None else [f"{contract['level']}{contract['mode']}x{contract['multiplier']}"]
        return ["trump", event["taker"], event["trump"], *extra]
    if kind == "declared":
        return ["declared", event["seat"], *(d.replace(" ", "-") for d in event["declarations"])]
    if kind == "declarations-shown":
        return [
            "shown",
            event["side"],
            *(f"{d['seat']}:{d['name'].replace(' ', '-')}:{'.'.join(d['cards'])}" for d in event["declarations"]),
        ]
    if kind == "turned-up":
        return ["turned-up", event["seat"], event["card"]]
    if kind == "scored":
        return ["scored", event["outcome"], *(f"{k}:{v}" for k, v in event["points"].items())]
    return [kind]


class BeloteObserver:
    """The information state (``perfect_recall``) or the observation of one seat, as a tensor
    and as a string: OpenSpiel's Python observer (``tensor``, ``dict``, ``set_from``,
    ``string_from``). Only a seat's own view is offered: public-only or all-seats observation
    types are refused."""

    def __init__(self, game: Setup, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"the belote observer takes no parameters, not {params}")
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("the belote observer gives one seat's view: public info and that seat's private info")
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        layout = info_state_layout(game.rules) if self.perfect_recall else observation_layout(game.rules)
        self.tensor = np.zeros(_size(layout), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        index = 0
        for name, shape in layout:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[index : index + size].reshape(shape)
            index += size

    def set_from(self, state: BeloteState, player: int) -> None:
        self.tensor.fill(0)
        if self.perfect_recall:
            _write_information_state(self.dict, state, player)
        else:
            _write_observation(self.dict, state, player)

    def string_from(self, state: BeloteState, player: int) -> str:
        return state.information_state(player) if self.perfect_recall else state.observation(player)


def _offset(seat: int, me: int, n: int) -> int:
    """Seats in the tensors: counted from the observer by seat number (0 is the observer)."""
    return (seat - me) % n


def _set_cards(row: np.ndarray[Any, Any], mask: int) -> None:
    for c in bits_of(mask):
        row[c] = 1.0


def _write_bid(row: np.ndarray[Any, Any], bid: int, turned_suit: int | None) -> None:
    """One bid into (kind, mode, level) one-hots."""
    kinds = len(BID_KINDS)
    if bid == PASS:
        row[0] = 1
    elif bid == TAKE:
        row[1] = 1
        if turned_suit is not None:
            row[kinds + turned_suit] = 1
    elif NAME_SUIT <= bid < NAME_SUIT + 4:
        row[2] = 1
        row[kinds + bid - NAME_SUIT] = 1
    elif is_contract(bid):
        level, mode = contract_of(bid)
        row[3] = 1
        row[kinds + mode] = 1
        row[kinds + MODES + LEVELS.index(level)] = 1
    elif bid == COINCHE:
        row[4] = 1
    elif bid == SURCOINCHE:
        row[5] = 1


def _write_contract(row: np.ndarray[Any, Any], deal: Deal, me: int) -> None:
    n = deal.players
    if deal.taker is None or deal.trump is None:
        return
    row[_offset(deal.taker, me, n)] = 1
    row[n + deal.trump] = 1
    c = deal.contract
    if c is not None:
        row[n + MODES + LEVELS.index(c.level)] = 1
        if c.multiplier == 2:
            row[n + MODES + len(LEVELS)] = 1
        elif c.multiplier > 2:
            row[n + MODES + len(LEVELS) + 1] = 1


def _write_information_state(d: dict[str, np.ndarray[Any, Any]], state: BeloteState, me: int) -> None:
    game = state.setup
    n = game.rules.players
    d["dealer"][_offset(game.dealer, me, n)] = 1
    _set_cards(d["first_hand"], mask_of(state.seen_first(me)))
    turned = state.turned()
    if turned is not None:
        d["turned"][turned] = 1
    deal = state.deal
    if deal is None:
        return
    turned_suit = None if turned is None else turned >> 3
    for i, (s, b) in enumerate(zip(deal.bid_seats, deal.bids, strict=True)):
        row = d["bids"][i]
        row[_offset(s, me, n)] = 1
        _write_bid(row[n:], int(b), turned_suit)
    _write_contract(d["contract"], deal, me)
    _set_cards(d["hand"], state.start_hand(me))
    if deal.table_cards:
        for s in range(n):
            ups, revealed = state.initial_table(s)
            _set_cards(d["table"][_offset(s, me, n), 0], ups)
            _set_cards(d["table"][_offset(s, me, n), 1], revealed)
    for s, decl in deal.announced():
        d["declared"][_offset(s, me, n), DECLARATION_NAMES.index(decl.name)] += 1
    view = deal.view(me)
    for s, _name, cards in view.declarations:
        _set_cards(d["shown"][_offset(s, me, n)], mask_of(cards))
    if view.belote:
        d["belote"][_offset(view.belote[0][0], me, n)] = 1
    seats = deal.play_seats()
    for i, c in enumerate(deal.plays):
        t, k = divmod(i, n)
        row = d["tricks"][t]
        if k == 0:
            row[_offset(seats[i], me, n)] = 1
        row[n + 32 * k + c] = 1


def _write_observation(d: dict[str, np.ndarray[Any, Any]], state: BeloteState, me: int) -> None:
    game = state.setup
    n = game.rules.players
    d["dealer"][_offset(game.dealer, me, n)] = 1
    deal = state.deal
    if deal is None:
        _set_cards(d["hand"], mask_of(state.seen_first(me)))
        turned = state.turned()
        if turned is not None:
            d["turned"][turned] = 1
        return
    view = deal.view(me)
    d["phase"][("bidding", "play", "done").index(view.phase)] = 1
    if view.to_move is not None:
        d["to_move"][_offset(view.to_move, me, n)] = 1
    _set_cards(d["hand"], mask_of(view.hand))
    if view.turned is not None:
        d["turned"][view.turned] = 1
    turned = state.turned()
    turned_suit = None if turned is None else turned >> 3
    for s, b in view.bids:
        row = d["last_bids"][_offset(s, me, n)]
        row.fill(0)
        _write_bid(row, int(b), turned_suit)
    _write_contract(d["contract"], deal, me)
    for s, c in view.trick:
        d["trick"][_offset(s, me, n), c] = 1
    for s, c in zip(view.played_by, view.played, strict=True):
        d["played"][_offset(s, me, n), c] = 1
    for s, piles in enumerate(view.table):
        for up, down in piles:
            if up is not None:
                d["table"][_offset(s, me, n), 0, up] = 1
                if down:
                    d["table"][_offset(s, me, n), 1, up] = 1
    for s, _name, cards in view.declarations:
        _set_cards(d["shown"][_offset(s, me, n)], mask_of(cards))
    if view.belote:
        d["belote"][_offset(view.belote[0][0], me, n)] = 1
    for t in view.tricks:
        d["points"][_offset(t.winner, me, n)] += t.points / 162.0


class EngineBot(pyspiel.Bot):  # type: ignore[misc]
    """One of the project's bots (``belote.bots``: ``random``, ``heuristic``, ``search``) as an
    OpenSpiel bot, for ``evaluate_bots`` and the like: it is shown only its seat's view.

    >>> import numpy as np
    >>> from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    >>> game = pyspiel.load_game(NAME, {"variant": "two-handed"})
    >>> bots = [EngineBot("heuristic", seed=1), EngineBot("random", seed=2)]
    >>> returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    >>> len(returns), sum(returns)
    (2, 0.0)
    """

    def __init__(self, name: str = "heuristic", seed: int | None = None, **options: Any) -> None:
        from belote.bots import make_bot

        pyspiel.Bot.__init__(self)
        self.bot = make_bot(name, seed=seed, **options)

    def step(self, state: BeloteState) -> int:
        deal = state.deal
        if deal is None or deal.phase == DONE:
            raise ValueError("a bot acts when a seat is to move, not while the pack is drawn nor after the deal")
        return int(self.bot.act(deal.view(deal.to_move)))

    def restart_at(self, state: BeloteState) -> None:
        """Nothing to forget: the project's bots read everything from the view they are shown."""


pyspiel.register_game(GAME_TYPE, BeloteGame)
