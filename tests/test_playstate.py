"""The play state's two implementations, the C ``belote._playstate`` and the plain ``belote.playstate``,
played side by side: at four, three and two hands, in every trump mode, both directions and both
undertrump rules, they must give the same legal cards at every move, the same tricks, points and
hands, and taking every card back must give back every state on the way.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belote import _playstate, playstate
from belote.cards import HEARTS, mask_of, parse_card
from belote.play import LAST_TRICK, NO_TRUMP, POINTS
from belote.rules import Rules

MODES = range(6)  # four suits, no trumps, all trumps


class Refused(Exception):
    """What the test states do with anything but a legal card (a Deal would name the rule)."""


class PyState(playstate.PlayState):
    __slots__ = ("scored",)

    def _apply_slow(self, action: Any, seat: Any) -> None:
        raise Refused(action)

    def _bid_actions(self) -> tuple[int, ...]:
        return ()

    def _score(self) -> None:
        self.scored = getattr(self, "scored", 0) + 1


class CState(_playstate.PlayState):
    __slots__ = ("scored",)

    def _apply_slow(self, action: Any, seat: Any) -> None:
        raise Refused(action)

    def _bid_actions(self) -> tuple[int, ...]:
        return ()

    def _score(self) -> None:
        self.scored = getattr(self, "scored", 0) + 1


Twin = PyState | CState


def snapshot(s: Twin) -> dict[str, Any]:
    """Everything the play state shows."""
    return {
        "phase": s.phase,
        "players": s.players,
        "step": s.step,
        "play_flags": s.play_flags,
        "mode": s.mode,
        "camps": list(s.camps),
        "ntricks": s.ntricks,
        "under": s.under,
        "hands": s.hands,
        "hand_masks": [s.hand_mask(seat) for seat in range(s.players)],
        "plays": s.plays,
        "trick": s.trick,
        "tricks": [tuple(t) for t in s.tricks],
        "won": s.won,
        "won_tricks": s.won_tricks,
        "leader": s.leader,
        "to_move": s.to_move,
        "best": s.best,
        "best_seat": s.best_seat,
        "led": s.led,
        "legal_mask": s.legal_mask(),
        "legal": [int(c) for c in s.legal_actions()],
    }


def between_tricks(snap: dict[str, Any]) -> dict[str, Any]:
    """With no card on the table the best card so far means nothing: playing the last card of a trick
    leaves that trick's there, taking back the first card of the next one clears it (in both)."""
    if snap["trick"]:
        return snap
    return {k: v for k, v in snap.items() if k not in ("best", "best_seat", "led")}


def set_up(cls: type[Twin], seed: int, players: int, mode: int, step: int, undertrump: bool) -> tuple[Twin, int]:
    """A state ready to play: the same cards for the same seed; returns it and the cards in play.

    Four hands: 8 cards each. Three: 24 of the pack, 8 each, one seat (the taker) against the two
    others. Two: 16 each, 6 in the hand and 5 face up on the table, each over a card face down.
    """
    rng = random.Random(seed)
    deck = list(range(32))
    rng.shuffle(deck)
    s = cls()
    # The camps are set before the cards are dealt or after: reset_play keeps them either way.
    camps_first = rng.random() < 0.5
    if players == 4:
        camps = [0, 1, 0, 1]
    elif players == 3:
        taker, taker_camp = rng.randrange(3), rng.randrange(2)
        camps = [taker_camp if seat == taker else 1 - taker_camp for seat in range(3)]
    else:
        camps = [0, 1] if rng.random() < 0.5 else [1, 0]
    s.players, s.step, s.play_flags = players, step, Rules(undertrump=undertrump).play.flags
    if camps_first:
        s.camps = camps
    hands = []
    if players == 2:
        s.ntricks = 16
        under = [-1] * 32
        for seat in range(2):
            cards = deck[16 * seat : 16 * seat + 16]
            face_up, face_down = cards[6:11], cards[11:]
            for up, down in zip(face_up, face_down, strict=True):
                under[up] = down
            hands.append(mask_of(cards[:11]))
        s.set_under(under)
    else:
        hands = [mask_of(deck[8 * seat : 8 * seat + 8]) for seat in range(players)]
    s.reset_play(hands, mode, rng.randrange(players))
    s.phase = playstate.PLAY
    if not camps_first:
        s.camps = camps
    return s, 8 * players if players > 2 else 32


def play_side_by_side(seed: int, players: int, mode: int, step: int, undertrump: bool) -> None:
    py, in_play = set_up(PyState, seed, players, mode, step, undertrump)
    c_state, _ = set_up(CState, seed, players, mode, step, undertrump)
    start = snapshot(py)
    assert snapshot(c_state) == start
    rng = random.Random(~seed)
    history = [start]
    while py.phase == playstate.PLAY:
        legal = py.legal_actions()
        assert [int(x) for x in c_state.legal_actions()] == [int(x) for x in legal]
        # An illegal card goes to the slow path (a Deal's refusal) in both, and changes nothing.
        illegal = [x for x in range(32) if not py.legal_mask() >> x & 1]
        if illegal and rng.random() < 0.1:
            x = rng.choice(illegal)
            for s in (py, c_state):
                with pytest.raises(Refused):
                    s.apply(x)
        card = legal[rng.randrange(len(legal))]
        if rng.random() < 0.5:
            py.apply(card)
            c_state.apply(int(card), c_state.to_move)
        else:
            py.play_card(card)
            c_state.play_card(card)
        now = snapshot(py)
        assert snapshot(c_state) == now, (len(history), now)
        history.append(now)
        if rng.random() < 0.05:  # a copy is the same state, and plays on the same
            for cls, s in ((PyState, py), (CState, c_state)):
                copy = cls()
                copy.copy_play_state(s)  # type: ignore[arg-type]
                assert snapshot(copy) == now
    assert py.phase == c_state.phase == playstate.DONE
    assert len(py.plays) == in_play and len(py.tricks) == py.ntricks
    assert py.scored == c_state.scored == 1
    assert sum(py.won_tricks) == py.ntricks and py.hands == [0] * players
    # The points of the cards in play, and the ten of der, all went to one camp or the other.
    assert sum(py.won) == sum(POINTS[mode][x] for x in py.plays) + LAST_TRICK
    assert py.tricks[-1].points >= LAST_TRICK
    while history:
        want = between_tricks(history.pop())
        assert between_tricks(snapshot(py)) == want
        assert between_tricks(snapshot(c_state)) == want
        if history:
            assert py.undo_card() == c_state.undo_card()
    assert not py.plays and not c_state.plays


@pytest.mark.parametrize("players", [4, 3, 2])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("undertrump", [True, False], ids=["under", "free"])
def test_c_and_python_play_alike(players: int, mode: int, undertrump: bool) -> None:
    """Every number of hands, mode and undertrump rule, both directions: a few random games each."""
    for k in range(4):
        step = 1 if k % 2 == 0 else players - 1
        play_side_by_side(1000 * players + 100 * mode + 10 * undertrump + k, players, mode, step, undertrump)


@settings(deadline=None, max_examples=150)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    mode=st.sampled_from(MODES),
    undertrump=st.booleans(),
    clockwise=st.booleans(),
)
def test_c_and_python_play_alike_on_any_seed(
    seed: int, players: int, mode: int, undertrump: bool, clockwise: bool
) -> None:
    play_side_by_side(seed, players, mode, 1 if clockwise else players - 1, undertrump)


# ----------------------------------------------------------------- worked by hand
@pytest.mark.parametrize("cls", [PyState, CState], ids=["python", "c"])
def test_the_card_under_joins_the_hand_when_the_trick_is_taken(cls: type[Twin]) -> None:
    """Two hands: N's ace of spades lies over the seven of clubs, E's ten of hearts over the king.
    The cards under stay out of play until the trick with the card over them is taken, then they
    join the hand of the player of that card; taking the card back turns them down again."""
    c = parse_card
    s = cls()
    s.players, s.ntricks, s.camps = 2, 2, [0, 1]
    under = [-1] * 32
    under[c("AS")], under[c("TH")] = c("7C"), c("KH")
    s.set_under(under)
    s.reset_play([mask_of(["AS"]), mask_of(["TH"])], NO_TRUMP, 0)
    s.phase = playstate.PLAY
    assert s.under == tuple(under)
    s.play_card(c("AS"))
    assert s.hands == [0, mask_of(["TH"])]
    s.play_card(c("TH"))
    # N took the trick (no trumps: the ace is worth 19; E could not follow): each card under comes up for its owner.
    assert s.tricks[0].winner == 0 and s.won == (19 + 10, 0)
    assert s.hands == [mask_of(["7C"]), mask_of(["KH"])]
    assert s.phase == playstate.PLAY and s.to_move == 0
    s.play_card(c("7C"))
    s.play_card(c("KH"))
    # The second trick is the last (ntricks 2): the ten of der; seven of clubs led, the king discarded.
    assert s.phase == playstate.DONE and s.won == (19 + 10 + 4 + LAST_TRICK, 0)
    for _ in range(3):
        s.undo_card()
    assert s.hands == [0, mask_of(["TH"])] and s.trick == [c("AS")]
    s.undo_card()
    assert s.hands == [mask_of(["AS"]), mask_of(["TH"])]


@pytest.mark.parametrize("cls", [PyState, CState], ids=["python", "c"])
def test_three_hands_partners_are_the_two_defenders(cls: type[Twin]) -> None:
    """E (seat 1) takes at hearts against N and S. N's ace of spades is winning when S, who has no
    spade, is to play: S need not trump a partner's trick, and may throw the ace of diamonds."""
    c = parse_card
    s = cls()
    s.players = 3
    s.reset_play([mask_of(["AS", "7C"]), mask_of(["7S", "8C"]), mask_of(["AD", "JH"])], HEARTS, 0)
    s.camps = [0, 1, 0]
    s.phase = playstate.PLAY
    s.play_card(c("AS"))
    s.play_card(c("7S"))
    assert s.legal_mask() == mask_of(["AD", "JH"])
    s.play_card(c("AD"))
    # The trick goes to the defenders' camp, 0.
    assert s.won_tricks == (1, 0) and s.won == (11 + 0 + 11, 0)
    # Had S played with E against N, S would have to trump N's ace.
    s.undo_card()
    s.camps = [0, 1, 1]
    assert s.legal_mask() == mask_of(["JH"])


@pytest.mark.parametrize("cls", [PyState, CState], ids=["python", "c"])
def test_a_new_play_state_plays_by_the_rules_of_play_of_the_default_rules(cls: type[Twin]) -> None:
    assert cls().play_flags == Rules().play.flags


@pytest.mark.parametrize("cls", [PyState, CState], ids=["python", "c"])
def test_reset_play_keeps_the_camps_the_tricks_of_the_deal_and_the_cards_under(cls: type[Twin]) -> None:
    s = cls()
    s.players, s.ntricks, s.camps = 2, 16, [1, 0]
    under = [-1] * 32
    under[0] = 31
    s.set_under(under)
    s.reset_play([1, 2], 0, 1)
    assert (s.camps, s.ntricks, s.under) == ([1, 0], 16, tuple(under))
    s.set_under(None)
    assert s.under is None


@pytest.mark.parametrize("cls", [PyState, CState], ids=["python", "c"])
def test_set_under_refuses_what_is_not_32_cards(cls: type[Twin]) -> None:
    s = cls()
    with pytest.raises(ValueError, match="32 cards"):
        s.set_under([-1] * 31)
    with pytest.raises(ValueError, match="32 cards"):
        s.set_under([-1] * 31 + [32])
    assert s.under is None


def test_the_c_state_refuses_camps_other_than_0_and_1() -> None:
    s = CState()
    with pytest.raises(ValueError):
        s.camps = [0, 2, 0]
    with pytest.raises(ValueError):
        s.camps = [0, 1, 0, 1, 0]
    assert s.camps == [0, 1, 0, 1]
