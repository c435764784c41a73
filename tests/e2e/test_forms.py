"""The settings forms in a real browser: the table's and the score sheet's are one form, built from
``GET /api/games``, so for each game they show the options the server describes, with its choices
and ranges, and what a form sends is what the server keeps.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

Tab = Any

# Every control a form shows, by name: its kind and its values (a list's choices, a number's range).
# The name and starting-score fields of the sheet, the table's name and language are not options.
DESCRIBE_JS = """form => {
  const out = {};
  for (const el of form.querySelectorAll("select, input")) {
    if (!el.name || el.name === "variant" || el.name === "name" || /^(name|start)-/.test(el.name)) continue;
    if (el.closest("[hidden]") || el.offsetParent === null) continue;
    if (el.tagName === "SELECT") out[el.name] = {kind: "choice", choices: [...el.options].map(o => o.value)};
    else if (el.type === "checkbox") out[el.name] = {kind: "bool"};
    else out[el.name] = {kind: "int", min: Number(el.min), max: Number(el.max)};
  }
  return out;
}"""


# The keys a form shows in place of words it has none for (a label, a choice, a group's title).
UNTRANSLATED_JS = """form => [...form.querySelectorAll("[data-i18n]")]
  .filter(el => (el.offsetParent !== null || el.tagName === "OPTION") && el.textContent === el.dataset.i18n)
  .map(el => el.dataset.i18n)"""


def spec_of(base_url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{base_url}/api/games") as answer:
        found: dict[str, Any] = json.load(answer)
    return found


def shown(page: Any, form: str, prefix: str) -> dict[str, Any]:
    """The controls the form shows, with the line of the match asked both ways (another number of
    points, a number of deals) and rounding on (its five is asked then)."""
    fields: dict[str, Any] = {}
    rounding = page.get_by_test_id(f"{prefix}-rounding")
    if rounding.is_visible():
        rounding.check()
    for line in ("other", "deals"):
        page.get_by_test_id(f"{prefix}-target").select_option(line)
        fields.update(page.locator(form).evaluate(DESCRIBE_JS))
    page.get_by_test_id(f"{prefix}-target").select_option("501")
    if rounding.is_visible():
        rounding.uncheck()
    return fields


def expected(spec: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The controls of the options ``names`` as the spec describes them: the line of the match is a
    list (501, 1000, another number, a number of deals) and two numbers, the points and the deals."""
    options = {o["name"]: o for o in spec["options"] + spec["table_settings"]}
    out: dict[str, Any] = {}
    for name in names:
        o = options[name]
        if name == "variant":
            continue
        if name == "target":
            out["target"] = {"kind": "choice", "choices": ["501", "1000", "other", "deals"]}
            out["points"] = {"kind": "int", "min": o["min"], "max": o["max"]}
        elif name == "deals":
            out["deals"] = {"kind": "int", "min": o["min"], "max": o["max"]}
        elif o["kind"] == "choice":
            out[name] = {"kind": "choice", "choices": [str(c) for c in o["choices"]]}
        elif o["kind"] == "int":
            out[name] = {"kind": "int", "min": o["min"], "max": o["max"]}
        else:
            out[name] = {"kind": "bool"}
    return out


def test_the_table_and_the_score_sheet_show_each_game_s_options_alike(
    open_tab: Callable[..., Tab], base_url: str
) -> None:
    spec = spec_of(base_url)
    table_only = {o["name"] for o in spec["options"] if not o.get("table", True)}
    tab = open_tab(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = tab.page
    for game in spec["games"]:
        name = game["name"]
        # Sequences are never declared at two hands: the option that turns them off is not asked.
        moot = set() if game["declarations"] else {"declarations"}

        page.goto(base_url)
        expect(page.get_by_test_id("settings-dialog")).to_be_visible()
        page.get_by_test_id("mode-create").click()
        page.get_by_test_id(f"create-variant-{name}").click()
        table = shown(page, '[data-testid="create-form"]', "create")
        table_settings = ["strength", "speed", "turn_timer", "rated", "open"]
        at_table = [n for n in game["options"] if n not in table_only | moot] + table_settings
        assert table == expected(spec, at_table), name
        assert page.locator('[data-testid="create-form"]').evaluate(UNTRANSLATED_JS) == []

        page.goto(f"{base_url}/scores")
        expect(page.locator("#setup")).to_be_visible()
        page.get_by_test_id(f"sheet-variant-{name}").click()
        sheet = shown(page, "#setup-form", "sheet")
        assert sheet == expected(spec, [n for n in game["sheet_options"] if n not in moot]), name
        assert page.locator("#setup-form").evaluate(UNTRANSLATED_JS) == []

        # What both show, they show alike: the same choices, the same ranges.
        both = set(table) & set(sheet)
        assert {"target", "points", "deals", "rounding", "round_five"} <= both
        assert {n: table[n] for n in both} == {n: sheet[n] for n in both}, name
    assert tab.errors == []


@pytest.mark.parametrize("lang", ["en-GB", "fr-FR"])
def test_a_coinche_sheet_made_from_the_form_has_the_options_chosen(
    open_tab: Callable[..., Tab], base_url: str, lang: str
) -> None:
    tab = open_tab(locale=lang)
    page = tab.page
    page.goto(f"{base_url}/scores")
    expect(page.locator("#setup")).to_be_visible()
    page.get_by_test_id("sheet-variant-coinche").click()
    expect(page.get_by_test_id("sheet-group-coinche")).to_be_visible()
    assert page.locator("#setup-form").evaluate(UNTRANSLATED_JS) == []
    page.get_by_test_id("sheet-target").select_option("other")
    page.get_by_test_id("sheet-points").fill("701")
    page.get_by_test_id("sheet-coinche-max-bid").select_option("180")
    page.get_by_test_id("sheet-coinche-made").select_option("bid")
    page.get_by_test_id("sheet-coinche-failed").select_option("162")
    page.get_by_test_id("sheet-surcoinche").select_option("3")
    page.get_by_test_id("sheet-no-trump-all-trump").uncheck()
    page.get_by_test_id("sheet-generale").check()
    page.get_by_test_id("sheet-rounding").check()
    page.get_by_test_id("sheet-round-five").select_option("up")
    page.get_by_test_id("sheet-belote-counts").uncheck()
    page.get_by_test_id("sheet-litige").select_option("hold")
    page.fill("#name-ns", "Nous")
    page.fill("#name-ew", "Eux")
    page.click("#setup-form button[type=submit]")
    expect(page.locator("#sheet")).to_be_visible()

    sheet_id = page.url.split("sheet=")[1]
    with urllib.request.urlopen(f"{base_url}/api/sheets/{sheet_id}") as answer:
        sheet = json.load(answer)
    assert sheet["variant"] == "coinche"
    assert sheet["rules"] == {
        "variant": "coinche",
        "target": 701,
        "deals": None,
        "coinche_max_bid": 180,
        "coinche_made": "bid",
        "coinche_failed": 162,
        "surcoinche": 3,
        "no_trump_all_trump": False,
        "generale": True,
        "declarations": True,
        "rounding": True,
        "round_five": "up",
        "belote_counts": False,
        "litige": "hold",
    }
    # The deal form follows them: bids up to 180, then capot and the générale; no no-trumps.
    levels = page.locator("#level option").evaluate_all("os => os.map(o => o.value)")
    assert levels[-4:] == ["170", "180", "capot", "generale"]
    expect(page.locator('#deal-form input[name="mode"][value="NT"]')).to_be_hidden()
    assert tab.errors == []


@pytest.mark.parametrize(("locale", "lang"), [("fr-FR", "fr"), ("fr-CA", "fr"), ("de-DE", "en"), ("en-US", "en")])
def test_the_table_opens_in_the_browser_s_language_and_keeps_the_one_chosen(
    open_tab: Callable[..., Tab], base_url: str, locale: str, lang: str
) -> None:
    tab = open_tab(viewport={"width": 390, "height": 844}, locale=locale)
    page = tab.page
    page.goto(base_url)
    expect(page.get_by_test_id("settings-lang")).to_have_value(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    other = "en" if lang == "fr" else "fr"
    page.get_by_test_id("settings-lang").select_option(other)
    expect(page.locator("html")).to_have_attribute("lang", other)
    page.reload()
    expect(page.get_by_test_id("settings-lang")).to_have_value(other)
    expect(page.locator("html")).to_have_attribute("lang", other)


# The seats' names as the page shows them, with whether each is cut (shown with an ellipsis).
CUT_NAMES_JS = """() => [...document.querySelectorAll('.felt .seat-label .name')]
  .filter(el => el.offsetParent !== null)
  .map(el => [el.textContent, el.scrollWidth > el.clientWidth + 0.5])"""


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize("locale", ["fr-FR", "en-GB"])
def test_no_seat_name_is_cut_on_a_phone(open_tab: Callable[..., Tab], base_url: str, width: int, locale: str) -> None:
    tab = open_tab(viewport={"width": width, "height": 780}, locale=locale, has_touch=True, is_mobile=True)
    page = tab.page
    page.goto(base_url)
    page.get_by_test_id("settings-start").click()
    page.wait_for_function("() => window.__belote.view !== null")
    names = page.evaluate(CUT_NAMES_JS)
    assert len(names) == 4
    assert [name for name, cut in names if cut] == [], names


def test_a_game_or_a_choice_without_words_is_shown_as_the_server_names_it(
    open_tab: Callable[..., Tab], base_url: str
) -> None:
    """A game and a choice the page has no words for (a newer server's): the form names the game by
    its title in GET /api/games and the choice by its value, never by a key of words it lacks."""
    spec = spec_of(base_url)
    spec["games"].append({**spec["games"][0], "name": "fifth", "title": "the fifth game"})
    for option in spec["options"]:
        if option["name"] in ("litige", "round_five"):
            option["choices"] = [*option["choices"], "sideways"]
    tab = open_tab(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = tab.page
    page.route("**/api/games", lambda route: route.fulfill(json=spec))
    for lang in ("en", "fr"):
        page.goto(f"{base_url}/scores?lang={lang}")
        expect(page.locator("#setup")).to_be_visible()
        expect(page.get_by_test_id("sheet-variant-fifth")).to_have_text("the fifth game")
        page.get_by_test_id("sheet-rounding").check()
        for name in ("litige", "round_five"):
            choice = page.locator(f'#setup-form select[name="{name}"] option[value="sideways"]')
            expect(choice).to_have_text("sideways")
        assert page.locator("#setup-form").evaluate(UNTRANSLATED_JS) == []
    assert tab.errors == []
