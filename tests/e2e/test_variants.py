"""The other games at the browser table: a Coinche deal at a private table of four people, with a
coinche and a surcoinche, played by clicking; a three-handed and a two-handed deal against bots.

Every page is its own browser context. The server is the whole app in a thread, its bots acting at
once; the deal the pages show is checked against the engine replaying the table from the store.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from belote.game import Match

sys.path.insert(0, str(Path(__file__).resolve().parent))
from online_fixtures import app_server, create_table, next_to_move, sit, state, wait_js
from table_fixtures import DESKTOP, PHONE

from netplay import stored_match

Tab = Any
OpenTab = Callable[..., Tab]
CARDS_JS = "els => els.map(e => [e.dataset.card, e.classList.contains('legal')])"
READY_JS = """() => { const b = window.__belote; const v = b && b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.match_over || v.to_move === b.seat); }"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The app (bots without pauses) and its SQLite file."""
    db = tmp_path_factory.mktemp("variants") / "variants.sqlite3"
    with app_server(db, pace=0.0) as url:
        yield url, db


def replay(db: Path, table: str) -> Match:
    """The table as the store has it, replayed through the engine."""
    match: Match = stored_match(db, table)[1]
    return match


def shown_cards(page: Any, selector: str) -> list[tuple[str, bool]]:
    return [tuple(x) for x in page.eval_on_selector_all(selector, CARDS_JS)]


def check_highlight(page: Any, view: dict[str, Any]) -> None:
    """The highlighted cards, in hand and on one's own table, are exactly the legal ones."""
    me = view["seat"]
    hand = shown_cards(page, '[data-testid="hand-card"]')
    table = shown_cards(page, f'[data-testid="piles-{me}"] [data-testid="table-card"]')
    assert sorted(c for c, _ in hand) == sorted(view["hand"])
    assert sorted(c for c, lit in hand + table if lit) == sorted(view["legal"])


def play_card(page: Any, card: str) -> None:
    """Clicks a card, in hand or on one's table, and waits for the table to move on."""
    last = state(page)["last"]
    page.locator(
        f'[data-testid="hand-card"][data-card="{card}"], button[data-testid="table-card"][data-card="{card}"]'
    ).click()
    wait_js(page, "n => window.__belote.last > n", last)


def bid(page: Any, choice: str) -> None:
    last = state(page)["last"]
    page.get_by_test_id(f"bid-{choice}").click()
    wait_js(page, "n => window.__belote.last > n", last)


def panel_columns(page: Any) -> list[str]:
    """The scores of the deal's panel, in the order of its columns."""
    heads = page.get_by_test_id("deal-sheet").locator("thead th[data-team]")
    return list(heads.evaluate_all("els => els.map(e => e.dataset.team)"))


def check_panel(page: Any, match: Match) -> None:
    """The panel of the deal just played shows the engine's outcome, points added and match score."""
    panel = page.get_by_test_id("score-panel")
    expect(panel).to_be_visible()
    result = match.deals[0].result
    assert result is not None
    names = match.rules.team_names
    expect(panel.get_by_test_id("outcome")).to_have_attribute("data-outcome", result.outcome)
    columns = panel_columns(page)
    assert sorted(columns) == sorted(names)
    added = panel.get_by_test_id("row-added").locator("td")
    score = panel.get_by_test_id("row-score").locator("td")
    for i, team in enumerate(columns):
        expect(added.nth(i)).to_have_text(f"+{result.points[names.index(team)]}")
        expect(score.nth(i)).to_have_text(str(match.score[names.index(team)]))
        expect(page.get_by_test_id(f"score-{team}")).to_have_text(str(match.score[names.index(team)]))


def start_solo(page: Any, url: str, variant: str) -> None:
    page.goto(url)
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.get_by_test_id("settings-more").locator("summary").click()  # the rules are one click away
    page.get_by_test_id(f"settings-variant-{variant}").click()
    page.get_by_test_id("settings-strength").select_option("easy")
    page.get_by_test_id("settings-speed").select_option("fast")
    page.get_by_test_id("settings-target").select_option("deals")
    page.get_by_test_id("settings-deals").fill("1")
    page.get_by_test_id("settings-start").click()
    expect(page.get_by_test_id("settings-dialog")).to_be_hidden()
    wait_js(
        page, "v => window.__belote.joined && window.__belote.variant === v && window.__belote.view !== null", variant
    )


def ready(page: Any) -> dict[str, Any]:
    wait_js(page, READY_JS, timeout=30_000)
    return state(page)


# ---------------------------------------------------------------------- Coinche
def test_a_coinche_deal_with_a_coinche_and_a_surcoinche(
    open_tab: OpenTab, server: tuple[str, Path], artifacts: Path
) -> None:
    url, db = server
    alice = open_tab(**DESKTOP)
    links = create_table(alice.page, url, "Alice", variant="coinche")
    wait_js(alice.page, "() => window.__belote.state.settings.variant === 'coinche'")
    alice.page.get_by_test_id("lobby-target").select_option("deals")
    alice.page.get_by_test_id("lobby-deals").fill("1")
    alice.page.get_by_test_id("lobby-deals").blur()
    wait_js(alice.page, "() => window.__belote.state.settings.deals === 1")
    tabs = {"S": alice}
    for name, seat in (("Bob", "N"), ("Cara", "E"), ("Dan", "W")):
        tab = open_tab(**DESKTOP)
        assert sit(tab.page, links["invite"], name, seat) == seat
        tabs[seat] = tab
    # The host's game reaches the guests' lobby: Coinche and its options.
    guest = tabs["E"].page
    expect(guest.get_by_test_id("lobby-variant-coinche").locator("input")).to_be_checked()
    expect(guest.get_by_test_id("lobby-coinche-max-bid")).to_be_visible()
    expect(guest.get_by_test_id("lobby-coinche-max-bid")).to_be_disabled()
    # One page in French: the same game in its words.
    tabs["W"].page.evaluate("() => localStorage.setItem('belote.settings', JSON.stringify({lang: 'fr'}))")
    tabs["W"].page.reload()
    alice.page.get_by_test_id("lobby-start").click()
    for tab in tabs.values():
        wait_js(tab.page, "() => window.__belote.status === 'playing' && window.__belote.view !== null")
        expect(tab.page.get_by_test_id("turned-card")).to_have_count(0)  # all eight cards dealt, none turned
        expect(tab.page.get_by_test_id("hand-card")).to_have_count(8)

    # The auction: 80 hearts, coinche, surcoinche, each clicked on the panel of the page to bid.
    said: list[tuple[str, str]] = []
    while True:
        seat = next_to_move(tabs)
        assert seat is not None
        page = tabs[seat].page
        view = state(page)["view"]
        if view["phase"] != "bidding":
            break
        panel = page.get_by_test_id("coinche-panel")
        expect(panel).to_be_visible()
        legal = set(view["legal"])
        if not said:
            # Only the legal levels are enabled; a trump mode bids at the level chosen.
            expect(page.get_by_test_id("bid-coinche")).to_be_disabled()
            expect(page.get_by_test_id("bid-surcoinche")).to_be_disabled()
            page.get_by_test_id("bid-level-90").click()
            expect(page.get_by_test_id("bid-level-90")).to_have_attribute("aria-pressed", "true")
            page.get_by_test_id("bid-level-80").click()
            assert "80H" in legal
            last = state(page)["last"]
            page.get_by_test_id("bid-mode-H").click()
            wait_js(page, "n => window.__belote.last > n", last)
            said.append((seat, "80H"))
            for tab in tabs.values():
                expect(tab.page.get_by_test_id("contract")).to_have_attribute("data-contract", "80H")
        elif len(said) == 1:
            assert "coinche" in legal
            expect(page.get_by_test_id("bid-level-80")).to_be_disabled()  # 80 is taken: 90 and up
            expect(page.get_by_test_id("bid-level-90")).to_be_enabled()
            bid(page, "coinche")
            said.append((seat, "coinche"))
            for tab in tabs.values():
                expect(tab.page.get_by_test_id("contract")).to_contain_text("coinché")
                expect(tab.page.get_by_test_id("contract")).to_have_attribute("data-multiplier", "2")
                expect(tab.page.get_by_test_id(f"bubble-{seat}")).to_contain_text("Coinche")
        else:
            assert legal == {"pass", "surcoinche"}, legal
            for level in ("90", "capot"):
                expect(page.get_by_test_id(f"bid-level-{level}")).to_be_disabled()
            expect(page.get_by_test_id("coinche-panel")).to_contain_text("coinché")
            bid(page, "surcoinche")
            said.append((seat, "surcoinche"))
    assert [b for _, b in said] == ["80H", "coinche", "surcoinche"]
    bidder = said[0][0]
    # The contract during play, on every page: 80 hearts surcoinché ×4, and who bid it.
    for seat, tab in tabs.items():
        contract = tab.page.get_by_test_id("contract")
        expect(contract).to_contain_text("surcoinché ×4")
        expect(contract).to_have_attribute("data-contract", "80H")
        expect(contract).to_have_attribute("data-multiplier", "4")
        expect(contract).to_have_attribute("data-taker", bidder)
        mine, theirs = ("votre annonce", "annoncé par") if seat == "W" else ("your bid", "bid by")
        expect(contract).to_contain_text(mine if seat == bidder else theirs)
    expect(tabs["W"].page.get_by_test_id("new-game")).to_be_hidden()

    plays = 0
    while (seat := next_to_move(tabs)) is not None:
        page = tabs[seat].page
        view = state(page)["view"]
        check_highlight(page, view)
        lit = [c for c, legal in shown_cards(page, '[data-testid="hand-card"]') if legal]
        play_card(page, lit[0])
        plays += 1
        if plays == 10:
            alice.page.screenshot(path=str(artifacts / "coinche-table.png"))
    assert plays == 32

    match = replay(db, state(alice.page)["table"])
    result = match.deals[0].result
    assert result is not None and result.contract is not None
    assert (result.contract.name, result.contract.multiplier) == ("80H", 4)
    for tab in tabs.values():
        check_panel(tab.page, match)
        shown = tab.page.get_by_test_id("panel-contract")
        expect(shown).to_have_attribute("data-contract", "80H")
        expect(shown).to_have_attribute("data-multiplier", "4")
        expect(shown).to_contain_text("surcoinché ×4")
        expect(tab.page.get_by_test_id("match-winner")).to_be_visible()
    word = "Made" if result.outcome == "made" else "Failed" if result.outcome == "dedans" else None
    if word:
        expect(alice.page.get_by_test_id("outcome")).to_have_text(word)
        expect(tabs["W"].page.get_by_test_id("outcome")).to_have_text({"Made": "Fait", "Failed": "Chuté"}[word])
    alice.page.wait_for_timeout(300)
    alice.page.screenshot(path=str(artifacts / "coinche-score.png"))
    for tab in tabs.values():
        assert not tab.unexpected_errors()


def test_coinche_bid_panel_words_and_the_lobby_of_each_game(open_tab: OpenTab, server: tuple[str, Path]) -> None:
    url, _ = server
    tab = open_tab(**PHONE)
    page = tab.page
    create_table(page, url, "Zoé", variant="two-handed")
    # Two seats in the lobby, the host's at the bottom; changing the game changes them.
    seats = page.get_by_test_id("lobby-seats").locator(".lobby-seat")
    expect(seats).to_have_count(2)
    assert state(page)["seat"] == "N"
    expect(page.get_by_test_id("lobby-seat-N")).to_have_class(re.compile(r"\bpos-S\b"))
    expect(page.get_by_test_id("lobby-seat-E")).to_have_class(re.compile(r"\bpos-N\b"))
    expect(page.get_by_test_id("lobby-declarations")).to_be_hidden()  # no declarations at two hands
    page.get_by_test_id("lobby-variant-three-handed").click()
    wait_js(page, "() => window.__belote.state.settings.variant === 'three-handed'")
    expect(seats).to_have_count(3)
    expect(page.get_by_test_id("lobby-seat-W")).to_have_count(0)
    expect(page.get_by_test_id("lobby-declarations")).to_be_visible()
    page.get_by_test_id("lobby-variant-coinche").click()
    wait_js(page, "() => window.__belote.state.settings.variant === 'coinche'")
    expect(page.get_by_test_id("lobby-seats").locator(".lobby-seat")).to_have_count(4)
    page.get_by_test_id("lobby-coinche-max-bid").select_option("180")
    page.get_by_test_id("lobby-surcoinche").select_option("3")
    page.get_by_test_id("lobby-generale").check()
    page.get_by_test_id("lobby-rounding").check()
    page.get_by_test_id("lobby-round-five").select_option("up")
    wait_js(
        page,
        """() => { const s = window.__belote.state.settings;
                   return s.coinche_max_bid === 180 && s.surcoinche === 3 && s.generale && s.round_five === 'up'; }""",
    )
    assert not tab.unexpected_errors()


def test_an_invitation_offers_the_game_and_its_free_seats(open_tab: OpenTab, server: tuple[str, Path]) -> None:
    url, _ = server
    host = open_tab(**DESKTOP).page
    links = create_table(host, url, "Ann", variant="three-handed")
    guest = open_tab(**PHONE).page
    guest.goto(links["invite"])
    expect(guest.get_by_test_id("sit-dialog")).to_be_visible()
    expect(guest.get_by_test_id("sit-help")).to_contain_text("Three players")
    free = [s for s in "NES" if s != state(host)["seat"]]
    wait_js(guest, """() => [...document.querySelectorAll('[data-testid="sit-seat"] option')].some(o => o.disabled)""")
    offered = guest.eval_on_selector_all(
        '[data-testid="sit-seat"] option', "os => os.filter(o => !o.disabled).map(o => o.value)"
    )
    assert offered == ["", *free]  # the first free seat, or one of the two the host left; never W
    guest.get_by_test_id("sit-name").fill("Bob")
    guest.get_by_test_id("sit-seat").select_option(free[-1])
    guest.get_by_test_id("sit-submit").click()
    expect(guest.get_by_test_id("lobby")).to_be_visible()
    wait_js(guest, f"() => window.__belote.seat === '{free[-1]}'")


# ---------------------------------------------------------------------- three hands
def test_a_three_handed_deal_against_bots(open_tab: OpenTab, server: tuple[str, Path], artifacts: Path) -> None:
    url, db = server
    tab = open_tab(**DESKTOP)
    page = tab.page
    start_solo(page, url, "three-handed")
    st = ready(page)
    assert st["seat"] == "S"
    # Three seats: you at the bottom, the next to play on the left, the other on the right; nobody on top.
    expect(page.locator(".felt .seat-S")).to_have_attribute("data-seat", "S")
    expect(page.locator(".felt .seat-W")).to_have_attribute("data-seat", "N")
    expect(page.locator(".felt .seat-E")).to_have_attribute("data-seat", "E")
    expect(page.locator(".felt .seat-N")).to_have_class(re.compile(r"\bvacant\b"))
    expect(page.get_by_test_id("seat-W")).to_have_count(0)
    for seat in "SNE":
        expect(page.get_by_test_id(f"score-{seat}")).to_have_text("0")
    expect(page.get_by_test_id("score-NS")).to_have_count(0)
    played = 0
    while True:
        st = ready(page)
        view = st["view"]
        if st["waiting"] == "continue" or view["match_over"]:
            break
        if view["phase"] == "bidding":
            expect(page.get_by_test_id("turned-card")).to_have_attribute("data-card", view["turned"])
            bid(page, next((b for b in view["legal"] if b != "pass"), "pass"))
            continue
        check_highlight(page, view)
        held = 8 - len(view["tricks"])
        for seat in "NE":
            done = any(s == seat for s, _ in view["trick"])
            expect(page.get_by_test_id(f"seat-{seat}").locator(".backs")).to_have_attribute(
                "data-count", str(held - done)
            )
        # The cards of the trick, or the last trick's three until the next card is led.
        on_table = len(view["trick"]) or (3 if view["tricks"] else 0)
        expect(page.get_by_test_id("trick").get_by_test_id("trick-card")).to_have_count(on_table)
        if played == 3:
            page.wait_for_timeout(300)
            page.screenshot(path=str(artifacts / "three-handed.png"))
        lit = [c for c, legal in shown_cards(page, '[data-testid="hand-card"]') if legal]
        play_card(page, lit[0])
        played += 1
    assert played == 8
    match = replay(db, st["table"])
    assert match.rules.variant == "three-handed"
    check_panel(page, match)
    assert panel_columns(page) == ["S", "N", "E"]  # one's own score first
    assert not tab.unexpected_errors()


@pytest.mark.parametrize(
    ("locale", "options", "words"),
    [
        ("en-US", DESKTOP, "with you against the taker this deal"),
        ("fr-FR", PHONE, "avec vous contre le preneur pour cette donne"),
    ],
    ids=["en", "fr"],
)
def test_at_three_hands_the_other_defender_is_with_you_against_the_taker(
    open_tab: OpenTab, server: tuple[str, Path], locale: str, options: dict[str, Any], words: str
) -> None:
    """South passes until a bot takes; the other defender's seat says why they are on South's side:
    against the taker, for this deal."""
    url, _db = server
    tab = open_tab(locale=locale, **options)
    page = tab.page
    start_solo(page, url, "three-handed")
    for _ in range(40):
        st = ready(page)
        view = st["view"]
        if view["phase"] == "play":
            break
        if st["waiting"] == "continue":  # everybody passed: the deal was thrown in
            page.get_by_test_id("continue").click()
            wait_js(page, "() => window.__belote.waiting !== 'continue'")
            continue
        bid(page, "pass")
    assert view["phase"] == "play" and view["taker"] != "S", view
    other = next(s for s in "NE" if s != view["taker"])
    expect(page.get_by_test_id(f"ally-{other}")).to_have_text(words)
    expect(page.get_by_test_id(f"ally-{view['taker']}")).to_have_count(0)
    assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- two hands
def test_a_two_handed_deal_table_cards_played_and_turned_up(
    open_tab: OpenTab, server: tuple[str, Path], artifacts: Path
) -> None:
    url, db = server
    tab = open_tab(**DESKTOP)
    page = tab.page
    start_solo(page, url, "two-handed")
    st = ready(page)
    me = st["seat"]
    other = "E" if me == "N" else "N"
    expect(page.locator(".felt .seat-S")).to_have_attribute("data-seat", me)
    expect(page.locator(".felt .seat-N")).to_have_attribute("data-seat", other)
    for place in "WE":
        expect(page.locator(f".felt .seat-{place}")).to_have_class(re.compile(r"\bvacant\b"))
    turned_up = False
    from_table = 0
    while True:
        st = ready(page)
        view = st["view"]
        if st["waiting"] == "continue" or view["match_over"]:
            break
        if view["phase"] == "bidding":
            bid(page, next((b for b in view["legal"] if b != "pass"), "pass"))
            continue
        check_highlight(page, view)
        # Each player's five piles, drawn as the view has them: a face-up card on a face-down one.
        for seat in (me, other):
            piles = page.get_by_test_id(f"piles-{seat}").locator(".pile")
            expect(piles).to_have_count(5)
            for i, (up, down) in enumerate(view["table"][seat]):
                pile = piles.nth(i)
                expect(pile).to_have_attribute("data-down", str(down))
                expect(pile.get_by_test_id("pile-back")).to_have_count(down)
                if up:
                    expect(pile.get_by_test_id("table-card")).to_have_attribute("data-card", up)
        if not view["tricks"]:
            assert sum(down for _, down in view["table"][me]) == 5
            expect(page.get_by_test_id("hand-card")).to_have_count(6)
        # A face-up table card with a card under it, when one may be played: tap it.
        mine = {up: (i, down) for i, (up, down) in enumerate(view["table"][me]) if up}
        choice = next((c for c in view["legal"] if c in mine and mine[c][1] == 1), None)
        if choice is not None and not turned_up:
            pile = mine[choice][0]
            tricks = len(view["tricks"])
            page.locator(f'button[data-testid="table-card"][data-card="{choice}"]').click()
            wait_js(
                page, "n => window.__belote.view.tricks.length > n || window.__belote.waiting === 'continue'", tricks
            )
            after = state(page)["view"]
            up, down = after["table"][me][pile]
            assert up is not None and up != choice and down == 0, after["table"][me][pile]
            shown = page.get_by_test_id(f"piles-{me}").locator(".pile").nth(pile).get_by_test_id("table-card")
            expect(shown).to_have_attribute("data-card", up)
            expect(page.get_by_test_id("log")).to_contain_text("is turned up")
            page.wait_for_timeout(500)  # the card turning over
            page.screenshot(path=str(artifacts / "two-handed.png"))
            turned_up = True
            from_table += 1
            continue
        lit = [
            c for c, legal in shown_cards(page, '[data-testid="hand-card"], button[data-testid="table-card"]') if legal
        ]
        if any(c in mine for c in lit):
            from_table += 1
        play_card(page, lit[0])
    assert turned_up and from_table >= 1
    match = replay(db, st["table"])
    assert match.rules.variant == "two-handed" and len(match.deals[0].tricks) == 16
    check_panel(page, match)
    assert panel_columns(page) == [me, other]
    assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- Play online, and the next match
def test_play_online_seats_a_person_at_the_game_chosen(open_tab: OpenTab, server: tuple[str, Path]) -> None:
    url, _ = server
    tab = open_tab(**DESKTOP)
    page = tab.page
    page.goto(url)
    page.get_by_test_id("mode-online").click()
    page.get_by_test_id("online-variant-two-handed").click()
    page.get_by_test_id("online-name").fill("Zoé")
    page.get_by_test_id("online-go").click()
    expect(page.get_by_test_id("queue-status")).to_contain_text("Two players")
    wait_js(page, "() => window.__belote.kind === 'online' && window.__belote.view !== null", timeout=20_000)
    found = state(page)
    assert found["view"]["rules"]["variant"] == "two-handed"
    assert sorted(found["players"]) == ["E", "N"]
    other = "E" if found["seat"] == "N" else "N"
    expect(page.locator(".felt .seat-S")).to_have_attribute("data-seat", found["seat"])
    expect(page.locator(".felt .seat-N")).to_have_attribute("data-seat", other)
    expect(page.get_by_test_id(f"bot-{other}")).to_be_visible()
    assert page.evaluate("localStorage.getItem('belote.online')") == "two-handed"  # chosen again next time
    assert not tab.unexpected_errors()


def test_the_host_plays_the_next_match_at_another_game(open_tab: OpenTab, server: tuple[str, Path]) -> None:
    url, _ = server
    tab = open_tab(**DESKTOP)
    page = tab.page
    create_table(page, url, "Alice", variant="three-handed")
    page.get_by_test_id("lobby-strength").select_option("easy")
    page.get_by_test_id("lobby-target").select_option("deals")
    page.get_by_test_id("lobby-deals").fill("1")
    page.get_by_test_id("lobby-deals").blur()
    wait_js(page, "() => { const s = window.__belote.state.settings; return s.deals === 1 && s.strength === 'easy'; }")
    page.get_by_test_id("lobby-start").click()
    wait_js(page, "() => window.__belote.status === 'playing' && window.__belote.view !== null")
    while True:
        st = ready(page)
        view = st["view"]
        if view["match_over"]:
            break
        if st["waiting"] == "continue":
            page.get_by_test_id("continue").click()
            continue
        if view["phase"] == "bidding":
            bid(page, next((b for b in view["legal"] if b != "pass"), "pass"))
        else:
            play_card(page, next(c for c, legal in shown_cards(page, '[data-testid="hand-card"]') if legal))
    expect(page.get_by_test_id("match-winner")).to_be_visible()
    page.get_by_test_id("rematch-variant").select_option("coinche")
    page.get_by_test_id("panel-rematch").click()
    wait_js(page, "() => window.__belote.variant === 'coinche' && !window.__belote.view.match_over")
    for seat in "NESW":
        expect(page.get_by_test_id(f"seat-{seat}")).to_have_count(1)
    expect(page.get_by_test_id("score-NS")).to_have_text("0")
    assert state(page)["seat"] == "S"
    assert not tab.unexpected_errors()


# ---------------------------------------------------------------------- Coinche's prompt
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_coinche_prompt_names_only_what_the_player_may_do(
    open_tab: OpenTab, server: tuple[str, Path], lang: str
) -> None:
    url, _db = server
    tab = open_tab(**DESKTOP, locale="fr-FR" if lang == "fr" else "en-GB")
    page = tab.page
    start_solo(page, url, "coinche")
    wait_js(
        page, "() => window.__belote.view.phase === 'bidding' && window.__belote.view.to_move === window.__belote.seat"
    )
    legal, shown = page.evaluate(
        "() => [window.__belote.view.legal, document.querySelector('[data-testid=\"turn\"]').textContent]"
    )
    # The deal is the table's own: the player may be first to speak (bid or pass), speak after an
    # opponent's bid (bid, pass or coinche) or after an opponent coinched the partner's bid (surcoinche or pass).
    words = {
        "en": ("Your turn: surcoinche or pass", "Your turn: bid, pass or coinche", "Your turn: bid or pass"),
        "fr": (
            "À vous : surcoinchez ou passez",
            "À vous : annoncez, passez ou coinchez",
            "À vous : annoncez ou passez",
        ),
    }[lang]
    expected = words[0] if "surcoinche" in legal else words[1] if "coinche" in legal else words[2]
    assert shown.strip() == expected
