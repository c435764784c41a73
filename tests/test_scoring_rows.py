"""The sheet of a deal (``DealResult.rows``, ``scoring.ROWS``): for each score, the rows its points are
made of, which add up to exactly what it adds to the match.

The deals of issue 24 first (a capot, a Coinche contract made, a dedans with the takers'
declarations), then every outcome with its rows written out, then properties: over random ends of a
deal of every game under random rule options, and over random deals played to their end.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from belote.contracts import CAPOT, GENERALE, Contract
from belote.game import Match
from belote.rules import OPTIONS, Rules
from belote.scoring import ROWS, DealResult, score_contract, score_deal, score_three, thrown_in
from belote.variants import VARIANTS, Tally
from games import GAMES, of_game

I18N = Path(__file__).resolve().parent.parent / "src" / "belote" / "web" / "i18n.js"
COINCHE = Rules(variant="coinche")
THREE = Rules(variant="three-handed")
SETTINGS = settings(deadline=None, max_examples=300, suppress_health_check=[HealthCheck.too_slow])


def sheet(r: DealResult) -> list[dict[str, int]]:
    """Each score's rows as a dict, checked to add up to its points on the way."""
    out = [dict(rows) for rows in r.rows]
    assert [sum(rows.values()) for rows in out] == list(r.points)
    return out


# ----------------------------------------------------------------- the deals of the issue
def test_a_capot_has_its_90_on_a_row() -> None:
    """Rows 152 + 10 + 70 + 20 = 252 were drawn under "Points added +342": the capot's 90 had none."""
    r = score_deal(Rules(), 0, (162, 0), (8, 0), (70, 0), (20, 0), last=0)
    assert r.points == (342, 0)
    assert sheet(r) == [
        {"cards": 152, "last_trick": 10, "declarations": 70, "belote": 20, "capot": 90},
        {"cards": 0},
    ]
    assert r.rows[0] == (("cards", 152), ("last_trick", 10), ("declarations", 70), ("belote", 20), ("capot", 90))


def test_a_coinche_contract_made_has_its_level_on_a_row() -> None:
    """Coinche 100♠ made: rows 96 + 10 + 20 = 126 were drawn under "+226": the contract had none."""
    r = score_contract(COINCHE, Contract(100, 0, bidder=0), (106, 56), (6, 2), (0, 0), (20, 0), last=0)
    assert r.points == (226, 56)
    assert sheet(r) == [{"cards": 96, "last_trick": 10, "belote": 20, "contract": 100}, {"cards": 56}]


def test_a_dedans_gives_the_takers_points_and_declarations_to_the_defenders() -> None:
    """The takers' declarations were drawn in their column, yet they added 0 and the defenders 232."""
    r = score_deal(Rules(), 0, (40, 122), (2, 6), (50, 0), (0, 0), last=1)
    assert (r.outcome, r.points) == ("dedans", (0, 212))
    assert sheet(r) == [
        {"cards": 40, "declarations": 50, "lost": -90},
        {"cards": 112, "last_trick": 10, "won": 90},
    ]


# ----------------------------------------------------------------- every outcome, written out
def test_made_each_side_keeps_its_own() -> None:
    r = score_deal(Rules(), 1, (58, 104), (3, 5), (0, 20), (20, 0), last=1)
    assert (r.outcome, r.points) == ("made", (78, 124))
    assert sheet(r) == [{"cards": 58, "belote": 20}, {"cards": 94, "last_trick": 10, "declarations": 20}]


def test_a_capot_against_the_takers_takes_their_declarations_too() -> None:
    r = score_deal(Rules(), 0, (0, 162), (0, 8), (20, 0), (20, 0), last=1)
    assert (r.outcome, r.points) == ("capot", (20, 272))
    assert sheet(r) == [
        {"cards": 0, "declarations": 20, "belote": 20, "lost": -20},
        {"cards": 152, "last_trick": 10, "won": 20, "capot": 90},
    ]


def test_a_litige_sets_the_takers_points_aside_and_the_next_winner_collects_them() -> None:
    r = score_deal(Rules(), 0, (81, 81), (4, 4), (0, 0), (0, 0), last=0)
    assert (r.outcome, r.points, r.pending) == ("litige", (0, 81), 81)
    assert sheet(r) == [{"cards": 71, "last_trick": 10, "waiting": -81}, {"cards": 81}]
    nxt = score_deal(Rules(), 1, (70, 92), (3, 5), (0, 0), (0, 0), pending=r.pending, last=1)
    assert (nxt.outcome, nxt.points) == ("made", (70, 173))
    assert sheet(nxt) == [{"cards": 70}, {"cards": 82, "last_trick": 10, "collected": 81}]


def test_a_litige_held_sets_everything_aside_but_belote() -> None:
    r = score_deal(Rules(litige="hold"), 0, (61, 101), (3, 5), (20, 0), (20, 0), last=1)
    assert (r.outcome, r.points, r.pending) == ("litige", (20, 0), 182)
    assert sheet(r) == [
        {"cards": 61, "declarations": 20, "belote": 20, "waiting": -81},
        {"cards": 91, "last_trick": 10, "waiting": -101},
    ]


def test_a_second_litige_leaves_what_waited_waiting() -> None:
    r = score_deal(Rules(), 1, (81, 81), (4, 4), (0, 0), (0, 0), pending=40)
    assert (r.points, r.pending) == ((81, 0), 121)
    assert sheet(r) == [{"cards": 81}, {"cards": 81, "waiting": -81}]


def test_rounded_scores_show_their_rounding() -> None:
    rounded = Rules(rounding=True)
    made = score_deal(rounded, 0, (96, 66), (5, 3), (0, 0), (0, 0), last=0)
    assert made.points == (100, 60)
    assert sheet(made) == [{"cards": 86, "last_trick": 10, "rounding": 4}, {"cards": 66, "rounding": -6}]
    down = score_deal(rounded, 0, (60, 102), (3, 5), (0, 0), (0, 0), last=1)
    assert sheet(down) == [{"cards": 60, "lost": -60}, {"cards": 92, "last_trick": 10, "won": 60, "rounding": -2}]
    capot = score_deal(rounded, 1, (0, 162), (0, 8), (0, 0), (0, 0), last=1)
    assert capot.points == (0, 250)
    assert sheet(capot)[1] == {"cards": 152, "last_trick": 10, "capot": 90, "rounding": -2}


def test_a_coinche_contract_failed_gives_the_defenders_160_and_the_contract() -> None:
    r = score_contract(COINCHE, Contract(120, 1, bidder=1), (70, 92), (3, 5), (0, 20), (20, 0), last=0)
    assert (r.outcome, r.points) == ("dedans", (320, 0))
    assert sheet(r) == [
        {"cards": 60, "last_trick": 10, "belote": 20, "won": 112, "contract": 120, "rounding": -2},
        {"cards": 92, "declarations": 20, "lost": -112},
    ]


def test_a_coinche_counts_the_deal_and_the_contract_twice() -> None:
    r = score_contract(COINCHE, Contract(90, 0, bidder=0, multiplier=2), (100, 62), (5, 3), (0, 0), (0, 0), last=0)
    assert (r.outcome, r.points) == ("made", (500, 0))
    assert sheet(r) == [
        {"cards": 90, "last_trick": 10, "won": 62, "contract": 90, "coinche": 250, "rounding": -2},
        {"cards": 62, "lost": -62},
    ]


def test_a_surcoinche_failed_counts_them_four_times_for_the_defenders() -> None:
    r = score_contract(COINCHE, Contract(80, 1, bidder=1, multiplier=4), (90, 72), (5, 3), (0, 20), (0, 0), last=0)
    assert (r.outcome, r.points) == ("made", (0, 980))
    assert sheet(r) == [
        {"cards": 80, "last_trick": 10, "lost": -90},
        {"cards": 72, "declarations": 20, "won": 90, "contract": 80, "surcoinche": 720, "rounding": -2},
    ]
    down = score_contract(COINCHE, Contract(140, 1, bidder=1, multiplier=4), (90, 72), (5, 3), (0, 0), (0, 0))
    assert (down.outcome, down.points) == ("dedans", (1200, 0))
    assert sheet(down) == [
        {"cards": 90, "won": 72, "contract": 140, "surcoinche": 900, "rounding": -2},
        {"cards": 72, "lost": -72},
    ]


def test_a_contract_made_for_the_bid_alone_has_no_row_of_the_takers_cards() -> None:
    rules = Rules(variant="coinche", coinche_made="bid", rounding=True)
    r = score_contract(rules, Contract(100, 0, bidder=0), (116, 46), (6, 2), (20, 0), (0, 0), last=0)
    assert r.points == (120, 50)
    assert sheet(r) == [{"declarations": 20, "contract": 100}, {"cards": 46, "rounding": 4}]


def test_a_coinche_capot_made_and_a_générale() -> None:
    r = score_contract(COINCHE, Contract(CAPOT, 2, bidder=2), (162, 0), (8, 0), (0, 0), (0, 0), last=0)
    assert r.points == (502, 0)
    assert sheet(r) == [{"cards": 152, "last_trick": 10, "capot": 90, "contract": 250}, {"cards": 0}]
    rules = Rules(variant="coinche", generale=True)
    g = score_contract(rules, Contract(GENERALE, 2, bidder=0), (162, 0), (8, 0), (0, 0), (0, 0), False, last=0)
    assert (g.outcome, g.points) == ("dedans", (0, 660))
    assert sheet(g) == [
        {"cards": 152, "last_trick": 10, "lost": -162},
        {"cards": 0, "won": 162, "contract": 500, "rounding": -2},
    ]


def test_three_hands_a_dedans_is_shared_by_the_defenders_the_odd_point_to_the_first() -> None:
    r = score_three(THREE, 0, (50, 40, 40), (3, 2, 3), (20, 0, 0), (0, 0, 0), pending=81, last=2)
    assert (r.outcome, r.points) == ("dedans", (0, 116, 115))
    assert sheet(r) == [
        {"cards": 50, "declarations": 20, "lost": -70},
        {"cards": 40, "won": 35, "collected": 41},
        {"cards": 30, "last_trick": 10, "won": 35, "collected": 40},
    ]


def test_three_hands_the_defenders_even_out_what_each_took() -> None:
    r = score_three(THREE, 1, (90, 30, 42), (4, 2, 2), (0, 0, 20), (0, 0, 0), last=0)
    assert (r.outcome, r.points) == ("dedans", (91, 0, 91))
    assert sheet(r) == [
        {"cards": 80, "last_trick": 10, "won": 15, "shared": -14},
        {"cards": 30, "lost": -30},
        {"cards": 42, "declarations": 20, "won": 15, "shared": 14},
    ]


def test_three_hands_a_capot_for_the_taker_and_one_against_him() -> None:
    r = score_three(THREE, 2, (0, 0, 130), (0, 0, 8), (0, 0, 0), (0, 20, 0), last=2)
    assert (r.outcome, r.points) == ("capot", (0, 20, 220))
    assert sheet(r) == [{"cards": 0}, {"cards": 0, "belote": 20}, {"cards": 120, "last_trick": 10, "capot": 90}]
    down = score_three(Rules(variant="three-handed", rounding=True), 2, (70, 61, 0), (4, 4, 0), (0, 0, 0), (0, 0, 0))
    assert (down.outcome, down.points) == ("capot", (110, 110, 0))
    assert sheet(down) == [
        {"cards": 70, "capot": 45, "shared": -4, "rounding": -1},
        {"cards": 61, "capot": 45, "shared": 4},
        {"cards": 0},
    ]


def test_three_hands_a_litige_sets_the_takers_points_aside() -> None:
    r = score_three(THREE, 0, (65, 30, 35), (4, 2, 2), (0, 0, 0), (0, 0, 0), last=0)
    assert (r.outcome, r.points, r.pending) == ("litige", (0, 30, 35), 65)
    assert sheet(r) == [{"cards": 55, "last_trick": 10, "waiting": -65}, {"cards": 30}, {"cards": 35}]


def test_a_thrown_in_deal_has_no_row() -> None:
    r = thrown_in(81, 3, ("N", "E", "S"))
    assert r.rows == ((), (), ())
    assert r.to_json(sheet=True)["rows"] == []


def test_the_sheet_as_json_is_one_entry_per_row_in_the_order_of_rows() -> None:
    r = score_deal(Rules(), 0, (0, 162), (0, 8), (20, 0), (20, 0), last=1)
    assert r.to_json(sheet=True)["rows"] == [
        {"row": "cards", "points": {"NS": 0, "EW": 152}},
        {"row": "last_trick", "points": {"EW": 10}},
        {"row": "declarations", "points": {"NS": 20}},
        {"row": "belote", "points": {"NS": 20}},
        {"row": "won", "points": {"EW": 20}},
        {"row": "lost", "points": {"NS": -20}},
        {"row": "capot", "points": {"EW": 90}},
    ]
    assert "rows" not in r.to_json()  # the record's result is the shared spec's, unchanged


# ----------------------------------------------------------------- random ends of a deal
#: The rule options that change a score, drawn from the registry (every choice of each).
SCORING_OPTIONS = [s for s in OPTIONS if s.group in ("scoring", "coinche") and s.kind in ("bool", "choice")]


def draw_end(
    game_name: str, pick: Callable[[list[Any]], Any], number: Callable[[int, int], int]
) -> tuple[Rules, Tally]:
    """A deal's end in ``game_name`` under drawn rule options: who took, each score's tricks and card
    points (a capot either way, a tie now and then), declarations, belote, points waiting, and a
    contract where the game has them. ``pick`` chooses in a list, ``number`` in a range."""
    game = VARIANTS[game_name]
    options = {s.name: pick(_values(s)) for s in SCORING_OPTIONS if s.read_by(game_name)}
    rules = Rules(variant=game_name, **options)
    n = game.teams
    taker_seat = number(0, game.players - 1)
    taker = game.team_of[taker_seat]
    camps = game.camps(taker_seat)
    ours = [i for i in range(n) if camps[game.team_of.index(i)] == camps[taker_seat]]
    shape = pick(["plain", "plain", "taker capot", "capot against", "tie"])
    winners = [taker] if shape == "taker capot" else [i for i in range(n) if i not in ours or shape != "capot against"]
    tricks = _split(game.tricks, len(winners), 1 if shape == "plain" or shape == "tie" else 0, number)
    by_score = dict(zip(winners, tricks, strict=True))
    took = [i for i in winners if by_score[i]]
    last = pick(took)
    total = 162 if not game.out_of_play else number(40, 162)
    cards = [0] * n
    for i, c in zip(took, _split(total - 10, len(took), 0, number), strict=True):
        cards[i] = c + (10 if i == last else 0)
    declarations = [pick([0, 0, 20, 50, 100]) for _ in range(n)]
    belote = [0] * n
    if pick([False, True]):
        belote[number(0, n - 1)] = 20
    if shape == "tie":
        _tie(cards, declarations, belote, ours, last, rules)
    pending = pick([0, 0, 81, 162]) if game.carries_pending else 0
    contract = None
    if game.contracts:
        level = pick([80, 90, 100, 110, 120, 130, 140, 150, 160, CAPOT, GENERALE])
        contract = Contract(level, number(0, 5), taker_seat, pick([1, 2, rules.surcoinche]))
    all_tricks = tuple(by_score.get(i, 0) for i in range(n))
    alone = all_tricks[taker] == game.tricks and pick([False, True])
    order = game.order(number(0, game.players - 1), rules.step)
    tally = Tally(
        taker_seat, tuple(cards), all_tricks, tuple(declarations), tuple(belote), pending, order, contract, alone, last
    )
    return rules, tally


def _values(spec: Any) -> list[Any]:
    return list(spec.choices) if spec.kind == "choice" else [False, True]


def _split(total: int, parts: int, least: int, number: Callable[[int, int], int]) -> list[int]:
    """``total`` in ``parts`` drawn parts of at least ``least`` each (the first may take all)."""
    out = []
    left = total
    for k in range(parts - 1):
        part = number(least, left - least * (parts - 1 - k))
        out.append(part)
        left -= part
    return [*out, left]


def _tie(
    cards: list[int], declarations: list[int], belote: list[int], ours: list[int], last: int, rules: Rules
) -> None:
    """Moves card points between the camps so that the taker's camp has exactly the others' total."""
    counted = belote if rules.belote_counts else [0] * len(belote)
    total = [c + d + b for c, d, b in zip(cards, declarations, counted, strict=True)]
    mine = sum(total[i] for i in ours)
    move, odd = divmod(sum(total) - 2 * mine, 2)
    giver = max((i for i in range(len(cards)) if i not in ours), key=lambda i: cards[i])
    floor = {i: 10 if i == last else 0 for i in range(len(cards))}
    if not odd and cards[giver] - move >= floor[giver] and cards[ours[0]] + move >= floor[ours[0]]:
        cards[giver] -= move
        cards[ours[0]] += move


def check_rows(r: DealResult, pending: int, last: int | None) -> None:
    """Every score's rows add up to its points, and each kind of row says what it names."""
    sheets = sheet(r)
    for rows, raw in zip(sheets, r.rows, strict=True):
        assert set(rows) <= set(ROWS)
        assert [name for name, _ in raw] == [name for name in ROWS if name in rows], "in the order of ROWS"
        assert all(points for name, points in raw if name != "cards"), "no row of no points"
    column = lambda name: [rows.get(name, 0) for rows in sheets]  # noqa: E731
    # What one score gives, another takes.
    assert sum(column("won")) + sum(column("lost")) + sum(column("shared")) == 0
    assert all(p <= 0 for p in column("lost") + column("waiting"))
    assert all(p >= 0 for p in column("won") + column("collected") + column("capot"))
    # What waits is what the litige set aside, on top of what waited already.
    carried = pending if r.outcome == "litige" else 0
    assert -sum(column("waiting")) == r.pending - carried
    assert sum(column("collected")) == (0 if r.outcome in ("litige", "thrown-in") else pending)
    if r.outcome != "thrown-in":  # the ten on its own row, where the score's cards count
        assert column("last_trick") == [10 if i == last and "cards" in rows else 0 for i, rows in enumerate(sheets)]


@SETTINGS
@given(game=st.sampled_from(GAMES), data=st.data())
def test_the_rows_of_every_end_add_up_to_its_points(game: str, data: st.DataObject) -> None:
    rules, tally = draw_end(game, lambda xs: data.draw(st.sampled_from(xs)), lambda a, b: data.draw(st.integers(a, b)))
    r = VARIANTS[game].score(rules, tally)
    mult = tally.contract.multiplier if tally.contract else 1
    event(f"{game} {r.outcome}{' x' + str(mult) if mult > 1 else ''}{' rounded' if rules.rounding else ''}")
    check_rows(r, tally.pending, tally.last)


def test_the_random_ends_reach_every_outcome_of_every_game() -> None:
    """The ends drawn above (here by a seeded generator) reach each outcome the game has, coinched
    and surcoinched contracts, and rounded scores: the property is checked on all of them."""
    rnd = random.Random(24)
    reached: dict[str, set[str]] = {g: set() for g in GAMES}
    for game in GAMES:
        for _ in range(3000):
            rules, tally = draw_end(game, rnd.choice, rnd.randint)
            r = VARIANTS[game].score(rules, tally)
            check_rows(r, tally.pending, tally.last)
            reached[game].add(r.outcome)
            if tally.contract is not None:
                reached[game].add(f"{r.outcome} x{tally.contract.multiplier}")
            if rules.rounding:
                reached[game].add(f"{r.outcome} rounded")
    four = {"made", "dedans", "litige", "capot", "made rounded", "dedans rounded", "litige rounded", "capot rounded"}
    coinche = {f"{o} x{m}" for o in ("made", "dedans") for m in (1, 2, 3, 4)} | {"made rounded", "dedans rounded"}
    for game in GAMES:
        assert (
            of_game({"classic": four, "coinche": coinche, "three-handed": four, "two-handed": four}, game)
            <= reached[game]
        )


# ----------------------------------------------------------------- random deals played to the end
PLAY_OPTIONS = [s for s in OPTIONS if s.group != "match" and s.name != "variant" and s.kind in ("bool", "choice")]


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32), data=st.data())
def test_the_rows_of_every_deal_played_add_up_in_the_view_and_the_event(
    game: str, seed: int, data: st.DataObject
) -> None:
    options = {s.name: data.draw(st.sampled_from(_values(s))) for s in PLAY_OPTIONS if s.read_by(game)}
    rules = Rules(variant=game, deals=3, **options)
    match = Match(rules, seed=seed)
    rnd = random.Random(seed)
    while not match.over:
        match.apply(rnd.choice(match.legal_actions()))
    names = rules.team_names
    scored = [e for _, e in match.events(0) if e["type"] == "scored"]
    assert len(scored) == len(match.deals)
    for deal, e in zip(match.deals, scored, strict=True):
        r = deal.result
        assert r is not None
        event(f"{game} {r.outcome}")
        last = rules.game.team_of[deal.tricks[-1].winner] if deal.tricks else None
        check_rows(r, deal.pending, last)
        # The event carries the sheet, each score's column adding up to its points.
        for name in names:
            assert sum(row["points"].get(name, 0) for row in e["rows"]) == e["points"][name]
        assert e["rows"] == r.sheet_json()
    view = match.view(0).to_json()
    assert view["result"]["rows"] == scored[-1]["rows"]


# ----------------------------------------------------------------- the page's words of the rows
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_words_every_row_in_both_languages(lang: str) -> None:
    text = I18N.read_text(encoding="utf-8")
    block = re.search(rf"^  {lang}: {{\n(.*?)^  }},$", text, re.MULTILINE | re.DOTALL)
    assert block is not None, lang
    assert set(re.findall(r"^    row_([a-z_]+): ", block.group(1), re.MULTILINE)) == set(ROWS)
