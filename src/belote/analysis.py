"""The analysis of a finished (or unfinished) deal: what each card cost, double dummy and by the bot's view.

For every card played, each legal card of that moment is valued twice:

- **double dummy**: with every hand known, by the exact solver (``belote.solver``), turned into the
  deal's points (made or dedans at the line, the contract in Coinche, capot, declarations, belote):
  a card that turns a made contract into a dedans costs all of the swing. The ``cost`` of the card
  played is the best card's value less its own, so a player who always plays a best card costs 0.
- **from the seat's own view**: the search bot's mean over the worlds it draws from the seat's
  ``PlayerView`` alone (``SearchBot.card_evaluation``), and the card the bot plays there. Nothing but
  the view reaches the bot, so no hidden card leaks into this half.

A card's ``value`` is always for the seat that plays it: the points its score (its side, or itself
at three hands) adds for the deal, less the mean of what the other scores add. Both sides are given
too (``points``), so a page may show either.

The bidding gets the double-dummy **par**: for each trump (each contract's mode in Coinche) and each
seat as taker, the deal as it would then be dealt and played double dummy; for each side, the best of
its seats; in Coinche, the highest contract each side makes in each mode. And at each bid, what the
bot would have bid from that seat's view.

The output is the JSON object of ``docs/analysis.md`` (format ``belote-analysis/1``, schema in
``belote/schemas/analysis.json``). Exact is costly only where the deal is young: a whole deal is solved
from its first lead in tenths of a second on one core; at two hands, with cards face down on the
table, a young deal may need more than ``limit`` nodes, and its values are then ``null``.

>>> from belote.record import to_record
>>> from belote.game import Deal, TAKE
>>> deal = Deal.from_seed(3)
>>> deal.apply(TAKE)
>>> while deal.phase == "play":
...     deal.apply(best_cards(deal)[0])
>>> out = analyse(to_record(deal), view=False)
>>> [p["cost"] for p in out["plays"]] == [0] * 32
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from belote.auctions.contracts import CONTRACTS
from belote.auctions.turned import TURNED
from belote.bots.search import NodeBudget, SearchBot
from belote.cards import CARDS, parse_card
from belote.contracts import CAPOT, MODE_LETTERS, Contract, bid_levels
from belote.game import BIDDING, SEATS, Action, Deal, PlayerView, action_str
from belote.play import LAST_TRICK, POINTS
from belote.record import RecordError, describe, load_deal, loads_all, parse, to_record
from belote.rules import Rules
from belote.scoring import CAPOT_POINTS, DEAL_POINTS, DealResult, share
from belote.scoring import margin as scoring_margin
from belote.solver import NodeLimit, Position, card_values, forget
from belote.variants import Variant

FORMAT = "belote-analysis/1"
CAPOT_BONUS = CAPOT_POINTS - DEAL_POINTS
#: Solver nodes one position of the play may visit, where its game says no other
#: (``Variant.analysis_limit``): the first lead of a deal of four hands takes at most about 3 million
#: (of three hands, half a million); a young two-handed deal may pass its game's limit, and that
#: position's values are then null rather than seconds long.
LIMIT = Variant.analysis_limit
#: Solver nodes the par of one deal may spend in all, where its game says no other
#: (``Variant.par_budget``).
PAR_BUDGET = Variant.par_budget
#: How many of a player's costliest cards the summary lists.
MISTAKES = 3


class AnalysisError(ValueError):
    """A record that cannot be analysed; ``code`` is stable for programs (``not_a_record``, ``illegal_record``)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Options:
    """How the analysis is made: the bot's seed and thinking, whether to ask it at all, the node limits
    (``limit`` for each position of the play, ``par_budget`` for the whole par; None: the game's,
    ``limit_for`` and ``par_budget_for``)."""

    seed: int = 0
    think: float = 1.0
    view: bool = True
    limit: int | None = None
    par_budget: int | None = None


def par_budget_for(rules: Rules) -> int:
    """The par's nodes for a game: its ``Variant.par_budget``."""
    return rules.game.par_budget


def limit_for(rules: Rules) -> int:
    """The nodes of each position of the play for a game: its ``Variant.analysis_limit``."""
    return rules.game.analysis_limit


# ----------------------------------------------------------------------------- double dummy
def _in_play(deal: Deal) -> tuple[Position, int]:
    """The position of a deal in play, and the card points still to take (the trick on the table's,
    the last trick's ten)."""
    pos = Position.from_state(deal)
    points = POINTS[deal.mode]
    left = pos.hidden
    for h in pos.hands:
        left |= h
    remaining = sum(points[c] for c in range(32) if left >> c & 1) + sum(points[c] for c in pos.trick)
    return pos, remaining + LAST_TRICK


def ending(deal: Deal, v: int, remaining: int) -> DealResult:
    """The deal's result if the camp of the seat to move takes ``v`` more (the solver's number: card
    points from here, 90 more for a capot) and the other camp the rest.

    What a camp takes from now on is shared evenly among its seats (an odd point to the first in seat
    order): only at three hands, where each defender scores alone, does that split matter. The solver
    counts only the mover's camp's capot: a camp left with no point and no trick is taken capot.
    """
    variant = deal.variant
    camps = deal.camps
    taker = deal.taker
    assert taker is not None
    camp = camps[deal.to_move]
    n = deal.players
    mine_capot = v > remaining
    mine = v - CAPOT_BONUS if mine_capot else v
    take = [0, 0]
    take[camp], take[1 - camp] = mine, remaining - mine
    tricks_done = list(deal.won_tricks)
    theirs_capot = not mine_capot and v == 0 and tricks_done[camp] == 0
    won_by_seat, tricks_by_seat = [0] * n, [0] * n
    for t in deal.tricks:
        won_by_seat[t.winner] += t.points
        tricks_by_seat[t.winner] += 1
    tricks_left = deal.ntricks - len(deal.tricks)
    for c in (0, 1):
        seats = [s for s in range(n) if camps[s] == c]
        for s, part in zip(seats, share(take[c], len(seats)), strict=True):
            won_by_seat[s] += part
        # Only whether a camp takes no trick, or every trick, counts: its future tricks go to one seat.
        counted = taker if c == camps[taker] else seats[0]
        if (c == camp and mine_capot) or (c != camp and theirs_capot):
            tricks_by_seat[counted] += tricks_left
        elif not ((c != camp and mine_capot) or (c == camp and theirs_capot)) and tricks_done[c] == 0:
            tricks_by_seat[counted] += 1
    taker_capot = (mine_capot and camp == camps[taker]) or (theirs_capot and camp != camps[taker])
    alone = taker_capot and all(t.winner == taker for t in deal.tricks)
    return deal.result_if(variant.by_team(won_by_seat), variant.by_team(tricks_by_seat), alone)


def margin(deal: Deal, seat: int, points: Sequence[int]) -> float:
    """What ``seat``'s score adds less the mean of what the others add: the value of the deal for it."""
    return scoring_margin(points, deal.rules.team(seat))


def rounded(x: float) -> int | float:
    """A whole number where it is one (JSON readers see 12, not 12.0)."""
    return int(x) if float(x).is_integer() else round(x, 2)


def dd_cards(deal: Deal, limit: int | None = LIMIT, keep: bool = False) -> dict[int, tuple[int, DealResult]] | None:
    """Each legal card of the seat to move: the solver's number and the deal's result, double dummy.
    ``keep``: the solver keeps its table from the position before (``belote.solver.value``)."""
    pos, remaining = _in_play(deal)
    try:
        values = card_values(pos, limit, keep)
    except NodeLimit:
        return None
    return {int(c): (v, ending(deal, v, remaining)) for c, v in values.items()}


def best_cards(deal: Deal, limit: int | None = None) -> list[int]:
    """The legal cards of the seat to move that keep the most for its camp, double dummy (lowest card first)."""
    values = card_values(Position.from_state(deal), limit)
    top = max(values.values())
    return sorted(int(c) for c, v in values.items() if v == top)


def _whole_deal(deal: Deal, budget: NodeBudget, keep: bool = False) -> tuple[int, DealResult] | None:
    """A deal at its first lead solved: the leader's camp's number and the deal's result (None past the
    budget). ``keep``: in the solver's kept table (``belote.solver.value``)."""
    pos, remaining = _in_play(deal)
    v = budget.value(pos, keep) if budget.open else None
    if v is None:
        return None
    return v, ending(deal, v, remaining)


# ----------------------------------------------------------------------------- the par of the bidding
def par(
    fresh: Deal, budget: int | None = PAR_BUDGET, played: tuple[int, int] | None = None, limit: int | None = LIMIT
) -> dict[str, Any]:
    """The double-dummy par of a deal before its bidding (``fresh`` has no bid yet), in at most
    ``budget`` solver nodes (None: no bound); what it cannot solve within them is marked unsolved.

    ``played``: the taker and trump mode the deal was played with. That deal is the first lead of the
    play the analysis goes on with: it is solved first, as a position of the play is (at most
    ``limit`` nodes, outside the budget), in the solver's kept table, where the positions of its play
    then find it solved. The other trumps and takers, different deals, share the budget, each in a
    fresh table. The values are the same either way.
    """
    return PARS[fresh.variant.auction.name](fresh, NodeBudget(budget), played, NodeBudget(limit))


def _team_points(deal: Deal, points: Sequence[int]) -> dict[str, int]:
    return dict(zip(deal.rules.team_names, points, strict=True))


def _par_turned(fresh: Deal, budget: NodeBudget, played: tuple[int, int] | None, first: NodeBudget) -> dict[str, Any]:
    """Each trump with each seat as taker; for each side (or player), the best of its seats' takes.
    ``played``: the taker and trump played, solved first within ``first`` (``par``)."""
    rules = fresh.rules
    names = rules.team_names
    solved_first = {} if played is None else {played: _whole_deal(fresh.taken(*played), first, keep=True)}
    modes: list[dict[str, Any]] = []
    for mode in range(4):
        takers: list[dict[str, Any]] = []
        best: dict[str, dict[str, Any]] = {}
        for seat in range(fresh.players):
            deal = fresh.taken(seat, mode)
            solved = solved_first[seat, mode] if (seat, mode) in solved_first else _whole_deal(deal, budget)
            if solved is None:
                takers.append({"taker": SEATS[seat], "solved": False})
                continue
            _v, r = solved
            team = names[rules.team(seat)]
            entry = {
                "taker": SEATS[seat],
                "solved": True,
                "outcome": r.outcome,
                "cards": _team_points(deal, r.cards),
                "points": _team_points(deal, r.points),
                "value": rounded(margin(deal, seat, r.points)),
            }
            takers.append(entry)
            if team not in best or entry["value"] > best[team]["value"]:
                best[team] = entry
        modes.append(
            {
                "trump": MODE_LETTERS[mode],
                "takers": takers,
                "par": {t: {"taker": e["taker"], "value": e["value"]} for t, e in best.items()},
            }
        )
    return {"kind": "takers", "modes": modes}


def _par_contracts(
    fresh: Deal, budget: NodeBudget, contract: tuple[int, int] | None, first: NodeBudget
) -> dict[str, Any]:
    """Coinche: each mode solved once (every card is dealt before the auction), then for each side the
    highest contract it makes in that mode, not coinched, and what that contract scores. ``contract``:
    the bidder and mode of the contract played, whose mode is solved first within ``first`` (``par``)."""
    played = None if contract is None else contract[1]
    rules = fresh.rules
    names = rules.team_names
    modes = range(6) if rules.no_trump_all_trump else range(4)
    levels = bid_levels(rules.coinche_max_bid, rules.generale)
    leader = fresh.order[0]

    def solved(mode: int, nodes: NodeBudget, keep: bool = False) -> tuple[int | None, int]:
        pos, remaining = _in_play(fresh.taken(leader, mode, Contract(levels[0], mode, leader)))
        return (nodes.value(pos, keep) if nodes.open else None), remaining

    solved_first = {} if played is None else {played: solved(played, first, keep=True)}
    out: list[dict[str, Any]] = []
    for mode in modes:
        v, remaining = solved_first[mode] if mode in solved_first else solved(mode, budget)
        if v is None:
            out.append({"trump": MODE_LETTERS[mode], "solved": False})
            continue
        sides: dict[str, Any] = {}
        cards: dict[str, int] = {}
        for team in (0, 1):
            bidder = next(s for s in fresh.order if s & 1 == team)
            made: dict[str, Any] | None = None
            for level in levels:
                deal = fresh.taken(bidder, mode, Contract(level, mode, bidder))
                r = ending(deal, v, remaining)
                cards = _team_points(deal, r.cards)
                if r.winner != team:
                    break
                made = {
                    "contract": _level_name(level) + MODE_LETTERS[mode],
                    "points": _team_points(deal, r.points),
                    "value": rounded(margin(deal, bidder, r.points)),
                }
            sides[names[team]] = made
        out.append({"trump": MODE_LETTERS[mode], "solved": True, "cards": cards, "par": sides})
    return {"kind": "contracts", "modes": out}


#: The par of each auction (``Auction.name``): each seat taking each trump where a card is turned,
#: each side's highest contract made in each mode where contracts are bid.
PARS: dict[str, Callable[[Deal, NodeBudget, tuple[int, int] | None, NodeBudget], dict[str, Any]]] = {
    TURNED.name: _par_turned,
    CONTRACTS.name: _par_contracts,
}


def _level_name(level: int) -> str:
    return "capot" if level == CAPOT else "generale" if level > CAPOT else str(level)


# ----------------------------------------------------------------------------- the whole deal
def analyse(record: dict[str, Any], options: Options | None = None, *, view: bool | None = None) -> dict[str, Any]:
    """The analysis of one deal record (``docs/analysis.md``). Raises ``AnalysisError``."""
    opts = options or Options()
    if view is not None:
        opts = replace(opts, view=view)
    try:
        rules, dealer, deck, _bids, _plays, score_before, pending = parse(record)
        played, _score, error = load_deal(record)
    except RecordError as e:
        raise AnalysisError(f"not a deal record: {e}", "not_a_record") from None
    if error is not None:
        where = f"{error['key']}[{error['index']}]"
        raise AnalysisError(f"{where} {error['action']}: {error['message']}", "illegal_record")
    bot = SearchBot(opts.seed, think=opts.think) if opts.view else None
    deal = Deal(rules, dealer, deck, pending)
    # The deal as played is solved at its first lead for the par, then position after position of
    # its play, all in one table: each finds most of the next solved (the same analysis visits the
    # same nodes wherever it runs: the table starts anew).
    forget()
    contract = None if played.taker is None else (played.taker, played.mode)
    limit = limit_for(rules) if opts.limit is None else opts.limit
    out: dict[str, Any] = {
        "format": FORMAT,
        "game": rules.variant,
        "record": to_record(played, score_before),
        "complete": played.phase == "done",
        "summary": describe(played, score_before),
        "par": par(deal.copy(), par_budget_for(rules) if opts.par_budget is None else opts.par_budget, contract, limit),
        "bids": [],
        "plays": [],
    }
    for action in played.actions:
        if deal.phase == BIDDING:
            out["bids"].append(_bid_entry(deal, action, bot))
        else:
            out["plays"].append(_play_entry(deal, int(action), bot, limit))
        deal.apply(action)
    out["players"] = _players(deal, out["plays"])
    return out


def _bid_entry(deal: Deal, action: Action, bot: SearchBot | None) -> dict[str, Any]:
    seat = deal.to_move
    entry: dict[str, Any] = {"index": len(deal.bids), "seat": SEATS[seat], "bid": action_str(action)}
    entry["bot"] = None if bot is None else action_str(bot.act(deal.view(seat)))
    return entry


def _play_entry(deal: Deal, card: int, bot: SearchBot | None, limit: int | None) -> dict[str, Any]:
    seat = deal.to_move
    legal = [int(c) for c in deal.legal_actions()]
    index = len(deal.plays)
    entry: dict[str, Any] = {
        "index": index,
        "trick": index // deal.players,
        "seat": SEATS[seat],
        "card": str(CARDS[card]),
        "legal": [str(CARDS[c]) for c in legal],
    }
    dd = dd_cards(deal, limit, keep=True)
    if dd is None:
        entry["double_dummy"] = None
        entry["best"] = []
        entry["cost"] = None
    else:
        values = {c: margin(deal, seat, r.points) for c, (_v, r) in dd.items()}
        top = max(values.values())
        entry["double_dummy"] = {
            str(CARDS[c]): {
                "value": rounded(values[c]),
                "cost": rounded(top - values[c]),
                "card_points": v,
                "points": _team_points(deal, r.points),
                "outcome": r.outcome,
            }
            for c, (v, r) in dd.items()
        }
        entry["best"] = [str(CARDS[c]) for c in legal if values[c] == top]
        entry["cost"] = rounded(top - values[card])
    if bot is None:
        entry["view"] = None
        return entry
    entry["view"] = seen = view_entry(deal.view(seat), bot)
    # The double-dummy points lost against the bot's card (negative: the card played did better).
    seen["cost"] = None
    if dd is not None:
        choice = parse_card(seen["choice"])
        seen["cost"] = rounded(margin(deal, seat, dd[choice][1].points) - margin(deal, seat, dd[card][1].points))
    return entry


def view_entry(view: PlayerView, bot: SearchBot) -> dict[str, Any]:
    """The bot's evaluation from one seat's view: its mean per legal card and the card it plays.

    It is given the ``PlayerView`` and nothing else: the hidden hands never reach it.
    """
    choice, means, worlds = bot.card_evaluation(view)
    cards = None if means is None else {str(CARDS[c]): rounded(round(m, 2)) for c, m in means.items()}
    return {"choice": str(CARDS[choice]), "worlds": worlds, "cards": cards}


def _players(deal: Deal, plays: list[dict[str, Any]]) -> dict[str, Any]:
    """Each seat's summary: cards played, total double-dummy cost, cost against the bot's card, worst cards."""
    out: dict[str, Any] = {}
    for seat in SEATS[: deal.players]:
        mine = [p for p in plays if p["seat"] == seat]
        costed = [p for p in mine if p["cost"] is not None]
        view_costed = [p for p in mine if p["view"] is not None and p["view"]["cost"] is not None]
        worst = sorted((p for p in costed if p["cost"] > 0), key=lambda p: (-p["cost"], p["index"]))[:MISTAKES]
        out[seat] = {
            "cards": len(mine),
            "solved": len(costed),
            "cost": rounded(sum(p["cost"] for p in costed)),
            "view_cost": rounded(sum(p["view"]["cost"] for p in view_costed)) if view_costed else None,
            "mistakes": [{"index": p["index"], "card": p["card"], "cost": p["cost"], "best": p["best"]} for p in worst],
        }
    return out


# ----------------------------------------------------------------------------- for people
def text_report(analysis: dict[str, Any]) -> str:
    """The analysis for people: the par, the bids against the bot's, each card's cost, each player's summary."""
    lines = [f"{analysis['game']}: {_result_words(analysis['summary'])}"]
    lines.append("Par (double dummy, by trump): " + "; ".join(_par_words(m) for m in analysis["par"]["modes"]))
    for b in analysis["bids"]:
        bot = "" if b["bot"] is None or b["bot"] == b["bid"] else f"   (bot: {b['bot']})"
        lines.append(f"  {b['seat']} {b['bid']}{bot}")
    for p in analysis["plays"]:
        if p["index"] % len(analysis["players"]) == 0:
            lines.append(f"Trick {p['trick'] + 1}")
        cost = "?" if p["cost"] is None else p["cost"]
        best = "" if not p["cost"] else f", best {' '.join(p['best'])}"
        view = p["view"]
        bot = "" if view is None or view["choice"] == p["card"] else f", bot {view['choice']}"
        forced = " (forced)" if len(p["legal"]) == 1 else ""
        lines.append(f"  {p['seat']} {p['card']}{forced}: cost {cost}{best}{bot}")
    for seat, s in analysis["players"].items():
        worst = ", ".join(f"{m['card']} (card {m['index'] + 1}) {m['cost']}" for m in s["mistakes"]) or "none"
        versus = "" if s["view_cost"] is None else f", against the bot's cards {s['view_cost']}"
        lines.append(f"{seat}: {s['cards']} cards, double-dummy cost {s['cost']}{versus}; largest: {worst}")
    return "\n".join(lines)


def _result_words(summary: dict[str, Any]) -> str:
    r = summary["result"]
    if r is None:
        return "in progress"
    points = " ".join(f"{k} {v}" for k, v in r["points"].items())
    return f"{r['outcome']}, points {points}"


def _par_words(mode: dict[str, Any]) -> str:
    par = mode.get("par")
    if not par:
        return f"{mode['trump']} not solved"
    parts = []
    for side, p in par.items():
        if p is None:
            parts.append(f"{side} -")
        elif "contract" in p:
            parts.append(f"{side} {p['contract']}")
        else:
            parts.append(f"{side} {p['value']:+} ({p['taker']})")
    return f"{mode['trump']}: " + ", ".join(parts)


# ----------------------------------------------------------------------------- files
def read_records(text: str) -> Iterator[dict[str, Any]]:
    """The records of a file: one JSON object, or JSON lines (``belote.record.loads_all``)."""
    try:
        records = loads_all(text)
    except RecordError as e:
        raise AnalysisError(f"not a deal record: {e}", "not_a_record") from None
    yield from records


def dumps(analysis: dict[str, Any]) -> str:
    return json.dumps(analysis, ensure_ascii=False)


__all__ = [
    "FORMAT",
    "LIMIT",
    "PAR_BUDGET",
    "AnalysisError",
    "Options",
    "analyse",
    "best_cards",
    "dd_cards",
    "ending",
    "limit_for",
    "margin",
    "par",
    "par_budget_for",
    "read_records",
    "rounded",
    "text_report",
    "view_entry",
]
