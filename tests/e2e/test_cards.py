"""The card faces at the table, in a real browser: all 32 cards of the French deck drawn in the hand,
in a trick and in the last-trick view, on phones (390 x 844 in French, 360 x 740 in English; touch, twice
the pixels) and at 1280 x 800.

A solo deal is played up to South's first card, so that the page is laid out as in play; then the
hand, the trick and the last-trick view are filled with cards by the page's own ``cardFace``, in the
markup the table uses (the trick in a box of the trick's class put in its place, since the page
redraws its own trick). Every index (rank and suit, in both corners) must lie inside its card and clear
of the pips or the court picture; it must be large enough to read and dark enough on the card.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from axe import assert_no_serious
from table_fixtures import DESKTOP, PHONE, contrast, open_solo

SUITS = "SHDC"
RANKS = "789TJQKA"
DECK = [r + s for s in SUITS for r in RANKS]
LABELS = {
    "en": {"7": "7", "8": "8", "9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"},
    "fr": {"7": "7", "8": "8", "9": "9", "T": "10", "J": "V", "Q": "D", "K": "R", "A": "A"},
}
PIP_COUNT = {"7": 7, "8": 8, "9": 9, "T": 10, "A": 1}
# A hand and a trick to look at: every kind of face, two tens.
SHOWN_HAND = ["JH", "9H", "AH", "TS", "KS", "QD", "7C", "TC"]
SHOWN_TRICK = ["TD", "KH", "QC", "AS"]

READY_JS = """() => { const b = window.__belote; const v = b && b.view;
  return !!v && b.connected && (b.waiting === 'continue' || v.to_move === 'S'); }"""

# Draws cards where the table draws them, in the table's markup, and measures them.
DRAW_JS = """async ({cards, lang, place}) => {
  const { cardFace } = await import("/static/cards.js");
  const face = (c) => cardFace(c, lang);
  const seats = ["N", "E", "S", "W"];
  let holder;
  if (place === "hand") {
    holder = document.querySelector('[data-testid="hand"]');
    holder.style.setProperty("--n", String(cards.length));
    holder.innerHTML = cards.map((c, i) =>
      `<button type="button" class="card" data-testid="hand-card" data-card="${c}" data-legal="false" ` +
      `data-index="${i + 1}" aria-label="${c}" title="${i + 1}">${face(c)}</button>`).join("");
  } else {
    const last = place === "last";
    if (last) document.querySelector('[data-testid="last-trick"]').hidden = false;
    holder = document.querySelector(last ? ".last-trick-cards" : '[data-testid="sample-trick"]');
    if (!holder) {
      // A trick box of our own in the trick's place: the page puts its own trick back on each render.
      const trick = document.querySelector('[data-testid="trick"]');
      holder = document.createElement("div");
      holder.className = "trick";
      holder.dataset.testid = "sample-trick";
      trick.after(holder);
      trick.style.display = "none";
    }
    const testid = last ? "last-trick-card" : "trick-card";
    holder.innerHTML = cards.map((c, i) =>
      `<div class="trick-card pos-${seats[i]}" data-testid="${testid}" data-seat="${seats[i]}" ` +
      `data-card="${c}" title="${seats[i]}">${face(c)}</div>`).join("");
  }
  // the cards' own entry (the trick's deal-in), not any that would never end
  const ends = holder.getAnimations({ subtree: true }).filter((a) => a.effect.getTiming().iterations !== Infinity);
  await Promise.all(ends.map((a) => a.finished));
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return [...holder.querySelectorAll("[data-card]")].map((el) => {
    const svg = el.querySelector("svg.card-svg");
    const corners = [...svg.querySelectorAll(".card-index")];
    const middle = svg.querySelector(".card-pips, .card-figure");
    const figure = svg.querySelector(".card-figure");
    return {
      card: el.dataset.card,
      box: box(svg),
      ranks: corners.map((g) => box(g.querySelector(".card-rank"))),
      suits: corners.map((g) => box(g.querySelector(".card-index-suit"))),
      // an index is the page's lettering, drawn by reference (cards.js): the text it draws
      labels: corners.map((g) => document.querySelector(g.querySelector(".card-rank").getAttribute("href")))
        .map((drawn) => drawn.textContent),
      text: el.textContent,
      ink: corners.map((g) => g.querySelector(".card-rank").getAttribute("fill")),
      paper: svg.querySelector(".card-paper").getAttribute("fill"),
      middle: middle ? box(middle) : null,
      pips: svg.querySelector(".card-pips") ? svg.querySelector(".card-pips").children.length : 0,
      figure: figure ? figure.querySelectorAll("path, circle, ellipse").length : 0,
    };
  });
}"""

Box = list[float]


def inside(inner: Box, outer: Box) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def start_deal(page: Any, url: str, lang: str) -> None:
    """A solo table with easy, fast bots, played (taking at the first chance) up to South's first card."""
    open_solo(page, url, lang)
    for _ in range(20):
        page.wait_for_function(READY_JS, timeout=30_000)
        state = page.evaluate("() => ({view: window.__belote.view, waiting: window.__belote.waiting})")
        if state["waiting"] == "continue":
            page.get_by_test_id("continue").click()
            page.wait_for_function("() => window.__belote.waiting !== 'continue'")
        elif state["view"]["phase"] == "bidding":
            choice = next((b for b in state["view"]["legal"] if b != "pass"), "pass")
            last = page.evaluate("() => window.__belote.last")
            page.get_by_test_id(f"bid-{choice}").click()
            page.wait_for_function("n => window.__belote.last > n", arg=last)
        else:
            return
    raise AssertionError("South never came to play a card")


def check_faces(shown: list[dict[str, Any]], lang: str, where: str, min_index_px: float) -> None:
    for c in shown:
        card, rank = c["card"], c["card"][0]
        what = f"{card} in the {where}"
        assert c["labels"] == [LABELS[lang][rank]] * 2, what
        # No letters of its own: a card button's label is its picture, and its name says it (cardName).
        assert c["text"] == "", f"{what}: the face holds the text {c['text']!r}"
        assert len(c["ranks"]) == len(c["suits"]) == 2, what
        for part in c["ranks"] + c["suits"]:
            assert inside(part, c["box"]), f"{what}: an index at {part} is not inside the card {c['box']}"
            assert not overlap(part, c["middle"]), f"{what}: an index at {part} runs into {c['middle']}"
        for part in c["ranks"]:
            assert part[3] - part[1] >= min_index_px, f"{what}: an index {part[3] - part[1]:.1f} px high"
        assert all(contrast(ink, c["paper"]) >= 4.5 for ink in c["ink"]), f"{what}: {c['ink']} on {c['paper']}"
        if rank in "JQK":
            assert c["pips"] == 0 and c["figure"] >= 30, f"{what}: no court figure ({c['figure']} shapes)"
        else:
            assert c["figure"] == 0 and c["pips"] == PIP_COUNT[rank], f"{what}: {c['pips']} pips"


def check_hand_indices_seen(shown: list[dict[str, Any]]) -> None:
    """In the hand the cards overlap: each one's top index must show left of the next card."""
    for c, following in pairwise(shown):
        assert c["ranks"][0][2] <= following["box"][0], f"{c['card']}: its index is under {following['card']}"
        assert c["suits"][0][2] <= following["box"][0], f"{c['card']}: its suit is under {following['card']}"


SMALL_PHONE = {**PHONE, "viewport": {"width": 360, "height": 740}}
SIZES = [("phone", PHONE, "fr"), ("small-phone", SMALL_PHONE, "en"), ("desktop", DESKTOP, "en")]


@pytest.mark.parametrize(("name", "options", "lang"), SIZES, ids=[s[0] for s in SIZES])
def test_every_card_fits_its_indices_at_the_table(
    open_tab: Callable[..., Any], base_url: str, artifacts: Path, name: str, options: dict[str, Any], lang: str
) -> None:
    tab = open_tab(**options)
    page = tab.page
    start_deal(page, base_url, lang)

    def draw(cards: list[str], place: str) -> list[dict[str, Any]]:
        shown: list[dict[str, Any]] = page.evaluate(DRAW_JS, {"cards": cards, "lang": lang, "place": place})
        return shown

    for s in SUITS:
        hand = [r + s for r in RANKS]
        shown = draw(hand, "hand")
        assert [c["card"] for c in shown] == hand
        check_faces(shown, lang, "hand", 16)
        check_hand_indices_seen(shown)
    for k in range(0, 32, 4):
        shown = draw(DECK[k : k + 4], "trick")
        assert [c["card"] for c in shown] == DECK[k : k + 4]
        check_faces(shown, lang, "trick", 16)
    for k in range(0, 32, 4):
        shown = draw(DECK[k : k + 4], "last")
        check_faces(shown, lang, "last-trick view", 16)
    page.get_by_test_id("last-trick-close").click()
    expect(page.get_by_test_id("last-trick")).to_be_hidden()

    shown = draw(SHOWN_HAND, "hand")
    check_hand_indices_seen(shown)
    draw(SHOWN_TRICK, "trick")
    page.screenshot(path=str(artifacts / f"cards-{name}.png"))
    draw(SHOWN_TRICK, "last")
    page.screenshot(path=str(artifacts / f"cards-{name}-last-trick.png"))
    assert tab.unexpected_errors() == []


SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
WORDS = {
    "en": (
        "{} of {}",
        ["seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"],
        ["spades", "hearts", "diamonds", "clubs"],
    ),
    "fr": (
        "{} de {}",
        ["sept", "huit", "neuf", "dix", "valet", "dame", "roi", "as"],
        ["pique", "cœur", "carreau", "trèfle"],
    ),
}


@pytest.mark.parametrize(("lang", "options"), [("en", DESKTOP), ("fr", PHONE)], ids=["en", "fr"])
def test_a_card_in_hand_is_named_by_what_it_shows(
    open_tab: Callable[..., Any], base_url: str, lang: str, options: dict[str, Any]
) -> None:
    """A card button's name begins with what its face shows (its index and suit), then says the card
    in words: "J♥, jack of hearts", "V♥, valet de cœur"; axe's label-in-name check finds nothing."""
    tab = open_tab(**options)
    page = tab.page
    start_deal(page, base_url, lang)
    named = page.eval_on_selector_all(
        '[data-testid="hand-card"]', "els => els.map((e) => [e.dataset.card, e.getAttribute('aria-label')])"
    )
    assert len(named) == 8
    phrase, ranks, suits = WORDS[lang]
    for card, name in named:
        rank, suit = card[0], card[1]
        shown = LABELS[lang][rank] + SYMBOLS[suit]
        words = phrase.format(ranks[RANKS.index(rank)], suits[SUITS.index(suit)])
        assert name.split(", ")[:2] == [shown, words], (card, name)
    assert_no_serious(page, f"the hand ({lang})", include='[data-testid="hand"]')
    assert_no_serious(page, f"the table ({lang})")
    assert tab.unexpected_errors() == []
