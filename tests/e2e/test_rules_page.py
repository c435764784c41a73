"""The rules page in a real browser: on phones of 390 and 360 px and a desktop, in English and French.

Nothing is wider than the window but the tables, each in its own scroll box; the contents lead to
the sections; the language switch and the link back to the table go where they say.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

Tab = Any  # ``open_tab`` (tests/e2e/conftest.py): ``.page`` and ``.errors``

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
NARROW = {**PHONE, "viewport": {"width": 360, "height": 740}}
DEVICES = {"phone": PHONE, "narrow": NARROW, "desktop": DESKTOP}
TITLES = {"en": "How to play Belote", "fr": "Les règles de la belote"}
SECTIONS = {"en": "Scoring a deal", "fr": "Compter les points"}

# Every element wider than the window, or reaching past its right edge, that is not inside a
# table's scroll box: (tag, class, left, right).
TOO_WIDE = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest(".table-wrap table")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (r.left < -0.5 || r.right > width + 0.5) out.push([el.tagName, el.className, r.left, r.right]);
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("device", list(DEVICES))
def test_the_page_fits_the_window(
    open_tab: Callable[..., Tab], base_url: str, artifacts: Path, lang: str, device: str
) -> None:
    tab = open_tab(**DEVICES[device])
    page = tab.page
    page.goto(f"{base_url}/rules?lang={lang}")
    expect(page.locator("h1")).to_have_text(TITLES[lang])
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.evaluate("document.documentElement.scrollWidth") == page.evaluate(
        "document.documentElement.clientWidth"
    ), "the page scrolls sideways"
    assert page.evaluate(TOO_WIDE) == []
    # The tables are all in scroll boxes, and none of those is wider than the page's text.
    assert page.locator("main table").count() == 3
    assert page.locator("article .table-wrap > table").count() == 3
    sheet_right = page.evaluate("document.querySelector('article').getBoundingClientRect().right")
    for right in page.eval_on_selector_all(".table-wrap", "els => els.map(e => e.getBoundingClientRect().right)"):
        assert right <= sheet_right
    page.screenshot(path=str(artifacts / f"rules-{device}-{lang}.png"))
    # The first table and the last (Coinche's scores, the widest), each at the top of the window.
    for n, name in ((0, "cards"), (2, "coinche")):
        page.locator("article .table-wrap").nth(n).evaluate("e => e.scrollIntoView()")
        page.screenshot(path=str(artifacts / f"rules-{device}-{lang}-{name}.png"))
    assert tab.errors == []


def test_the_contents_lead_to_the_sections(open_tab: Callable[..., Tab], base_url: str, artifacts: Path) -> None:
    tab = open_tab(**PHONE)
    page = tab.page
    page.goto(f"{base_url}/rules?lang=fr")
    page.locator("nav.toc").get_by_role("link", name=SECTIONS["fr"]).click()
    expect(page).to_have_url(f"{base_url}/rules?lang=fr#scoring")
    heading = page.locator("h2#scoring")
    expect(heading).to_be_in_viewport()
    # Below the sticky header, not under it.
    header_bottom = page.evaluate("document.querySelector('header.bar').getBoundingClientRect().bottom")
    assert heading.bounding_box()["y"] >= header_bottom
    page.screenshot(path=str(artifacts / "rules-phone-fr-scoring.png"))
    assert tab.errors == []


def test_the_language_switch_and_the_way_back(open_tab: Callable[..., Tab], base_url: str) -> None:
    tab = open_tab(**DESKTOP, locale="fr-FR")
    page = tab.page
    page.goto(f"{base_url}/rules")
    expect(page.locator("h1")).to_have_text(TITLES["fr"])  # the browser's language
    page.get_by_test_id("lang").click()
    expect(page.locator("h1")).to_have_text(TITLES["en"])
    expect(page).to_have_url(f"{base_url}/rules?lang=en")
    expect(page.get_by_test_id("lang")).to_have_text("Français")
    page.get_by_test_id("back").click()
    expect(page).to_have_url(f"{base_url}/")
    assert tab.unexpected_errors() == []
