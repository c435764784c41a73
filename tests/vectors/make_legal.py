"""Write ``legal.jsonl``: play positions with the exact set of cards a player may play.

The legal sets come from the reference below, written straight from the play rules of seed 000
and kept plain on purpose: cards are strings like ``"JH"``, nothing is a bitmask and nothing is
imported from ``belote``. Run it from anywhere::

    python tests/vectors/make_legal.py

It rewrites ``legal.jsonl`` beside this file. The random positions come from a fixed seed, so the
file only changes when this script does. The ``hand-`` cases carry a legal set worked out by hand;
the script stops if the reference disagrees with any of them.

The rules, as the seed states them:

- Follow suit if you can.
- If you cannot, you must trump when the trick already belongs to the other side, and you must
  overtrump when you can. (A table option says whether you must still trump when you cannot
  overtrump: ``undertrump``.)
- If your partner is winning the trick, you may throw any card you like.
- When a trump is led, each player must play a higher trump than the best already down if they
  hold one.
- The highest trump wins the trick, otherwise the highest card of the suit led.

No trumps: follow suit, else play anything. All trumps: every suit ranks like trumps, so follow
suit and go higher in the suit led when you can; if you cannot follow, play anything.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

SUITS = "SHDC"
RANKS = "789TJQKA"
# Strongest first.
TRUMP_ORDER = "J9ATKQ87"
PLAIN_ORDER = "ATKQJ987"
MODES = ["S", "H", "D", "C", "NT", "AT"]

PACK = [rank + suit for suit in SUITS for rank in RANKS]


def suit_of(card: str) -> str:
    return card[1]


def rank_of(card: str) -> str:
    return card[0]


def canonical(cards: list[str]) -> list[str]:
    """Sort by suit S H D C, then rank 7 8 9 T J Q K A."""
    return sorted(cards, key=PACK.index)


def ranks_as_trumps(suit: str, mode: str) -> bool:
    """The trump suit, or every suit at all trumps, ranks J 9 A T K Q 8 7."""
    return mode == "AT" or suit == mode


def strength(card: str, mode: str) -> int:
    """How strong a card is inside its own suit: bigger beats smaller."""
    order = TRUMP_ORDER if ranks_as_trumps(suit_of(card), mode) else PLAIN_ORDER
    return len(order) - order.index(rank_of(card))


def is_trump(card: str, mode: str) -> bool:
    """A card that cuts: only a trump suit cuts (nothing cuts at no trumps or all trumps)."""
    return mode in SUITS and suit_of(card) == mode


def winning_card(trick: list[str], mode: str) -> str:
    """The highest trump wins the trick, otherwise the highest card of the suit led."""
    trumps = [card for card in trick if is_trump(card, mode)]
    if trumps:
        return max(trumps, key=lambda card: strength(card, mode))
    led = suit_of(trick[0])
    followers = [card for card in trick if suit_of(card) == led]
    return max(followers, key=lambda card: strength(card, mode))


def partner_is_winning(trick: list[str], mode: str) -> bool:
    """With two cards down your partner led; with three, your partner played second."""
    if len(trick) < 2:
        return False
    partner_card = trick[len(trick) - 2]
    return winning_card(trick, mode) == partner_card


def legal_cards(
    mode: str, hand: list[str], trick: list[str], partner_winning: bool, undertrump: bool
) -> tuple[list[str], str]:
    """The cards of ``hand`` that may be played, and the name of the rule that decided it."""
    if not trick:
        return canonical(hand), "lead"
    led = suit_of(trick[0])
    best = winning_card(trick, mode)
    of_suit_led = [card for card in hand if suit_of(card) == led]

    if mode == "NT":
        if of_suit_led:
            return canonical(of_suit_led), "no-trump-follow-suit"
        return canonical(hand), "no-trump-cannot-follow"

    if mode == "AT":
        if of_suit_led:
            higher = [card for card in of_suit_led if strength(card, mode) > strength(best, mode)]
            if higher:
                return canonical(higher), "all-trump-go-higher"
            return canonical(of_suit_led), "all-trump-cannot-go-higher"
        return canonical(hand), "all-trump-cannot-follow"

    trump = mode
    if led == trump:
        if of_suit_led:
            higher = [card for card in of_suit_led if strength(card, mode) > strength(best, mode)]
            if higher:
                return canonical(higher), "trump-led-go-higher"
            return canonical(of_suit_led), "trump-led-any-trump"
        return canonical(hand), "cannot-follow-no-trump"

    if of_suit_led:
        return canonical(of_suit_led), "follow-suit"
    trumps = [card for card in hand if suit_of(card) == trump]
    if not trumps:
        return canonical(hand), "cannot-follow-no-trump"
    if partner_winning:
        return canonical(hand), "partner-winning"
    if not is_trump(best, mode):
        return canonical(trumps), "must-trump"
    higher = [card for card in trumps if strength(card, mode) > strength(best, mode)]
    if higher:
        return canonical(higher), "must-overtrump"
    if undertrump:
        return canonical(trumps), "undertrump"
    return canonical(hand), "no-undertrump"


# Positions worked out by hand from the rule text: (id, mode, hand, trick, undertrump, legal).
HAND_CASES: list[tuple[str, str, str, str, bool, str]] = [
    # Leading: anything.
    ("hand-lead-anything", "H", "7S JH 9D AC", "", True, "7S JH 9D AC"),
    ("hand-lead-all-trump", "AT", "8S QH", "", True, "8S QH"),
    # Plain suit led: follow, any card of the suit, high or low.
    ("hand-follow-low-or-high", "H", "7S AS JH 9D", "KS", True, "7S AS"),
    ("hand-follow-after-cut", "H", "8S TS 7H", "AS 9H", True, "8S TS"),
    ("hand-follow-partner-led", "H", "7D KC QC", "AC 8H", True, "QC KC"),
    # Cannot follow, the other side wins: must trump (the doctest of play.py).
    ("hand-must-trump-doctest", "H", "9H 7H AD", "KS", True, "7H 9H"),
    ("hand-must-trump-any-trump", "S", "7S JS AH TD", "QC", True, "7S JS"),
    ("hand-must-trump-partner-beaten", "D", "8D AH", "KC AC", True, "8D"),
    ("hand-partner-led-still-best", "D", "8D AH", "AC KC", True, "8D AH"),
    # Must overtrump when you can.
    ("hand-overtrump-over-nine", "H", "7H JH AS", "AC 9H", True, "JH"),
    ("hand-overtrump-three-down", "S", "7S 8S AS TS 7D", "AH QS KS", True, "TS AS"),
    ("hand-overtrump-undertrump-off", "H", "JH 7H AS", "AC 9H", False, "JH"),
    ("hand-undertrump-ace-under-nine", "S", "7S 8S AS KS 7D", "AH QS 9S", True, "7S 8S KS AS"),
    ("hand-overtrump-ten-beats-king", "C", "TC 8C 7H", "9D KC", True, "TC"),
    # Cannot overtrump: must still trump, or (no undertrump rule) may play anything.
    ("hand-undertrump", "H", "7H 8H AS", "AC JH", True, "7H 8H"),
    ("hand-undertrump-off", "H", "7H 8H AS", "AC JH", False, "7H 8H AS"),
    ("hand-undertrump-queen-under-ace", "S", "QS KD", "7H 8H AS", True, "QS"),
    # Partner winning: any card, trump or not, even with the suit void.
    ("hand-partner-winning-third", "H", "JH 7C AD", "AS 7S", True, "7C AD JH"),
    ("hand-partner-winning-fourth", "H", "9H 8D", "KC AC 7C", True, "9H 8D"),
    ("hand-partner-cut-fourth", "D", "TD 8S", "AC 7D 9C", True, "8S TD"),
    ("hand-partner-overtrumped", "D", "7D 8S", "AC 9D JD", True, "7D"),
    # Trump led: go higher if you can, else any trump, else anything.
    ("hand-trump-led-go-higher", "H", "9H 7H AH AS", "TH", True, "9H AH"),
    ("hand-trump-led-cannot-go-higher", "H", "7H 8H AS", "JH", True, "7H 8H"),
    ("hand-trump-led-partner-still-higher", "S", "JS 8S 7D", "AS 7S", True, "JS"),
    ("hand-trump-led-over-the-best", "S", "QS AS 9S 7D", "8S KS", True, "9S AS"),
    ("hand-trump-led-best-not-led", "H", "9H 8H AS", "7H JH", True, "8H 9H"),
    ("hand-trump-led-void", "C", "AS TH KD", "7C", True, "AS TH KD"),
    # No trumps: follow suit, else anything.
    ("hand-no-trump-follow", "NT", "7H AH JS", "KH", True, "7H AH"),
    ("hand-no-trump-void", "NT", "7H AH JS", "KD", True, "JS 7H AH"),
    ("hand-no-trump-no-cut", "NT", "JS 9C", "AD TD", True, "JS 9C"),
    # All trumps: go higher in the suit led, else any of that suit; void: anything.
    ("hand-all-trump-go-higher", "AT", "JD AD 8D 7S", "TD", True, "AD JD"),
    ("hand-all-trump-nine-over-ace", "AT", "9S KS AH", "AS 8S", True, "9S"),
    ("hand-all-trump-cannot-go-higher", "AT", "8C 7C AD", "JC", True, "7C 8C"),
    ("hand-all-trump-void", "AT", "JS 9H", "7D 8D", True, "JS 9H"),
]


def _hand_cases() -> list[dict[str, object]]:
    out = []
    for case_id, mode, hand_text, trick_text, undertrump, legal_text in HAND_CASES:
        hand, trick = hand_text.split(), trick_text.split()
        expected = canonical(legal_text.split())
        partner_winning = partner_is_winning(trick, mode)
        legal, rule = legal_cards(mode, hand, trick, partner_winning, undertrump)
        if legal != expected:
            raise SystemExit(f"{case_id}: the reference says {legal}, worked by hand {expected}")
        out.append(_vector(case_id, rule, mode, hand, trick, partner_winning, undertrump, legal))
    return out


def _vector(
    case_id: str,
    rule: str,
    mode: str,
    hand: list[str],
    trick: list[str],
    partner_winning: bool,
    undertrump: bool,
    legal: list[str],
) -> dict[str, object]:
    return {
        "id": case_id,
        "rule": rule,
        "mode": mode,
        "hand": canonical(hand),
        "trick": trick,
        "partner_winning": partner_winning,
        "undertrump": undertrump,
        "legal": legal,
    }


def random_position(rng: random.Random) -> tuple[str, list[str], list[str], bool]:
    """A mode, a hand, the cards already down, and the undertrump option."""
    mode = rng.choice(MODES)
    pack = PACK[:]
    rng.shuffle(pack)
    trick = pack[: rng.randint(0, 3)]
    rest = pack[len(trick) :]
    if trick and rng.random() < 0.6:
        # Often void in the suit led, so that the rules for not following come up.
        rest = [card for card in rest if suit_of(card) != suit_of(trick[0])]
    hand = rest[: rng.randint(1, 8)]
    return mode, hand, trick, rng.random() < 0.5


# How many random positions to keep for each rule (the generator stops at these counts).
QUOTA = {
    "lead": 12,
    "follow-suit": 24,
    "cannot-follow-no-trump": 24,
    "partner-winning": 24,
    "must-trump": 24,
    "must-overtrump": 24,
    "undertrump": 20,
    "no-undertrump": 20,
    "trump-led-go-higher": 24,
    "trump-led-any-trump": 20,
    "no-trump-follow-suit": 16,
    "no-trump-cannot-follow": 14,
    "all-trump-go-higher": 18,
    "all-trump-cannot-go-higher": 16,
    "all-trump-cannot-follow": 14,
}


def random_cases(seed: int = 20240601) -> list[dict[str, object]]:
    rng = random.Random(seed)
    kept: dict[str, int] = dict.fromkeys(QUOTA, 0)
    seen: set[str] = set()
    out = []
    tries = 0
    while any(kept[rule] < QUOTA[rule] for rule in QUOTA):
        tries += 1
        if tries > 200_000:
            missing = {rule: QUOTA[rule] - kept[rule] for rule in QUOTA if kept[rule] < QUOTA[rule]}
            raise SystemExit(f"could not fill the quotas: {missing}")
        mode, hand, trick, undertrump = random_position(rng)
        partner_winning = partner_is_winning(trick, mode)
        legal, rule = legal_cards(mode, hand, trick, partner_winning, undertrump)
        if kept[rule] >= QUOTA[rule]:
            continue
        key = json.dumps([mode, canonical(hand), trick, undertrump])
        if key in seen:
            continue
        seen.add(key)
        kept[rule] += 1
        case_id = f"rnd-{rule}-{kept[rule]:02d}"
        out.append(_vector(case_id, rule, mode, hand, trick, partner_winning, undertrump, legal))
    return out


def main() -> None:
    vectors = _hand_cases() + random_cases()
    path = Path(__file__).with_name("legal.jsonl")
    with path.open("w", encoding="utf-8") as f:
        for vector in vectors:
            f.write(json.dumps(vector) + "\n")
    print(f"wrote {len(vectors)} positions to {path}")


if __name__ == "__main__":
    main()
