"""The score sheet page in a real browser: seed 000's worked match entered through the form.

210 to 176; a deal of 108 with belote to 54 gives 338 to 230; a dedans at 74 to 88 gives 500 to 230;
a deal of 90 to 72 gives 590 to 302 and the match is over.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axe import assert_no_serious
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
    # The deal before is answered first (its answer clears the form for the next one).
    expect(page.locator("#add")).to_be_enabled()
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


def deal_requests(page: Any) -> list[str]:
    """The deals the page sends from now on (a list that grows as it sends them)."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" and r.url.endswith("/deals") else None)
    return sent


def problem_of(page: Any, control: str) -> Any:
    """The words the page says of a field's problem: those its control is described by."""
    return (
        page.locator(f"{control}[aria-invalid=true]")
        .locator("xpath=.")
        .evaluate(
            "c => c.getAttribute('aria-describedby').split(' ').map(id => document.getElementById(id))"
            ".filter(e => e && e.classList.contains('field-error')).map(e => e.textContent).join(' | ')"
        )
    )


def test_entries_are_checked_in_the_page_before_they_are_sent(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(locale="en-GB")
    page = tab.page
    start_sheet(page, base_url, start=(0, 0))
    sent = deal_requests(page)
    problems = page.locator(".field-error")

    # 170 card points: said under the field, which takes the focus; nothing is sent.
    enter_deal(page, "NS", 170)
    expect(problems).to_have_count(1)
    expect(problems).to_have_text("Card points go from 0 to 162.")
    assert problem_of(page, "#cards") == "Card points go from 0 to 162."
    expect(page.locator("#cards")).to_be_focused()
    # The words come right after the field's label, before the defenders' line.
    assert page.evaluate("document.querySelector('label.cards').nextElementSibling.className") == "field-error"
    expect(page.locator("#error")).to_be_hidden()
    expect(page.locator("#deal-error")).to_be_hidden()

    # Mending the field takes its words away; two sides' declarations are said at the group.
    page.fill("#cards", "100")
    expect(problems).to_have_count(0)
    enter_deal(page, "NS", 100, declarations=(20, 50))
    expect(problems).to_have_text(["Only the side with the best declaration scores its declarations."])
    assert problem_of(page, "#declarations-field") == "Only the side with the best declaration scores its declarations."
    page.click("#lang")
    expect(problems).to_have_text(["Seul le camp qui a la meilleure annonce marque ses annonces."])
    page.click("#lang")

    # Declarations in tens, and a card count missing: both said, each at its field.
    page.fill("#decl-ns", "0")
    page.fill("#decl-ew", "25")
    page.fill("#cards", "")
    page.click("#add")
    expect(problems).to_have_text(
        ["Enter the card points.", "Declarations are multiples of 10 (tierce 20, quarte 50, quinte 100…)."]
    )
    assert problem_of(page, "#decl-ew") == "Declarations are multiples of 10 (tierce 20, quarte 50, quinte 100…)."
    expect(page.locator("#cards")).to_be_focused()
    assert sent == []
    expect_totals(page, 0, 0)

    # Mended in place (the form keeps what was entered), the deal goes in and the words go away.
    page.fill("#cards", "100")
    page.fill("#decl-ns", "20")
    page.fill("#decl-ew", "0")
    page.click("#add")
    expect_totals(page, 120, 62)
    expect(problems).to_have_count(0)
    assert len(sent) == 1

    # The form is cleared for the next deal: nobody has said who took.
    page.fill("#cards", "100")
    page.click("#add")
    expect(problems).to_have_text(["Say who took."])
    assert problem_of(page, '[role=radiogroup][aria-labelledby="takers-label"]') == "Say who took."
    page.click("#lang")
    expect(problems).to_have_text(["Dites qui a pris."])
    expect(page.locator("#takers-label")).to_have_text("Preneurs")
    assert len(sent) == 1
    assert tab.errors == []


def test_the_setup_is_checked_in_the_page(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(locale="fr-FR")
    page = tab.page
    page.goto(f"{base_url}/scores")
    expect(page.locator("#setup")).to_be_visible()
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    page.fill("#name-ns", "Nous")
    page.fill("#name-ew", " nous ")
    page.fill("#start-ns", "501")
    page.click("#setup-form button[type=submit]")
    problems = page.locator(".field-error")
    # Each under its row: the first team's starting score, then the second team's name.
    expect(problems).to_have_text(
        ["Le score de départ atteint déjà la ligne.", "Une autre équipe ou un autre joueur porte déjà ce nom."]
    )
    expect(page.locator("#start-ns")).to_be_focused()
    page.click("#lang")
    expect(problems).to_have_text(
        ["The starting score is already at the line.", "Another team or player already has this name."]
    )
    assert sent == []
    page.fill("#name-ew", "Eux")
    page.fill("#start-ns", "500")
    page.click("#setup-form button[type=submit]")
    expect(page.locator("#sheet")).to_be_visible()
    expect_totals(page, 500, 0)
    assert len(sent) == 1
    assert tab.errors == []


def test_the_servers_refusals_are_said_next_to_the_form(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(locale="en-GB")
    page = tab.page
    start_sheet(page, base_url, start=(0, 0))
    sheet_id = page.url.split("sheet=")[1]
    # Another phone enters a deal: this page's deal is refused, with the sheet as it stands.
    answer = page.request.post(f"{base_url}/api/sheets/{sheet_id}/deals", data={"takers": "EW", "cards": 100})
    assert answer.ok
    enter_deal(page, "NS", 90)
    refusal = page.locator("#deal-error")
    expect(refusal).to_have_text("The sheet changed meanwhile; here it is as it stands.")
    expect_totals(page, 62, 100)
    # Next to the form: just above its button, not at the top of the page.
    assert page.evaluate("document.getElementById('deal-error').nextElementSibling.id") == "add"
    expect(page.locator("#error")).to_be_hidden()
    page.click("#lang")
    expect(refusal).to_have_text("La feuille a changé entre-temps ; la voici telle qu'elle est.")
    page.click("#lang")

    # A refusal of a kind the page does not know is the server's sentence, as a sentence.
    page.route(
        "**/deals",
        lambda route: route.fulfill(status=400, json={"error": "the table is closed for the night", "code": "night"}),
    )
    enter_deal(page, "NS", 90)
    expect(refusal).to_have_text("The table is closed for the night.")
    page.unroute("**/deals")
    enter_deal(page, "NS", 90)
    expect(refusal).to_be_hidden()
    expect_totals(page, 152, 172)
    assert tab.unexpected_errors("status of 409", *HANDLED) == []


def test_the_card_points_say_whose_they_are(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(locale="en-GB")
    page = tab.page
    start_sheet(page, base_url, start=(0, 0))
    label = page.locator("#cards-label")
    expect(label).to_have_text("Takers' card points")
    page.check('#deal-form input[name="takers"][value="EW"]')
    expect(label).to_have_text("Takers' card points (Ben & Dev)")
    expect(page.get_by_label("Takers' card points (Ben & Dev)")).to_have_id("cards")
    enter_deal(page, "EW", 100)
    head = page.locator("#deals thead th").nth(2)
    expect(head).to_have_text("Card pointsAlice & Cara – Ben & Dev")
    expect(page.locator("#deals tbody tr").nth(0).locator("td").nth(2)).to_have_text("62–100")
    # The declarations' fields are named by their group and their side.
    expect(page.get_by_role("group", name="Declarations").get_by_label("Alice & Cara")).to_have_id("decl-ns")
    page.click("#lang")
    page.check('#deal-form input[name="takers"][value="NS"]')
    expect(label).to_have_text("Points de cartes des preneurs (Alice & Cara)")
    expect(head).to_have_text("Points de cartesAlice & Cara – Ben & Dev")
    assert tab.errors == []


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
    expect(page.locator("#error")).to_have_text("No score sheet with that id.")
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
    expect(page.locator("#add")).to_be_enabled()
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
    error = page.locator("#deal-error")
    problems = page.locator(".field-error")

    # Nothing said: the contract, its trumps, who bid and the card points are asked for, each at its field.
    page.click("#add")
    expect(problems).to_have_text(
        ["Choose the contract.", "Choose the trumps.", "Say which side bid the contract.", "Enter the card points."]
    )
    expect(page.locator("#level")).to_be_focused()
    assert_no_serious(page, "a Coinche sheet with problems")
    # Who bid is still missing: said in English and then in French.
    page.select_option("#level", "110")
    page.check('#deal-form input[name="mode"][value="H"]')
    page.fill("#cards", "113")
    page.click("#add")
    expect(problems).to_have_text(["Say which side bid the contract."])
    page.click("#lang")
    expect(problems).to_have_text(["Dites quel camp a pris le contrat."])
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


def test_a_three_handed_sheet_through_the_page(open_tab: Callable[..., Tab], base_url: str, artifacts: Path) -> None:
    tab = open_tab(**PHONE, locale="en-GB")
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

    # Checked in the page first: too few card points in play, a capot that leaves the defenders some.
    sent = deal_requests(page)
    problems = page.locator(".field-error")
    page.fill("#cards-s", "")
    page.click("#add")
    expect(problems).to_have_text(["Enter the card points."])
    assert problem_of(page, "#cards-s") == "Enter the card points."
    page.fill("#cards-s", "0")
    page.fill("#cards-n", "10")
    page.check('#deal-form input[name="capot3"][value="taker"]')
    page.click("#add")
    expect(problems).to_have_text(
        [
            "The three players' card points add up to 64 to 162.",
            "Every trick to the taker leaves the defenders no card point: enter 0 for them.",
        ]
    )
    assert problem_of(page, '[role=group][aria-labelledby="cards3-label"]') == (
        "The three players' card points add up to 64 to 162."
    )
    assert_no_serious(page, "a three-handed sheet with problems")
    page.screenshot(path=str(artifacts / "scores-three-problems.png"), full_page=True)
    assert sent == []
    page.check('#deal-form input[name="capot3"][value=""]')
    page.fill("#cards-n", "50")
    page.fill("#cards-s", "35")
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


# --- on a phone, and for everyone ------------------------------------------------------------------------

# What is cut: a visible label or line wider than its box, or a select whose longest choice is wider
# than the room its box leaves for words (a select's own scrollWidth never says so). The room is the
# box less its padding and the arrow's 20 px.
CUT = """() => {
  const seen = (e) => e.offsetParent !== null && getComputedStyle(e).visibility !== "hidden";
  const context = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const select of document.querySelectorAll("select")) {
    if (!seen(select)) continue;
    const style = getComputedStyle(select);
    context.font = style.font;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
    for (const option of select.options) {
      const width = context.measureText(option.textContent).width;
      const words = `select ${select.name}: "${option.textContent}"`;
      if (width > room) cut.push(`${words} is ${Math.round(width)} px in ${room} px`);
    }
  }
  const words = "label, label span, legend, .label, .hint, .field-error, th, td, h1, button";
  for (const e of document.querySelectorAll(words)) {
    const room = `${e.scrollWidth} px in ${e.clientWidth} px`;
    if (seen(e) && e.scrollWidth > e.clientWidth + 1) cut.push(`${e.tagName} "${e.textContent.trim()}": ${room}`);
  }
  return cut;
}"""


def test_nothing_is_cut_on_a_phone(open_tab: Callable[..., Tab], base_url: str) -> None:
    for locale in ("en-GB", "fr-FR"):
        tab = open_tab(**PHONE, locale=locale)
        page = tab.page
        page.goto(f"{base_url}/scores")
        expect(page.locator("#setup")).to_be_visible()
        for variant in ("classic", "coinche", "three-handed", "two-handed"):
            page.check(f'input[name="variant"][value="{variant}"]')
            assert page.evaluate(CUT) == [], f"{locale} {variant}"
        # The litige is said short in its select, and in full under it.
        page.check('input[name="variant"][value="classic"]')
        litige = page.get_by_test_id("sheet-litige")
        help_ = page.locator("#litige-help")
        if locale == "en-GB":
            expect(litige.locator("option:checked")).to_have_text("takers' points wait")
            expect(help_).to_have_text(
                "At 81 all, the defenders score their points; the takers' points wait for the winner of the next deal."
            )
            litige.select_option("hold")
            expect(help_).to_have_text(
                "At 81 all, nobody scores but belote; the whole deal waits for the winner of the next deal."
            )
        else:
            expect(litige.locator("option:checked")).to_have_text("les preneurs attendent")
            litige.select_option("hold")
            expect(help_).to_have_text(
                "À 81 partout, personne ne marque sauf la belote ; "
                "toute la donne attend le gagnant de la donne suivante."
            )
        expect(page.get_by_role("combobox", name=re.compile("litige"))).to_have_attribute(
            "aria-describedby", "litige-help"
        )
        # A sheet with its problems said, and with deals.
        start_sheet(page, base_url)
        page.fill("#cards", "170")
        page.click("#add")
        expect(page.locator(".field-error")).to_have_count(2)
        assert page.evaluate(CUT) == [], f"{locale} sheet with problems"
        enter_deal(page, "NS", 108, belote="NS")
        assert page.evaluate(CUT) == [], f"{locale} sheet"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert tab.errors == []


SIZES = {"390": PHONE, "1280": {"viewport": {"width": 1280, "height": 800}}}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_axe_finds_no_serious_violation(
    open_tab: Callable[..., Tab], base_url: str, artifacts: Path, locale: str, size: str
) -> None:
    tab = open_tab(**SIZES[size], locale=locale)
    page = tab.page

    def shot(name: str) -> None:
        page.screenshot(path=str(artifacts / f"scores-{name}-{locale[:2]}-{size}.png"), full_page=True)

    page.goto(f"{base_url}/scores")
    expect(page.locator("#setup")).to_be_visible()
    assert_no_serious(page, f"the setup ({locale}, {size} px)")
    shot("setup")
    page.check('input[name="variant"][value="coinche"]')
    assert_no_serious(page, f"the setup of Coinche ({locale}, {size} px)")
    page.check('input[name="variant"][value="classic"]')
    # A problem of the setup said.
    page.fill("#name-ew", "ns")
    page.click("#setup-form button[type=submit]")
    expect(page.locator(".field-error")).to_have_count(1)
    assert_no_serious(page, f"the setup with a problem ({locale}, {size} px)")

    start_sheet(page, base_url)
    assert_no_serious(page, f"an empty sheet ({locale}, {size} px)")
    shot("empty")
    page.click("#add")
    expect(page.locator(".field-error")).to_have_count(2)
    assert_no_serious(page, f"a sheet with problems ({locale}, {size} px)")
    shot("problems")
    enter_deal(page, "NS", 108, belote="NS")
    enter_deal(page, "EW", 74, declarations=(0, 20))
    page.route("**/deals", lambda route: route.fulfill(status=400, json={"error": "refused", "code": "full"}))
    enter_deal(page, "NS", 90)
    expect(page.locator("#deal-error")).to_be_visible()
    page.unroute("**/deals")
    assert_no_serious(page, f"a sheet with deals and a refusal ({locale}, {size} px)")
    shot("deals")
    enter_deal(page, "NS", 90)
    expect(page.locator("#over")).to_be_visible()
    assert_no_serious(page, f"a sheet over ({locale}, {size} px)")
    shot("over")
    assert tab.unexpected_errors(*HANDLED) == []
