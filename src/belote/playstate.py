"""The state of the play of one deal: hands, the trick on the table, the tricks taken.

This is the hot loop of everything that plays many deals (bots, arena, research), so it is kept
small, with the same interface in two implementations: this one, in plain Python, and the C
module ``belote._playstate`` built with the package, which ``belote.game`` uses when present.
The tests play both side by side and require the same legal cards, tricks and points.

``Deal`` (in ``game.py``) subclasses it and adds the bidding, declarations, scoring and views; it
provides three hooks: ``_apply_slow`` (anything but a legal card in the play), ``_bid_actions``
(the legal bids) and ``_score`` (called once the last trick is taken).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from belote.cards import CARDS, Card, cards_of
from belote.play import LAST_TRICK, POINTS, beats, legal_mask
from belote.rules import Rules

BIDDING, PLAY, DONE = "bidding", "play", "done"
#: The play options of a play state until it is given others (``Deal`` gives its rules'): those of
#: the default rules. The C twin reads it from here.
DEFAULT_PLAY_FLAGS = Rules().play.flags


class Trick(NamedTuple):
    """A completed trick: who led, the cards in the order played, who won it, its points."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int  # card points, and the last trick's ten for the last one

    def seats(self, step: int, players: int = 4) -> list[int]:
        """Who played each card."""
        return [(self.leader + i * step) % players for i in range(len(self.cards))]


_new_tuple = tuple.__new__


class PlayState:
    """Hands and tricks of one deal; the rules of play come from ``belote.play``."""

    __slots__ = (
        "_hands",
        "_legal",
        "_plays",
        "_points",
        "_trick",
        "_tricks",
        "_under",
        "_won",
        "_won_tricks",
        "best",
        "best_seat",
        "camps",
        "leader",
        "led",
        "mode",
        "ntricks",
        "phase",
        "play_flags",
        "players",
        "step",
        "to_move",
    )

    def __init__(self) -> None:
        self.players = 4
        self.step = 1
        #: the play options (``belote.play.PlayRules.flags``)
        self.play_flags = DEFAULT_PLAY_FLAGS
        #: the side each seat plays for: partners share one (N-S 0, E-W 1; at three hands the
        #: two defenders share one against the taker)
        self.camps = [0, 1, 0, 1]
        #: tricks in the deal: 8, or 16 at two hands
        self.ntricks = 8
        #: two hands: ``_under[c]`` is the card lying face down under ``c`` on its owner's side
        #: of the table, turned up (into the owner's playable cards) when the trick with ``c``
        #: is taken; -1 for none. ``None`` when no card lies under another.
        self._under: list[int] | None = None
        self.reset_play([0, 0, 0, 0], -1, 0)
        self.phase = BIDDING

    def _apply_slow(self, action: Any, seat: Any) -> None:  # pragma: no cover - overridden by Deal
        raise NotImplementedError

    def _bid_actions(self) -> tuple[int, ...]:  # pragma: no cover - overridden by Deal
        return ()

    def _score(self) -> None:  # pragma: no cover - overridden by Deal
        pass

    # ----------------------------------------------------------------- set-up
    def reset_play(self, hands: list[int], mode: int, leader: int) -> None:
        """Set the hands and the trump mode; no card played yet; ``leader`` to lead."""
        self._hands = list(hands)
        self.mode = mode
        self._points = POINTS[mode] if mode >= 0 else POINTS[0]
        self._plays: list[int] = []
        self._trick: list[int] = []
        self._tricks: list[Trick] = []
        self._won = [0, 0]
        self._won_tricks = [0, 0]
        self.leader = self.to_move = leader
        self.best = self.best_seat = self.led = -1
        self._legal = -1

    def copy_play_state(self, other: PlayState) -> None:
        for name in PlayState.__slots__:
            value = getattr(other, name)
            setattr(self, name, list(value) if isinstance(value, list) else value)

    # ----------------------------------------------------------------- reading
    @property
    def hands(self) -> list[int]:
        """Each seat's cards as a mask (a copy)."""
        return list(self._hands)

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    @property
    def plays(self) -> list[int]:
        """Every card played so far, in order."""
        return list(self._plays)

    @property
    def trick(self) -> list[int]:
        """The cards of the trick on the table."""
        return list(self._trick)

    @property
    def tricks(self) -> list[Trick]:
        return list(self._tricks)

    @property
    def won(self) -> tuple[int, int]:
        """Points taken so far by each side (N-S, E-W), the last trick's ten included."""
        return (self._won[0], self._won[1])

    @property
    def won_tricks(self) -> tuple[int, int]:
        return (self._won_tricks[0], self._won_tricks[1])

    def legal_mask(self) -> int:
        """The legal cards of the player to move, as a mask (0 outside the play)."""
        m = self._legal
        if m < 0:
            if self.phase is not PLAY:
                return 0
            seat = self.to_move
            if self._trick:
                bs = self.best_seat
                camps = self.camps
                partner = bs != seat and camps[bs] == camps[seat]
                m = legal_mask(self.mode, self._hands[seat], self.best, partner, self.play_flags, self.led)
            else:
                m = self._hands[seat]
            self._legal = m
        return m

    def legal_actions(self) -> tuple[Any, ...]:
        """The cards the player to move may play, or the bids they may make."""
        if self.phase is PLAY:
            m = self._legal
            return cards_of(m if m >= 0 else self.legal_mask())
        return self._bid_actions()

    # ----------------------------------------------------------------- acting
    def apply(self, action: Any, seat: Any = None) -> None:
        """Play a card or make a bid for the player to move (``seat``, when given, must be that player).

        An illegal action raises ``IllegalAction`` with the rule it breaks, and changes nothing.
        """
        if self.phase is PLAY and (seat is None or seat == self.to_move) and action.__class__ in _CARD_TYPES:
            m = self._legal
            if m < 0:
                m = self.legal_mask()
            if 0 <= action < 32 and m >> action & 1:
                self._play(action)
                return
        self._apply_slow(action, seat)

    def play_card(self, c: int) -> None:
        """Play a card already known to be legal (no check)."""
        self._play(c)

    def _play(self, c: int) -> None:
        seat = self.to_move
        self._hands[seat] ^= 1 << c
        trick = self._trick
        trick.append(c)
        self._plays.append(c)
        self._legal = -1
        n = len(trick)
        if n == 1:
            self.led = c >> 3
            self.best = c
            self.best_seat = seat
            self.to_move = (seat + self.step) % self.players
            return
        if beats(self.mode, c, self.best):
            self.best = c
            self.best_seat = seat
        if n < self.players:
            self.to_move = (seat + self.step) % self.players
            return
        # The trick is complete: the best card takes it.
        p = self._points
        points = 0
        for x in trick:
            points += p[x]
        tricks = self._tricks
        last = len(tricks) == self.ntricks - 1
        if last:
            points += LAST_TRICK
        winner = self.best_seat
        tricks.append(_new_tuple(Trick, (self.leader, tuple(trick), winner, points)))
        side = self.camps[winner]
        self._won[side] += points
        self._won_tricks[side] += 1
        if self._under is not None:
            self._turn_up(trick, 1)
        self._trick = []
        self.leader = self.to_move = winner
        if last:
            self.phase = DONE
            self._score()

    def _turn_up(self, trick: list[int], up: int) -> None:
        """Turn up (``up=1``) or back down (0) the cards lying under those of a taken trick."""
        under = self._under
        assert under is not None
        for i, x in enumerate(trick):
            u = under[x]
            if u >= 0:
                seat = (self.leader + self.step * i) % self.players
                if up:
                    self._hands[seat] |= 1 << u
                else:
                    self._hands[seat] &= ~(1 << u)

    @property
    def under(self) -> tuple[int, ...] | None:
        return None if self._under is None else tuple(self._under)

    def set_under(self, under: list[int] | None) -> None:
        """Lay cards face down under others (two hands): ``under[c]`` lies under ``c``, or -1."""
        if under is not None and (len(under) != 32 or any(not -1 <= u < 32 for u in under)):
            raise ValueError("under must give 32 cards or -1")
        self._under = None if under is None else list(under)

    def undo_card(self) -> int:
        """Take back the last card played; returns it."""
        c = self._plays.pop()
        if not self._trick:
            t = self._tricks.pop()
            side = self.camps[t.winner]
            self._won[side] -= t.points
            self._won_tricks[side] -= 1
            self._trick = list(t.cards)
            self.leader = t.leader
            if self._under is not None:
                self._turn_up(self._trick, 0)
        self._trick.pop()
        seat = (self.leader + self.step * len(self._trick)) % self.players
        self._hands[seat] |= 1 << c
        self.to_move = seat
        self.phase = PLAY
        self._legal = -1
        trick = self._trick
        if not trick:
            self.best = self.best_seat = self.led = -1
        else:
            self.led = trick[0] >> 3
            self.best, self.best_seat = trick[0], self.leader
            for i, x in enumerate(trick[1:], 1):
                if beats(self.mode, x, self.best):
                    self.best, self.best_seat = x, (self.leader + self.step * i) % self.players
        return c


_CARD_TYPES = (int, Card)

__all__ = ["BIDDING", "CARDS", "DEFAULT_PLAY_FLAGS", "DONE", "PLAY", "PlayState", "Trick"]
