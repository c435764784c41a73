"""The table fits a phone: at 360x640, 390x844 and 844x390 (and the match's end at 1280x800), in
English and in French, no control leaves the screen and no word is cut, in every state of a match.

Real matches against the whole app (bots that act at once): a solo table through its states (the
home screen and its forms, bidding, a hand of eight, the end of a deal, the menu, the history and the
score sheet, the match's end, the Coinche bid panel, two hands with their table cards, three hands),
and a private table of two people with 20-character names (the lobby as host and as guest, the
chat, three- and four-digit scores, the match's end). The deals between the states are played fast
by a scripted second socket on the page's own seat (``netplay.Player``, as a second tab would), so
that reaching three- and four-digit scores costs seconds.

In each state, at each size, ``FIT_JS`` lists:

- every visible control (button, link, field, the hand's cards) not wholly inside the viewport, or
  cut by a box that clips it. A few boxes scroll inside by design (``SCROLLERS``): what is in them
  counts as reachable when it fits their width and the box itself is on the screen; the controls of
  ``PINNED`` (the end-of-deal panel's buttons, the lobby's actions, a drawer's head) must be seen
  without scrolling even there;
- a place around the table (its name, its cards) spilling out of the table onto the words under it;
- every text wider than its box (``scrollWidth > clientWidth``) among controls and labels, every cell
  and label cut by a clipping box, and every field whose text or placeholder is wider than its room.

The test prints every offender found and fails if there is one.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axe import assert_no_serious
from online_fixtures import app_server
from table_fixtures import open_tab

from netplay import Player, State, run

PHONES = [(360, 640), (390, 844), (844, 390)]
LAPTOP = (1280, 800)
#: Boxes that scroll inside (up and down only): what is in them is reached by scrolling them.
SCROLLERS = {
    ".lobby": "the private table's lobby (its actions stay pinned at the bottom)",
    "dialog.settings": "the home screen and its forms (their buttons stay pinned at the bottom)",
    ".drawer-body": "the history drawer and its score sheet",
    ".panel": "the end-of-deal panel's rows and the match's sheet (its buttons stay pinned)",
    ".chat-lines": "the chat's lines",
}
#: Controls seen without scrolling, even inside a box that scrolls.
PINNED = [".panel-buttons", ".lobby-actions", ".drawer-head", ".settings-form > .panel-buttons"]
#: 20 characters each: names as long as people give.
HOST = "Marie-Charlotte Roux"
GUEST = "Jean-Baptiste Moreau"
SHOTS = os.environ.get("BELOTE_SHOTS")  # a folder: screenshots of every state at every size

FIT_JS = """([scrollers, pinned]) => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const TOL = 0.5;
  const CONTROLS = 'button, a[href], input:not([type="hidden"]), select, textarea, summary, [data-testid="hand-card"]';
  const LABELS = 'th, td, label, legend, h1, h2, h3, .seat-label, .chip, .lobby-player';
  const TEXTS = 'button, a[href], label, summary, legend, th, td, h1, h2, h3, .seat-label .name, .lobby-player, ' +
    '.variant-name, .variant-help, .side, .target, .turn, .chip, .mark';
  const out = [];
  const shown = (e) => {
    if (!e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const words = (e) => (e.getAttribute("aria-label") || e.textContent || e.value || e.placeholder || "")
    .replace(/\\s+/g, " ").trim().slice(0, 32);
  const name = (e) => {
    const id = e.dataset && e.dataset.testid;
    const classes = typeof e.className === "string" ? e.className.trim() : "";
    const cls = classes ? "." + classes.split(/\\s+/).join(".") : "";
    return `${e.tagName.toLowerCase()}${id ? `[${id}]` : cls} "${words(e)}"`;
  };
  const px = (r) => `x ${Math.round(r.left)}..${Math.round(r.right)}, y ${Math.round(r.top)}..${Math.round(r.bottom)}`;
  const padding = (a) => {
    const r = a.getBoundingClientRect();
    const left = r.left + a.clientLeft, top = r.top + a.clientTop;
    return { left, top, right: left + a.clientWidth, bottom: top + a.clientHeight };
  };
  const inside = (r, b) =>
    r.left >= b.left - TOL && r.right <= b.right + TOL && r.top >= b.top - TOL && r.bottom <= b.bottom + TOL;
  // Where e is cut: by a box that clips it, or by the viewport; null when all of it can be seen.
  const cut = (e) => {
    const b = e.getBoundingClientRect();
    let r = { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    const must = pinned.some((s) => e.closest(s));
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
      const box = padding(a);
      const scrolls = /auto|scroll/.test(cs.overflowY) && a.scrollHeight > a.clientHeight + 1;
      if (!must && scrolls && scrollers.some((s) => a.matches(s))) {
        if (r.left < box.left - TOL || r.right > box.right + TOL) return `cut across by ${name(a)} (${px(box)})`;
        const top = Math.max(box.top, Math.min(r.top, box.bottom));
        r = { ...r, top, bottom: Math.min(box.bottom, Math.max(r.bottom, box.top)) };
        continue;
      }
      if (!inside(r, box)) return `cut by ${name(a)} (${px(box)})`;
    }
    return inside(r, { left: 0, top: 0, right: vw, bottom: vh }) ? null : `outside the ${vw}x${vh} screen`;
  };
  for (const e of document.querySelectorAll(`${CONTROLS}, ${LABELS}`)) {
    if (!shown(e)) continue;
    const why = cut(e);
    if (why) out.push(`${name(e)} at ${px(e.getBoundingClientRect())}: ${why}`);
  }
  // The places around the table stay on the table: none spills over the words under it.
  const felt = document.querySelector(".felt");
  if (felt && shown(felt)) {
    const box = felt.getBoundingClientRect();
    for (const e of felt.querySelectorAll(":scope > .seat")) {
      const r = e.getBoundingClientRect();
      if (shown(e) && !inside(r, box)) out.push(`${name(e)} at ${px(r)}: spills out of the table (${px(box)})`);
    }
  }
  for (const e of document.querySelectorAll(TEXTS)) {
    if (!shown(e)) continue;
    const cs = getComputedStyle(e);
    if (cs.display === "inline" || cs.display === "contents") continue;
    if (e.scrollWidth > e.clientWidth + 1) out.push(`${name(e)}: text ${e.scrollWidth} px wide in ${e.clientWidth}`);
  }
  const ruler = document.createElement("canvas").getContext("2d");
  for (const e of document.querySelectorAll("input, select")) {
    // A link to copy (read only) scrolls in its box.
    if (!shown(e) || e.type === "radio" || e.type === "checkbox" || e.readOnly) continue;
    const cs = getComputedStyle(e);
    ruler.font = !e.value && e.placeholder ? getComputedStyle(e, "::placeholder").font : cs.font;
    const text = e.tagName === "SELECT" ? (e.selectedOptions[0] || {}).text || "" : e.value || e.placeholder;
    const arrow = e.tagName === "SELECT" ? 20 : 0; // Chromium's arrow of a select
    const room = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - arrow;
    const need = ruler.measureText(text).width;
    if (need > room + 1) out.push(`${name(e)}: "${text}" needs ${Math.round(need)} px, has ${Math.round(room)}`);
  }
  return out;
}"""

#: The page as it opens a state: boxes that scroll inside at their top (a panel opens at its top).
TOP_JS = "sel => { for (const e of document.querySelectorAll(sel)) e.scrollTop = 0; }"
FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


class Fit:
    """The offenders found so far, each named by its state, size and language."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.states = 0

    def check(self, page: Any, state: str, sizes: list[tuple[int, int]] = PHONES, axe: bool = True) -> None:
        """The page at each of ``sizes``: what leaves the screen or is cut; axe at the first size."""
        lang = page.evaluate("document.documentElement.lang")
        self.states += 1
        for i, (w, h) in enumerate(sizes):
            page.set_viewport_size({"width": w, "height": h})
            page.evaluate(FRAMES_JS)
            page.evaluate(TOP_JS, ".panel")
            page.evaluate(FRAMES_JS)
            for line in page.evaluate(FIT_JS, [list(SCROLLERS), PINNED]):
                self.found.append(f"{state} ({lang}, {w}x{h}): {line}")
            if SHOTS:
                Path(SHOTS).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=f"{SHOTS}/{state}-{lang}-{w}x{h}.png")
            if axe and i == 0:
                assert_no_serious(page, f"{state} ({lang}, {w}x{h})")
        page.set_viewport_size({"width": sizes[0][0], "height": sizes[0][1]})


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # The fast-forward's scripted sockets play a whole match as fast as the server answers: past the
    # rates of messages made for people (docs/operations.md), which the pages themselves never reach.
    db = tmp_path_factory.mktemp("phone") / "phone.sqlite3"
    with app_server(db, pace=0, think_workers=0, message_rates=0.0) as found:
        yield found


def phone(browser: Any, lang: str) -> Any:
    """A phone held upright, in ``lang``, without motion (the states are the same, reached sooner)."""
    w, h = PHONES[1]
    tab = open_tab(
        browser,
        viewport={"width": w, "height": h},
        is_mobile=True,
        has_touch=True,
        locale=lang,
        reduced_motion="reduce",
    )
    return tab


# ---------------------------------------------------------------------- playing
READY_JS = """() => { const b = window.__belote; const v = b && b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.match_over || v.to_move === b.seat); }"""
SEEN_JS = "n => window.__belote.last >= n && window.__belote.connected"


def seat_token(page: Any) -> tuple[str, str]:
    """The table this page sits at and its seat token, as the page keeps them."""
    saved: dict[str, str] = page.evaluate("() => JSON.parse(localStorage.getItem('belote.table'))")
    return saved["table"], saved["token"]


def fast_forward(url: str, pages: list[Any], done: Callable[[State, set[str]], bool], away: bool = False) -> State:
    """Every person's seat played by a second socket of theirs (random legal cards, Continue) until
    ``done(state, people)`` (``people``: the pages' seats); the pages then show that state. ``away``:
    the pages are closed meanwhile and open the table again after (no drawing of a whole match)."""
    ws = url.replace("http", "ws", 1) + "/ws"
    seats = [seat_token(page) for page in pages]
    people = {page.evaluate("() => window.__belote.seat") for page in pages}
    if away:
        for page in pages:
            page.goto("about:blank")

    async def play() -> State:
        players = [Player(ws, table, token, seed=i) for i, (table, token) in enumerate(seats)]
        try:
            states = await asyncio.gather(*(p.play(lambda s: done(s, people), timeout=90) for p in players))
        finally:
            for p in players:
                await p.close()
        return max(states, key=lambda s: int(s["last"]))

    state = run(play())
    for page in pages:
        if away:
            page.goto(url)
        page.wait_for_function(SEEN_JS, arg=state["last"], timeout=20_000)
    return state


def top_score(state: State) -> int:
    return max(state["view"]["score"].values())


def scored_at_least(points: int) -> Callable[[State, set[str]], bool]:
    """A deal's score shown with a side at ``points`` or more (or the match over)."""
    return lambda s, _: (s["waiting"] == "continue" and top_score(s) >= points) or bool(s["view"]["match_over"])


def match_over(s: State, _: set[str]) -> bool:
    return bool(s["view"] and s["view"]["match_over"])


def turn_to(phase: str, tricks: int = 0, cards: int = 0) -> Callable[[State, set[str]], bool]:
    """A person's turn in ``phase`` (play: once ``tricks`` are played, with ``cards`` in hand, if given)."""

    def done(s: State, people: set[str]) -> bool:
        v = s["view"]
        if not v or s["waiting"] is not None or v["phase"] != phase or v["to_move"] not in people:
            return False
        return len(v["tricks"]) >= tricks and (not cards or len(v["hand"]) == cards)

    return done


def ready(page: Any) -> dict[str, Any]:
    page.wait_for_function(READY_JS, timeout=20_000)
    st: dict[str, Any] = page.evaluate("() => ({view: window.__belote.view, last: window.__belote.last})")
    return st


def play_a_card(page: Any) -> None:
    """This page's first legal card, tapped; returns once the table has moved on."""
    st = ready(page)
    card = st["view"]["legal"][0]
    page.locator(
        f'[data-testid="hand-card"][data-card="{card}"], [data-testid="table-card"][data-card="{card}"]'
    ).first.tap()
    page.wait_for_function("n => window.__belote.last > n", arg=st["last"])


def start_solo(page: Any, variant: str, target: str = "1000") -> None:
    """From the home screen (open): a solo match of ``variant`` with easy bots."""
    more = page.get_by_test_id("settings-more")
    if not more.evaluate("e => e.open"):
        more.locator("summary").click()
    page.get_by_test_id(f"settings-variant-{variant}").click()
    page.get_by_test_id("settings-strength").select_option("easy")
    page.get_by_test_id("settings-target").select_option(target)
    page.get_by_test_id("settings-start").click()
    expect(page.get_by_test_id("settings-dialog")).to_be_hidden()
    page.wait_for_function(
        f"() => window.__belote.joined && window.__belote.variant === '{variant}' && !!window.__belote.view"
    )


def open_menu_to_new_game(page: Any, fit: Fit | None = None, state: str = "") -> None:
    """New game, during a match: the question (Abandon the match?), answered yes; the home screen."""
    page.get_by_test_id("new-game").tap()
    expect(page.get_by_test_id("confirm-dialog")).to_be_visible()
    if fit:
        fit.check(page, state)
    page.get_by_test_id("confirm-yes").tap()
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()


# ---------------------------------------------------------------------- the tests
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_solo_match_fits_a_phone(browser: Any, url: str, lang: str) -> None:
    tab = phone(browser, lang)
    page = tab.page
    fit = Fit()
    page.goto(url)
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.get_by_test_id("settings-lang").select_option(lang)
    page.get_by_test_id("settings-more").locator("summary").click()
    fit.check(page, "home, the rules open")
    page.get_by_test_id("mode-online").click()
    fit.check(page, "home, play online")
    page.get_by_test_id("mode-create").click()
    fit.check(page, "home, create a table")
    page.get_by_test_id("mode-bots").click()

    # The classic game: bidding, a hand of eight, a deal's end, the history, the sheet, the menu.
    start_solo(page, "classic")
    fast_forward(url, [page], turn_to("bidding"))
    fit.check(page, "classic, bidding")
    fast_forward(url, [page], turn_to("play", cards=8))
    fit.check(page, "classic, a hand of eight")
    page.get_by_test_id("history-btn").tap()
    fit.check(page, "classic, the deal's history")
    page.get_by_test_id("history-close").tap()
    fast_forward(url, [page], scored_at_least(100))
    expect(page.get_by_test_id("continue")).to_be_visible()
    fit.check(page, "classic, a deal's end, three digits")
    page.get_by_test_id("continue").tap()
    fast_forward(url, [page], turn_to("play"))
    fit.check(page, "classic, playing at three digits")
    page.get_by_test_id("scoreboard").tap()
    fit.check(page, "classic, the score sheet")
    page.get_by_test_id("history-close").tap()
    open_menu_to_new_game(page, fit, "classic, abandon the match?")
    fit.check(page, "classic, the menu")
    page.get_by_test_id("settings-cancel").click()
    expect(page.get_by_test_id("settings-dialog")).to_be_hidden()
    fast_forward(url, [page], match_over, away=True)
    expect(page.get_by_test_id("panel-new-game")).to_be_visible()
    fit.check(page, "classic, the match's end", [*PHONES, LAPTOP])

    # Coinche: its bid panel. Two hands: sixteen tricks, the table cards. Three hands.
    page.get_by_test_id("panel-new-game").tap()
    start_solo(page, "coinche")
    fast_forward(url, [page], turn_to("bidding"))
    fit.check(page, "coinche, the bid panel")
    open_menu_to_new_game(page)
    start_solo(page, "two-handed")
    fast_forward(url, [page], turn_to("play"))
    fit.check(page, "two hands, playing")
    fast_forward(url, [page], turn_to("play", tricks=8))
    fit.check(page, "two hands, half the tricks played")
    open_menu_to_new_game(page)
    start_solo(page, "three-handed")
    fast_forward(url, [page], turn_to("play"))
    play_a_card(page)
    fast_forward(url, [page], turn_to("play"))
    fit.check(page, "three hands, playing")
    fast_forward(url, [page], scored_at_least(0))
    fit.check(page, "three hands, a deal's end")

    print(f"{fit.states} states, {len(fit.found)} offenders")
    print("\n".join(fit.found))
    assert not fit.found, f"{len(fit.found)} controls or words off the screen or cut:\n" + "\n".join(fit.found)
    assert tab.unexpected_errors() == []
    tab.context.close()


def test_a_private_table_fits_a_phone(browser: Any, url: str) -> None:
    """The host in French, the guest in English, both with 20-character names."""
    host_tab, guest_tab = phone(browser, "fr"), phone(browser, "en")
    host, guest = host_tab.page, guest_tab.page
    fit = Fit()
    host.goto(url)
    expect(host.get_by_test_id("settings-dialog")).to_be_visible()
    host.get_by_test_id("settings-lang").select_option("fr")
    host.get_by_test_id("mode-create").click()
    host.get_by_test_id("create-name").fill(HOST)
    fit.check(host, "create a table, the host's name")
    host.get_by_test_id("create-go").click()
    expect(host.get_by_test_id("lobby")).to_be_visible()
    invite = host.get_by_test_id("invite-link")
    expect(invite).not_to_have_value("")
    guest.goto(invite.input_value())
    expect(guest.get_by_test_id("sit-dialog")).to_be_visible()
    guest.get_by_test_id("sit-name").fill(GUEST)
    fit.check(guest, "the invitation")
    guest.get_by_test_id("sit-submit").click()
    expect(guest.get_by_test_id("lobby")).to_be_visible()
    expect(host.get_by_test_id("lobby-seats")).to_contain_text(GUEST)
    host.get_by_test_id("lobby-strength").select_option("easy")  # bots that answer at once
    guest.wait_for_function("() => window.__belote.state.settings.strength === 'easy'")
    fit.check(host, "the lobby, as host")
    fit.check(guest, "the lobby, as guest")

    host.get_by_test_id("lobby-start").click()
    for page in (host, guest):
        page.wait_for_function("() => window.__belote.status === 'playing' && !!window.__belote.view")
    fast_forward(url, [host, guest], turn_to("play", cards=8))
    for page, who in ((host, "host"), (guest, "guest")):
        fit.check(page, f"shared table, playing, as {who}")
        page.get_by_test_id("chat-toggle").tap()
        expect(page.get_by_test_id("chat-input")).to_be_visible()
        fit.check(page, f"shared table, the chat open, as {who}")
        page.get_by_test_id("chat-close").tap()
    fast_forward(url, [host, guest], scored_at_least(100))
    for page, who in ((host, "host"), (guest, "guest")):
        fit.check(page, f"shared table, a deal's end, three digits, as {who}")
        page.get_by_test_id("continue").tap()
    fast_forward(url, [host, guest], lambda s, people: turn_to("play")(s, people) or turn_to("bidding")(s, people))
    for page, who in ((host, "host"), (guest, "guest")):
        fit.check(page, f"shared table, three digits, as {who}")
        page.get_by_test_id("home").tap()
        expect(page.get_by_test_id("settings-dialog")).to_be_visible()
        fit.check(page, f"shared table, the menu, as {who}")
        page.keyboard.press("Escape")
        expect(page.get_by_test_id("settings-dialog")).to_be_hidden()
    fast_forward(url, [host, guest], match_over, away=True)
    for page, who in ((host, "host"), (guest, "guest")):
        fit.check(page, f"shared table, the match's end, four digits, as {who}", [*PHONES, LAPTOP])

    print(f"{fit.states} states, {len(fit.found)} offenders")
    print("\n".join(fit.found))
    assert not fit.found, f"{len(fit.found)} controls or words off the screen or cut:\n" + "\n".join(fit.found)
    for tab in (host_tab, guest_tab):
        assert tab.unexpected_errors() == []
        tab.context.close()
