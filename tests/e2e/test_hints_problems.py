"""Hints at a solo table and the training problems page, in a real browser.

A solo table with hints on (a setting of the bots' form): the Hint button at the person's turn names
a card the server's own replay of the table holds legal, marks it in the hand, and the count shows in
the end-of-match window; with hints off there is no button. The problems page: a problem answered
right, then one answered wrong, each with the server's verdict and the analysis.

The table runs on a ``belote serve`` process whose bots act at once (``--pace 0``), its store read for
the replay; the problems page on the in-process server of tests/e2e/conftest.py.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from belote.game import action_str
from belote.server.problems import problem_set

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axe import assert_no_serious
from table_fixtures import DESKTOP, PHONE, ServerProcess

READY_JS = """() => { const b = window.__belote; const v = b && b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.match_over || v.to_move === b.seat); }"""
SETTLED_JS = "e => Promise.all(e.getAnimations({subtree: true}).map((a) => a.finished))"
PROBLEM_JS = "id => window.__problems && window.__problems.problem && window.__problems.id === id"
STATE_JS = "() => ({view: window.__belote.view, waiting: window.__belote.waiting, last: window.__belote.last})"


def open_solo(page: Any, url: str, hints: bool) -> None:
    """The home screen: easy fast bots, a match of one deal, hints on or off; deal."""
    page.goto(url)
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.get_by_test_id("settings-more").locator("summary").click()
    page.get_by_test_id("settings-strength").select_option("easy")
    page.get_by_test_id("settings-speed").select_option("fast")
    page.get_by_test_id("settings-target").select_option("deals")
    page.get_by_test_id("settings-deals").fill("1")
    page.get_by_test_id("settings-hints").set_checked(hints)
    page.get_by_test_id("settings-start").click()
    page.wait_for_function("() => window.__belote.joined && window.__belote.view !== null")


def ready(page: Any) -> dict[str, Any]:
    page.wait_for_function(READY_JS, timeout=30_000)
    state: dict[str, Any] = page.evaluate(STATE_JS)
    return state


def act(page: Any, state: dict[str, Any]) -> None:
    """South's first legal action (a take where there is one), or Continue."""
    view = state["view"]
    if state["waiting"] == "continue":
        page.get_by_test_id("continue").click()
    elif view["phase"] == "bidding":
        page.get_by_test_id(f"bid-{next((b for b in view['legal'] if b != 'pass'), 'pass')}").click()
    else:
        page.locator(f'[data-testid="hand-card"][data-card="{view["legal"][0]}"]').click()
    page.wait_for_function("n => window.__belote.last > n", arg=state["last"])


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """``belote serve`` whose bots act at once, thinking in threads: a whole deal in a few seconds."""
    folder = tmp_path_factory.mktemp("hints")
    server = ServerProcess(folder / "belote.sqlite3", folder / "server.log", "--pace", "0", "--think-workers", "0")
    server.start()
    yield server
    server.stop()


def test_a_hint_names_a_legal_card_and_is_counted_in_the_match_summary(
    open_tab: Any, quick_server: ServerProcess, artifacts: Path
) -> None:
    tab = open_tab(**PHONE)
    page = tab.page
    open_solo(page, quick_server.url, hints=True)
    state = ready(page)
    while state["waiting"] or state["view"]["phase"] != "play" or len(state["view"]["legal"]) < 2:
        act(page, state)
        state = ready(page)
    button = page.get_by_test_id("hint-button")
    expect(button).to_be_visible()
    button.click()
    action = page.get_by_test_id("hint-action")
    expect(action).to_be_visible(timeout=30_000)
    card = action.get_attribute("data-action")
    table = page.evaluate("() => window.__belote.table")
    _, match = quick_server.replay(table)  # the table as the server's store has it
    assert card in {action_str(a) for a in match.legal_actions()} and card in state["view"]["legal"]
    expect(page.locator(f'[data-testid="hand-card"][data-card="{card}"]')).to_have_class(re.compile(r"\bhinted\b"))
    values = page.get_by_test_id("hint-value")
    assert 1 <= values.count() <= 3 and card in [
        values.nth(i).get_attribute("data-card") for i in range(values.count())
    ]
    expect(button).to_be_hidden()  # one hint a position: the answer takes the button's place
    page.screenshot(path=str(artifacts / "table-hint-phone.png"))
    assert_no_serious(page, "the table with a hint", include=".status")
    while not state["view"]["match_over"]:
        act(page, state)
        state = ready(page)
    used = page.get_by_test_id("hints-used")
    expect(used).to_have_attribute("data-count", "1")
    expect(used).to_have_text("Hints used: 1")
    page.get_by_test_id("score-panel").evaluate(
        "e => Promise.all(e.getAnimations({subtree: true}).map((a) => a.finished))"
    )
    page.screenshot(path=str(artifacts / "table-hints-used-phone.png"))
    assert not tab.unexpected_errors()


def test_with_hints_off_there_is_no_hint_button(open_tab: Any, base_url: str) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    open_solo(page, base_url, hints=False)
    ready(page)
    expect(page.get_by_test_id("hint-button")).to_be_hidden()
    page.keyboard.press("?")  # the key asks nothing either
    expect(page.get_by_test_id("hint-panel")).to_be_hidden()
    assert page.evaluate("() => window.__belote.state.hints") == {}
    assert not tab.unexpected_errors()


def test_a_problem_answered_right_then_one_answered_wrong(open_tab: Any, base_url: str, artifacts: Path) -> None:
    problems = list(problem_set().values())
    first, second = problems[0], problems[1]
    tab = open_tab(**PHONE)
    page = tab.page
    page.goto(f"{base_url}/problems?lang=fr&id={first['id']}")
    page.wait_for_function(
        "id => window.__problems && window.__problems.problem && window.__problems.id === id", arg=first["id"]
    )
    assert "answer" not in page.evaluate("() => window.__problems.problem")  # the page holds no answer
    page.locator(f'[data-testid="problem-card"][data-card="{first["answer"]}"]').click()
    result = page.get_by_test_id("problem-result")
    expect(result).to_have_attribute("data-right", "true")
    expect(result).to_contain_text("Bravo")
    expect(page.get_by_test_id("problem-row")).to_have_count(len(first["cards"]))
    page.get_by_test_id("problem-next").click()
    page.wait_for_function("id => window.__problems.id === id && !window.__problems.answer", arg=second["id"])
    wrong = next(c for c in second["view"]["legal"] if c != second["answer"])
    page.locator(f'[data-testid="problem-card"][data-card="{wrong}"]').click()
    expect(result).to_have_attribute("data-right", "false")
    row = page.locator(f'[data-testid="problem-row"][data-card="{wrong}"]')
    expect(row).to_have_attribute("data-cost", str(second["cards"][wrong]["cost"]))
    expect(page.get_by_test_id("problem-other")).to_have_count(3)
    expect(page.get_by_test_id("problems-score")).to_have_text("1 réussis sur 2")
    page.screenshot(path=str(artifacts / "problems-wrong-phone-fr.png"), full_page=True)
    assert_no_serious(page, "the problems page, answered")
    assert not tab.unexpected_errors()


# Where the problems page draws its parts: each one's box [left, top, right, bottom] in CSS pixels.
LAYOUT_JS = """() => {
  const box = (sel) => { const e = document.querySelector(sel); if (!e || !e.offsetParent) return null;
    const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    width: document.documentElement.scrollWidth,
    board: box('[data-testid="problem-board"]'),
    hand: box('[data-testid="problem-hand"]'),
    card: box('[data-testid="problem-card"]'),
    played: box('[data-testid="problem-played"]'),
    verdict: box('[data-testid="problem-verdict"]'),
    next: box('[data-testid="problem-next"]'),
    rows: document.querySelectorAll('[data-testid="problem-played-trick"]').length,
    won: [...document.querySelectorAll('[data-testid="problem-played-trick"] .played-card.won')]
      .map((e) => e.dataset.seat),
  };
}"""


def test_the_problems_page_uses_a_laptop_s_width_and_fits_a_phone(
    open_tab: Any, base_url: str, artifacts: Path
) -> None:
    """At 1280 x 800 the position is drawn in large cards with the tricks played beside it, and once
    answered the verdict and Next are there too, without scrolling; on a phone nothing runs off the
    side and the tricks played come under the hand."""
    problem = next(p for p in problem_set().values() if len(p["view"]["tricks"]) >= 2)
    winners = [t["winner"] for t in problem["view"]["tricks"]]
    tab = open_tab(**DESKTOP)
    page = tab.page
    page.goto(f"{base_url}/problems?lang=en&id={problem['id']}")
    page.wait_for_function(PROBLEM_JS, arg=problem["id"])
    at = page.evaluate(LAYOUT_JS)
    assert at["width"] <= 1280, at
    assert at["card"][2] - at["card"][0] >= 100, f"cards {at['card'][2] - at['card'][0]:.0f} px wide"
    assert at["played"][0] >= max(at["board"][2], at["hand"][2]), f"the tricks played are not beside the position: {at}"
    assert at["played"][2] - at["board"][0] >= 0.85 * 1280, f"the page keeps to a part of the width: {at}"
    assert at["hand"][3] <= 800 and at["played"][1] < 300, at
    assert at["rows"] == len(winners) and at["won"] == winners, at
    page.locator(f'[data-testid="problem-card"][data-card="{problem["answer"]}"]').click()
    expect(page.get_by_test_id("problem-result")).to_have_attribute("data-right", "true")
    at = page.evaluate(LAYOUT_JS)
    assert at["verdict"][0] >= at["hand"][2] and at["next"][3] <= 800 and at["hand"][3] <= 800, at
    page.screenshot(path=str(artifacts / "problems-desktop-en.png"))
    assert_no_serious(page, "the problems page at 1280 px, answered")

    tab = open_tab(**PHONE)
    page = tab.page
    page.goto(f"{base_url}/problems?lang=fr&id={problem['id']}")
    page.wait_for_function(PROBLEM_JS, arg=problem["id"])
    at = page.evaluate(LAYOUT_JS)
    assert at["width"] <= 390 and at["hand"][2] <= 390, at
    assert at["played"][1] >= at["hand"][3] and at["rows"] == len(winners), at
    page.screenshot(path=str(artifacts / "problems-phone-fr.png"), full_page=True)
    assert_no_serious(page, "the problems page on a phone")
    assert not tab.unexpected_errors()
