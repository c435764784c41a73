"""Players who come back (docs/players.md), in real browsers and through the pages only.

Two people who never met, each in a browser of their own, pick a name on their first visit; they
befriend each other, one by the other's handle, the other by a friend link, and see each other
online. One invites the other from the lobby of a private table: the invitation shows at once on the
page the other has open elsewhere in the site, and its Join seats them. Then both play a rated match
of the three-handed game through Play online, a bot in the third seat, by tapping highlighted cards;
and each one's profile, reached from the match's end, and the leaderboard show it: the rating moved,
the match, both players on the board. In English on a desktop and in French on a phone, with
axe-core finding no serious violation in the friends panel, the invitation, the profile and the board.

The queue's clock is the test's (``QueueClock``): the bot comes once both people wait, however slow
the machine. The server's online matches are one deal long (``queue_deals``), and its tables' seed is
the test's: the deal, the bot's play and so the result are the same at every run.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axe import assert_no_serious
from online_fixtures import QUEUE_WAIT, QueueClock, app_server, wait_js
from table_fixtures import DESKTOP, PHONE

from netplay import get

# ``open_tab`` (tests/e2e/conftest.py) gives a Tab: ``.page`` and ``.errors``, what the console said.
Tab = Any
GAME = "three-handed"  # each for themselves: the two people on different sides, a match that rates both
SEED = 1  # the tables' seed: a deal whose result moves both ratings, neither person tied with the other
SEATED_JS = "() => window.__belote.kind === 'online' && window.__belote.view !== null"
READY_JS = """() => { const b = window.__belote; const v = b && b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.match_over || v.to_move === b.seat); }"""
ONLINE_JS = "() => !!window.__presence && window.__presence.said"  # the page's own socket said hello
STATE_JS = """() => { const b = window.__belote;
  return {view: b.view, waiting: b.waiting, last: b.last, seat: b.seat, connected: b.connected}; }"""
WORDS = {
    "en": {
        "asked": "{handle} added. You are friends once they add you too.",
        "friends": "You and {handle} are friends now.",
        "online": "online",
        "invites": "invites you",
        "provisional": "provisional",
        "you": "you",
    },
    "fr": {
        "asked": "{handle} ajouté. Vous êtes amis dès qu'il vous ajoute aussi.",
        "friends": "Vous êtes maintenant amis avec {handle}.",
        "online": "en ligne",
        "invites": "vous invite",
        "provisional": "provisoire",
        "you": "vous",
    },
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole app: its bots act at once (thinking in threads), its online matches are one deal."""
    db = tmp_path_factory.mktemp("players") / "players.sqlite3"
    with app_server(db, pace=0, think_workers=0, queue_deals=1) as url:
        yield url


class Person:
    """One person in a browser of their own; a tap on a phone, a click on a desktop."""

    def __init__(self, tab: Tab, touch: bool) -> None:
        self.tab = tab
        self.page = tab.page
        self.touch = touch
        self.handle = ""  # Name#1234, once picked
        self.id = ""

    def press(self, target: Any) -> None:
        target.tap() if self.touch else target.click()

    def press_id(self, test_id: str) -> None:
        self.press(self.page.get_by_test_id(test_id))


def first_visit(person: Person, site: str, name: str) -> None:
    """The home screen's offer of a name, taken: its corner then shows the handle, linked to the profile."""
    page = person.page
    page.goto(site)
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.get_by_test_id("who-name").fill(name)
    person.press_id("who-create")
    me = page.get_by_test_id("me-link")
    expect(me).to_have_text(re.compile(rf"^{re.escape(name)}#\d{{4}}$"))
    person.handle = me.inner_text()
    person.id = str(me.get_attribute("href")).rsplit("/", 1)[-1]


def open_friends(person: Person) -> None:
    person.press_id("friends-open")
    expect(person.page.get_by_test_id("friends-dialog")).to_be_visible()


def close_friends(person: Person) -> None:
    person.press_id("friends-close")
    expect(person.page.get_by_test_id("friends-dialog")).to_be_hidden()


def friend_row(person: Person, other: Person) -> Any:
    """``other`` in ``person``'s list of friends (the Friends panel)."""
    return person.page.get_by_test_id("friends-list").locator(f'[data-testid="person"][data-player="{other.id}"]')


def act(person: Person) -> None:
    """This page's move, as a person makes it: Continue after a deal's score, a bid (taking at the
    first chance), or a tap on a highlighted card (the highlighted cards are the legal ones).

    What to do is read from one snapshot of the page: the match may end, or a deal's score be
    shown, between two reads (a bot's last card), and a move is chosen only from a page that
    asks for it."""
    page = person.page
    before = page.evaluate(STATE_JS)
    view = before["view"]
    if not before["connected"] or view["match_over"]:
        return
    if before["waiting"] == "continue":
        person.press_id("continue")
        wait_js(page, "() => window.__belote.waiting !== 'continue'")
        return
    if view["to_move"] != before["seat"]:
        return
    assert view["legal"], "the seat to move has a legal action"
    if view["phase"] == "bidding":
        person.press_id(f"bid-{next((b for b in view['legal'] if b != 'pass'), 'pass')}")
    else:
        shown = page.eval_on_selector_all(
            '[data-testid="hand-card"]', "els => els.map(e => [e.dataset.card, e.classList.contains('legal')])"
        )
        lit = [card for card, legal in shown if legal]
        assert sorted(lit) == sorted(view["legal"]), "the highlighted cards are the legal ones"
        person.press(page.locator(f'[data-testid="hand-card"][data-card="{lit[0]}"]'))
    wait_js(page, "n => window.__belote.last > n", before["last"])


def play_to_the_end(people: list[Person], timeout: float = 120.0) -> None:
    """Each page acts when it may (the other waits for it, or for the bot), until both show the match over."""
    deadline = time.monotonic() + timeout
    while True:
        over = [p.page.evaluate("() => window.__belote.view.match_over") for p in people]
        if all(over):
            return
        ready = [p for p, done in zip(people, over, strict=True) if not done and p.page.evaluate(READY_JS)]
        for person in ready:
            act(person)
        if not ready:
            assert time.monotonic() < deadline, "no page may act, and the match is not over"
            time.sleep(0.05)


def digits(text: str) -> str:
    """The digits of a number as a page writes it ("1,090", "1\u202f090")."""
    return re.sub(r"\D", "", text)


def signed(n: int) -> str:
    """A rating's change as the profile writes it: "+90", "\u2212110" (a minus sign)."""
    return f"+{n}" if n > 0 else f"\u2212{-n}"


@pytest.mark.parametrize(("lang", "device"), [("en", DESKTOP), ("fr", PHONE)], ids=["en-desktop", "fr-phone"])
def test_two_people_befriend_invite_and_play_a_rated_match_that_their_profiles_and_the_board_show(
    site: str,
    open_tab: Any,
    lang: str,
    device: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    artifacts: Path,
) -> None:
    clock = QueueClock()
    monkeypatch.setattr("belote.server.matchmaking.time", clock)
    # The tables' seed, in the manager alone: the module ``secrets`` itself also draws identities' tags.
    monkeypatch.setattr("belote.server.manager.secrets", SimpleNamespace(randbelow=lambda n: SEED))
    touch = bool(device.get("has_touch"))
    size = "phone" if touch else "desktop"
    locale = "fr-FR" if lang == "fr" else "en-GB"
    lea, tom = (Person(open_tab(**device, locale=locale), touch) for _ in range(2))
    words = WORDS[lang]

    # First visits: each picks a name, made unique by its tag.
    first_visit(lea, site, "Léa")
    first_visit(tom, site, "Tom")

    # Léa adds Tom by the handle he told her; he opens her friend link and says yes.
    open_friends(lea)
    lea.page.get_by_test_id("friend-handle").fill(tom.handle)
    lea.press_id("friend-add")
    expect(lea.page.get_by_test_id("friends-note")).to_have_text(words["asked"].format(handle=tom.handle))
    expect(lea.page.get_by_test_id("friends-asked")).to_contain_text(tom.handle)
    link = lea.page.get_by_test_id("friend-link").input_value()
    close_friends(lea)
    tom.page.goto(link)
    expect(tom.page.get_by_test_id("confirm-text")).to_contain_text(lea.handle)
    tom.press_id("confirm-yes")
    expect(tom.page.get_by_test_id("friends-dialog")).to_be_visible()
    expect(tom.page.get_by_test_id("friends-note")).to_have_text(words["friends"].format(handle=lea.handle))
    expect(friend_row(tom, lea)).to_contain_text(words["online"])
    expect(friend_row(tom, lea)).to_have_class(re.compile(r"\bonline\b"))
    close_friends(tom)
    wait_js(tom.page, ONLINE_JS)  # the page he opened with the link has said hello: he is online

    # Léa opens her Friends again: Tom is her friend now, online; the corner counts him.
    open_friends(lea)
    expect(friend_row(lea, tom)).to_contain_text(words["online"])
    expect(friend_row(lea, tom)).to_have_class(re.compile(r"\bonline\b"))
    expect(lea.page.get_by_test_id("friends-count")).to_have_text("1")
    assert_no_serious(lea.page, f"the friends panel ({lang}, {size})")
    lea.page.screenshot(path=str(artifacts / f"players-friends-{lang}-{size}.png"))
    close_friends(lea)

    # Tom goes elsewhere in the site: the leaderboard (English), Léa's profile from his friends (French).
    if lang == "en":
        tom.press_id("leaderboard-link")
        expect(tom.page.get_by_test_id("leaderboard")).to_be_visible()
    else:
        open_friends(tom)
        tom.press(friend_row(tom, lea).get_by_role("link"))
        expect(tom.page.get_by_test_id("profile-name")).to_have_text(lea.handle)
    wait_js(tom.page, ONLINE_JS)  # the page he is on now has said hello: he is online for Léa's lobby

    # Léa creates a private table; its lobby offers to invite her friends online: she invites Tom.
    lea.press_id("mode-create")
    lea.press_id("create-go")
    expect(lea.page.get_by_test_id("lobby")).to_be_visible()
    invite = lea.page.get_by_test_id("lobby-friends").get_by_test_id(f"invite-{tom.id}")
    lea.press(invite)
    expect(invite).to_be_disabled()
    assert_no_serious(lea.page, f"the lobby's friends to invite ({lang}, {size})", include='[data-testid="lobby"]')
    lea.page.screenshot(path=str(artifacts / f"players-lobby-{lang}-{size}.png"))

    # The invitation shows at once on the page Tom has open; its Join seats him at Léa's table.
    banner = tom.page.get_by_test_id("invitation")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(f"{lea.handle} {words['invites']}")
    assert_no_serious(tom.page, f"a page with an invitation ({lang}, {size})")
    tom.page.screenshot(path=str(artifacts / f"players-invitation-{lang}-{size}.png"))
    tom.press(banner.get_by_test_id("invitation-join"))
    wait_js(tom.page, "() => !!window.__belote && window.__belote.status === 'lobby' && !!window.__belote.seat")
    expect(tom.page.get_by_test_id("lobby")).to_be_visible()
    for person in (lea, tom):
        expect(person.page.get_by_test_id("lobby-seats")).to_contain_text("Tom")

    # Both go to Play online, the three-handed game: the queue has them both, then a bot comes.
    for waiting, person in enumerate((lea, tom), start=1):
        person.press_id("home")
        person.press_id("mode-online")
        person.press_id(f"online-variant-{GAME}")
        person.press_id("online-go")
        expect(person.page.get_by_test_id("queue-panel")).to_be_visible()
        wait_js(person.page, "n => window.__belote.queue && window.__belote.queue.waiting === n", waiting)
    clock.now += QUEUE_WAIT + 1
    for person in (lea, tom):
        wait_js(person.page, SEATED_JS)
    tables = {p.page.evaluate("() => window.__belote.table") for p in (lea, tom)}
    assert len(tables) == 1

    # The match, card by card; its end on each page.
    play_to_the_end([lea, tom])
    for person in (lea, tom):
        expect(person.page.get_by_test_id("match-end")).to_be_visible()
        expect(person.page.get_by_test_id("panel-profile")).to_be_visible()
    lea.page.screenshot(path=str(artifacts / f"players-match-end-{lang}-{size}.png"))

    # What the server kept once the pages showed the end: the match, rated, both ratings moved.
    kept = {p.id: get(site, f"/api/players/{p.id}") for p in (lea, tom)}
    changes = {}
    for person in (lea, tom):
        match = kept[person.id]["recent"][0]
        assert match["rated"] and match["table"] in tables and match["game"] == GAME
        change = changes[person.id] = match["changes"][person.id]
        assert change["before"] == 1000 and change["after"] != change["before"], change
        assert kept[person.id]["ratings"][GAME] == {"rating": change["after"], "matches": 1, "provisional": True}
    assert changes[lea.id]["after"] != changes[tom.id]["after"]

    # Each one's profile, from the match's end: the rating moved, provisional, its chart, the match.
    for person, other in ((lea, tom), (tom, lea)):
        page = person.page
        person.press_id("panel-profile")
        expect(page.get_by_test_id("profile-name")).to_have_text(person.handle)
        change = changes[person.id]
        rating = page.get_by_test_id(f"rating-{GAME}")
        expect(rating).to_contain_text(words["provisional"])
        assert digits(rating.locator(".rating-value").inner_text()) == str(change["after"])
        expect(page.get_by_test_id(f"game-tab-{GAME}")).to_have_attribute("aria-selected", "true")
        expect(page.get_by_test_id("chart")).to_be_visible()
        match = page.get_by_test_id("match")
        expect(match).to_have_count(1)
        expect(match.get_by_role("link", name=other.handle.split("#")[0])).to_be_visible()
        expect(match.locator(".change")).to_have_text(signed(change["after"] - change["before"]))
        assert_no_serious(page, f"a profile ({lang}, {size})")
        page.screenshot(path=str(artifacts / f"players-profile-{lang}-{size}.png"), full_page=True)

    # The leaderboard of the game, from the profile: both of them, by rating, each one's own row marked.
    ranked = [p.id for p in sorted((lea, tom), key=lambda p: -changes[p.id]["after"])]
    for person in (lea, tom):
        page = person.page
        person.press_id("leaderboard-link")
        person.press_id(f"board-game-{GAME}")
        expect(page.get_by_test_id(f"board-game-{GAME}")).to_have_attribute("aria-selected", "true")
        for who in (lea, tom):
            row = page.locator(f'[data-testid="board-row"][data-player="{who.id}"]')
            expect(row).to_contain_text(who.handle)
            expect(row).to_contain_text(words["provisional"])
            assert digits(row.locator("td.num").first.inner_text()) == str(changes[who.id]["after"])
        mine = page.locator(f'[data-testid="board-row"][data-player="{person.id}"]')
        expect(mine).to_have_class(re.compile(r"\bmine\b"))
        expect(mine).to_contain_text(words["you"])
        order = [row.get_attribute("data-player") for row in page.get_by_test_id("board-row").all()]
        assert [i for i in order if i in ranked] == ranked
        assert_no_serious(page, f"the leaderboard ({lang}, {size})")
        page.screenshot(path=str(artifacts / f"players-leaderboard-{lang}-{size}.png"), full_page=True)
    for person in (lea, tom):
        assert person.tab.unexpected_errors() == []
