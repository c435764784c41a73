"""The players' pages in a real browser (docs/players.md): two people who never met befriend each other
through the API, play a rated two-handed match through the queue, and each page shows it: the
invitation banner on the friend's page (Join opens the table), the profile with its ratings, chart
and the match, the leaderboard with both; in English on a desktop and in French on a phone, with
axe-core finding no serious violation."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from axe import describe, serious_violations
from online_fixtures import app_server
from playwright.sync_api import expect
from websockets.asyncio.client import connect

from netplay import Player, match_over, post, run

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # The match is played by two scripts as fast as the server answers: no rates of messages.
    with app_server(tmp_path_factory.mktemp("players") / "players.sqlite3", pace=0.0, message_rates=0.0) as url:
        yield url


def rated_match(base: str, secrets: list[str]) -> None:
    """The two identities queue for two hands and play their match to its end (the queue's table is rated)."""
    ws_base = base.replace("http://", "ws://") + "/ws"

    async def play() -> None:
        matched: list[dict[str, Any]] = []
        async with connect(ws_base) as a, connect(ws_base) as b:
            for sock, secret in ((a, secrets[0]), (b, secrets[1])):
                await sock.send(json.dumps({"type": "queue", "name": "x", "variant": "two-handed", "player": secret}))
            for sock in (a, b):
                while True:
                    msg = json.loads(await asyncio.wait_for(sock.recv(), 10))
                    if msg["type"] == "matched":
                        matched.append(msg)
                        break
        players = [Player(ws_base, m["table"], token=m["token"], seed=i) for i, m in enumerate(matched)]
        await asyncio.gather(*(p.play(match_over) for p in players))
        for p in players:
            await p.close()

    run(play())


def with_identity(open_tab: Callable[..., Any], player: dict[str, Any], lang: str, **options: Any) -> Any:
    """A browser context whose page holds ``player``'s identity (as the page keeps it) in ``lang``."""
    tab = open_tab(**options, locale="fr-FR" if lang == "fr" else "en-US")
    kept = json.dumps({"secret": player["secret"], "player": {**player["player"], "password": False}})
    tab.page.context.add_init_script(
        f"localStorage.setItem('belote.identity', {json.dumps(kept)});"
        f"localStorage.setItem('belote.lang', {json.dumps(lang)});"
    )
    return tab


@pytest.mark.parametrize(("lang", "options"), [("en", DESKTOP), ("fr", PHONE)], ids=["en-desktop", "fr-phone"])
def test_friends_an_invitation_a_rated_match_the_profile_and_the_leaderboard(
    site: str, open_tab: Callable[..., Any], lang: str, options: dict[str, Any], artifacts: Path
) -> None:
    lea = post(site, "/api/players", {"name": "Léa"})
    tom = post(site, "/api/players", {"name": "Tom"})
    post(site, "/api/me/friends", {"player": tom["player"]["handle"]}, lea["secret"])
    post(site, "/api/me/friends", {"player": lea["player"]["id"]}, tom["secret"])
    rated_match(site, [lea["secret"], tom["secret"]])

    # Tom's page is open when Léa invites him: the banner comes at once, and Join seats him.
    tab = with_identity(open_tab, tom, lang, **options)
    page = tab.page
    page.goto(site)
    expect(page.get_by_test_id("me-link")).to_contain_text(tom["player"]["handle"])
    lobby = post(site, "/api/tables", {"settings": {}}, lea["secret"])
    body = {"player": tom["player"]["id"], "table": lobby["table"], "invite": lobby["invite"]}
    post(site, "/api/me/invite", body, lea["secret"])
    banner = page.get_by_test_id("invitation")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(lea["player"]["handle"])
    assert not serious_violations(page), describe(serious_violations(page))
    page.get_by_test_id("invitation-join").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    expect(page.get_by_test_id("lobby-seats")).to_contain_text("Tom")

    # His profile: the rating of the game, provisional, its chart, and the match with its change.
    page.goto(f"{site}/players/{tom['player']['id']}")
    expect(page.get_by_test_id("profile-name")).to_contain_text("Tom")
    ratings = page.get_by_test_id("profile-ratings")
    expect(ratings).to_contain_text("provisional" if lang == "en" else "provisoire")
    page.get_by_test_id("game-tab-two-handed").click()
    expect(page.get_by_test_id("chart")).to_be_visible()
    matches = page.get_by_test_id("match")
    expect(matches).to_have_count(1)
    expect(matches.first).to_contain_text("Léa")
    assert not serious_violations(page), describe(serious_violations(page))
    page.screenshot(path=str(artifacts / f"players-profile-{lang}.png"), full_page=True)

    # The leaderboard of the game: both of them, the winner first.
    page.goto(f"{site}/leaderboard")
    page.get_by_test_id("board-game-two-handed").click()
    rows = page.get_by_test_id("board-row")
    handles = [lea["player"]["handle"], tom["player"]["handle"]]
    expect(rows.filter(has_text=handles[0])).to_have_count(1)
    expect(rows.filter(has_text=handles[1])).to_have_count(1)
    assert not serious_violations(page), describe(serious_violations(page))
    page.screenshot(path=str(artifacts / f"players-leaderboard-{lang}.png"), full_page=True)
    assert tab.unexpected_errors() == []
