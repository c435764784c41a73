"""The rules page: its markdown renderer on small pieces, and ``GET /rules`` in both languages."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from starlette.testclient import TestClient

from belote.server.assets import Assets
from belote.server.rules_page import WEB, choose_lang, contents, document, inline, render

NNBSP, NBSP = "\u202f", "\u00a0"


# ----------------------------------------------------------------- the renderer


def test_headings_take_their_anchor_or_a_slug_and_the_first_is_the_title() -> None:
    doc = render("# How to play {#rules}\n\n## Deal {#deal}\n\n### Two & more\n\n## Deal\n")
    assert doc.title == "How to play"
    assert doc.html == (
        '<h1 id="rules">How to play</h1>\n'
        '<h2 id="deal"><a href="#deal">Deal</a></h2>\n'
        '<h3 id="two-more"><a href="#two-more">Two &amp; more</a></h3>\n'
        '<h2 id="deal-2"><a href="#deal-2">Deal</a></h2>\n'
    )
    assert [(h.level, h.anchor) for h in doc.headings] == [(2, "deal"), (3, "two-more"), (2, "deal-2")]


def test_a_paragraph_joins_its_lines_and_ends_at_a_blank_line_or_a_list() -> None:
    assert render("Three cards,\nthen two.\n\nThe next\n- turned").html == (
        "<p>Three cards, then two.</p>\n<p>The next</p>\n<ul>\n<li>turned</li>\n</ul>\n"
    )


def test_lists_with_continuation_lines_and_a_nested_list() -> None:
    md = "- **When you cannot follow:**\n  - partner winning: any card;\n  - else cut,\n    and overtrump\n- discard\n"
    assert render(md).html == (
        "<ul>\n"
        "<li><strong>When you cannot follow:</strong>\n"
        "<ul>\n<li>partner winning: any card;</li>\n<li>else cut, and overtrump</li>\n</ul></li>\n"
        "<li>discard</li>\n"
        "</ul>\n"
    )


def test_a_numbered_line_inside_an_item_is_text_unless_it_starts_from_one() -> None:
    md = "1. North and South score\n   162. The score is 500.\n\n2. South takes\n"
    assert (
        render(md).html == "<ol>\n<li>North and South score 162. The score is 500.</li>\n<li>South takes</li>\n</ol>\n"
    )


def test_tables_align_numbers_right_and_keep_an_escaped_bar() -> None:
    md = "| case | takers |\n|---|--:|\n| made \\| kept | 20 |\n| *failed* |\n"
    assert render(md).html == (
        '<div class="table-wrap"><table>\n'
        '<thead><tr><th>case</th><th class="num">takers</th></tr></thead>\n'
        "<tbody>\n"
        '<tr><td>made | kept</td><td class="num">20</td></tr>\n'
        '<tr><td><em>failed</em></td><td class="num"></td></tr>\n'
        "</tbody>\n</table></div>\n"
    )


def test_inline_strong_emphasis_code_links_and_red_suits() -> None:
    assert inline("**Made.** the *dix de der*, `litige=carry`, [see](#scoring) 110♥ 80♠") == (
        "<strong>Made.</strong> the <em>dix de der</em>, <code>litige=carry</code>, "
        '<a href="#scoring">see</a> 110<span class="red">♥</span> 80♠'
    )
    assert inline("2 * 3 * 4 and snake_case") == "2 * 3 * 4 and snake_case"
    assert inline("the dealer's left, the takers' points") == "the dealer’s left, the takers’ points"


def test_everything_is_escaped() -> None:
    doc = render(
        "## <script>alert(1)</script>\n\nA <b>bold</b> & `<i>code</i>`\n\n"
        '| <td> |\n|---|\n| "q" <img src=x> |\n\n```\n</pre><script>\n```\n'
    )
    assert "<script>" not in doc.html and "<b>" not in doc.html and "<img" not in doc.html
    heading = "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert f'<h2 id="script-alert-1-script"><a href="#script-alert-1-script">{heading}</a></h2>' in doc.html
    assert "<p>A &lt;b&gt;bold&lt;/b&gt; &amp; <code>&lt;i&gt;code&lt;/i&gt;</code></p>" in doc.html
    assert '<td>"q" &lt;img src=x&gt;</td>' in doc.html
    assert "<pre><code>&lt;/pre&gt;&lt;script&gt;</code></pre>" in doc.html


def test_links_the_page_would_not_follow_are_text_and_urls_are_quoted() -> None:
    assert inline("[x](javascript:alert)") == "x"
    assert inline("[x](data:text/html,hi)") == "x"
    assert inline('[y](https://a.b/?q=1&r="2")') == '<a href="https://a.b/?q=1&amp;r=&quot;2&quot;">y</a>'
    assert inline("[z](/rules?lang=fr#deal)") == '<a href="/rules?lang=fr#deal">z</a>'


def test_french_typography_keeps_punctuation_with_its_word() -> None:
    assert inline("dedans : la défense ; « belote » ! 1 080 points", french=True) == (
        f"dedans{NNBSP}: la défense{NNBSP}; «{NNBSP}belote{NNBSP}»{NNBSP}! 1{NBSP}080 points"
    )
    assert inline("a : b `x : y`", french=False) == "a : b <code>x : y</code>"
    assert inline("`x : y`", french=True) == "<code>x : y</code>"


def test_the_contents_nest_the_level_3_headings() -> None:
    doc = render("# T\n## A {#a}\n### A1 {#a1}\n### A2 {#a2}\n## B {#b}\n#### deep\n")
    assert contents(doc) == (
        '<ol>\n<li><a href="#a">A</a><ol><li><a href="#a1">A1</a></li><li><a href="#a2">A2</a></li></ol></li>\n'
        '<li><a href="#b">B</a></li>\n</ol>'
    )


# ----------------------------------------------------------------- the two pages


def test_both_languages_have_the_same_sections_tables_and_numbers() -> None:
    en, fr = document("en"), document("fr")
    anchors = [h.anchor for h in en.headings]
    assert anchors == [
        "cards", "deal", "bidding", "play", "declarations", "belote", "scoring", "example", "match",
        "options", "variants", "coinche", "three-handed", "two-handed",
    ]  # fmt: skip
    assert [h.anchor for h in fr.headings] == anchors
    assert [h.level for h in fr.headings] == [h.level for h in en.headings]

    def shape(html: str) -> list[int]:  # the rows of each table, the items of each list
        return [len(re.findall("<tr>", t)) for t in html.split("<table>")[1:]] + [
            len(re.findall("<li>", block)) for block in re.findall("<[ou]l>.*?</[ou]l>", html, re.S)
        ]

    assert shape(fr.html) == shape(en.html)

    def numbers(html: str) -> Counter[str]:  # 1,000 and 1 000 are one number
        text = re.sub(r"(?<=\d)[ ,\u00a0\u202f](?=\d{3}\b)", "", re.sub("<[^>]+>", " ", html))
        return Counter(re.findall(r"\d+", text))

    assert numbers(fr.html) == numbers(en.html)
    counts = numbers(en.html)
    assert (counts["162"], counts["501"], counts["1000"], counts["252"]) == (7, 3, 3, 2)


def test_the_french_page_speaks_like_a_french_table() -> None:
    text = document("fr").html
    for word in (
        "atout", "couper", "surcouper", "sous-couper", "monte", "Fournir", "pisse", "se défausse", "preneur", "Dedans",
        "Litige", "Capot", "Belote et rebelote", "tierce", "cinquante", "cent", "carré", "dix de der", "coincher",
        "surcoincher", "retourne", "sans atout", "tout atout", "générale",
    ):  # fmt: skip
        assert word in text, word


def test_the_markdown_ships_with_the_page() -> None:
    # pyproject's package-data ships ``web/*``: the pages must live there, not in docs/.
    assert (WEB / "rules.en.md").is_file() and (WEB / "rules.fr.md").is_file()
    assert WEB.parent.name == "belote"


# ----------------------------------------------------------------- GET /rules


@pytest.mark.parametrize(
    ("asked", "accept", "lang"),
    [
        (None, "fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        (None, "fr-CA", "fr"),
        (None, "en-GB,en;q=0.9", "en"),
        (None, "de-DE,de;q=0.9,fr-BE;q=0.7,en;q=0.5", "fr"),
        (None, "en;q=0.5,fr;q=0.8", "fr"),
        (None, "fr;q=0,en", "en"),
        (None, "es", "en"),
        (None, "", "en"),
        ("en", "fr-FR", "en"),
        ("fr", "en-US", "fr"),
        ("de", "fr-FR", "fr"),
    ],
)
def test_the_language_is_the_one_asked_for_or_the_browsers(asked: str | None, accept: str, lang: str) -> None:
    assert choose_lang(asked, accept) == lang


def test_rules_are_served_in_the_browsers_language(client: TestClient) -> None:
    fr = client.get("/rules", headers={"Accept-Language": "fr-CH, en;q=0.5"})
    assert fr.status_code == 200
    assert fr.headers["content-type"] == "text/html; charset=utf-8"
    assert fr.headers["content-language"] == "fr"
    assert "Accept-Language" in fr.headers["vary"]
    assert '<html lang="fr">' in fr.text
    assert "<title>Les règles de la belote</title>" in fr.text
    assert '<h2 id="toc-title">Sommaire</h2>' in fr.text
    assert '<a class="btn primary" href="/" data-testid="back">Retour à la table</a>' in fr.text
    assert 'href="/rules?lang=en" lang="en" hreflang="en" data-testid="lang">English</a>' in fr.text

    en = client.get("/rules", headers={"Accept-Language": "en-US"})
    assert en.headers["content-language"] == "en"
    assert '<html lang="en">' in en.text and "<title>How to play Belote</title>" in en.text
    assert 'data-testid="lang">Français</a>' in en.text and ">Back to the table</a>" in en.text


def test_rules_lang_overrides_the_browser(client: TestClient) -> None:
    page = client.get("/rules?lang=fr", headers={"Accept-Language": "en"}).text
    assert '<html lang="fr">' in page
    assert page.count('<h2 id="scoring"><a href="#scoring">Compter les points</a></h2>') == 1
    assert page.count('<a href="#scoring">Compter les points</a>') == 2  # the heading and the contents


def test_the_page_links_every_section_and_its_stylesheet(client: TestClient) -> None:
    page = client.get("/rules?lang=en").text
    toc = page[page.index('<nav class="toc"') : page.index("</nav>", page.index('<nav class="toc"'))]
    for h in document("en").headings:
        assert f'<a href="#{h.anchor}">' in toc
        assert f'id="{h.anchor}"' in page
    build = Assets().build().hash  # the page's files are named by their build (server/assets.py)
    assert f'<link rel="stylesheet" href="/static/{build}/rules.css">' in page
    assert client.get(f"/static/{build}/rules.css").status_code == 200
