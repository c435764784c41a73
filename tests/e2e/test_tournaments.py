"""Duplicate tournaments in real browsers (issue 27, docs/tournaments.md), through the pages only.

Two people, each in a browser of their own, play the same daily tournament one after the other:
Ana plays its boards, then Ben plays them. Before Ben plays a board, nothing of it shows on his page
(its tile says "to play", its traveller's address says so, and the page never asks for it); once he
has played it, its traveller shows Ana's line beside his own and the bots'. Both are in the ranking,
with the percentages worked out here by hand from what the server keeps (each one's traveller, GET
routes). In English on a desktop and in French on a phone. Then a private tournament by its link: a
person with an identity creates it from the tournaments' page, another opens the link on a phone,
plays its boards and reviews one (their deal and the bots' line), and both see the ranking; the host's
profile lists the daily tournament it played. axe-core finds no serious violation on either page.

The server is the whole app in a thread of this process, its tournaments made quick for a test: three
boards a day, the daily bots the heuristic ones, and one bots' result to fill a board's field (the bots'
own line, which the traveller shows), so that every number of the ranking can be worked out from the
travellers alone. Its bots act at once (pace 0).
"""

from __future__ import annotations

import json
import re
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axe import assert_no_serious
from online_fixtures import app_server
from table_fixtures import DESKTOP, PHONE

from belote.server import tournaments as tournaments_module

BOARDS = 3  # a daily tournament's boards in these tests
PRIVATE_BOARDS = 2
GAME = "three-handed"  # short deals, and a review analysed in a moment
READY_JS = """() => { const b = window.__belote; const v = b && b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.match_over || v.to_move === b.seat); }"""
BOARD_JS = "() => { const b = window.__belote; return !!b && b.kind === 'tournament' && b.joined && b.view !== null; }"
STATE_JS = "() => ({view: window.__belote.view, waiting: window.__belote.waiting, last: window.__belote.last})"
WORDS = {
    "en": {
        "play": "Play board {n}",
        "back": "Back to the tournament",
        "hidden": "once you have played it",
        "compared": "1 other person and 1 result of the bots",
        "alone": "nobody else yet",
        "private": "Private tournament",
        "you": "You",
        "bots": "Bots",
        "closes": "closes in",
    },
    "fr": {
        "play": "Jouer la donne {n}",
        "back": "Retour au tournoi",
        "hidden": "une fois que vous l'avez jouée",
        "compared": "1 autre personne et 1 résultat des robots",
        "alone": "personne d'autre pour l'instant",
        "private": "Tournoi privé",
        "you": "Vous",
        "bots": "Robots",
        "closes": "se termine dans",
    },
}


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The whole app, with quick tournaments: BOARDS boards a day, heuristic bots, one bots' result a board."""
    monkeypatch.setattr(tournaments_module, "FIELD", 1)
    with app_server(
        tmp_path / "tournaments.sqlite3", pace=0, think_workers=0, daily_boards=BOARDS, daily_bots="easy"
    ) as url:
        yield url


class Person:
    """One person: a browser context of their own, its language and device, and every address its page asked."""

    def __init__(self, tab: Any, lang: str, touch: bool, name: str, bold: bool = True) -> None:
        self.tab = tab
        self.bold = bold  # takes at the first chance and leads with the first card; else passes, and the last card
        self.page = tab.page
        self.lang = lang
        self.touch = touch
        self.name = name
        self.words = WORDS[lang]
        self.asked: list[str] = []
        self.page.on("request", lambda r: self.asked.append(r.url))

    def press(self, target: Any) -> None:
        """A tap on a phone, a click on a desktop."""
        target.tap() if self.touch else target.click()

    def press_id(self, test_id: str) -> None:
        self.press(self.page.get_by_test_id(test_id))

    def auth(self) -> dict[str, str]:
        """Who this person is to the server: their identity's secret, else their guest's token."""
        kept = self.page.evaluate(
            "() => ({id: localStorage.getItem('belote.identity'), guest: localStorage.getItem('belote.guest')})"
        )
        if kept["id"]:
            return {"Authorization": f"Bearer {json.loads(kept['id'])['secret']}"}
        return {"Authorization": f"Guest {kept['guest']}"}


def get_json(url: str, headers: dict[str, str]) -> Any:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as answer:
        return json.loads(answer.read())


def person(open_tab: Any, lang: str, device: dict[str, Any], name: str, bold: bool = True) -> Person:
    locale = "fr-FR" if lang == "fr" else "en-GB"
    return Person(open_tab(**device, locale=locale), lang, bool(device.get("has_touch")), name, bold)


def play_the_deal(p: Person) -> None:
    """At the board's table, until the deal is over: a bold player takes at the first chance and plays the
    first highlighted card; the other passes and plays the last."""
    page = p.page
    while True:
        page.wait_for_function(READY_JS, timeout=30_000)
        before = page.evaluate(STATE_JS)
        view = before["view"]
        if view["match_over"]:
            return
        if before["waiting"] == "continue":
            p.press_id("continue")
        elif view["phase"] == "bidding":
            taking = [b for b in view["legal"] if b != "pass"]
            p.press_id(f"bid-{taking[0] if p.bold and taking else 'pass' if 'pass' in view['legal'] else taking[0]}")
        else:
            lit = page.eval_on_selector_all('[data-testid="hand-card"].legal', "els => els.map(e => e.dataset.card)")
            assert sorted(lit) == sorted(view["legal"]), "the highlighted cards are the legal ones"
            card = lit[0] if p.bold else lit[-1]
            p.press(page.locator(f'[data-testid="hand-card"][data-card="{card}"]'))
        page.wait_for_function("n => window.__belote.last > n", arg=before["last"])


def play_board(p: Person, board: int, asks_name: bool) -> None:
    """From the tournament's page: Play board n (a guest gives a name the first time), the deal at its
    table, then Back to the tournament, where the board's traveller opens."""
    page = p.page
    button = page.get_by_test_id("play-next")
    expect(button).to_have_text(p.words["play"].format(n=board))
    p.press(button)
    if asks_name:
        form = page.get_by_test_id("guest-form")
        expect(form).to_be_visible()
        page.get_by_test_id("guest-name").fill(p.name)
        p.press_id("guest-go")
    page.wait_for_function(BOARD_JS, timeout=20_000)
    expect(page.get_by_test_id("new-game")).to_be_hidden()
    expect(page.get_by_test_id("hint-button")).to_be_hidden()
    expect(page.get_by_test_id("tournament-link")).to_be_visible()
    play_the_deal(p)
    back = page.get_by_test_id("back-to-tournament")
    expect(back).to_have_text(p.words["back"])
    p.press(back)
    expect(page.get_by_test_id("traveller-title")).to_contain_text(str(board), timeout=20_000)
    expect(page.get_by_test_id("traveller-table")).to_be_visible(timeout=20_000)
    expect(page.locator(f'[data-testid="tile"][data-board="{board}"]')).to_have_attribute("data-state", "played")


def matchpoints(score: float, others: list[float]) -> float:
    """The share of ``others`` that ``score`` beats, a tie counting half, in per cent."""
    below = sum(1 for o in others if o < score)
    ties = sum(1 for o in others if o == score)
    return 100.0 * (below + ties / 2) / len(others)


def pct(value: float, lang: str, digits: int = 2) -> str:
    """A percentage as the pages write it: "62.50%", "62,50 %"."""
    text = f"{value:.{digits}f}"
    return f"{text.replace('.', ',')}\u202f%" if lang == "fr" else f"{text}%"


def pct_short(value: float, lang: str) -> str:
    """A percentage with at most one decimal, as the tiles and travellers write it: "62.5%", "50 %"."""
    text = f"{value:.1f}".removesuffix(".0")
    return f"{text.replace('.', ',')}\u202f%" if lang == "fr" else f"{text}%"


@pytest.mark.parametrize(("lang", "device"), [("en", DESKTOP), ("fr", PHONE)], ids=["en-desktop", "fr-phone"])
def test_two_people_play_the_same_daily_tournament_at_different_moments(
    site: str, open_tab: Any, lang: str, device: dict[str, Any], artifacts: Path
) -> None:
    ana = person(open_tab, lang, device, "Ana")
    ben = person(open_tab, lang, device, "Ben", bold=False)
    size = "phone" if ana.touch else "desktop"

    # Ana finds today's tournament of the game on the tournaments' page, from the home screen.
    ana.page.goto(site)
    expect(ana.page.get_by_test_id("settings-dialog")).to_be_visible()
    ana.press_id("tournaments-link")
    daily = ana.page.locator(f'[data-testid="daily"][data-game="{GAME}"]')
    expect(daily).to_be_visible()
    expect(daily.get_by_test_id("when")).to_contain_text(ana.words["closes"])
    tid = str(daily.get_attribute("data-tournament"))
    assert tid.startswith(f"daily-{GAME}-")
    ana.press(daily.get_by_test_id("daily-play"))
    expect(ana.page.get_by_test_id("tiles").get_by_test_id("tile")).to_have_count(BOARDS)

    # Ana plays every board: each traveller shows her line and the bots' line, compared with nobody else yet.
    for board in range(1, BOARDS + 1):
        play_board(ana, board, asks_name=board == 1)
        expect(ana.page.get_by_test_id("compared")).to_contain_text(ana.words["alone"])
        rows = ana.page.get_by_test_id("line")
        expect(ana.page.locator('[data-testid="line"][data-kind="bots"]')).to_have_count(1)
        expect(ana.page.locator('[data-testid="line"][data-mine="true"]')).to_have_count(1)
        expect(rows).to_have_count(2)
        expect(ana.page.locator('[data-testid="line"][data-mine="true"]')).to_contain_text("Ana")
    expect(ana.page.get_by_test_id("play-next")).to_be_hidden()

    # Ben comes later. Before he plays a board, nothing of it shows: its tile says "to play" (no
    # button), its traveller's address says it opens once played, and his page never asks for it.
    ben.page.goto(f"{site}/tournaments")
    ben.press(ben.page.locator(f'[data-testid="daily"][data-game="{GAME}"]').get_by_test_id("daily-play"))
    expect(ben.page.get_by_test_id("tiles").get_by_test_id("tile")).to_have_count(BOARDS)
    for board in range(1, BOARDS + 1):
        tile = ben.page.locator(f'[data-testid="tile"][data-board="{board}"]')
        expect(tile).to_have_attribute("data-state", "to_play")
        assert tile.evaluate("e => e.tagName") == "SPAN"
        ben.page.goto(f"{site}/tournaments/{tid}?board={board}")
        error = ben.page.get_by_test_id("traveller-error")
        expect(error).to_contain_text(ben.words["hidden"])
        expect(ben.page.get_by_test_id("traveller-table")).to_have_count(0)
        expect(ben.page.get_by_test_id("traveller")).not_to_contain_text("Ana")
        asked = [u for u in ben.asked if f"/boards/{board}/traveller" in u or f"/boards/{board}/records" in u]
        assert asked == [], f"the page asked for board {board}'s results before it was played: {asked}"
        play_board(ben, board, asks_name=board == 1)
        # Once played: Ana's result is in its traveller, beside his and the bots'.
        expect(ben.page.get_by_test_id("compared")).to_contain_text(ben.words["compared"])
        expect(ben.page.get_by_test_id("traveller-table")).to_contain_text("Ana")
        expect(ben.page.locator('[data-testid="line"][data-mine="true"]')).to_contain_text("Ben")
        expect(ben.page.locator('[data-testid="line"][data-kind="bots"]')).to_have_count(1)
        # Later boards stay hidden still.
        for later in range(board + 1, BOARDS + 1):
            expect(ben.page.locator(f'[data-testid="tile"][data-board="{later}"]')).to_have_attribute(
                "data-state", "to_play"
            )
        assert not [u for u in ben.asked if any(f"/boards/{k}/traveller" in u for k in range(board + 1, BOARDS + 1))]

    # The percentages by hand, from what the server keeps: each one's score on each board (their
    # own traveller), compared with the other's and the bots' line (the field's one bots' result).
    scores: dict[str, list[float]] = {"Ana": [], "Ben": []}
    bots: list[float] = []
    for board in range(1, BOARDS + 1):
        for who in (ana, ben):
            tr = get_json(f"{site}/api/tournaments/{tid}/boards/{board}/traveller", who.auth())
            assert tr["results"] == 2 and tr["compared"] == {"people": 1, "bots": 1}
            scores[who.name].append(float(tr["mine"]["score"]))
        bots.append(float(tr["bots"]["score"]))
    expected = {}
    for name, other in (("Ana", "Ben"), ("Ben", "Ana")):
        per_board = [matchpoints(scores[name][k], [scores[other][k], bots[k]]) for k in range(BOARDS)]
        expected[name] = round(sum(per_board) / BOARDS, 2)
    # Ben's last traveller says the same of his last board.
    last = matchpoints(scores["Ben"][-1], [scores["Ana"][-1], bots[-1]])
    expect(ben.page.get_by_test_id("your-percent")).to_contain_text(pct_short(last, lang))

    # Both in the ranking (remade every few seconds: the page asks again until it counts Ben's last board).
    for who in (ben, ana):
        if who is ana:
            ana.page.goto(f"{site}/tournaments/{tid}")
        full = who.page.locator(f'[data-testid="ranking-row"][data-played="{BOARDS}"]')
        expect(full).to_have_count(2, timeout=40_000)
        for name in ("Ana", "Ben"):
            row = who.page.locator('[data-testid="ranking-row"]', has_text=name)
            expect(row.get_by_test_id("ranking-percent")).to_have_text(pct(expected[name], lang))
            assert float(str(row.get_attribute("data-percent"))) == expected[name]
        mine = who.page.locator('[data-testid="ranking-row"].mine')
        expect(mine).to_have_count(1)
        expect(mine).to_contain_text(who.name)
        if expected["Ana"] != expected["Ben"]:  # best first
            best = max(expected, key=lambda n: expected[n])
            expect(who.page.get_by_test_id("ranking-row").first).to_contain_text(best)

    # The traveller of a board, opened from its tile, and axe-core on the page.
    ben.press(ben.page.locator('[data-testid="tile"][data-board="1"]'))
    expect(ben.page.get_by_test_id("traveller-title")).to_contain_text("1")
    expect(ben.page.get_by_test_id("traveller-table")).to_contain_text("Ana")
    assert_no_serious(ben.page, f"a tournament's page with a traveller ({lang}, {size})")
    ben.page.screenshot(path=str(artifacts / f"tournament-{lang}-{size}.png"), full_page=True)

    # The tournaments' page says what each one did: every board played, and the score so far.
    ben.press_id("tournaments-link")
    daily = ben.page.locator(f'[data-testid="daily"][data-game="{GAME}"]')
    expect(daily.get_by_test_id("daily-mine")).to_contain_text(f"{BOARDS}")
    assert_no_serious(ben.page, f"the tournaments' page ({lang}, {size})")
    ben.page.screenshot(path=str(artifacts / f"tournaments-{lang}-{size}.png"), full_page=True)
    for who in (ana, ben):
        assert who.tab.unexpected_errors() == []


def first_visit(p: Person, site: str) -> str:
    """The home screen's offer of a name, taken: the identity's id (its profile's address)."""
    page = p.page
    page.goto(site)
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.get_by_test_id("who-name").fill(p.name)
    p.press_id("who-create")
    me = page.get_by_test_id("me-link")
    expect(me).to_contain_text(re.compile(rf"^{re.escape(p.name)}#\d{{4}}$"))
    return str(me.get_attribute("href")).rsplit("/", 1)[-1]


def test_a_private_tournament_by_its_link_on_a_phone_in_french(site: str, open_tab: Any, artifacts: Path) -> None:
    lea = person(open_tab, "en", DESKTOP, "Léa")
    zoe = person(open_tab, "fr", PHONE, "Zoé")

    # Without an identity, the form says how to get one; Léa picks a name on the home screen first.
    lea.page.goto(f"{site}/tournaments")
    expect(lea.page.get_by_test_id("create-need-name")).to_be_visible()
    expect(lea.page.get_by_test_id("create-form")).to_be_hidden()
    lea_id = first_visit(lea, site)
    lea.press_id("tournaments-link")
    form = lea.page.get_by_test_id("create-form")
    expect(form).to_be_visible()
    lea.page.get_by_test_id("create-name").fill("Club du jeudi")
    lea.page.get_by_test_id("create-game").select_option(GAME)
    lea.page.get_by_test_id("create-strength").select_option("easy")
    lea.page.get_by_test_id("create-boards").fill(str(PRIVATE_BOARDS))
    assert_no_serious(lea.page, "the tournaments' page with the form (en, desktop)")
    lea.press_id("create-go")
    link = lea.page.get_by_test_id("created-link")
    expect(link).to_have_value(re.compile(r"/tournaments/[\w-]+\?invite=[\w-]+$"))
    url = link.input_value()
    tid = url.split("/tournaments/")[1].split("?")[0]
    kept = lea.page.locator(f'[data-testid="kept-item"][data-tournament="{tid}"]')
    expect(kept).to_contain_text("Club du jeudi")

    # Without its code, the tournament is nobody's to see.
    zoe.page.goto(f"{site}/tournaments/{tid}")
    expect(zoe.page.get_by_test_id("t-error")).to_be_visible()
    expect(zoe.page.get_by_test_id("t-head")).to_be_hidden()

    # Zoé opens the link on her phone: the tournament, in French, its link to share; she plays its boards.
    zoe.page.goto(url)
    expect(zoe.page.get_by_test_id("t-name")).to_have_text("Club du jeudi")
    expect(zoe.page.get_by_test_id("t-kind")).to_have_text(zoe.words["private"])
    expect(zoe.page.get_by_test_id("share-link")).to_have_value(url)
    for board in range(1, PRIVATE_BOARDS + 1):
        play_board(zoe, board, asks_name=board == 1)
        expect(zoe.page.get_by_test_id("compared")).to_contain_text(zoe.words["alone"])
        expect(zoe.page.locator('[data-testid="line"][data-mine="true"]')).to_contain_text("Zoé")
    assert "invite=" in zoe.page.url
    expect(zoe.page.locator('[data-testid="ranking-row"].mine')).to_contain_text("Zoé", timeout=40_000)
    expect(zoe.page.locator(f'[data-testid="ranking-row"][data-played="{PRIVATE_BOARDS}"]')).to_have_count(
        1, timeout=40_000
    )
    assert_no_serious(zoe.page, "a private tournament's page with a traveller (fr, phone)")
    zoe.page.screenshot(path=str(artifacts / "tournament-private-fr-phone.png"), full_page=True)

    # The board's review: her deal and the bots' line, You and Bots.
    zoe.press_id("review-link")
    expect(zoe.page.get_by_test_id("deal-1")).to_have_text(zoe.words["you"])
    expect(zoe.page.get_by_test_id("deal-2")).to_have_text(zoe.words["bots"])
    zoe.page.wait_for_function(
        "() => window.__review && window.__review.analysis !== null && !window.__review.loading", timeout=60_000
    )
    expect(zoe.page.get_by_test_id("headline")).to_contain_text("Donne")
    zoe.press_id("deal-2")
    zoe.page.wait_for_function(
        "() => window.__review.index === 1 && window.__review.analysis !== null && !window.__review.loading",
        timeout=60_000,
    )
    expect(zoe.page.get_by_test_id("back")).to_have_attribute("href", re.compile(rf"/tournaments/{tid}\?invite="))

    # Her tournaments' page keeps the private one she opened from its link.
    zoe.page.goto(f"{site}/tournaments")
    expect(zoe.page.locator(f'[data-testid="kept-item"][data-tournament="{tid}"]')).to_contain_text("Club du jeudi")

    # Léa, its host, sees Zoé in its ranking.
    lea.press(lea.page.get_by_test_id("created-open"))
    expect(lea.page.locator('[data-testid="ranking-row"]', has_text="Zoé")).to_have_attribute(
        "data-played", str(PRIVATE_BOARDS), timeout=40_000
    )
    expect(lea.page.get_by_test_id("share-link")).to_have_value(url)

    # Léa plays a board of the daily tournament with her identity: her profile lists it.
    lea.page.goto(f"{site}/tournaments")
    lea.press(lea.page.locator(f'[data-testid="daily"][data-game="{GAME}"]').get_by_test_id("daily-play"))
    play_board(lea, 1, asks_name=False)
    lea.page.goto(f"{site}/players/{lea_id}")
    past = lea.page.get_by_test_id("tournament-past")
    expect(past).to_have_count(1, timeout=20_000)
    expect(past).to_contain_text(f"1/{BOARDS}")
    assert_no_serious(lea.page, "a profile with its tournaments (en, desktop)")
    assert lea.tab.unexpected_errors() == []
    assert zoe.tab.unexpected_errors("status of 404") == []  # the tournament asked without its code


def test_a_name_picked_in_another_tab_reaches_the_tournaments_page_without_a_reload(site: str, open_tab: Any) -> None:
    """The tournaments page, open without an identity, offers to pick a name; picked on the home
    page in a second tab of the same browser, it reaches the first tab at once (the storage's event:
    also how a page that read the storage before the last page's write was committed catches up)."""
    lea = person(open_tab, "en", DESKTOP, "Léa")
    lea.page.goto(f"{site}/tournaments")
    expect(lea.page.get_by_test_id("create-need-name")).to_be_visible()
    expect(lea.page.get_by_test_id("create-form")).to_be_hidden()
    other = Person(type(lea.tab)(lea.page.context.new_page()), "en", False, "Léa")
    first_visit(other, site)
    expect(lea.page.get_by_test_id("create-form")).to_be_visible()
    expect(lea.page.get_by_test_id("create-need-name")).to_be_hidden()
