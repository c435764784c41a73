"""The review page against a real ``belote serve`` process: a solo deal played to its end, its review
opened from the end-of-deal window and stepped to the last card with the keyboard, its numbers equal
to ``belote analyse --json`` of the table's downloaded archive; then My games and a dropped file.

A three-handed match of one deal keeps it short (its analysis takes a fraction of a second).
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axe import assert_no_serious
from table_fixtures import ARTIFACTS, DESKTOP, PHONE, ServerProcess, Tab, open_tab

READY_JS = """() => { const b = window.__belote; const v = b && b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.match_over || v.to_move === b.seat); }"""
# The home (My games, the drop zone) is hidden until review.js has run, and review.js runs only once
# GET /api/games has answered (games.js awaits it at the top level), after the page's load event: a
# file set or dropped before it shows is heard by no one. Each visit waits for the drop zone first.
READY_HOME = "drop-zone"
ANALYSED_JS = "() => window.__review && window.__review.analysis !== null && !window.__review.loading"


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("review")
    server = ServerProcess(folder / "belote.sqlite3", folder / "server.log", "--pace", "0", "--think-workers", "1")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def desktop(browser: Any) -> Iterator[Tab]:
    """One desktop browser context through the module: the table page keeps My games in its storage."""
    tab = open_tab(browser, **DESKTOP)
    yield tab
    tab.context.close()


def play_one_deal(page: Any, url: str) -> str:
    """A solo three-handed match of one deal, taken at the first chance and played card by card; the table's id."""
    page.goto(url)
    expect(page.get_by_test_id("settings-dialog")).to_be_visible()
    page.get_by_test_id("settings-more").locator("summary").click()
    page.get_by_test_id("settings-variant-three-handed").click()
    page.get_by_test_id("settings-strength").select_option("easy")
    page.get_by_test_id("settings-speed").select_option("fast")
    page.get_by_test_id("settings-target").select_option("deals")
    page.get_by_test_id("settings-deals").fill("1")
    page.get_by_test_id("settings-start").click()
    page.wait_for_function("() => window.__belote.joined && window.__belote.view !== null")
    for _ in range(60):
        page.wait_for_function(READY_JS, timeout=30_000)
        st = page.evaluate(
            "() => ({view: window.__belote.view, last: window.__belote.last, waiting: window.__belote.waiting})"
        )
        view = st["view"]
        if st["waiting"] == "continue" or view["match_over"]:
            return str(page.evaluate("() => window.__belote.table"))
        if view["phase"] == "bidding":
            choice = next((b for b in view["legal"] if b != "pass"), "pass")
            page.get_by_test_id(f"bid-{choice}").click()
        else:
            page.locator(f'[data-testid="hand-card"][data-card="{view["legal"][0]}"]').click()
        page.wait_for_function("n => window.__belote.last > n", arg=st["last"])
    raise AssertionError("the deal never ended")


def analysed_by_the_cli(server: ServerProcess, table: str, token: str, folder: Path) -> list[dict[str, Any]]:
    """The table's archive downloaded as a seat, and ``belote analyse --json`` of it."""
    asked = urllib.request.Request(
        f"{server.url}/api/tables/{table}/records", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(asked, timeout=10) as answer:
        archive = folder / "archive.jsonl"
        archive.write_bytes(answer.read())
    out = subprocess.run(
        [sys.executable, "-m", "belote.cli", "analyse", str(archive), "--json"],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return [json.loads(line) for line in out.stdout.splitlines()]


def shown_costs(page: Any) -> list[tuple[int, str, str, str]]:
    items = page.locator('[data-testid="play-item"]')
    return [
        tuple(x)
        for x in items.evaluate_all(
            "els => els.map(e => [+e.dataset.index, e.dataset.card, e.dataset.cost, e.dataset.bot])"
        )
    ]


def test_a_solo_deal_reviewed_from_its_end_of_deal_window(
    desktop: Tab, review_server: ServerProcess, tmp_path: Path
) -> None:
    page = desktop.page
    table = play_one_deal(page, review_server.url)
    link = page.get_by_test_id("panel-review")
    expect(link).to_be_visible()
    assert link.get_attribute("href") == f"/review?table={table}&game=1&deal=1"
    with page.context.expect_page() as opened:
        link.click()
    review = opened.value
    review.set_default_timeout(30_000)
    review.wait_for_function(ANALYSED_JS)
    steps = review.evaluate("() => window.__review.steps")
    review.keyboard.press("Home")
    expect(review.get_by_test_id("step")).to_have_attribute("data-step", "0")
    for n in range(1, steps + 1):
        review.keyboard.press("ArrowRight")
        expect(review.get_by_test_id("step")).to_have_attribute("data-step", str(n))
    review.screenshot(path=str(ARTIFACTS / "review-desktop.png"))
    assert_no_serious(review, "the review of a deal")

    token = page.evaluate("t => localStorage.getItem(`belote.token.${t}`)", table)
    [cli] = analysed_by_the_cli(review_server, table, token, tmp_path)
    (tmp_path / "deal.json").write_text(json.dumps(cli["record"]))
    want = [
        (p["index"], p["card"], "" if p["cost"] is None else str(p["cost"]), p["view"]["choice"]) for p in cli["plays"]
    ]
    assert shown_costs(review) == want and len(want) == 24
    last = cli["plays"][-1]
    now = review.get_by_test_id("now")
    expect(now).to_have_attribute("data-card", last["card"])
    expect(now).to_have_attribute("data-cost", str(last["cost"]))
    for seat, summary in cli["players"].items():
        expect(review.get_by_test_id(f"player-{seat}")).to_have_attribute("data-cost", str(summary["cost"]))
    # Home goes back to the deal as dealt: every hand whole, nothing on the table.
    review.keyboard.press("Home")
    for seat in "NES":
        expect(review.get_by_test_id(f"seat-{seat}").locator(".rcard")).to_have_count(8)
    expect(review.get_by_test_id("trick-card")).to_have_count(0)
    assert not desktop.unexpected_errors()

    # My games lists the table; its entry opens the same review; a record file dropped is reviewed too.
    review.goto(f"{review_server.url}/review")
    entry = review.locator(f'[data-testid="game-entry"][data-table="{table}"]')
    expect(entry).to_be_visible()
    entry.get_by_test_id("game-open").click()
    review.wait_for_function(ANALYSED_JS)
    assert shown_costs(review) == want
    review.goto(f"{review_server.url}/review")
    expect(review.get_by_test_id(READY_HOME)).to_be_visible()
    content = (tmp_path / "deal.json").read_text()
    dropped = review.evaluate_handle(
        """text => { const d = new DataTransfer();
        d.items.add(new File([text], "deal.json", {type: "application/json"})); return d; }""",
        content,
    )
    review.get_by_test_id("drop-zone").dispatch_event("drop", {"dataTransfer": dropped})
    review.wait_for_function(ANALYSED_JS)
    assert shown_costs(review) == want
    # A table the server no longer has (expired) is said so; entries are removed one by one.
    review.evaluate(
        """() => { const games = JSON.parse(localStorage.getItem("belote.games"));
        games.push({table: "expiredTable0000000000", game: 1, when: 0, variant: "classic", names: {}, deals: 2});
        localStorage.setItem("belote.games", JSON.stringify(games));
        localStorage.setItem("belote.token.expiredTable0000000000", "an-old-token"); }"""
    )
    review.goto(f"{review_server.url}/review")
    expired = review.locator('[data-testid="game-entry"][data-table="expiredTable0000000000"]')
    expect(expired.get_by_test_id("game-gone")).to_have_text("The server no longer has this table.")
    expect(entry.get_by_test_id("game-gone")).to_be_hidden()
    entry.get_by_test_id("game-remove").click()
    expect(review.locator('[data-testid="game-entry"]')).to_have_count(1)
    expired.get_by_test_id("game-remove").click()
    expect(review.locator('[data-testid="game-entry"]')).to_have_count(0)
    assert not desktop.unexpected_errors("status of 404")


def test_a_french_phone_review_of_a_dropped_file(browser: Any, review_server: ServerProcess, tmp_path: Path) -> None:
    first = Path(__file__).resolve().parents[1] / "vectors" / "three_made.json"
    tab = open_tab(browser, **PHONE, locale="fr-FR")
    page = tab.page
    page.goto(f"{review_server.url}/review")
    expect(page.get_by_test_id("my-games")).to_contain_text("Aucune partie")
    page.get_by_test_id("file-input").set_input_files(str(first))
    expect(page.get_by_test_id("thinking")).to_contain_text("Analyse")
    page.wait_for_function(ANALYSED_JS, timeout=60_000)
    page.keyboard.press("Home")
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("now")).to_contain_text("a joué")
    page.screenshot(path=str(ARTIFACTS / "review-phone-fr.png"))
    assert_no_serious(page, "the review on a phone, in French")
    # A deal in progress is refused by the server, and the page says why in the reader's language.
    page.goto(f"{review_server.url}/review")
    expect(page.get_by_test_id(READY_HOME)).to_be_visible()
    page.get_by_test_id("file-input").set_input_files(str(first.with_name("two_in_progress.json")))
    error = page.get_by_test_id("review-error")
    expect(error).to_have_attribute("data-code", "deal_not_over")
    expect(error).to_contain_text("La donne n'est pas finie")
    assert not tab.unexpected_errors("status of 409")
    tab.context.close()


def test_my_games_name_each_game_by_its_title(browser: Any, review_server: ServerProcess) -> None:
    """My games names a game by the page's title of it (i18n.js), in the reader's language, and a game
    the page has no words for (a newer server's) by the title GET /api/games gives it."""
    with urllib.request.urlopen(f"{review_server.url}/api/games") as answer:
        spec = json.load(answer)
    first = spec["games"][0]
    spec["games"].append({**first, "name": "fifth", "title": "the fifth game"})
    games = [
        {"table": f"table{i}", "game": 1, "when": 0, "variant": g["name"], "names": {}, "deals": 1}
        for i, g in enumerate(spec["games"])
    ]
    tab = open_tab(browser, **DESKTOP)
    page = tab.page
    page.route("**/api/games", lambda route: route.fulfill(json=spec))
    page.goto(f"{review_server.url}/review?lang=en")
    page.evaluate("games => localStorage.setItem('belote.games', JSON.stringify(games))", games)
    titles = {
        "en": {"three-handed": "Three-handed Belote", "fifth": "the fifth game"},
        "fr": {"three-handed": "Belote à trois", "fifth": "the fifth game"},
    }
    table = {g["variant"]: g["table"] for g in games}
    for lang, want in titles.items():
        page.goto(f"{review_server.url}/review?lang={lang}")
        for name, title in want.items():
            expect(page.locator(f'[data-testid="game-entry"][data-table="{table[name]}"] b')).to_have_text(title)
    assert not tab.unexpected_errors()
    tab.context.close()


def test_my_games_say_whose_score_in_the_reader_s_words(browser: Any, review_server: ServerProcess) -> None:
    """A game's score in My games is headed as the table's scoreboard heads it, in the reader's
    language: Us and Them to who sat at a side, N–S and E–O to a spectator, You and the names of
    the others in a game without partners; never the server's keys (NS, EW)."""
    names = {"N": "Bob", "E": "Cid", "S": "Ann", "W": "Dan"}
    games = [
        {"table": "sat0", "game": 1, "when": 0, "variant": "classic", "seat": "S", "names": names,
         "score": {"NS": 120, "EW": 40}, "deals": 1},
        {"table": "watched0", "game": 1, "when": 0, "variant": "coinche", "seat": None, "names": names,
         "score": {"NS": 120, "EW": 40}, "deals": 1},
        {"table": "three0", "game": 1, "when": 0, "variant": "three-handed", "seat": "E",
         "names": {"N": "Zoé", "E": "Luc", "S": "Ann"}, "score": {"N": 10, "E": 20, "S": 30}, "deals": 1},
    ]  # fmt: skip
    want = {
        "fr": {"sat0": "Nous 120 – Eux 40", "watched0": "N–S 120 – E–O 40", "three0": "Zoé 10 – Vous 20 – Ann 30"},
        "en": {"sat0": "Us 120 – Them 40", "watched0": "N–S 120 – E–W 40", "three0": "Zoé 10 – You 20 – Ann 30"},
    }
    tab = open_tab(browser, **PHONE)
    page = tab.page
    page.goto(f"{review_server.url}/review?lang=fr")
    page.evaluate("games => localStorage.setItem('belote.games', JSON.stringify(games))", games)
    for lang, scores in want.items():
        page.goto(f"{review_server.url}/review?lang={lang}")
        for table, score in scores.items():
            entry = page.locator(f'[data-testid="game-entry"][data-table="{table}"]')
            expect(entry).to_contain_text(f"score {score}")
    assert_no_serious(page, "My games")
    assert not tab.unexpected_errors("status of 404")
    tab.context.close()
