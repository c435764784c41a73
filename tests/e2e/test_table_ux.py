"""The table as players expect it, in a real browser: the history drawer on a phone, the match's score
sheet from the scoreboard, banners and bubbles that never cover a card (bounding boxes at every
viewport), a French page, a keyboard-only deal, sound and its mute switch, a lost connection, the
newcomer's hint, the end of a match, and axe-core on the home screen, the table, the lobby and the drawer.

Each test has its own solo table (easy and fast bots) on the in-process server of tests/e2e/conftest.py.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axe import assert_no_serious
from table_fixtures import DESKTOP, PHONE, contrast, open_solo

LANDSCAPE = {"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE, "landscape": LANDSCAPE}

STATE_JS = """() => { const b = window.__belote;
  return b && b.view ? {view: b.view, waiting: b.waiting, last: b.last, table: b.table, deals: b.deals} : null; }"""
READY_JS = """() => { const b = window.__belote; const v = b && b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.match_over || v.to_move === b.seat); }"""

# Records, at every frame, any banner or bubble whose box meets a card of the trick, the hand or the
# turned card, and the banner when it meets words of the contract line it stands in: what a player
# would see covered.
COVER_WATCH_JS = """() => {
  window.__covered = [];
  window.__watched = 0;
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const look = () => {
    const covers = [...document.querySelectorAll('[data-testid="announce"], .bubble')]
      .filter((e) => e.textContent.trim() && getComputedStyle(e).visibility !== 'hidden'
        && getComputedStyle(e).display !== 'none');
    // A card in flight (dealt, or on its way to the trick) passes by; a card at rest must not be covered.
    const cards = [...document.querySelectorAll('.trick-card, [data-testid="hand-card"], [data-testid="turned-card"]')]
      .filter((e) => !e.getAnimations({ subtree: true }).some((a) => a.playState === 'running'))
      .filter((e) => getComputedStyle(e).visibility !== 'hidden');
    const words = [...document.querySelectorAll('.contract-line > :not([data-testid="announce"])')]
      .filter((e) => e.textContent.trim() && getComputedStyle(e).visibility !== 'hidden');
    for (const c of covers.filter((e) => e.dataset.testid === 'announce')) {
      for (const w of words) {
        const what = `${c.textContent.trim()} over ${w.dataset.testid}`;
        if (box(c).width && meet(box(c), box(w))) window.__covered.push(what);
      }
    }
    for (const c of covers) {
      const a = box(c);
      if (!a.width) continue;
      window.__watched += 1;
      for (const card of cards) {
        const b = box(card);
        const what = `${c.textContent.trim()} over ${card.dataset.testid} ${card.dataset.card}`;
        if (b.width && meet(a, b)) window.__covered.push(what);
      }
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


# ---------------------------------------------------------------------- helpers
def wait_ready(page: Any, timeout: float = 30_000) -> dict[str, Any]:
    page.wait_for_function(READY_JS, timeout=timeout)
    state: dict[str, Any] = page.evaluate(STATE_JS)
    return state


def act(page: Any, state: dict[str, Any], tap: bool = False) -> None:
    """One action of South's: the first bid that takes, else the first legal card, else Continue."""
    view = state["view"]
    if state["waiting"] == "continue":
        button = page.get_by_test_id("continue")
        button.tap() if tap else button.click()
        page.wait_for_function("() => window.__belote.waiting !== 'continue'")
        return
    if view["phase"] == "bidding":
        choice = next((b for b in view["legal"] if b != "pass"), "pass")
        target = page.get_by_test_id(f"bid-{choice}")
    else:
        target = page.locator(f'[data-testid="hand-card"][data-card="{view["legal"][0]}"]')
    target.tap() if tap else target.click()
    page.wait_for_function("n => window.__belote.last > n", arg=state["last"])


def play_until(page: Any, until: Any, tap: bool = False, limit: int = 120) -> dict[str, Any]:
    for _ in range(limit):
        state = wait_ready(page)
        if until(state):
            return state
        act(page, state, tap)
    raise AssertionError("the state looked for never came")


def settled(page: Any, test_id: str) -> None:
    """Until the element's animations (and its children's) have finished: a state, not a moment."""
    page.get_by_test_id(test_id).evaluate("e => Promise.all(e.getAnimations({subtree: true}).map((a) => a.finished))")


def in_play(state: dict[str, Any]) -> bool:
    return state["waiting"] is None and state["view"]["phase"] == "play"


# ---------------------------------------------------------------------- history, score sheet
def test_the_history_drawer_on_a_phone_lists_every_bid_and_trick(open_tab: Any, base_url: str, artifacts: Path) -> None:
    tab = open_tab(**PHONE)
    page = tab.page
    open_solo(page, base_url, tap=True)
    state = play_until(page, lambda s: in_play(s) and len(s["view"]["tricks"]) >= 2, tap=True)
    page.get_by_test_id("history-btn").tap()
    drawer = page.get_by_test_id("history-drawer")
    expect(drawer).to_be_visible()
    settled(page, "history-drawer")  # it slides in
    deal = state["deals"][-1]
    bids = drawer.get_by_test_id("history-bid")
    expect(bids).to_have_count(len(deal["bids"]))
    shown = bids.evaluate_all("els => els.map(e => [e.dataset.seat, e.dataset.bid])")
    assert sorted(shown) == sorted(deal["bids"])
    expect(drawer.get_by_test_id("history-contract")).to_be_visible()
    tricks = drawer.get_by_test_id("history-trick")
    expect(tricks).to_have_count(len(deal["tricks"]) + (1 if deal["cards"] and len(deal["cards"]) % 4 else 0))
    box = drawer.bounding_box()
    assert box is not None and box["width"] <= 390 and box["y"] + box["height"] <= 844 + 1
    page.screenshot(path=str(artifacts / "table-history-phone.png"))
    drawer.get_by_test_id("history-close").tap()
    expect(drawer).to_be_hidden()
    assert not tab.unexpected_errors()


def test_the_scoreboard_opens_the_match_sheet_at_any_time(open_tab: Any, base_url: str, artifacts: Path) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    open_solo(page, base_url)
    # Before any deal is scored the sheet is there, and empty.
    page.get_by_test_id("scoreboard").click()
    drawer = page.get_by_test_id("history-drawer")
    expect(drawer.get_by_test_id("history-tab-match")).to_have_attribute("aria-selected", "true")
    expect(drawer.get_by_test_id("match-sheet").locator("tbody tr")).to_have_text(["No deal scored yet"])
    page.keyboard.press("Escape")
    expect(drawer).to_be_hidden()
    # A deal later, in the middle of the next one, the sheet holds the first deal's points.
    state = play_until(page, lambda s: s["view"]["deal_number"] >= 2 and in_play(s))
    page.get_by_test_id("scoreboard").click()
    rows = drawer.get_by_test_id("match-sheet").locator("tbody tr")
    expect(rows).to_have_count(1)
    first = next(d for d in state["deals"] if d["result"])
    points = first["result"]["points"]
    expect(rows.first.locator("td").nth(3)).to_have_text(f"+{points['NS']}")
    expect(rows.first.locator("td").nth(4)).to_have_text(f"+{points['EW']}")
    heads = drawer.get_by_test_id("match-sheet").locator("thead th")
    expect(heads.nth(3)).to_have_text("Us")
    expect(heads.nth(4)).to_have_text("Them")
    # The sides are named with their players.
    expect(drawer.locator(".history-score")).to_contain_text("Us · You &")
    page.screenshot(path=str(artifacts / "table-sheet-desktop.png"))
    drawer.get_by_test_id("history-tab-deal").click()
    expect(drawer.get_by_test_id("history-bidding")).to_be_visible()
    assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- nothing covers a card
def test_no_banner_or_bubble_covers_a_card(open_tab: Any, base_url: str, artifacts: Path) -> None:
    for name, options in VIEWPORTS.items():
        tab = open_tab(**options)
        page = tab.page
        tap = name != "desktop"
        open_solo(page, base_url, tap=tap)
        page.evaluate(COVER_WATCH_JS)
        # A whole deal and the bidding of the next: bids, declarations, belote and tricks come and go.
        play_until(page, lambda s: s["view"]["deal_number"] >= 2 and in_play(s), tap=tap)
        covered = page.evaluate("window.__covered")
        watched = page.evaluate("window.__watched")
        assert watched > 0, f"{name}: no banner or bubble was ever shown"
        assert covered == [], f"{name}: {sorted(set(covered))[:10]}"
        page.screenshot(path=str(artifacts / f"table-{name}.png"))
        assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- French
def test_a_french_browser_gets_a_french_table(open_tab: Any, base_url: str, artifacts: Path) -> None:
    tab = open_tab(locale="fr-FR", **PHONE)
    page = tab.page
    page.goto(base_url)
    expect(page.get_by_test_id("settings-lang")).to_have_value("fr")
    expect(page.get_by_test_id("settings-start")).to_have_text("Distribuer")
    # Before the first deal too, the hand and the scoreboard are named in French.
    expect(page.get_by_test_id("hand")).to_have_attribute("aria-label", "Votre main")
    assert page.locator(".scoreboard .side-name").all_text_contents() == ["N–S", "E–O"]
    page.get_by_test_id("settings-start").tap()
    page.wait_for_function("() => window.__belote.view !== null")
    # A turn where the rules refuse a card of the hand (the deal is the table's own: wait for one).
    state = play_until(page, lambda s: in_play(s) and set(s["view"]["hand"]) - set(s["view"]["legal"]), tap=True)
    expect(page.get_by_test_id("turn")).to_have_text(re.compile("À vous de jouer"))
    view = state["view"]
    illegal = sorted(set(view["hand"]) - set(view["legal"]))
    page.locator(f'[data-testid="hand-card"][data-card="{illegal[0]}"]').tap()
    # The refusal is in French, whichever play rule it is (fournir, monter, couper, surcouper).
    expect(page.get_by_test_id("error")).to_have_text(re.compile(r"vous devez (fournir|monter|couper|surcouper)", re.I))
    # No text is cut, at 390 px nor at 360: nothing wider than its box where the box hides what overflows.
    for width in (390, 360):
        page.set_viewport_size({"width": width, "height": 780})
        cut = page.evaluate(
            """() => [...document.querySelectorAll(
                   'button, .seat-label .name, .turn, .contract span, .target, .side-name, .declarations span')]
                 .filter((e) => e.offsetParent && e.scrollWidth > e.clientWidth + 1
                   && getComputedStyle(e).overflow !== 'visible')
                 .map((e) => e.textContent.trim())"""
        )
        assert cut == [], (width, cut)
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        assert wide <= width
        # Every button of the header lies inside the screen.
        right = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('.bar button, .bar a')]"
            ".filter((e) => e.offsetParent).map((e) => e.getBoundingClientRect().right))"
        )
        assert right <= width, (width, right)
    page.get_by_test_id("history-btn").tap()
    expect(page.get_by_test_id("history-tab-deal")).to_have_text("Cette donne")
    expect(page.get_by_test_id("history-drawer")).to_contain_text("La retourne")  # as players say it
    settled(page, "history-drawer")
    page.screenshot(path=str(artifacts / "table-fr-phone.png"))
    assert not tab.unexpected_errors()


def test_a_language_chosen_on_the_home_screen_words_the_table_behind_it(open_tab: Any, base_url: str) -> None:
    """The table under the home menu (its scoreboard, its turn line, the hand's name) follows the
    language chosen in the menu at once, not at the next deal."""
    tab = open_tab(**PHONE)
    page = tab.page
    page.goto(base_url)
    expect(page.get_by_test_id("turn")).to_have_text("Press New game to deal")
    page.get_by_test_id("settings-lang").select_option("fr")
    expect(page.get_by_test_id("turn")).to_have_text("Appuyez sur Nouvelle partie pour distribuer")
    assert page.locator(".scoreboard .side-name").all_text_contents() == ["N–S", "E–O"]
    expect(page.get_by_test_id("hand")).to_have_attribute("aria-label", "Votre main")
    assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- the keyboard alone
def test_a_deal_played_with_the_keyboard_alone(open_tab: Any, base_url: str) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    open_solo(page, base_url)
    for _ in range(60):
        state = wait_ready(page)
        view = state["view"]
        if state["waiting"] == "continue":
            # The deal's score comes once its last trick has been seen; its button has the focus.
            expect(page.get_by_test_id("continue")).to_be_focused()
            page.keyboard.press("Enter")
            break
        if view["phase"] == "bidding":
            choice = next((b for b in view["legal"] if b != "pass"), "pass")
            # Tab to the bid's button, then Enter.
            for _ in range(40):
                page.keyboard.press("Tab")
                if page.evaluate("() => document.activeElement && document.activeElement.dataset.bid") == choice:
                    break
            else:
                raise AssertionError(f"Tab never reached the bid {choice}")
            page.keyboard.press("Enter")
        else:
            cards = page.get_by_test_id("hand-card").evaluate_all("els => els.map(e => e.dataset.card)")
            index = cards.index(view["legal"][0]) + 1
            if len(view["hand"]) % 2:
                page.keyboard.press(str(index))
            else:
                # The focus ring shows on the card reached with Tab, and Enter plays it.
                for _ in range(40):
                    page.keyboard.press("Tab")
                    focused = page.evaluate("() => document.activeElement && document.activeElement.dataset.card")
                    if focused == view["legal"][0]:
                        break
                else:
                    raise AssertionError("Tab never reached the card")
                ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
                assert ring == "solid"
                label = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
                assert label.endswith("can be played")
                page.keyboard.press("Enter")
        page.wait_for_function("n => window.__belote.last > n", arg=state["last"])
    else:
        raise AssertionError("the deal did not end")
    page.wait_for_function("() => window.__belote.waiting !== 'continue'")
    assert page.evaluate("() => window.__belote.view.deal_number") == 2
    assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- sound
def test_sound_and_a_mute_switch_that_is_remembered(open_tab: Any, base_url: str) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    open_solo(page, base_url)
    play_until(page, lambda s: in_play(s) and len(s["view"]["tricks"]) >= 1)
    played = page.evaluate("() => window.__beloteSounds.played")
    assert played.get("card", 0) >= 4 and played.get("trick", 0) >= 1 and played.get("turn", 0) >= 1
    mute = page.get_by_test_id("mute")
    expect(mute).to_have_attribute("aria-pressed", "false")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    page.reload()
    page.wait_for_function("() => window.__belote.view !== null")
    expect(mute).to_have_attribute("aria-pressed", "true")
    play_until(page, lambda s: in_play(s) and len(s["view"]["tricks"]) >= 3)
    sounds = page.evaluate("() => window.__beloteSounds")
    assert sum(sounds["played"].values()) == 0, sounds
    assert sounds["muted"].get("card", 0) >= 4
    assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- a lost connection
def test_a_lost_connection_offers_no_card_and_says_why(open_tab: Any, base_url: str) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    sockets: list[Any] = []
    blocked = {"on": False}

    def through(ws: Any) -> None:
        if blocked["on"]:
            ws.close()
            return
        ws.connect_to_server()
        sockets.append(ws)

    page.route_web_socket(re.compile(r".*/ws$"), through)
    open_solo(page, base_url)
    play_until(page, in_play)
    expect(page.get_by_test_id("turn")).to_have_attribute("data-state", "mine")
    blocked["on"] = True
    for ws in sockets:
        ws.close()
    turn = page.get_by_test_id("turn")
    expect(turn).to_have_attribute("data-state", "offline")
    expect(turn).to_contain_text("Connection lost")
    expect(page.locator('[data-testid="hand-card"].legal')).to_have_count(0)
    page.get_by_test_id("hand-card").first.click()
    expect(page.get_by_test_id("error")).to_contain_text("Not connected")
    blocked["on"] = False
    expect(turn).to_have_attribute("data-state", "mine", timeout=15_000)
    expect(page.locator('[data-testid="hand-card"].legal').first).to_be_visible()
    assert not tab.unexpected_errors("WebSocket")


# ---------------------------------------------------------------------- learning
def test_a_newcomer_is_told_what_taking_means_once(open_tab: Any, base_url: str) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    open_solo(page, base_url)
    state = play_until(page, lambda s: s["view"]["phase"] == "bidding" and s["waiting"] is None)
    hint = page.get_by_test_id("take-hint")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("trumps")
    act(page, state)
    expect(hint).to_be_hidden()
    # The next decisions to take say nothing more.
    play_until(page, lambda s: s["view"]["deal_number"] >= 2 and s["view"]["phase"] == "bidding" and not s["waiting"])
    expect(hint).to_be_hidden()
    rules = page.get_by_test_id("rules-link")
    expect(rules).to_have_attribute("href", "/rules?lang=en")
    assert not tab.unexpected_errors()


def test_the_end_of_a_match(open_tab: Any, base_url: str, artifacts: Path) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    open_solo(page, base_url, target="deals", deals="1")
    play_until(page, lambda s: s["view"]["match_over"])
    end = page.get_by_test_id("match-end")
    expect(end).to_be_visible()
    winner = page.evaluate("() => window.__belote.view.match_winner")
    won = winner == "NS"
    expect(end).to_have_class(re.compile("won" if won else "lost"))
    # The winner's trophy is drawn (SVG), not an emoji that needs a font: no character beyond the BMP.
    trophy = end.locator(".trophy")
    assert all(ord(c) <= 0xFFFF for c in trophy.text_content() or ""), trophy.text_content()
    expect(trophy.locator("svg.trophy-icon")).to_have_count(1 if won else 0)
    sounds = page.evaluate("() => window.__beloteSounds.played")
    assert sounds.get("win" if won else "lose") == 1, sounds
    expect(page.get_by_test_id("panel-new-game")).to_be_visible()
    expect(page.get_by_test_id("match-title")).to_have_text("Victory!" if won else "Defeat")
    settled(page, "score-panel")
    page.screenshot(path=str(artifacts / "table-match-end.png"))
    assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- axe-core
def home_screens(open_tab: Any, base_url: str) -> Iterator[tuple[str, Any]]:
    """The home screen in English at a desk and in French on a phone: each language and its tab."""
    for lang, options in (("en", DESKTOP), ("fr", PHONE)):
        tab = open_tab(**options)
        tab.page.goto(base_url)
        tab.page.get_by_test_id("settings-lang").select_option(lang)
        expect(tab.page.get_by_test_id("settings-dialog")).to_be_visible()
        yield lang, tab


def test_axe_finds_no_serious_violation(open_tab: Any, base_url: str) -> None:
    for lang, tab in home_screens(open_tab, base_url):
        page = tab.page
        assert_no_serious(page, f"the home screen ({lang})")
        page.get_by_test_id("settings-more").locator("summary").click()
        assert_no_serious(page, f"the home screen's rules ({lang})")
        page.get_by_test_id("settings-speed").select_option("fast")
        page.get_by_test_id("settings-start").click()
        play_until(page, in_play)
        assert_no_serious(page, f"the table at one's turn ({lang})")
        # Nothing moves for ever while the person thinks: a page that repaints at every frame costs a
        # phone its battery (the turn's glow breathed without end, a third of a core).
        endless = page.evaluate(
            "() => document.getAnimations().filter((a) => a.effect.getTiming().iterations === Infinity)"
            ".map((a) => a.animationName || a.effect.target.className)"
        )
        assert endless == [], f"animations without end at one's turn ({lang}): {endless}"
        page.get_by_test_id("history-btn").click()
        settled(page, "history-drawer")  # axe reads colours: not while the drawer fades in
        assert_no_serious(page, f"the history drawer ({lang})")
        page.keyboard.press("Escape")
        play_until(page, lambda s: s["waiting"] == "continue")
        expect(page.get_by_test_id("score-panel")).to_be_visible()  # once the last trick is seen
        settled(page, "score-panel")
        assert_no_serious(page, f"the deal's score ({lang})")
        # A private table's lobby.
        page.evaluate("() => localStorage.removeItem('belote.table')")
        page.goto(base_url)
        page.get_by_test_id("mode-create").click()
        page.get_by_test_id("create-name").fill("Ann")
        page.get_by_test_id("create-go").click()
        expect(page.get_by_test_id("lobby")).to_be_visible()
        expect(page.get_by_test_id("lobby-start")).to_be_in_viewport()
        expect(page.get_by_test_id("lobby-share")).to_be_in_viewport()
        assert_no_serious(page, f"the lobby ({lang})")
        assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- motion
MOTION_WATCH_JS = """() => {
  window.__motion = new Set();
  const note = () => {
    for (const [sel, cls] of [['[data-testid="hand"]', 'dealing'], ['[data-testid="trick"]', 'sweep']]) {
      if (document.querySelector(sel).classList.contains(cls)) window.__motion.add(cls);
    }
  };
  new MutationObserver(note).observe(document.body, { attributes: true, subtree: true, attributeFilter: ['class'] });
}"""


def test_cards_are_dealt_and_swept_unless_motion_is_reduced(open_tab: Any, base_url: str) -> None:
    seen = {}
    for motion in ("no-preference", "reduce"):
        tab = open_tab(reduced_motion=motion, **DESKTOP)
        page = tab.page
        page.goto(base_url)
        page.evaluate(MOTION_WATCH_JS)
        page.get_by_test_id("settings-more").locator("summary").click()
        page.get_by_test_id("settings-speed").select_option("fast")
        page.get_by_test_id("settings-start").click()
        play_until(page, lambda s: s["waiting"] == "continue")
        # The deal's score: after a pause while the last trick is swept, or at once without motion.
        expect(page.get_by_test_id("score-panel")).to_be_visible()
        seen[motion] = sorted(page.evaluate("[...window.__motion]"))
        assert not tab.unexpected_errors()
    assert seen == {"no-preference": ["dealing", "sweep"], "reduce": []}


# ---------------------------------------------------------------------- the focus ring
# The ring of the control that has the keyboard's focus: its outline's style, width and colour, and
# the colour it is drawn on (the first ancestor's background that is not transparent), each
# "#rrggbb". A radio button hidden over its game tile rings the tile.
FOCUS_RING_JS = """() => {
  const hex = (css) => '#' + css.match(/[\\d.]+/g).slice(0, 3).map((c) => (+c).toString(16).padStart(2, '0')).join('');
  const behind = (e) => {
    for (let p = e.parentElement; p; p = p.parentElement) {
      const bg = getComputedStyle(p).backgroundColor;
      const alpha = bg.match(/[\\d.]+/g)[3];
      if (alpha === undefined || +alpha > 0) return hex(bg);
    }
    return '#ffffff';
  };
  const focused = document.activeElement;
  if (!focused || focused === document.body) return null;
  const shown = focused.closest('.variant-tile') || focused;
  const s = getComputedStyle(shown);
  return { what: focused.dataset.testid || focused.outerHTML.slice(0, 60), style: s.outlineStyle,
    width: parseFloat(s.outlineWidth), color: hex(s.outlineColor), on: behind(shown) };
}"""


def test_the_home_menu_shows_a_clear_focus_ring_on_every_control(open_tab: Any, base_url: str) -> None:
    """Tabbing through the home menu, each control shows a ring of 2 px or more whose colour has a
    contrast of 3:1 or more with what it is drawn on (WCAG's non-text contrast)."""
    for lang, tab in home_screens(open_tab, base_url):
        page = tab.page
        page.get_by_test_id("settings-more").locator("summary").click()  # its controls too
        page.get_by_test_id("settings-lang").focus()
        rings: dict[str, dict[str, Any]] = {}
        for _ in range(60):  # the dialog is modal: the focus goes round inside it
            page.keyboard.press("Tab")
            ring = page.evaluate(FOCUS_RING_JS)
            if ring is not None:
                rings.setdefault(ring["what"], ring)
        assert {"settings-lang", "mode-bots", "settings-start", "problems-link", "my-games-link"} <= set(rings), rings
        assert len(rings) >= 12, list(rings)
        for r in rings.values():
            assert r["style"] != "none" and r["width"] >= 2, (lang, r)
            assert contrast(r["color"], r["on"]) >= 3, (lang, r, round(contrast(r["color"], r["on"]), 2))
        assert not tab.unexpected_errors()
