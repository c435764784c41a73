"""The auction of Coinche: contracts, coinche and surcoinche.

From the player next to the dealer, each in turn bids a contract higher than the last (a level and
a trump mode, ``belote.contracts``) or passes; a player of the other side may coinche the last
contract, and then a player of the bidding side may surcoinche. The auction ends after three
passes behind a contract, at a surcoinche, or when both bidders let a coinche stand; four passes
with no contract throw the deal in.

>>> from types import SimpleNamespace
>>> from belote.rules import Rules
>>> deal = SimpleNamespace(rules=Rules(variant="coinche"), players=4, step=1, to_move=1,
...                        camps=[0, 1, 0, 1], bids=[], contract=None)
>>> [str(b) for b in CONTRACTS.legal(deal)[:4]]
['pass', '80S', '80H', '80D']
>>> refused = CONTRACTS.explain(deal, COINCHE)
>>> str(refused), refused.code
('there is no contract to coinche yet', 'nothing_to_coinche')
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from belote.actions import NAME_SUIT, PASS, TAKE, Action, Bid, IllegalBid, action_str
from belote.auctions import COUNT, THROWN_IN, AuctionState, Claim, Outcome
from belote.cards import HEARTS
from belote.contracts import (
    CAPOT,
    COINCHE,
    GENERALE,
    MODE_LETTERS,
    SURCOINCHE,
    TOP_PROMISE,
    Contract,
    bid_levels,
    contract_action,
    contract_of,
    is_contract,
    level_name,
)

if TYPE_CHECKING:
    from belote.rules import Rules
    from belote.view import PlayerView

#: A contract of L promises a hand counting about L with an average partner; partner's raise
#: promises what it adds. A pass over a contract (or with none) says the hand could not bid one
#: more step. Capot claims are read as 160.
OPENING_SLACK = 10.0


@functools.cache
def contracts_above(level: int, max_bid: int, no_trump_all_trump: bool, generale: bool) -> tuple[Bid, ...]:
    """The contracts a bid may name over ``level`` (0: none yet), lowest first."""
    modes = range(6) if no_trump_all_trump else range(4)
    levels = [lv for lv in bid_levels(max_bid, generale) if lv > level]
    return tuple(Bid(contract_action(lv, m)) for lv in levels for m in modes)


class ContractAuction:
    name = "contracts"
    what_to_bid = "bid a contract or pass"
    bid_words = "pass, a contract such as 110H, 90NT or capotS, coinche, surcoinche"
    not_over = "the auction is not over: it ends after three passes behind a contract"
    thrown_in_words = "Nobody bid"
    outcome_words: Mapping[str, str] = MappingProxyType(
        {
            "made": "the contract is made",
            "dedans": "dedans: the contract failed",
            "thrown-in": "thrown in: nobody bid",
        }
    )

    def legal(self, deal: AuctionState) -> tuple[Action, ...]:
        """Pass, a higher contract, or coinche (the other side's contract); after a coinche, the
        bidding side may surcoinche or pass."""
        c = deal.contract
        if c is not None and c.multiplier > 1:
            return (PASS, Bid(SURCOINCHE))
        rules = deal.rules
        higher = contracts_above(
            0 if c is None else c.level, rules.coinche_max_bid, rules.no_trump_all_trump, rules.generale
        )
        if c is not None and deal.camps[c.bidder] != deal.camps[deal.to_move]:
            return (PASS, *higher, Bid(COINCHE))
        return (PASS, *higher)

    def bid(self, deal: AuctionState, seat: int, bid: Bid) -> Outcome:
        c = deal.contract
        step, n = deal.step, deal.players
        if is_contract(bid):
            level, mode = contract_of(bid)
            deal.contract = Contract(level, mode, seat)
        elif bid == COINCHE:
            assert c is not None
            deal.contract = Contract(c.level, c.mode, c.bidder, 2)
            deal.to_move = (seat + step) % n  # a player of the bidding side
            return None
        elif bid == SURCOINCHE:
            assert c is not None
            deal.contract = c = Contract(c.level, c.mode, c.bidder, deal.rules.surcoinche)
            return (c.bidder, c.mode)
        elif c is not None and c.multiplier > 1:  # a bidder lets the coinche stand
            if deal.bids[-2] == COINCHE:
                deal.to_move = (seat + 2 * step) % n  # the bidder's partner may still surcoinche
                return None
            return (c.bidder, c.mode)
        elif c is None and len(deal.bids) == n:
            return THROWN_IN
        elif c is not None and deal.bids[-3:] == [PASS] * 3:
            return (c.bidder, c.mode)
        deal.to_move = (seat + step) % n
        return None

    def explain(self, deal: AuctionState, action: Action) -> IllegalBid:
        c = deal.contract
        rules = deal.rules
        if action == TAKE or NAME_SUIT <= action < NAME_SUIT + 4:
            return IllegalBid(
                "in Coinche you bid a contract such as 80H, 100NT or capotS, or pass; no card is turned",
                "no_turned_card",
                bid=action_str(action),
            )
        if action == SURCOINCHE:
            if c is None or c.multiplier == 1:
                return IllegalBid("surcoinche answers a coinche: nobody has coinched", "nothing_to_surcoinche")
            return IllegalBid("only the bidding side may surcoinche", "surcoinche_bidders_only")
        if action == COINCHE:
            if c is None:
                return IllegalBid("there is no contract to coinche yet", "nothing_to_coinche")
            if c.multiplier > 1:
                return IllegalBid(f"{c.name} is already coinched", "already_coinched", contract=c.name)
            return IllegalBid(
                "you coinche the other side's contract, not your own side's", "coinche_own_side", contract=c.name
            )
        if is_contract(action):
            level, mode = contract_of(action)
            if c is not None and c.multiplier > 1:
                return IllegalBid(
                    "the bidding is closed by the coinche: the bidding side may surcoinche or pass",
                    "bidding_closed",
                    contract=c.name,
                )
            if c is not None and level <= c.level:
                # The lowest level still open (None over the highest): what a program may offer instead.
                least = next((lv for lv in bid_levels(rules.coinche_max_bid, rules.generale) if lv > c.level), None)
                return IllegalBid(
                    f"a bid must be higher than {c.name}",
                    "bid_too_low",
                    min=None if least is None else level_name(least),
                    contract=c.name,
                )
            if level == GENERALE and not rules.generale:
                return IllegalBid("the générale is not played at this table", "no_generale")
            if mode >= 4 and not rules.no_trump_all_trump:
                return IllegalBid(
                    "no-trumps and all-trumps are not played at this table", "mode_not_played", mode=MODE_LETTERS[mode]
                )
            return IllegalBid(
                f"bids go from 80 to {rules.coinche_max_bid}, then capot", "bid_too_high", max=rules.coinche_max_bid
            )
        name = action_str(action)
        return IllegalBid(f"{name} is not a bid", "not_a_bid", bid=name)

    def prompt(self, legal: Sequence[Action]) -> str:
        """The lowest contract open and its modes, coinche where it may be said, pass; or surcoinche.

        >>> CONTRACTS.prompt([PASS, *contracts_above(150, 160, False, False), Bid(COINCHE)])
        'your bid: a contract of 160 or more in S H D C (such as 160H), coinche, pass? '
        """
        if SURCOINCHE in legal:
            return "surcoinche or pass? "
        words = []
        contracts = [contract_of(a) for a in legal if is_contract(a)]
        if contracts:
            lowest = contracts[0][0]
            modes = " ".join(MODE_LETTERS[m] for lv, m in contracts if lv == lowest)
            example = action_str(contract_action(lowest, HEARTS))
            words.append(f"a contract of {level_name(lowest)} or more in {modes} (such as {example})")
        if COINCHE in legal:
            words.append("coinche")
        words.append("pass")
        return f"your bid: {', '.join(words)}? "

    def bid_round(self, bids: int, players: int) -> int | None:
        """None: the auction goes on as long as the contracts rise."""
        return None

    def max_bids(self, rules: Rules) -> int:
        """With ``L`` levels to bid: three passes, a contract at each level with two passes before
        each but the first, then two passes, a coinche and two more bids."""
        return 3 * len(bid_levels(rules.coinche_max_bid, rules.generale)) + 6

    def most_contract_points(self, rules: Rules) -> int:
        """The top contract failed, surcoinched: the defenders' points and the bid, multiplied."""
        top = max(bid_levels(rules.coinche_max_bid, rules.generale))
        return (rules.coinche_failed + top) * rules.surcoinche

    def claims(self, view: PlayerView) -> tuple[Claim, ...]:
        """What the contracts and passes so far say of each bidder's count for a mode."""
        claims: list[Claim] = []
        best: dict[int, tuple[int, int]] = {}  # camp -> (level, mode) of its last contract
        current: tuple[int, int, int] | None = None  # level, mode, seat
        for seat, bid in view.bids:
            if is_contract(bid):
                level, mode = contract_of(bid)
                level = min(level, TOP_PROMISE) if level >= CAPOT else level
                partner_level = best.get(seat & 1)
                if partner_level is not None and partner_level[1] == mode:
                    # A raise: the hand adds about the difference to what partner promised.
                    claims.append(Claim(COUNT, seat, mode, 50.0 + (level - partner_level[0]) - OPENING_SLACK, None))
                else:
                    claims.append(Claim(COUNT, seat, mode, level - OPENING_SLACK, None))
                best[seat & 1] = (level, mode)
                current = (level, mode, seat)
            elif bid in (COINCHE, SURCOINCHE):
                continue
            elif current is None:
                # A pass with no contract: no mode counted 80 or more.
                for mode in range(6):
                    claims.append(Claim(COUNT, seat, mode, None, 80 + OPENING_SLACK))
            elif current[2] & 1 != seat & 1 and current[0] < TOP_PROMISE:
                pass  # an opponent's pass says little: the contract may be too high to fight
        return tuple(claims)

    def described(self, contract: Contract | None, seats: str) -> dict[str, Any]:
        """The contract: its bidder, level, mode and multiplier (None before one is bid)."""
        c = contract
        return {"contract": None if c is None else {"bidder": seats[c.bidder], **c.to_json()}}


CONTRACTS = ContractAuction()
