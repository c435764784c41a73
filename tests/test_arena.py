"""The arena: duplicate deals, per-seat seeding, the same figures for any number of jobs, the command."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from belote.arena import ArenaResult, Team, UnknownBot, match_seed, play_match, run_arena, seatings, table_teams
from belote.bots import bot_names, register
from belote.game import PlayerView
from belote.record import to_record
from belote.rules import Rules
from games import OTHER_GAMES

#: Deterministic bots that exist now: two copies of one must tie exactly.
SAME_BOTS = ["random", *(["heuristic"] if "heuristic" in bot_names() else [])]
#: Pairs of bots run with one job and with two.
JOB_PAIRS = [("random", "random"), *([("heuristic", "random")] if "heuristic" in SAME_BOTS else [])]


class LastLegalBot:
    """Always the last legal action: it takes every turned card, so it differs from random."""

    name = "test-last-legal"

    def __init__(self, seed: int | None = None, **_: Any) -> None:
        pass

    def act(self, view: PlayerView) -> int:
        return view.legal[-1]


register(LastLegalBot.name, LastLegalBot)


@pytest.mark.parametrize("bot", SAME_BOTS)
def test_the_same_bot_on_both_sides_makes_no_difference(bot: str) -> None:
    deals = 40
    r = run_arena(bot, bot, deals=deals, seed=5, jobs=1)
    assert r.mean == 0.0 and r.sd == 0.0 and r.ci95 == (0.0, 0.0)
    assert r.deals_won[0] == r.deals_won[1]
    assert r.matches_won[0] == r.matches_won[1]
    assert r.points_per_deal[0] == r.points_per_deal[1]
    assert r.unpaired == 0 and r.table_deals[0] == r.table_deals[1] >= deals
    assert r.pairs == r.table_deals[0]


@pytest.mark.parametrize("bots", JOB_PAIRS)
def test_the_figures_do_not_depend_on_the_number_of_jobs(bots: tuple[str, str]) -> None:
    deals = 60
    one = run_arena(*bots, deals=deals, seed=11, jobs=1)
    two = run_arena(*bots, deals=deals, seed=11, jobs=2)
    assert one == two
    assert _without_times(one) == _without_times(two)


def _without_times(r: ArenaResult) -> dict[str, Any]:
    out = r.to_json()
    del out["decision_time"]
    return out


def test_a_pair_is_the_same_deck_and_dealer_at_both_tables() -> None:
    a, b = Team(LastLegalBot.name), Team("random")
    rules = Rules()
    for j in (0, 3):
        seed = match_seed(7, j)
        tables = [play_match(rules, seed, j % 4, *table_teams(a, b, t)) for t in (1, 2)]
        first = [to_record(m.deals[0]) for m in tables]
        assert first[0]["deck"] == first[1]["deck"]
        assert first[0]["dealer"] == first[1]["dealer"] == "NESW"[j % 4]
        for d1, d2 in zip(tables[0].deals, tables[1].deals, strict=False):
            assert (d1.deck, d1.dealer) == (d2.deck, d2.dealer)


def test_different_bots_give_a_confidence_interval_around_the_mean() -> None:
    r = run_arena(LastLegalBot.name, "random", deals=150, seed=2, jobs=1)
    lo, hi = r.ci95
    assert lo < r.mean < hi
    assert r.mean != 0.0 and r.sd > 0
    assert 2 * r.pairs + r.unpaired == sum(r.table_deals)
    assert sum(r.deals_won) == sum(r.table_deals)
    assert sum(r.matches_won) == 2 * r.matches
    times = r.times[0]
    assert times.cards.count > 0 and times.bids.count > 0
    assert times.cards.median <= times.cards.p95 <= times.cards.max
    assert r.summary().startswith(f"{LastLegalBot.name} vs random: ")
    json.dumps(r.to_json())


def test_an_unknown_bot_is_refused_before_any_match() -> None:
    with pytest.raises(UnknownBot, match="no bot named 'nobody'"):
        run_arena("nobody", "random", deals=10, jobs=1)


def belote(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "belote.cli", *args], capture_output=True, text=True, timeout=60, check=False
    )


def test_the_command_prints_the_figures() -> None:
    out = belote("arena", "--ns", "random", "--ew", "random", "--deals", "20", "--seed", "1", "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert "A - B: +0.0 points/deal (95% CI 0.0 .. 0.0" in out.stdout
    for words in ("pairs", "deals won: A", "matches won: A", "points per deal: A", "A cards random"):
        assert words in out.stdout


def test_the_command_refuses_an_unknown_bot() -> None:
    out = belote("arena", "--ns", "nobody", "--ew", "random", "--deals", "20", "--jobs", "1")
    assert out.returncode == 2
    assert "no bot named 'nobody'" in out.stderr and "random" in out.stderr
    assert out.stdout == ""


def test_the_command_gives_each_team_its_bot_options() -> None:
    args = ("arena", "--ns", "search", "--ew", "search", "--deals", "2", "--jobs", "1", "--json")
    out = belote(*args, "--ns-bot", "worlds=4", "--ns-bot", "horizon=null", "--ew-bot", "bidding=heuristic")
    assert out.returncode == 0, out.stderr
    teams = json.loads(out.stdout)
    assert teams["team_a"] == {"bot": "search", "options": {"worlds": 4, "horizon": None}}
    assert teams["team_b"] == {"bot": "search", "options": {"bidding": "heuristic"}}


@pytest.mark.parametrize(
    ("option", "says"),
    [
        ("wolds=4", "--ns-bot: the search bot has no option 'wolds'; its options: think, worlds,"),
        ("worlds", "--ns-bot takes NAME=VALUE, not 'worlds'"),
        (
            "bidding=guess",
            "--ns-bot: the search bot refuses 'search bidding=guess': bidding is 'search' or 'heuristic'",
        ),
    ],
)
def test_the_command_refuses_a_bot_option_it_cannot_give(option: str, says: str) -> None:
    out = belote("arena", "--ns", "search", "--ew", "random", "--deals", "2", "--jobs", "1", "--ns-bot", option)
    assert out.returncode == 2 and says in out.stderr and out.stdout == ""
    out = belote("arena", "--ns", "random", "--ew", "heuristic", "--deals", "2", "--ew-bot", "x=1")
    assert out.returncode == 2 and "the heuristic bot has no option 'x'; its options: none" in out.stderr


@pytest.mark.parametrize("variant", OTHER_GAMES)  # the classic game: test_the_same_bot_on_both_sides_...
def test_the_same_bot_ties_exactly_in_every_game(variant: str) -> None:
    rules = Rules(variant=variant)
    r = run_arena("heuristic", "heuristic", deals=30, seed=4, rules=rules, jobs=1)
    assert r.mean == 0.0 and r.sd == 0.0 and r.ci95 == (0.0, 0.0)
    assert r.means[0] == r.means[1] and r.means_ci95[0] == r.means_ci95[1]
    assert r.deals_won[0] == r.deals_won[1] and r.matches_won[0] == r.matches_won[1]
    # Two tables where two camps are seated (partners, or two alone), six where three play alone.
    assert r.tables == {4: 2, 3: 6, 2: 2}[rules.players]
    assert r.unpaired == 0 and r.pairs >= 30


def test_three_hands_seat_each_bot_in_every_seat_alone_and_with_a_copy() -> None:
    tables = seatings(3)
    assert len(tables) == 6 and len(set(tables)) == 6
    for seat in range(3):
        assert {t[seat] for t in tables} == {0, 1}
    assert sorted(sum(t) for t in tables) == [1, 1, 1, 2, 2, 2]
    assert seatings(2) == ((0, 1), (1, 0)) and seatings(4) == ((0, 1, 0, 1), (1, 0, 1, 0))


def test_three_hands_figures_do_not_depend_on_the_number_of_jobs() -> None:
    one = run_arena("heuristic", "random", deals=20, seed=3, rules="three-handed", jobs=1)
    two = run_arena("heuristic", "random", deals=20, seed=3, rules="three-handed", jobs=2)
    assert one == two
    assert one.mean > 0 and one.means[0] > one.means[1]
    lo, hi = one.means_ci95[0]
    assert lo <= one.means[0] <= hi
    assert sum(one.deals_won) == sum(one.table_deals)
    assert "per seat and deal" in one.report()


def test_the_command_plays_the_other_games() -> None:
    args = ("--ns", "heuristic", "--ew", "random", "--deals", "10", "--jobs", "1", "--rules", "two-handed")
    out = belote("arena", *args)
    assert out.returncode == 0, out.stderr
    assert "A = heuristic: N at table 1, E at table 2" in out.stdout and "score per deal: A" in out.stdout
