"""The table page in a real browser against a real ``belote serve`` process.

You sit South at a solo table (bots: easy, fast). The tests follow one another at one desktop tab:
a whole deal played by clicking, an illegal card refused and the number keys, a refresh, a server
restart, N for a new game; then a phone-sized tab and a French one.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from belote.game import IllegalAction, parse_action

sys.path.insert(0, str(Path(__file__).resolve().parent))
from table_fixtures import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    ServerProcess,
    Tab,
    contrast,
    legal_strings,
    open_solo,
    open_tab,
)

# What Chromium logs while the server is down and the page tries again: expected, and handled.
RECONNECTING = ("WebSocket connection to", "ERR_CONNECTION_REFUSED")

STATE_JS = """() => { const b = window.__belote;
  return b && b.view ? {view: b.view, waiting: b.waiting, last: b.last, table: b.table} : null; }"""
READY_JS = """() => { const b = window.__belote; const v = b && b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.match_over || v.to_move === 'S'); }"""
HAND_JS = "els => els.map(e => [e.dataset.card, e.dataset.legal, e.classList.contains('legal')])"
TRICK_JS = "els => els.map(e => e.dataset.seat + e.dataset.card)"


# ---------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("table")
    server = ServerProcess(folder / "belote.sqlite3", folder / "server.log")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def desktop(browser: Any, table_server: ServerProcess) -> Iterator[Tab]:
    """One desktop tab kept through the module's tests: they follow one another at the same table."""
    tab = open_tab(browser, **DESKTOP)
    yield tab
    tab.context.close()


@pytest.fixture
def table_artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# ---------------------------------------------------------------------- helpers
def start_game(page: Any, url: str, lang: str = "en", tap: bool = False) -> None:
    """A first visit: the settings dialog opens; choose easy fast bots and deal."""
    open_solo(page, url, lang, tap)


def wait_ready(page: Any, timeout: float = 30_000) -> dict[str, Any]:
    """Until the page waits for South: a bid, a card, or Continue after a deal."""
    page.wait_for_function(READY_JS, timeout=timeout)
    state: dict[str, Any] = page.evaluate(STATE_JS)
    return state


def wait_after(page: Any, last: int) -> None:
    """Until the page has received an event later than ``last``."""
    page.wait_for_function("n => window.__belote.last > n", arg=last)


def hand(page: Any) -> list[tuple[str, str, bool]]:
    return [tuple(x) for x in page.eval_on_selector_all('[data-testid="hand-card"]', HAND_JS)]


def trick(page: Any) -> list[str]:
    return list(page.eval_on_selector_all('[data-testid="trick"] [data-testid="trick-card"]', TRICK_JS))


def bid(page: Any, state: dict[str, Any], tap: bool = False) -> None:
    """Take (or name a suit) at the first chance, so that the deal is played."""
    legal = state["view"]["legal"]
    choice = next((b for b in legal if b != "pass"), "pass")
    button = page.get_by_test_id(f"bid-{choice}")
    button.tap() if tap else button.click()
    wait_after(page, state["last"])


def play_legal(page: Any, state: dict[str, Any], tap: bool = False) -> str:
    card = next(c for c, legal, _ in hand(page) if legal == "true")
    target = page.locator(f'[data-testid="hand-card"][data-card="{card}"]')
    target.tap() if tap else target.click()
    wait_after(page, state["last"])
    return card


def continue_deal(page: Any) -> None:
    page.get_by_test_id("continue").click()
    page.wait_for_function("() => window.__belote.waiting !== 'continue'")


def check_highlight(page: Any, view: dict[str, Any]) -> None:
    """The highlighted cards are exactly the legal cards the server sent; the others are dimmed."""
    shown = hand(page)
    assert sorted(c for c, _, _ in shown) == sorted(view["hand"])
    assert {c for c, legal, _ in shown if legal == "true"} == set(view["legal"])
    assert {c for c, _, lit in shown if lit} == set(view["legal"])
    dimmed = page.locator('[data-testid="hand-card"].illegal')
    assert dimmed.count() == len(view["hand"]) - len(view["legal"])


def check_last_trick(page: Any, view: dict[str, Any]) -> None:
    """The last trick can be looked at again: its four cards, by who played them."""
    page.get_by_test_id("last-trick-btn").click()
    shown = page.get_by_test_id("last-trick")
    expect(shown).to_be_visible()
    last = view["tricks"][-1]
    cards = shown.get_by_test_id("last-trick-card")
    expect(cards).to_have_count(4)
    assert sorted(cards.evaluate_all("els => els.map(e => e.dataset.card)")) == sorted(last["cards"])
    expect(shown.locator(f'[data-seat="{last["leader"]}"]')).to_have_attribute("data-card", last["cards"][0])
    page.get_by_test_id("last-trick-close").click()
    expect(shown).to_be_hidden()


def play_turn(page: Any, until: Any) -> dict[str, Any]:
    """Bid, play and continue until ``until(state)`` holds at South's turn to play."""
    for _ in range(80):
        state = wait_ready(page)
        view = state["view"]
        if state["waiting"] == "continue":
            continue_deal(page)
        elif view["phase"] == "bidding":
            bid(page, state)
        elif until(state):
            return state
        else:
            play_legal(page, state)
    raise AssertionError("the turn looked for never came")


def mid_deal(state: dict[str, Any]) -> bool:
    return 2 <= len(state["view"]["hand"]) <= 7


def ensure_game(page: Any, server: ServerProcess) -> None:
    if page.url == "about:blank" or not page.evaluate("() => window.__belote && window.__belote.view !== null"):
        start_game(page, server.url)


# ---------------------------------------------------------------------- tests
def test_a_whole_deal_played_by_clicking(desktop: Tab, table_server: ServerProcess, table_artifacts: Path) -> None:
    page = desktop.page
    start_game(page, table_server.url)
    turns = 0
    crosschecked = False
    table = None
    while True:
        state = wait_ready(page)
        view, table = state["view"], state["table"]
        if state["waiting"] == "continue":
            break
        if view["phase"] == "bidding":
            expect(page.get_by_test_id("turned-card")).to_have_attribute("data-card", view["turned"])
            bid(page, state)
            continue
        check_highlight(page, view)
        suits = [c[1] for c, _, _ in hand(page)]
        assert suits == sorted(suits, key=lambda s: s != view["trump"]), "trumps come first"
        assert len(set(suits)) == len([s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]), "by suit"
        if turns == 2 and view["tricks"]:
            check_last_trick(page, view)
        expect(page.get_by_test_id("contract")).to_have_attribute("data-trump", view["trump"])
        expect(page.get_by_test_id("contract")).to_have_attribute("data-taker", view["taker"])
        if not crosschecked:
            # The same table loaded from the SQLite store and replayed through the engine.
            meta, match = table_server.replay(table)
            assert meta["settings"]["strength"] == "easy"
            assert legal_strings(match) == set(view["legal"])
            assert sorted(str(c) for c in match.view(2).hand) == sorted(view["hand"])
            crosschecked = True
        turns += 1
        if turns == 4:
            page.wait_for_timeout(300)  # let the last card slide in
            page.screenshot(path=str(table_artifacts / "table.png"))
        play_legal(page, state)
    assert turns == 8

    panel = page.get_by_test_id("score-panel")
    expect(panel).to_be_visible()
    _, match = table_server.replay(table)
    result = match.deals[0].result
    assert result is not None
    expect(panel.get_by_test_id("outcome")).to_have_attribute("data-outcome", result.outcome)
    added = panel.get_by_test_id("row-added").locator("td")
    expect(added.nth(0)).to_have_text(f"+{result.points[0]}")
    expect(added.nth(1)).to_have_text(f"+{result.points[1]}")
    score = panel.get_by_test_id("row-score").locator("td")
    expect(score.nth(0)).to_have_text(str(match.score[0]))
    expect(score.nth(1)).to_have_text(str(match.score[1]))
    tricks = panel.get_by_test_id("row-tricks").locator("td")
    assert int(tricks.nth(0).inner_text()) + int(tricks.nth(1).inner_text()) == 8
    expect(panel.get_by_test_id("panel-target")).to_contain_text("1000")  # the product's match
    expect(panel.get_by_test_id("history").locator("tbody tr")).to_have_count(1)
    expect(panel.get_by_test_id("continue")).to_be_visible()
    page.wait_for_timeout(400)  # the panel's opening animation
    page.screenshot(path=str(table_artifacts / "table-score.png"))
    assert not desktop.unexpected_errors()


def test_an_illegal_card_is_refused_with_the_rule(desktop: Tab, table_server: ServerProcess) -> None:
    page = desktop.page
    ensure_game(page, table_server)
    state = play_turn(page, lambda s: set(s["view"]["hand"]) - set(s["view"]["legal"]))
    view = state["view"]
    wrong = next(c for c, legal, _ in hand(page) if legal == "false")
    _, match = table_server.replay(state["table"])
    with pytest.raises(IllegalAction) as refused:
        match.apply(parse_action(wrong), seat=2)

    page.locator(f'[data-testid="hand-card"][data-card="{wrong}"]').click()
    # The page words the rule's code in the player's language, naming the cards the rule allows.
    error = refused.value
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    # Which rule refuses depends on the deal the table drew: each is worded from its own first words.
    opening = {
        "must_follow": "You must follow ",
        "must_go_higher": "You must play a higher trump than ",
        "must_trump": "You have no {suit}: you must trump ",
        "must_overtrump": "You must overtrump ",
        "must_undertrump": "You cannot overtrump ",
    }
    assert error.code in opening
    words = opening[error.code].format(suit=symbols.get(str(error.details.get("suit")), ""))
    expect(page.get_by_test_id("error")).to_have_text(re.compile("^" + re.escape(words)))
    for card in error.details["cards"]:
        expect(page.get_by_test_id("error")).to_contain_text(card[:-1].replace("T", "10") + symbols[card[-1]])
    assert page.evaluate(STATE_JS)["last"] == state["last"]  # nothing happened at the table
    assert sorted(c for c, _, _ in hand(page)) == sorted(view["hand"])

    # The number keys play the card at that place in the hand.
    place = next(i for i, (_, legal, _) in enumerate(hand(page)) if legal == "true")
    card = hand(page)[place][0]
    page.keyboard.press(str(place + 1))
    wait_after(page, state["last"])
    assert card not in [c for c, _, _ in hand(page)]
    expect(page.get_by_test_id("error")).to_be_empty()
    assert not desktop.unexpected_errors()


def test_a_refresh_restores_the_same_hand_and_trick(desktop: Tab, table_server: ServerProcess) -> None:
    page = desktop.page
    ensure_game(page, table_server)
    state = play_turn(page, mid_deal)
    cards, on_table = hand(page), trick(page)
    saved = page.evaluate("() => JSON.parse(localStorage.getItem('belote.table'))")
    assert saved["table"] == state["table"] and saved["token"] and saved["since"] == state["last"]

    page.reload()
    again = wait_ready(page)
    assert again["table"] == state["table"]
    assert again["view"]["hand"] == state["view"]["hand"]
    assert hand(page) == cards
    assert trick(page) == on_table
    check_highlight(page, again["view"])
    assert not desktop.unexpected_errors()


def test_a_server_restart_and_the_page_reconnects(desktop: Tab, table_server: ServerProcess) -> None:
    page = desktop.page
    ensure_game(page, table_server)
    state = play_turn(page, mid_deal)
    cards, on_table = hand(page), trick(page)

    table_server.kill()
    connection = page.get_by_test_id("connection")
    expect(connection).to_be_visible()
    table_server.start()
    page.wait_for_function("() => window.__belote.connected && window.__belote.joined", timeout=20_000)
    expect(connection).to_be_hidden()
    again = wait_ready(page)
    assert again["table"] == state["table"]
    assert hand(page) == cards
    assert trick(page) == on_table
    # And the table plays on.
    card = play_legal(page, again)
    assert card not in [c for c, _, _ in hand(page)]
    assert not desktop.unexpected_errors(*RECONNECTING)


# How the page's question box looks: how far its text is from the box's edges (px), and the colours
# ("#rrggbb", each drawn over the box's paper) of the box, of Cancel's words, face and edge.
CONFIRM_LOOKS_JS = """() => {
  const box = document.querySelector('[data-testid="confirm-dialog"]');
  const text = box.querySelector('[data-testid="confirm-text"]').getBoundingClientRect();
  const edge = box.getBoundingClientRect();
  const cancel = getComputedStyle(box.querySelector('[data-testid="confirm-no"]'));
  const paper = getComputedStyle(box).backgroundColor.match(/[\\d.]+/g).map(Number);
  const hex = (css) => {
    const [r, g, b, a = 1] = css.match(/[\\d.]+/g).map(Number);
    return '#' + [r, g, b].map((c, i) => Math.round(c * a + paper[i] * (1 - a)).toString(16).padStart(2, '0')).join('');
  };
  return {
    text_inset: Math.min(text.left - edge.left, text.top - edge.top, edge.right - text.right),
    paper: hex(getComputedStyle(box).backgroundColor),
    ink: hex(cancel.color),
    face: hex(cancel.backgroundColor),
    edge: parseFloat(cancel.borderTopWidth) > 0 ? hex(cancel.borderTopColor) : hex(cancel.backgroundColor),
  };
}"""


def test_n_starts_a_new_game_after_a_confirm(desktop: Tab, table_server: ServerProcess) -> None:
    page = desktop.page
    ensure_game(page, table_server)
    # A match under way, whichever tests of this module ran before at this tab (or none did).
    before = play_turn(page, lambda s: s["last"] > 10)
    # The page asks in its own box, not the browser's: refusing keeps the match, accepting opens the home screen.
    browser_boxes: list[str] = []
    page.on("dialog", lambda d: browser_boxes.append(d.type))
    page.keyboard.press("n")
    box = page.get_by_test_id("confirm-dialog")
    expect(box).to_be_visible()
    expect(box.get_by_test_id("confirm-text")).to_have_text("Abandon the match under way and start a new one?")
    # The box reads as one: its text keeps off the edges, and Cancel is a button one sees beside the other.
    looks = page.evaluate(CONFIRM_LOOKS_JS)
    assert looks["text_inset"] >= 12, looks
    assert contrast(looks["ink"], looks["face"]) >= 4.5, looks
    assert max(contrast(looks["face"], looks["paper"]), contrast(looks["edge"], looks["paper"])) >= 1.5, looks
    box.get_by_test_id("confirm-no").click()
    expect(box).to_be_hidden()
    expect(page.get_by_test_id("settings-dialog")).to_be_hidden()
    page.keyboard.press("n")
    box.get_by_test_id("confirm-yes").click()
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    assert browser_boxes == []
    page.get_by_test_id("settings-start").click()
    page.wait_for_function(
        "n => window.__belote.last < n && window.__belote.view.deal_number === 1", arg=before["last"]
    )
    view = page.evaluate(STATE_JS)["view"]
    assert view["score"] == {"NS": 0, "EW": 0}
    expect(page.get_by_test_id("score-NS")).to_have_text("0")
    expect(page.get_by_test_id("score-panel")).to_be_hidden()
    wait_ready(page)
    assert not desktop.unexpected_errors(*RECONNECTING)


def test_a_phone_held_upright(browser: Any, table_server: ServerProcess, table_artifacts: Path) -> None:
    tab = open_tab(browser, **PHONE)
    page = tab.page
    try:
        start_game(page, table_server.url, tap=True)
        while True:
            state = wait_ready(page)
            if state["view"]["phase"] == "bidding":
                bid(page, state, tap=True)
            elif len(state["view"]["hand"]) == 8:
                break
            else:
                play_legal(page, state, tap=True)
        check_highlight(page, state["view"])
        cards = page.get_by_test_id("hand-card")
        expect(cards).to_have_count(8)
        width, height = PHONE["viewport"]["width"], PHONE["viewport"]["height"]
        for i in range(8):
            box = cards.nth(i).bounding_box()
            assert box is not None
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, box
            assert box["width"] >= 44
            cards.nth(i).tap(trial=True)  # visible, and nothing covers the place a finger goes
        card = play_legal(page, state, tap=True)
        assert card not in [c for c, _, _ in hand(page)]
        # The picture: a later turn, with cards on the table.
        for _ in range(8):
            state = wait_ready(page)
            if state["view"]["trick"] or state["waiting"]:
                break
            play_legal(page, state, tap=True)
        page.wait_for_timeout(300)
        page.screenshot(path=str(table_artifacts / "table-phone.png"))
        assert not tab.unexpected_errors()
    finally:
        tab.context.close()


def test_french_words(browser: Any, table_server: ServerProcess) -> None:
    tab = open_tab(browser, **DESKTOP)
    page = tab.page
    try:
        start_game(page, table_server.url, lang="fr")
        expect(page.get_by_test_id("new-game")).to_have_text("Nouvelle partie")
        assert page.evaluate("document.documentElement.lang") == "fr"
        state = wait_ready(page)
        if state["view"]["phase"] == "bidding":
            expect(page.get_by_test_id("bid-pass")).to_have_text("Passer")
            expect(page.get_by_test_id("turn")).to_contain_text("À vous")
            bid(page, state)
            state = wait_ready(page)
        if state["view"]["phase"] == "play":
            expect(page.get_by_test_id("contract")).to_contain_text("Atout")
        assert not tab.unexpected_errors()
    finally:
        tab.context.close()


def test_a_table_the_server_no_longer_has_starts_afresh(browser: Any, table_server: ServerProcess) -> None:
    tab = open_tab(browser, **DESKTOP)
    page = tab.page
    try:
        page.goto(table_server.url)
        page.evaluate(
            """() => localStorage.setItem('belote.table',
                 JSON.stringify({table: 'no-such-table', token: 'nope', since: 12}))"""
        )
        page.reload()
        expect(page.get_by_test_id("settings-dialog")).to_be_visible()
        expect(page.get_by_test_id("error")).to_contain_text("start a new game")
        assert page.evaluate("localStorage.getItem('belote.table')") is None
        assert not tab.unexpected_errors()
    finally:
        tab.context.close()
