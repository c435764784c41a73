from axe import serious_violations, describe
from test_scores_page import PHONE, start_sheet, enter_deal

def test_scratch(open_tab, base_url, artifacts):
    for lang in ("en-GB", "fr-FR"):
        tab = open_tab(**PHONE, locale=lang)
        page = tab.page
        page.goto(f"{base_url}/scores")
        page.wait_for_selector("#setup:not([hidden])")
        print(lang, describe(serious_violations(page)))
        print(page.evaluate("""[...document.querySelectorAll('select, label, .field span')].filter(e => e.offsetParent).map(e => [e.name||e.textContent.slice(0,30), e.scrollWidth, e.clientWidth])"""))
        page.screenshot(path=str(artifacts / f"scratch-setup-{lang}.png"), full_page=True)
        start_sheet(page, base_url)
        print(lang, describe(serious_violations(page)))
        enter_deal(page, "NS", 170)
        print(lang, describe(serious_violations(page)))
        page.screenshot(path=str(artifacts / f"scratch-sheet-{lang}.png"), full_page=True)
