"""The table flows by itself as a first visit finds it, and announces by hand when asked to.

The page's own preferences (web/flow.js; the other browser tests set them by hand): the only card
one may play plays itself, the next deal starts by itself after a count the player can skip or stop;
and, chosen on the home screen, declarations and belote announced by hand, with what is not announced
kept quiet at the table and in the store. The app runs in this process, its bots acting at once; the
solo table's seed is chosen for what the test needs.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from belote.actions import NO_BELOTE, QUIET
from belote.declarations import find_declarations
from belote.game import SEATS, Match, parse_action
from belote.server.room import DEFAULT_SETTINGS, new_match, rules_of
from belote.server.store import SQLiteStore

sys.path.insert(0, str(Path(__file__).resolve().parent))
from online_fixtures import app_server, state, wait_js
from table_fixtures import DESKTOP, open_solo

# ``open_tab`` (tests/e2e/conftest.py) gives a Tab: ``.page`` and ``.errors``, what the console said.
Tab = Any
OpenTab = Callable[..., Tab]
SOUTH = SEATS.index("S")
MY_TURN_OR_SCORE = """() => { const b = window.__belote; const v = b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.match_over || v.to_move === 'S'); }"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("flow") / "flow.sqlite3"


@pytest.fixture(scope="module")
def url(db: Path) -> Iterator[str]:
    with app_server(db, pace=0.0) as found:
        yield found


def stored_table(db: Path, table: str) -> tuple[dict[str, Any], list[str]]:
    """The table's settings and seed, and its actions, as the store has them."""
    store = SQLiteStore(db)
    try:
        loaded = store.load_table(table)
    finally:
        store.close()
    assert loaded is not None
    return loaded[0], list(loaded[1])


def stored_match(db: Path, table: str) -> Match:
    """The table's match as the store has it, replayed through the engine."""
    meta, actions = stored_table(db, table)
    match = new_match(meta["settings"], int(meta["seed"]))
    for a in actions:
        match.apply(parse_action(a))
    return match


def wait_turn(page: Any) -> dict[str, Any]:
    wait_js(page, MY_TURN_OR_SCORE, timeout=30_000)
    return state(page)


def bid(page: Any, view: dict[str, Any]) -> None:
    """Take the turned card at the first chance (or name a suit), so that the deal is played."""
    choice = next((b for b in view["legal"] if b != "pass"), "pass")
    before = state(page)["last"]
    page.get_by_test_id(f"bid-{choice}").click()
    wait_js(page, "n => window.__belote.last > n", before)


def click_card(page: Any, card: str) -> None:
    before = state(page)["last"]
    page.locator(f'[data-testid="hand-card"][data-card="{card}"]').click()
    wait_js(page, "n => window.__belote.last > n", before)


# ---------------------------------------------------------------------- the flow of a first visit
# What flows by itself flows on the page's clock (a 250 ms tick, web/app.js): these tests hold that
# clock still and move it on by hand (Playwright's page.clock), so that a moment the page shows for
# a while (the only card before it plays itself, the score before the next deal) is seen however
# slow the machine, and ends only when the test lets the time pass.
TICK_MS = 250
PANEL_PAUSE_MS = 1200  # web/app.js: the last trick is seen before the score covers it


def hold_clock(page: Any) -> None:
    """From now on the page's timers fire only when the test moves its clock on (``page.clock``)."""
    page.clock.pause_at(page.evaluate("() => Date.now()") / 1000 + 1)


def auto_play_ms(page: Any) -> int:
    """How long the only card shows before it plays itself (web/flow.js, as the page has it)."""
    return int(page.evaluate("async () => (await import('/static/flow.js')).AUTO_PLAY_MS"))


def let_it_play(page: Any, db: Path, card: str, last: int) -> None:
    """South's only card shows, the clock held; moved on past its moment, it plays itself: the
    table's next action is that card. (Read from the store, which keeps an action before anyone hears
    of it: once the deal's last card is played the view already holds the next deal's hand, which may
    hold the same card again.)"""
    assert card in hand_of(page), "the only card shows before it plays itself"
    table = state(page)["table"]
    played = len(stored_table(db, table)[1])
    page.clock.run_for(auto_play_ms(page) + 2 * TICK_MS)
    wait_js(page, "n => window.__belote.last > n", last)
    assert stored_table(db, table)[1][played] == card


def hand_of(page: Any) -> list[str]:
    return list(page.evaluate("() => window.__belote.view.hand"))


def play_first_deal(page: Any, db: Path) -> int:
    """Bid and play South's first deal to its score, letting the only card play itself: how often it did."""
    played_by_itself = 0
    while (s := wait_turn(page))["waiting"] != "continue":
        view = s["view"]
        assert view["deal_number"] == 1, "the clock held, the first deal's score waits"
        if view["phase"] == "bidding":
            bid(page, view)
        elif len(view["legal"]) == 1:
            # Nobody clicks: the only card plays itself, after a moment where it shows.
            let_it_play(page, db, view["legal"][0], s["last"])
            played_by_itself += 1
        else:
            click_card(page, view["legal"][0])
    return played_by_itself


def open_flowing(open_tab: OpenTab, url: str) -> Tab:
    """A first visit's solo table (the page's own preferences), its clock held from the deal on."""
    tab = open_tab(flowing=True, **DESKTOP)
    tab.page.clock.install()
    open_solo(tab.page, url)
    hold_clock(tab.page)
    return tab


def test_the_only_card_plays_itself_and_the_next_deal_starts_by_itself(open_tab: OpenTab, url: str, db: Path) -> None:
    tab = open_flowing(open_tab, url)
    page = tab.page
    assert page.evaluate("() => window.__belote.prefs") == {
        "autoNext": 5, "autoPlay": True, "announce": "auto", "belote": "auto",
    }  # fmt: skip
    assert play_first_deal(page, db) >= 1, "the last card at least plays itself"
    panel = page.get_by_test_id("score-panel")
    count = panel.get_by_test_id("next-deal")
    page.clock.run_for(PANEL_PAUSE_MS + 2 * TICK_MS)
    expect(count).to_have_text(re.compile(r"Next deal in [1-5] s"))
    expect(panel.get_by_test_id("stay")).to_be_visible()
    # Nobody presses Continue: once the count's seconds pass, the next deal starts by itself.
    page.clock.run_for(5000 + 2 * TICK_MS)
    next_deal = "() => window.__belote.waiting !== 'continue' && window.__belote.view.deal_number === 2"
    wait_js(page, next_deal)
    expect(panel).to_be_hidden()
    assert not tab.unexpected_errors()


def test_stay_keeps_the_score_and_continue_goes_on_at_once(open_tab: OpenTab, url: str, db: Path) -> None:
    tab = open_flowing(open_tab, url)
    page = tab.page
    play_first_deal(page, db)
    panel = page.get_by_test_id("score-panel")
    page.clock.run_for(PANEL_PAUSE_MS + 2 * TICK_MS)
    expect(panel.get_by_test_id("next-deal")).to_be_visible()
    due = page.evaluate("() => window.__belote.nextDeal.at")
    panel.get_by_test_id("stay").click()
    expect(panel.get_by_test_id("next-deal")).to_have_count(0)
    expect(panel.get_by_test_id("stay")).to_have_count(0)
    # The moment the count would have ended passes on the page's clock: the score stays.
    page.clock.run_for(int(due - page.evaluate("() => Date.now()")) + 1000)
    assert state(page)["waiting"] == "continue"
    expect(panel).to_be_visible()
    panel.get_by_test_id("continue").click()
    wait_js(page, "() => window.__belote.waiting !== 'continue'")
    assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- announcing by hand
def seed_with_tierce_and_belote() -> int:
    """A solo table's seed where South speaks first and its first five cards hold three in a row and
    the king and queen of the turned suit: South takes, and has a declaration and the belote."""
    settings = {**DEFAULT_SETTINGS, "strength": "easy", "speed": "fast"}
    for seed in range(100_000):
        deal = new_match(settings, seed).deal
        if deal.to_move != SOUTH:
            continue
        hand = sum(1 << int(c) for c in deal.hand(SOUTH))
        turned = int(deal.turned)
        suit = turned // 8
        pair = (1 << (8 * suit + 5)) | (1 << (8 * suit + 6))
        if hand & pair == pair and find_declarations(hand, suit, True):
            return seed
    raise AssertionError("no such seed")


def choose_by_hand(page: Any, url: str) -> None:
    """On the home screen: declarations and belote by hand, as a person chooses them."""
    page.goto(url)
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.get_by_test_id("prefs").locator("summary").click()
    page.get_by_test_id("pref-announce").select_option("hand")
    page.get_by_test_id("pref-belote").select_option("hand")
    prefs = page.evaluate("() => JSON.parse(localStorage.getItem('belote.prefs'))")
    assert (prefs["announce"], prefs["belote"]) == ("hand", "hand")


def play_deal_announcing(page: Any, announce: bool) -> list[str]:
    """Play South's cards (a king or queen of trumps as soon as one may), pressing Announce and
    Say belote when they show if ``announce``; returns what the buttons offered."""
    offered: list[str] = []
    while (s := wait_turn(page))["waiting"] != "continue":
        view = s["view"]
        if view["phase"] == "bidding":
            assert view["bids"] == [] and "take" in view["legal"], "South speaks first"
            bid(page, view)
            continue
        bar = page.get_by_test_id("bid-bar")
        say = view.get("to_announce", [])
        if any(w != "belote" for w in say):
            button = bar.get_by_test_id("say-declarations")
            expect(button).to_be_visible()
            offered.append(button.inner_text())
            if announce:
                button.click()
                expect(button).to_have_attribute("aria-pressed", "true")
        pair = [c for c in view["legal"] if c[1] == view["trump"] and c[0] in "KQ"]
        if "belote" in say and pair:
            button = bar.get_by_test_id("say-belote")
            expect(button).to_be_visible()
            offered.append(button.inner_text())
            if announce:
                button.click()
        click_card(page, pair[0] if pair else view["legal"][0])
    return offered


@pytest.mark.parametrize("announce", [False, True], ids=["kept-quiet", "announced"])
def test_declarations_and_belote_by_hand(
    open_tab: OpenTab, url: str, db: Path, monkeypatch: pytest.MonkeyPatch, announce: bool
) -> None:
    seed = seed_with_tierce_and_belote()
    monkeypatch.setattr("belote.server.manager.secrets.randbelow", lambda n: seed)
    tab = open_tab(**DESKTOP)
    page = tab.page
    choose_by_hand(page, url)
    open_solo(page, url)
    offered = play_deal_announcing(page, announce)
    assert any(o.startswith("Announce: ") for o in offered) and "Say belote" in offered, offered
    match = stored_match(db, state(page)["table"])
    deal = match.deals[0]
    assert deal.result is not None
    quiet = deal.quiet[SOUTH]
    south_side = rules_of(DEFAULT_SETTINGS).team(SOUTH)
    declared = [e for e in deal.events() if e["type"] == "declared" and e["seat"] == "S"]
    said = [e["say"] for e in deal.events() if e["type"] == "card" and e.get("say")]
    if announce:
        assert quiet == 0 and declared and said == ["belote", "rebelote"]
        assert deal.result.belote[south_side] == 20
    else:
        assert quiet == QUIET | NO_BELOTE and not declared and said == []
        assert deal.result.belote == (0, 0)
        # Nobody at the table was told: the log shows no declaration, no belote.
        log = page.locator(".log-list").inner_text().lower()
        assert "declare" not in log and "belote" not in log, log
    assert not tab.unexpected_errors()
