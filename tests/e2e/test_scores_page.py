"""The score sheet page in a real browser: seed 000's worked match entered through the form.

210 to 176; a deal of 108 with belote to 54 gives 338 to 230; a dedans at 74 to 88 gives 500 to 230;
a deal of 90 to 72 gives 590 to 302 and the match is over.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

# ``open_tab`` (tests/e2e/conftest.py) gives a Tab: ``.page`` and ``.errors``, what the console said.
Tab = Any

# What Chromium logs for an answer the page expects and handles (a refused entry, an unknown id).
HANDLED = ("status of 400", "status of 404")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def start_sheet(
    page: Any, base_url: str, names: tuple[str, str] = ("Alice & Cara", "Ben & Dev"), **options: Any
) -> None:
    page.goto(f"{base_url}/scores")
    expect(page.locator("#setup")).to_be_visible()
    page.fill("#name-ns", names[0])
    page.fill("#name-ew", names[1])
    page.fill("#start-ns", str(options.get("start", (210, 176))[0]))
    page.fill("#start-ew", str(options.get("start", (210, 176))[1]))
    if "deals" in options:
        page.get_by_test_id("sheet-target").select_option("deals")
        page.get_by_test_id("sheet-deals").fill(str(options["deals"]))
    page.click("#setup-form button[type=submit]")
    expect(page.locator("#sheet")).to_be_visible()


def enter_deal(
    page: Any,
    takers: str,
    cards: int | None = None,
    belote: str = "",
    capot: str = "",
    declarations: tuple[int, int] = (0, 0),
) -> None:
    page.check(f'#deal-form input[name="takers"][value="{takers}"]')
    page.check(f'#deal-form input[name="capot"][value="{capot}"]')
    if cards is not None:
        page.fill("#cards", str(cards))
    page.fill("#decl-ns", str(declarations[0]))
    page.fill("#decl-ew", str(declarations[1]))
    page.check(f'#deal-form input[name="belote"][value="{belote}"]')
    page.click("#add")


def expect_totals(page: Any, ns: int, ew: int) -> None:
    expect(page.locator("#total-ns")).to_have_text(str(ns))
    expect(page.locator("#total-ew")).to_have_text(str(ew))


def play_the_worked_match(page: Any) -> None:
    expect_totals(page, 210, 176)
    page.check('#deal-form input[name="takers"][value="NS"]')
    page.fill("#cards", "108")
    # The defenders' card points are shown as 162 - 108 (in either language).
    expect(page.locator("#defenders")).to_have_text(re.compile(r"^(Defenders|Défense) \(Ben & Dev\) ?: 54$"))
    enter_deal(page, "NS", 108, belote="NS")
    expect_totals(page, 338, 230)
    enter_deal(page, "EW", 74)
    expect_totals(page, 500, 230)
    expect(page.locator("#over")).to_be_hidden()
    enter_deal(page, "NS", 90)
    expect_totals(page, 590, 302)


def test_the_worked_match_through_the_page(open_tab: Callable[..., Tab], base_url: str, artifacts: Path) -> None:
    tab = open_tab(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = tab.page
    start_sheet(page, base_url)
    assert "?sheet=" in page.url
    play_the_worked_match(page)

    over = page.locator("#over")
    expect(over).to_have_text("Match over: Alice & Cara win 590 to 302.")
    expect(page.locator("#deal-form")).to_be_hidden()
    rows = page.locator("#deals tbody tr")
    expect(rows).to_have_count(4)  # the starting score and three deals
    expect(rows.nth(1)).to_contain_text("made")
    expect(rows.nth(1)).to_contain_text("Belote Alice & Cara")
    expect(rows.nth(2).locator(".outcome")).to_have_text("dedans")
    expect(rows.nth(2)).to_contain_text("88–74")
    expect(rows.nth(2)).to_contain_text("+162")
    page.screenshot(path=str(artifacts / "scores.png"), full_page=True)

    # The sheet is in the address: a reload shows the same match.
    page.reload()
    expect_totals(page, 590, 302)
    expect(over).to_be_visible()

    # Undo the last deal: the match is open again, one short of the line.
    page.click("#undo")
    expect_totals(page, 500, 230)
    expect(over).to_be_hidden()
    expect(page.locator("#deal-form")).to_be_visible()
    expect(rows).to_have_count(3)

    # In French, and the match over again.
    page.click("#lang")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#add")).to_have_text("Ajouter la donne")
    expect(rows.nth(1).locator(".outcome")).to_have_text("réussi")
    enter_deal(page, "NS", 90)
    expect_totals(page, 590, 302)
    expect(over).to_have_text("Partie terminée : Alice & Cara l'emporte 590 à 302.")
    page.click("#lang")
    expect(over).to_have_text("Match over: Alice & Cara win 590 to 302.")

    assert tab.errors == []


def test_refused_entries_are_shown_in_words_and_change_nothing(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(locale="en-GB")
    page = tab.page
    start_sheet(page, base_url, start=(0, 0))
    error = page.locator("#error")

    enter_deal(page, "NS", 170)
    expect(error).to_have_text("card points must be 0 to 162, not 170")
    expect_totals(page, 0, 0)
    expect(page.locator("#deals tbody tr")).to_have_count(0)

    enter_deal(page, "NS", 100, declarations=(20, 50))
    expect(error).to_contain_text("only the side with the best declaration scores its declarations")

    page.click("#lang")
    expect(error).to_have_text("Seul le camp qui a la meilleure annonce marque ses annonces.")
    page.click("#lang")

    # Mended in place (the form keeps what was entered), the deal goes in and the error goes away.
    page.fill("#decl-ew", "0")
    page.click("#add")
    expect(error).to_be_hidden()
    expect_totals(page, 120, 62)

    # The form is cleared for the next deal: nobody has said who took.
    expect(page.locator('#deal-form input[name="takers"]:checked')).to_have_count(0)
    page.fill("#cards", "100")
    page.click("#add")
    expect(error).to_have_text("say who took: NS or EW")
    expect_totals(page, 120, 62)
    assert tab.unexpected_errors(*HANDLED) == []


def test_capot_fills_the_card_points_and_litige_waits(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(locale="en-GB")
    page = tab.page
    start_sheet(page, base_url, names=("Nous", "Eux"), start=(0, 0))
    page.check('#deal-form input[name="takers"][value="NS"]')
    page.check('#deal-form input[name="capot"][value="NS"]')
    expect(page.locator("#cards")).to_be_disabled()
    expect(page.locator("#cards")).to_have_value("162")
    expect(page.locator("#defenders")).to_have_text("Defenders (Eux): 0")
    enter_deal(page, "NS", belote="NS", capot="NS")
    expect_totals(page, 272, 0)
    expect(page.locator("#deals tbody tr").nth(0).locator(".outcome")).to_have_text("capot by Nous")
    expect(page.locator("#cards")).to_be_enabled()

    enter_deal(page, "EW", 81)
    expect(page.locator("#pending")).to_have_text("81 points wait for the winner of the next deal (litige).")
    expect(page.locator("#deals tbody tr").nth(1).locator(".outcome")).to_have_text("litige")
    enter_deal(page, "EW", 100)
    expect(page.locator("#pending")).to_be_hidden()
    expect_totals(page, 272 + 81 + 62, 100 + 81)
    assert tab.errors == []


def test_a_number_of_deals(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(locale="en-GB")
    page = tab.page
    start_sheet(page, base_url, names=("A", "B"), start=(0, 0), deals=2)
    expect(page.locator("#line")).to_have_text("0 of 2 deals played")
    enter_deal(page, "NS", 100)
    enter_deal(page, "EW", 100)
    expect(page.locator("#over")).to_have_text("Match over: a tie at 162.")
    assert tab.errors == []


def test_on_a_phone_held_upright(open_tab: Callable[..., Tab], base_url: str, artifacts: Path) -> None:
    tab = open_tab(**PHONE, locale="fr-FR")
    page = tab.page
    start_sheet(page, base_url)
    # A French phone gets French words.
    expect(page.locator("#add")).to_have_text("Ajouter la donne")
    play_the_worked_match(page)
    expect(page.locator("#over")).to_have_text("Partie terminée : Alice & Cara l'emporte 590 à 302.")
    fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert fits, "the sheet is wider than the phone"
    box = page.locator("#deals").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.screenshot(path=str(artifacts / "scores-phone.png"), full_page=True)
    page.click("#undo")
    expect_totals(page, 500, 230)
    assert tab.errors == []


def test_an_unknown_sheet(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(locale="en-GB")
    page = tab.page
    page.goto(f"{base_url}/scores?sheet=nope")
    expect(page.locator("#error")).to_have_text("no score sheet with that id")
    expect(page.locator("#setup")).to_be_visible()
    assert tab.unexpected_errors(*HANDLED) == []


# --- the other games -----------------------------------------------------------------------------------


def start_game(page: Any, base_url: str, variant: str, names: tuple[str, ...], goal: str = "501") -> None:
    page.goto(f"{base_url}/scores")
    expect(page.locator("#setup")).to_be_visible()
    page.check(f'input[name="variant"][value="{variant}"]')
    for field, name in zip(("#name-ns", "#name-ew", "#name-s"), names, strict=False):
        page.fill(field, name)
    page.get_by_test_id("sheet-target").select_option(goal)
    page.click("#setup-form button[type=submit]")
    expect(page.locator("#sheet")).to_be_visible()


def enter_contract(
    page: Any, level: str, mode: str, bidder: str, cards: int, coinche: str = "", belote: str = ""
) -> None:
    page.select_option("#level", level)
    page.check(f'#deal-form input[name="mode"][value="{mode}"]')
    page.check(f'#deal-form input[name="bidder"][value="{bidder}"]')
    page.check(f'#deal-form input[name="coinche"][value="{coinche}"]')
    page.fill("#cards", str(cards))
    if belote:
        page.check(f'#deal-form input[name="belote"][value="{belote}"]')
    page.click("#add")


def test_a_coinche_sheet_through_the_page(open_tab: Callable[..., Tab], base_url: str, artifacts: Path) -> None:
    tab = open_tab(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = tab.page
    page.goto(f"{base_url}/scores")
    page.check('input[name="variant"][value="coinche"]')
    expect(page.get_by_test_id("sheet-group-coinche")).to_be_visible()
    expect(page.locator("#third-player")).to_be_hidden()
    start_game(page, base_url, "coinche", ("Nous", "Eux"), goal="1000")
    expect(page.locator("#cards-label")).to_have_text("Bidders' card points")
    rows = page.locator("#deals tbody tr")
    error = page.locator("#error")

    # Nobody said who bid: refused with the rule, in English and then in French.
    page.select_option("#level", "110")
    page.check('#deal-form input[name="mode"][value="H"]')
    page.fill("#cards", "113")
    page.click("#add")
    expect(error).to_have_text("say who bid the contract: NS or EW")
    page.click("#lang")
    expect(error).to_have_text("Dites quel camp a pris le contrat.")
    page.click("#lang")

    # 110 hearts by Nous, coinched, made with 113 and belote: (160 + 110) x 2 + 20.
    enter_contract(page, "110", "H", "NS", 113, coinche="coinche", belote="NS")
    expect(error).to_be_hidden()
    expect_totals(page, 560, 0)
    expect(rows.nth(0).locator(".contract")).to_have_text("110 ♥ Nous ×2")
    expect(rows.nth(0).locator(".outcome")).to_have_text("made")
    expect(rows.nth(0)).to_contain_text("Belote Nous")
    # 80 spades by Eux, made with 90: 80 + 90 to them, 72 to Nous.
    enter_contract(page, "80", "S", "EW", 90)
    expect_totals(page, 632, 170)
    # 90 no-trumps by Eux, surcoinched, failed at 70: there is no belote at no-trumps.
    page.check('#deal-form input[name="mode"][value="NT"]')
    expect(page.locator('#deal-form input[name="belote"][value="NS"]')).to_be_disabled()
    enter_contract(page, "90", "NT", "EW", 70, coinche="surcoinche")
    expect_totals(page, 1632, 170)
    expect(rows.nth(2).locator(".contract")).to_have_text("90 no trumps Eux ×4")
    expect(rows.nth(2).locator(".outcome")).to_have_text("failed")
    expect(page.locator("#over")).to_have_text("Match over: Nous win 1632 to 170.")
    page.screenshot(path=str(artifacts / "scores-coinche.png"), full_page=True)

    page.click("#lang")
    expect(rows.nth(2).locator(".contract")).to_have_text("90 sans atout Eux ×4")
    expect(rows.nth(2).locator(".outcome")).to_have_text("chuté")
    page.click("#lang")

    # Undo, and the sheet is in the address.
    page.click("#undo")
    expect_totals(page, 632, 170)
    page.reload()
    expect_totals(page, 632, 170)
    expect(rows).to_have_count(2)
    assert tab.unexpected_errors(*HANDLED) == []


def test_a_three_handed_sheet_through_the_page(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(locale="en-GB")
    page = tab.page
    page.goto(f"{base_url}/scores")
    page.check('input[name="variant"][value="three-handed"]')
    expect(page.locator("#third-player")).to_be_visible()
    expect(page.locator("#teams-legend")).to_have_text("Players and starting score")
    start_game(page, base_url, "three-handed", ("Ann", "Bob", "Cy"))
    expect(page.locator("#board .team")).to_have_count(3)
    # Ann deals first; Bob takes with 40 against 50 and 35: dedans, the 125 shared, Cy (first to play
    # after Bob) has the odd point.
    expect(page.locator('#deal-form input[name="dealer"][value="N"]')).to_be_checked()
    page.check('#deal-form input[name="taker"][value="E"]')
    page.fill("#cards-n", "50")
    page.fill("#cards-e", "40")
    page.fill("#cards-s", "35")
    expect(page.locator("#three-total")).to_contain_text("In play: 125")
    page.click("#add")
    expect(page.locator("#total-n")).to_have_text("62")
    expect(page.locator("#total-e")).to_have_text("0")
    expect(page.locator("#total-s")).to_have_text("63")
    row = page.locator("#deals tbody tr").nth(0)
    expect(row).to_contain_text("dealt: Ann")
    expect(row.locator(".outcome")).to_have_text("dedans")
    # The next dealer is Bob.
    expect(page.locator('#deal-form input[name="dealer"][value="E"]')).to_be_checked()
    assert tab.errors == []
