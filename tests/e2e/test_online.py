"""Online play in real browsers against the whole app: a private table of four people and a
spectator, the Play online queue, the table chat, and names that look like HTML.

Every page is its own browser context (its own localStorage), as four people on four computers.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from belote.game import SEATS
from belote.server.room import DEFAULT_SETTINGS, new_match

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axe import assert_no_serious
from online_fixtures import (
    QUEUE_WAIT,
    QueueClock,
    app_server,
    chat_lines,
    create_table,
    hand,
    next_to_move,
    record_texts,
    recorded_texts,
    sit,
    state,
    wait_js,
)
from table_fixtures import DESKTOP, PHONE

# ``open_tab`` (tests/e2e/conftest.py) gives a Tab: ``.page`` and ``.errors``, what the console said.
Tab = Any
OpenTab = Callable[..., Tab]
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


@pytest.fixture(scope="module")
def online_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with app_server(tmp_path_factory.mktemp("online") / "online.sqlite3") as url:
        yield url


def playing(page: Any) -> None:
    wait_js(page, "() => window.__belote.status === 'playing' && window.__belote.view !== null")


def reopen(tab: Tab, link: str, play: bool = True) -> None:
    """Closes the page as a person closing the tab would, and opens the link again (same browser);
    then waits for the table under way (``play``)."""
    context = tab.page.context
    tab.page.close()
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: tab.errors.append(f"uncaught: {e}"))
    tab.page = page
    page.goto(link)
    if play:
        playing(page)


def take_turn(page: Any) -> None:
    """Bids (taking at the first chance, so that the deal is played) or plays a highlighted card."""
    before = state(page)
    view = before["view"]
    if view["phase"] == "bidding":
        choice = next((b for b in view["legal"] if b != "pass"), "pass")
        page.get_by_test_id(f"bid-{choice}").click()
    else:
        shown = page.eval_on_selector_all(
            '[data-testid="hand-card"]', "els => els.map(e => [e.dataset.card, e.classList.contains('legal')])"
        )
        lit = [card for card, legal in shown if legal]
        assert sorted(lit) == sorted(view["legal"]), "the highlighted cards are the legal ones"
        page.locator(f'[data-testid="hand-card"][data-card="{lit[0]}"]').click()
    wait_js(page, "n => window.__belote.last > n", before["last"])


def check_spectator_sees_no_hand(spectator: Tab, tabs: dict[str, Tab]) -> None:
    """No card still held by a player is in the spectator's page: not as a card, not in any attribute."""
    page = spectator.page
    assert state(page)["view"]["hand"] == []
    expect(page.get_by_test_id("hand-card")).to_have_count(0)
    expect(page.get_by_test_id("bid-bar").locator("button")).to_have_count(0)
    html = page.content()
    held = [card for tab in tabs.values() for card in state(tab.page)["view"]["hand"]]
    assert held
    for card in held:
        assert f'data-card="{card}"' not in html, card


def test_four_people_a_private_table_and_a_spectator(open_tab: OpenTab, online_url: str, artifacts: Path) -> None:
    alice = open_tab(**DESKTOP)
    links = create_table(alice.page, online_url, "Alice")
    assert links["invite"].startswith(f"{online_url}/?table=") and "&invite=" in links["invite"]
    assert links["watch"].startswith(f"{online_url}/?table=") and "&watch=" in links["watch"]
    assert state(alice.page)["seat"] == "S" and state(alice.page)["host"] == "S"
    expect(alice.page.get_by_test_id("lobby-start")).to_be_visible()

    bob = open_tab(**DESKTOP)
    assert sit(bob.page, links["invite"], "Bob") == "N"  # the first free seat
    bob.page.get_by_test_id("sit-W").click()  # and moves in the lobby
    wait_js(bob.page, "() => window.__belote.seat === 'W'")
    cara = open_tab(**DESKTOP)
    assert sit(cara.page, links["invite"], "Cara", "E") == "E"
    dan = open_tab(**DESKTOP)
    assert sit(dan.page, links["invite"], "Dan") == "N"
    tabs = {"S": alice, "W": bob, "E": cara, "N": dan}
    names = {"S": "Alice", "W": "Bob", "E": "Cara", "N": "Dan"}
    for seat, tab in tabs.items():
        for other, name in names.items():
            expect(tab.page.get_by_test_id(f"lobby-player-{other}")).to_have_text(name)
        # One's own seat at the bottom, the partner opposite.
        expect(tab.page.get_by_test_id(f"lobby-seat-{seat}")).to_have_class(re.compile(r"\bpos-S\b"))
        expect(tab.page.get_by_test_id(f"lobby-seat-{PARTNER[seat]}")).to_have_class(re.compile(r"\bpos-N\b"))
        assert "token" not in tab.page.url
    for tab in (bob, cara, dan):
        expect(tab.page.get_by_test_id("lobby-start")).to_be_hidden()
        expect(tab.page.get_by_test_id("lobby-target")).to_be_disabled()
        expect(tab.page.get_by_test_id("lobby-status")).to_contain_text("Alice")

    # The host's rules reach every page: one deal, easy bots.
    alice.page.get_by_test_id("lobby-strength").select_option("easy")
    alice.page.get_by_test_id("lobby-target").select_option("deals")
    alice.page.get_by_test_id("lobby-deals").fill("1")
    alice.page.get_by_test_id("lobby-deals").blur()
    wait_js(bob.page, "() => window.__belote.state.settings.deals === 1")
    expect(bob.page.get_by_test_id("lobby-target")).to_have_value("deals")
    expect(bob.page.get_by_test_id("lobby-deals")).to_have_value("1")
    alice.page.screenshot(path=str(artifacts / "online-lobby.png"), full_page=True)

    alice.page.get_by_test_id("lobby-start").click()
    for seat, tab in tabs.items():
        playing(tab.page)
        assert state(tab.page)["seat"] == seat
        expect(tab.page.locator(".felt .seat-S")).to_have_attribute("data-seat", seat)
        expect(tab.page.locator(".felt .seat-N")).to_have_attribute("data-seat", PARTNER[seat])
        expect(tab.page.get_by_test_id(f"name-{seat}")).to_have_text(names[seat])
        expect(tab.page.get_by_test_id(f"name-{PARTNER[seat]}")).to_have_text(names[PARTNER[seat]])
        expect(tab.page.get_by_test_id("spectator-badge")).to_be_hidden()

    spectator = open_tab(**DESKTOP)
    spectator.page.goto(links["watch"])
    playing(spectator.page)
    assert state(spectator.page)["seat"] is None and state(spectator.page)["spectator"]
    expect(spectator.page.get_by_test_id("spectator-badge")).to_be_visible()
    expect(spectator.page.get_by_test_id("chat-form")).to_be_visible()  # a spectator writes too
    expect(spectator.page.get_by_test_id("chat-readonly")).to_be_visible()  # and is told how it shows
    expect(spectator.page.locator(".felt .seat-S")).to_have_attribute("data-seat", "S")
    expect(spectator.page.get_by_test_id("links")).to_be_hidden()

    plays = 0
    reopened = False
    while (seat := next_to_move(tabs)) is not None:
        tab = tabs[seat]
        view = state(tab.page)["view"]
        if view["phase"] == "play" and view["trick"] and not reopened:
            # Mid-trick, the player to move closes the page and opens the link again.
            cards, on_table = sorted(view["hand"]), view["trick"]
            check_spectator_sees_no_hand(spectator, tabs)
            reopen(tab, links["invite"])
            again = state(tab.page)
            assert again["seat"] == seat
            assert sorted(again["view"]["hand"]) == cards
            assert again["view"]["trick"] == on_table
            assert sorted(hand(tab.page)) == cards
            expect(tab.page.locator(".felt .seat-S")).to_have_attribute("data-seat", seat)
            reopened = True
            continue
        if view["phase"] == "play":
            plays += 1
            if plays == 6:
                alice.page.screenshot(path=str(artifacts / "online-table.png"))
                cara.page.screenshot(path=str(artifacts / "online-table-east.png"))
                spectator.page.screenshot(path=str(artifacts / "online-spectator.png"))
        take_turn(tab.page)
    assert plays == 32 and reopened

    # The deal's score from each side: Us first. One deal was the match: the host may start another.
    for seat, tab in tabs.items():
        panel = tab.page.get_by_test_id("score-panel")
        expect(panel.get_by_test_id("outcome")).to_be_visible()
        score = state(tab.page)["view"]["score"]
        us, them = SIDE[seat], "EW" if SIDE[seat] == "NS" else "NS"
        cells = panel.get_by_test_id("row-score").locator("td")
        expect(cells.nth(0)).to_have_text(str(score[us]))
        expect(cells.nth(1)).to_have_text(str(score[them]))
        expect(tab.page.get_by_test_id(f"score-{us}")).to_have_text(str(score[us]))
        expect(panel.get_by_test_id("match-winner")).to_be_visible()
    for tab in (bob, cara, dan):
        expect(tab.page.get_by_test_id("wait-host")).to_be_visible()
    expect(spectator.page.get_by_test_id("score-panel")).to_be_visible()
    alice.page.get_by_test_id("panel-rematch").click()
    for tab in [*tabs.values(), spectator]:
        # Four people and no bot: nobody has bid in the new match.
        wait_js(tab.page, "() => { const v = window.__belote.view; return !!v && !v.match_over && !v.bids.length; }")
        expect(tab.page.get_by_test_id("score-panel")).to_be_hidden()
    for tab in [*tabs.values(), spectator]:
        assert not tab.unexpected_errors()


#: The quick reactions a table takes (room.REACTIONS), in order, and their words on an English page.
REACTION_WORDS = {
    "well_played": "Well played",
    "bravo": "Bravo!",
    "nice_trick": "Nice trick!",
    "thanks": "Thanks",
    "oops": "Oops!",
    "sorry": "Sorry",
    "hurry": "Hurry up!",
    "good_game": "Good game",
}


def test_a_chat_line_with_html_shows_as_text(open_tab: OpenTab, online_url: str) -> None:
    alice = open_tab(**DESKTOP)
    links = create_table(alice.page, online_url, "Alice")
    bob = open_tab(**PHONE)
    sit(bob.page, links["invite"], "Bob")
    # On a phone the chat is a drawer, opened from the header.
    expect(bob.page.get_by_test_id("chat-input")).to_be_hidden()
    bob.page.get_by_test_id("chat-toggle").tap()
    bob.page.get_by_test_id("chat-input").fill("<b>html</b> & <i>more</i>")
    bob.page.get_by_test_id("chat-send").tap()
    expect(alice.page.get_by_test_id("chat-line")).to_have_count(1)
    assert chat_lines(alice.page) == ["Bob: <b>html</b> & <i>more</i>"]
    expect(alice.page.get_by_test_id("chat-lines").locator("b:not(.who), i")).to_have_count(0)
    assert bob.page.get_by_test_id("chat-input").input_value() == ""

    # A reaction: a line in the chat, and a bubble by the seat once the game is on.
    alice.page.get_by_test_id("lobby-strength").select_option("easy")
    wait_js(alice.page, "() => window.__belote.state.settings.strength === 'easy'")
    alice.page.get_by_test_id("lobby-start").click()
    playing(bob.page)
    bob.page.get_by_test_id("chat-close").tap()
    # The reactions: the server's list in its order, each a picture named and titled by its words.
    offered = (
        alice.page.get_by_test_id("reactions")
        .locator("button")
        .evaluate_all(
            "bs => bs.map((b) => [b.dataset.reaction, b.getAttribute('aria-label'), b.title,"
            " b.querySelectorAll('svg.react-icon').length, b.textContent])"
        )
    )
    assert offered == [[r, words, words, 1, ""] for r, words in REACTION_WORDS.items()]
    alice.page.get_by_test_id("react-thanks").click()
    expect(bob.page.get_by_test_id("bubble-S")).to_contain_text("Thanks")
    expect(bob.page.get_by_test_id("bubble-S").locator("svg.react-icon")).to_have_count(1)
    expect(bob.page.get_by_test_id("chat-unread")).to_have_text("1")
    bob.page.get_by_test_id("chat-toggle").tap()
    expect(bob.page.get_by_test_id("chat-line").last).to_have_text("Alice: Thanks")
    assert not alice.unexpected_errors() and not bob.unexpected_errors()


def test_a_name_with_html_shows_as_text(open_tab: OpenTab, online_url: str) -> None:
    alice = open_tab(**DESKTOP)
    links = create_table(alice.page, online_url, "Alice")
    name = "<img src=x onerror=1>"
    mallory = open_tab(**PHONE)
    seat = sit(mallory.page, links["invite"], name)
    expect(alice.page.get_by_test_id(f"lobby-player-{seat}")).to_have_text(name)
    mallory.page.get_by_test_id("chat-toggle").tap()
    mallory.page.get_by_test_id("react-bravo").tap()
    expect(alice.page.get_by_test_id("chat-line")).to_have_text(f"{name}: Bravo!")

    alice.page.get_by_test_id("lobby-strength").select_option("easy")
    wait_js(alice.page, "() => window.__belote.state.settings.strength === 'easy'")
    alice.page.get_by_test_id("lobby-start").click()
    playing(alice.page)
    playing(mallory.page)
    expect(alice.page.get_by_test_id(f"name-{seat}")).to_have_text(name)
    expect(mallory.page.get_by_test_id(f"name-{seat}")).to_have_text(name)
    for tab in (alice, mallory):
        assert tab.page.evaluate("document.querySelectorAll('img').length") == 0
    # The phone shows the whole hand, at a seat that is not South. The bots bid and play on their
    # own, so the hand is looked at once the table waits for one of the two people, who do not act:
    # then it holds five cards in the bidding, or eight if a bot took before a person's turn came.
    people = [state(alice.page)["seat"], seat]
    waits_for_people = "seats => { const v = window.__belote.view; return !!v && seats.includes(v.to_move); }"
    wait_js(mallory.page, waits_for_people, people)
    view = state(mallory.page)["view"]
    cards = mallory.page.get_by_test_id("hand-card")
    expect(cards).to_have_count(5 if view["phase"] == "bidding" else 8)
    assert len(view["hand"]) == (5 if view["phase"] == "bidding" else 8)
    for box in (cards.nth(i).bounding_box() for i in range(cards.count())):
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["viewport"]["width"]
    assert not alice.unexpected_errors() and not mallory.unexpected_errors()


def test_play_online_seats_one_person_with_three_bots(open_tab: OpenTab, online_url: str) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    page.goto(online_url)
    page.get_by_test_id("mode-online").click()
    page.get_by_test_id("online-name").fill("Zoé")
    record_texts(page, "queue-status")  # shown for the queue's wait only: kept to be read once seated
    page.get_by_test_id("online-go").click()
    panel = page.get_by_test_id("queue-panel")

    seated = "() => window.__belote.kind === 'online' && window.__belote.view !== null"
    wait_js(page, seated, timeout=QUEUE_WAIT * 1000 + 15_000)
    expect(panel).to_be_hidden()
    waited = recorded_texts(page, "queue-status")
    assert any("1 player waiting" in text and "bots join in" in text for text in waited), waited
    found = state(page)
    seat = found["seat"]
    assert seat in "NESW"
    assert found["players"][seat] == {"name": "Zoé", "bot": False, "standin": False}
    expect(page.locator(".felt .seat-S")).to_have_attribute("data-seat", seat)
    expect(page.get_by_test_id(f"name-{seat}")).to_have_text("Zoé")
    for other in "NESW".replace(seat, ""):
        assert found["players"][other]["bot"]
        expect(page.get_by_test_id(f"bot-{other}")).to_be_visible()
    token = page.evaluate(f"localStorage.getItem('belote.token.{found['table']}')")
    assert token and token not in page.url
    expect(page.get_by_test_id("new-game")).to_be_hidden()
    expect(page.get_by_test_id("home")).to_be_visible()

    # A refresh returns to the seat.
    page.reload()
    playing(page)
    assert state(page)["seat"] == seat and state(page)["table"] == found["table"]
    assert not tab.unexpected_errors()


def test_two_people_who_queue_together_are_partners(
    open_tab: OpenTab, online_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = QueueClock()
    monkeypatch.setattr("belote.server.matchmaking.time", clock)
    tabs = {name: open_tab(**DESKTOP) for name in ("Ana", "Ben")}
    for n, (name, tab) in enumerate(tabs.items(), start=1):
        page = tab.page
        page.goto(online_url)
        page.get_by_test_id("mode-online").click()
        page.get_by_test_id("online-name").fill(name)
        expect(page.get_by_test_id("seating-partners")).to_be_checked()
        page.get_by_test_id("online-go").click()
        # Behind the queue the page offers nothing of a solo game.
        expect(page.get_by_test_id("new-game")).to_be_hidden()
        expect(page.get_by_test_id("turn")).to_have_text("")
        # The queue has them all: the page says how many wait.
        wait_js(page, "n => window.__belote.queue && window.__belote.queue.waiting === n", n)
    clock.now += QUEUE_WAIT + 1  # the wait is over: bots take the two seats left
    seated = "() => window.__belote.kind === 'online' && window.__belote.view !== null"
    for tab in tabs.values():
        wait_js(tab.page, seated)
    ana, ben = (state(tabs[n].page) for n in ("Ana", "Ben"))
    assert ana["table"] == ben["table"]
    assert {ana["seat"], ben["seat"]} in ({"N", "S"}, {"E", "W"}), (ana["seat"], ben["seat"])
    # Each sees the other across the table as a partner, under her own name; the bots have names too.
    for me, other, page in ((ana, ben, tabs["Ana"].page), (ben, ana, tabs["Ben"].page)):
        label = page.get_by_test_id(f"seat-label-{other['seat']}")
        expect(label).to_contain_text(other["players"][other["seat"]]["name"])
        expect(label).to_contain_text("partner")
        expect(page.locator(".felt .seat-N")).to_have_attribute("data-seat", other["seat"])
        for seat, p in me["players"].items():
            if p["bot"]:
                assert p["name"] not in ("North", "East", "South", "West")
                expect(page.get_by_test_id(f"name-{seat}")).to_have_text(p["name"])
    assert not any(t.unexpected_errors() for t in tabs.values())


def test_the_queue_shows_who_waits_for_each_game(open_tab: OpenTab, tmp_path: Path) -> None:
    """The queue's counts by game, read while the wait lasts (a queue that never fills by itself):
    each page shows its own game marked, and a newcomer to another game counts there."""
    with app_server(tmp_path / "queue.sqlite3", queue_wait=600) as url:
        tabs: dict[str, Tab] = {}
        for name, variant in (("Ana", "classic"), ("Ben", "two-handed")):
            tabs[name] = open_tab(**DESKTOP)
            page = tabs[name].page
            page.goto(url)
            page.get_by_test_id("mode-online").click()
            page.get_by_test_id("online-name").fill(name)
            page.get_by_test_id(f"online-variant-{variant}").click()
            page.get_by_test_id("online-go").click()
            expect(page.get_by_test_id(f"queue-count-{variant}")).to_have_class("mine")
        for tab in tabs.values():
            for game in ("classic", "two-handed"):
                expect(tab.page.get_by_test_id(f"queue-count-{game}")).to_contain_text("1")
            expect(tab.page.get_by_test_id("queue-count-coinche")).to_contain_text("0")
        assert not any(t.unexpected_errors() for t in tabs.values())


def test_a_bot_stands_in_and_the_seat_is_taken_back(open_tab: OpenTab, online_url: str) -> None:
    tab = open_tab(**DESKTOP)
    page = tab.page
    create_table(page, online_url, "Alice")
    # A long match of easy bots, and five seconds to act.
    page.get_by_test_id("lobby-strength").select_option("easy")
    page.get_by_test_id("lobby-target").select_option("deals")
    page.get_by_test_id("lobby-deals").fill("100")
    page.get_by_test_id("lobby-turn-timer").fill("5")
    page.get_by_test_id("lobby-turn-timer").blur()
    wait_js(page, "() => { const s = window.__belote.state.settings; return s.turn_timer === 5 && s.deals === 100; }")
    page.get_by_test_id("lobby-start").click()
    playing(page)
    record_texts(page, "turn", "[data-timer]")  # the clock shows for five seconds: kept to be read after

    wait_js(page, "() => window.__belote.timer && window.__belote.timer.seat === 'S'")
    # One state, one message and one button: no "your turn", no card offered while the bot plays.
    turn = page.get_by_test_id("turn")
    expect(turn).to_have_attribute("data-state", "standin", timeout=15_000)
    expect(turn).to_have_text("A bot is playing for you")
    clock = recorded_texts(page, "turn", "[data-timer]")
    assert any(re.fullmatch(r"[1-5] s", text) for text in clock), clock
    expect(page.get_by_test_id("standin-S")).to_have_count(0)
    expect(page.locator('[data-testid="hand-card"].legal')).to_have_count(0)
    expect(page.get_by_test_id("bid-bar").locator("button")).to_have_count(0)
    back = page.get_by_test_id("take-back")
    expect(back).to_be_visible()
    back.click()
    expect(turn).not_to_have_attribute("data-state", "standin")
    expect(back).to_be_hidden()
    assert state(page)["players"]["S"]["standin"] is False
    assert not tab.unexpected_errors()


# In the page: when the mark of ``seat``'s person gone from the table first shows (on the page's own
# clock), kept by an observer of the felt however late the test looks.
GONE_AT_JS = """(seat) => {
  window.__gone = { at: null };
  const note = () => {
    const shown = document.querySelector(`[data-testid="gone-${seat}"]`) !== null;
    if (shown && window.__gone.at === null) window.__gone.at = Date.now();
  };
  const felt = document.querySelector(".felt");
  new MutationObserver(note).observe(felt, { childList: true, subtree: true, characterData: true });
}"""


def test_a_player_who_closes_the_page_is_shown_gone_then_the_bot_then_back(open_tab: OpenTab, online_url: str) -> None:
    """Bob closes his page mid-deal: Alice and a spectator see on his seat, within two seconds, that he
    left and in how long a bot plays for him (not a turn's clock); then that a bot plays for him; and
    when he comes back, that he is back."""
    timer = 6
    alice = open_tab(**DESKTOP)
    links = create_table(alice.page, online_url, "Alice")
    alice.page.get_by_test_id("lobby-turn-timer").fill(str(timer))
    alice.page.get_by_test_id("lobby-turn-timer").blur()
    wait_js(alice.page, f"() => window.__belote.state.settings.turn_timer === {timer}")
    bob = open_tab(**PHONE)
    seat = sit(bob.page, links["invite"], "Bob")
    # In the lobby too: his page closed, the host sees it under his name, until he is back.
    bob.page.close()
    expect(alice.page.get_by_test_id(f"lobby-gone-{seat}")).to_have_text("left the table")
    reopen(bob, online_url, play=False)
    wait_js(bob.page, f"() => window.__belote.seat === '{seat}'")
    expect(alice.page.get_by_test_id(f"lobby-gone-{seat}")).to_have_count(0)
    alice.page.get_by_test_id("lobby-start").click()
    for tab in (alice, bob):
        playing(tab.page)
    watcher = open_tab(**PHONE)
    watcher.page.goto(links["watch"])
    playing(watcher.page)
    pages = (alice.page, watcher.page)
    for page in pages:
        expect(page.get_by_test_id(f"gone-{seat}")).to_have_count(0)
        page.evaluate(GONE_AT_JS, seat)
        record_texts(page, "announce")

    closed = time.time() * 1000  # the clock the pages' Date.now() reads: the machine's
    bob.page.close()  # mid-deal, as a person closing the tab
    for page in pages:
        mark = page.get_by_test_id(f"gone-{seat}")
        expect(mark).to_be_visible()
        shown = page.evaluate("() => window.__gone.at")
        assert shown - closed < 2000, f"Bob's seat showed that he left {shown - closed:.0f} ms after his page closed"
        away = state(page)["players"][seat]["away"]
        assert 0 < away["standin_ms"] <= timer * 1000, away
        expect(mark).to_have_text(re.compile(rf"^left the table, bot in [1-{timer}]\s+s$"))
        expect(page.get_by_test_id(f"timer-{seat}")).to_have_count(0)  # not a turn's clock: he is not thinking
        assert "Bob left the table" in recorded_texts(page, "announce")
    assert_no_serious(alice.page, "the table with a seat whose player left", include=".felt")

    # His absence lasts the turn timer: a bot plays for him, and his seat says so.
    for page in pages:
        wait_js(page, f"() => window.__belote.players['{seat}'].standin", timeout=(timer + 10) * 1000)
        expect(page.get_by_test_id(f"gone-{seat}")).to_have_text("left the table, a bot plays for them")
        assert state(page)["players"][seat]["away"] == {"standin_ms": None}

    # He comes back: his seat is his again, and everybody is told.
    reopen(bob, online_url)
    assert state(bob.page)["seat"] == seat and "away" not in state(bob.page)["players"][seat]
    for page in pages:
        wait_js(page, f"() => !window.__belote.players['{seat}'].away")
        expect(page.get_by_test_id(f"gone-{seat}")).to_have_count(0)
        assert state(page)["players"][seat]["standin"] is False
        assert "Bob is back" in recorded_texts(page, "announce")
    assert not any(tab.unexpected_errors() for tab in (alice, bob, watcher))


def test_the_first_turn_has_its_whole_clock_after_a_lobby_longer_than_the_timer(
    open_tab: OpenTab, online_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn clock starts when the game does: a lobby that lasted longer than the turn timer
    leaves the first speaker their whole time, not a bot in their place."""
    # A table whose seed makes South, the host, the first to speak.
    seed = next(s for s in range(64) if new_match(DEFAULT_SETTINGS, s).to_move == SEATS.index("S"))
    monkeypatch.setattr("belote.server.manager.secrets.randbelow", lambda n: seed)
    tab = open_tab(**DESKTOP)
    page = tab.page
    create_table(page, online_url, "Alice")
    page.get_by_test_id("lobby-turn-timer").fill("5")
    page.get_by_test_id("lobby-turn-timer").blur()
    wait_js(page, "() => window.__belote.state.settings.turn_timer === 5")
    time.sleep(6)  # the lobby outlasts the turn timer: the condition under test, not a wait for a state
    page.get_by_test_id("lobby-start").click()
    playing(page)
    wait_js(page, "() => window.__belote.timer && window.__belote.timer.seat === 'S'")
    timer = page.evaluate("() => window.__belote.timer")
    assert timer["left_ms"] > 3_000, timer
    turn = page.get_by_test_id("turn")
    expect(turn).not_to_have_attribute("data-state", "standin")
    assert state(page)["players"]["S"]["standin"] is False
    assert state(page)["view"]["bids"] == []  # nobody spoke for her
    assert not tab.unexpected_errors()


def test_a_guest_leaves_the_lobby_and_a_late_invitee_watches(open_tab: OpenTab, online_url: str) -> None:
    alice = open_tab(**DESKTOP)
    links = create_table(alice.page, online_url, "Alice")
    expect(alice.page.get_by_test_id("lobby-leave")).to_be_hidden()  # the host stays
    bob = open_tab(**DESKTOP)
    seat = sit(bob.page, links["invite"], "Bob")
    expect(alice.page.get_by_test_id(f"lobby-player-{seat}")).to_have_text("Bob")
    bob.page.get_by_test_id("lobby-leave").click()
    expect(bob.page.get_by_test_id("settings-dialog")).to_be_visible()  # back home
    expect(alice.page.get_by_test_id(f"lobby-player-{seat}")).to_have_count(0)
    for name in ("Carl", "Dan", "Eve"):
        sit(open_tab(**DESKTOP).page, links["invite"], name)
    alice.page.get_by_test_id("lobby-start").click()
    playing(alice.page)
    # Bob comes back through the invitation: no seat is left, but he may watch.
    bob.page.goto(links["invite"])
    bob.page.get_by_test_id("sit-name").fill("Bob")
    bob.page.get_by_test_id("sit-submit").click()
    expect(bob.page.get_by_test_id("sit-error")).not_to_be_empty()
    bob.page.get_by_test_id("sit-watch").click()
    wait_js(bob.page, "() => window.__belote.spectator && window.__belote.view !== null")
    expect(bob.page.get_by_test_id("hand-card")).to_have_count(0)

    # A spectator writes in the chat too: the table reads his lines marked as a spectator's, under
    # the name this browser played under, and his reactions likewise (no seat: no bubble).
    bob.page.get_by_test_id("chat-input").fill("allez  Alice")
    bob.page.get_by_test_id("chat-send").click()
    line = alice.page.get_by_test_id("chat-line").last
    expect(line).to_have_text("Bob (spectator): allez Alice")
    expect(line).to_have_class(re.compile(r"\bspectator\b"))
    bob.page.get_by_test_id("react-oops").click()
    expect(alice.page.get_by_test_id("chat-line").last).to_have_text("Bob (spectator): Oops!")
    expect(alice.page.locator(".bubble.react")).to_have_count(0)
    assert_no_serious(bob.page, "a spectator's table with the chat")

    # The browser reports the refused seat (HTTP 409) in the console; nothing else went wrong.
    assert not alice.unexpected_errors() and not bob.unexpected_errors("409 (Conflict)")
