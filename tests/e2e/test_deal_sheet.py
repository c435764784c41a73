"""The end-of-deal sheet at a solo table against bots, in every game: the rows drawn add up, column by
column, to the points added drawn under them, and those are the engine's. A capot has its bonus on a
row, a dedans the takers' points given to the defenders, a litige the points set aside and the next
deal's winner collecting them, a coinche and a surcoinche their multiplier.

Each table's seed is chosen (``TABLES``; ``python tests/e2e/test_deal_sheet.py GAME WANT`` found them):
the bots ("easy": the heuristic bot) decide from their seed and their view alone, and the person's
seat plays as the same bot would (in Coinche it also coinches and surcoinches whenever it may), so
the match is known before it is played: ``planned`` plays it through the engine, and the test plays
the page by clicking the person's planned actions, then reads each deal's panel.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from belote.actions import Action, action_str, parse_action
from belote.bots import make_bot
from belote.game import Match
from belote.server.room import DEFAULT_SETTINGS, STRENGTHS, new_match, person_seat
from belote.view import PlayerView

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axe import assert_no_serious
from online_fixtures import app_server, state, wait_js
from table_fixtures import DESKTOP, PHONE

from games import GAMES

Tab = Any
OpenTab = Callable[..., Tab]
READY_JS = """() => { const b = window.__belote; const v = b && b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.match_over || v.to_move === b.seat); }"""
SHEET_JS = """() => {
  const sheet = document.querySelector('[data-testid="score-panel"] [data-testid="deal-sheet"]');
  if (!sheet) return null;
  return {
    cols: [...sheet.querySelectorAll('thead th[data-team]')].map((th) => th.dataset.team),
    rows: [...sheet.querySelectorAll('tbody tr')].map((tr) => ({
      id: tr.dataset.testid || '',
      label: tr.querySelector('th').textContent,
      cells: [...tr.querySelectorAll('td')].map((td) => td.textContent),
    })),
  };
}"""
#: The rows of the panel's table that are not the deal's sheet: tricks taken, and the match's score.
NOT_SHEET = {"row-tricks", "row-score"}
CONTRACT = re.compile(r"^(\d+|capot|generale)(S|H|D|C|NT|AT)$")


@dataclass(frozen=True)
class Table:
    """A solo table: its game, seed and number of deals, what its deals give (checked against the
    engine before the page is played), the person's Coinche habit, and how the page is looked at."""

    game: str
    seed: int
    deals: int
    gives: tuple[str, ...]
    coinches: bool = False
    lang: str = "en"
    device: str = "desktop"


#: The seeds, and what each table's deals give ("x2": coinched, "x4": surcoinched).
TABLES = [
    Table("classic", 101, 2, ("capot", "dedans"), lang="fr", device="phone"),
    Table("classic", 448, 2, ("litige", "made")),  # the next deal's winner collects the 81 waiting
    Table("coinche", 84, 2, ("made x4", "dedans x2"), coinches=True),
    Table("three-handed", 258, 2, ("dedans", "capot"), lang="fr", device="phone"),
    Table("two-handed", 22, 2, ("thrown-in", "litige", "dedans")),  # the dedans's winner collects
]


def gives(match: Match) -> tuple[str, ...]:
    """What each deal of a match gave: its outcome, with the multiplier of a coinched contract."""
    out = []
    for deal in match.deals:
        r = deal.result
        assert r is not None
        times = r.contract.multiplier if r.contract is not None else 1
        out.append(r.outcome + (f" x{times}" if times > 1 else ""))
    return tuple(out)


def planned(game: str, seed: int, deals: int, coinches: bool = False) -> Match:
    """The match of a solo table of ``game`` dealt from ``seed``, ``deals`` deals, its bots easy, the
    person's seat played as a bot of theirs would (with ``coinches``, coinching and surcoinching
    whenever it may)."""
    settings = {**DEFAULT_SETTINGS, "variant": game, "deals": deals, "strength": "easy"}
    match = new_match(settings, seed)
    me = person_seat(match.rules.players)
    name, options = STRENGTHS["easy"]
    bots = [make_bot(name, seed=seed * 7 + s, **options) for s in range(match.rules.players)]
    while not match.over:
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        action = bots[seat].act(view)
        if seat == me and coinches:
            action = _coinching(view, action)
        match.apply(action)
    return match


def _coinching(view: PlayerView, action: Action) -> Action:
    legal = {action_str(a) for a in view.legal}
    return next((parse_action(b) for b in ("surcoinche", "coinche") if b in legal), action)


# ---------------------------------------------------------------------- the page
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app, its bots acting at once."""
    with app_server(tmp_path_factory.mktemp("sheet") / "sheet.sqlite3", pace=0.0) as url:
        yield url


def start(page: Any, url: str, table: Table) -> None:
    page.goto(url)
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.get_by_test_id("settings-more").locator("summary").click()
    page.get_by_test_id(f"settings-variant-{table.game}").click()
    page.get_by_test_id("settings-strength").select_option("easy")
    page.get_by_test_id("settings-speed").select_option("fast")
    page.get_by_test_id("settings-target").select_option("deals")
    page.get_by_test_id("settings-deals").fill(str(table.deals))
    page.get_by_test_id("settings-lang").select_option(table.lang)
    page.get_by_test_id("settings-start").click()
    expect(page.get_by_test_id("settings-dialog")).to_be_hidden()
    wait_js(
        page,
        "v => window.__belote.joined && window.__belote.variant === v && window.__belote.view !== null",
        table.game,
    )


def act(page: Any, action: str) -> None:
    """Clicks the person's ``action`` (a card, in hand or on the table; a bid, a contract by its level
    and its trumps) and waits for the table to move on."""
    last = state(page)["last"]
    contract = CONTRACT.match(action)
    if contract and page.get_by_test_id("coinche-panel").count():
        page.get_by_test_id(f"bid-level-{contract.group(1)}").click()
        page.get_by_test_id(f"bid-mode-{contract.group(2)}").click()
    elif page.get_by_test_id(f"bid-{action}").count():
        page.get_by_test_id(f"bid-{action}").click()
    else:
        page.locator(
            f'[data-testid="hand-card"][data-card="{action}"], button[data-testid="table-card"][data-card="{action}"]'
        ).click()
    wait_js(page, "n => window.__belote.last > n", last)


def number(text: str) -> int:
    """A number as the sheet draws it: "152", "−90" (a true minus), "+342"; nothing is 0."""
    return int(text.replace("\u2212", "-")) if text else 0


def check_sheet(page: Any, match: Match, index: int) -> None:
    """The panel of deal ``index``: in every column its rows add up to the points added drawn under
    them, which are the engine's; the rows are the engine's sheet."""
    panel = page.get_by_test_id("score-panel")
    expect(panel).to_be_visible()
    result = match.deals[index].result
    assert result is not None
    expect(panel.get_by_test_id("outcome")).to_have_attribute("data-outcome", result.outcome)
    expect(panel.locator("#panel-title")).to_contain_text(str(index + 1))
    drawn = page.evaluate(SHEET_JS)
    if result.outcome == "thrown-in":
        assert drawn is None
        return
    names = match.rules.team_names
    cols = drawn["cols"]
    assert sorted(cols) == sorted(names)
    rows = [r for r in drawn["rows"] if r["id"] not in NOT_SHEET]
    added = rows.pop()
    assert added["id"] == "row-added"
    for i, team in enumerate(cols):
        points = result.points[names.index(team)]
        drawn_sum = sum(number(r["cells"][i]) for r in rows)
        shown = [(r["label"], r["cells"][i]) for r in rows if r["cells"][i]]
        assert (drawn_sum, added["cells"][i]) == (points, f"+{points}"), (
            f"{team}: the rows drawn {shown} add up to {drawn_sum}, under them {added['cells'][i]}; "
            f"the engine's {points}"
        )
    assert [r["id"] for r in rows] == [f"row-{row['row']}" for row in result.sheet_json()]
    check_cells(page, match, index)


def check_cells(page: Any, match: Match, index: int) -> None:
    """The rows that say what the deal did: a capot's 90, the takers' points given on a dedans, the
    points a litige sets aside and the next winner collects, a coinched contract's multiplier."""
    deal = match.deals[index]
    result = deal.result
    assert result is not None
    names, takers, winner = match.rules.team_names, result.takers, result.winner
    assert takers is not None
    if result.outcome == "capot" and result.capot is not None:
        assert cell(page, "capot", names[result.capot]) == "90"
    if result.outcome == "dedans":
        assert cell(page, "lost", names[takers]) == f"\u2212{result.cards[takers] + result.declarations[takers]}"
    if result.outcome == "litige":
        assert cell(page, "waiting", names[takers]) == f"\u2212{result.pending - deal.pending}"
    if deal.pending and winner is not None:
        assert cell(page, "collected", names[winner]) == str(deal.pending)
    if result.contract is not None and result.contract.multiplier > 1:
        assert winner is not None
        assert cell(page, "contract", names[winner]) == str(result.contract.level)
        times = "coinche" if result.contract.multiplier == 2 else "surcoinche"
        assert page.get_by_test_id(f"row-{times}").count() == 1


def cell(page: Any, row: str, team: str) -> str:
    """The text of a row's cell in a score's column."""
    teams = (
        page.get_by_test_id("deal-sheet")
        .locator("thead th[data-team]")
        .evaluate_all("els => els.map(e => e.dataset.team)")
    )
    return str(page.get_by_test_id(f"row-{row}").locator("td").nth(teams.index(team)).inner_text())


@pytest.mark.parametrize("table", TABLES, ids=[f"{t.game}-{'-'.join(t.gives).replace(' ', '')}" for t in TABLES])
def test_every_sheet_adds_up_to_the_points_added(
    open_tab: OpenTab, server: str, monkeypatch: pytest.MonkeyPatch, artifacts: Path, table: Table
) -> None:
    match = planned(table.game, table.seed, table.deals, table.coinches)
    assert gives(match) == table.gives, "the seed no longer gives these deals: find another"
    monkeypatch.setattr("belote.server.manager.secrets.randbelow", lambda n: table.seed)
    tab = open_tab(**(PHONE if table.device == "phone" else DESKTOP))
    page = tab.page
    start(page, server, table)
    names = match.rules.team_names
    seen = 0
    while seen < len(match.deals):
        wait_js(page, READY_JS, timeout=30_000)
        now = state(page)
        view = now["view"]
        if now["waiting"] == "continue" or view["match_over"]:
            check_sheet(page, match, seen)
            page.wait_for_timeout(400)  # the panel's opening
            page.get_by_test_id("score-panel").screenshot(
                path=str(artifacts / f"sheet-{table.game}-{table.lang}-{seen + 1}.png")
            )
            assert_no_serious(
                page, f"the sheet of {table.game}'s deal {seen + 1}", include='[data-testid="score-panel"]'
            )
            seen += 1
            if seen < len(match.deals):
                page.get_by_test_id("continue").click()
                wait_js(page, "() => window.__belote.waiting !== 'continue'")
            continue
        deal = match.deals[view["deal_number"] - 1]
        done = len(view["bids"]) + sum(len(t["cards"]) for t in view["tricks"]) + len(view["trick"])
        act(page, action_str(deal.actions[done]))
    assert page.evaluate("() => window.__belote.view.score") == dict(zip(names, match.score, strict=True))
    assert not tab.unexpected_errors()


def test_the_tables_cover_every_game() -> None:
    assert {t.game for t in TABLES} == set(GAMES)


# ---------------------------------------------------------------------- finding seeds
if __name__ == "__main__":
    # python tests/e2e/test_deal_sheet.py GAME "capot,dedans" [DEALS] [--coinches]: the first seeds
    # whose deals give these outcomes (in any order), as the test plays them.
    game, want = sys.argv[1], sorted(sys.argv[2].split(","))
    deals = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3].isdigit() else len(want)
    coinches = "--coinches" in sys.argv
    found = 0
    for seed in range(100_000):
        if sorted(gives(planned(game, seed, deals, coinches))) == want:
            print(seed, gives(planned(game, seed, deals, coinches)), flush=True)
            found += 1
            if found == 3:
                break
