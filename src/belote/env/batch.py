"""Many deals stepped at once, in C: the batched engine of the research environments.

``BatchEnv(num_envs, game=...)`` holds ``num_envs`` deals, each one episode (a deal, as the
environments' default ``episode="deal"``), and steps them all with one call: ``step(actions)``
takes one action for each deal's seat to move and writes, in place, into arrays made once:

- ``obs`` (``num_envs`` x ``OBS_SIZE``, float32): the observation of the seat to move, the same
  numbers as ``belote.env.encoding.encode`` of its view (the tests compare them at every step);
- ``mask`` (``num_envs`` x ``ACTIONS``, int8): its legal actions;
- ``seat`` (int64): the seat to move;
- ``rewards`` (``num_envs`` x players, float32): at a deal's end, each seat's reward as the
  environments give it (``reward="deal"``: the points of its score less the mean of the others',
  times ``reward_scale``), 0 at every other step;
- ``dones`` (bool): the deal ended with this step; the deal has started again on new cards (an
  automatic reset), and ``obs``, ``mask`` and ``seat`` are already the new deal's.

Self-play is a loop of ``step``: every seat of a deal is the same agent, told apart by ``seat``. With
``learner=SEAT`` the caller plays that seat and bots the others, within ``step``: the heuristic bot
(``bot="heuristic"``, the default) in C, deciding exactly as ``belote.bots.heuristic`` does, with no
Python call per move; any other bot of ``belote.bots`` (``bot="search"``, ``bot_options={"think": 2}``...)
through its Python class, each deal then followed by a ``Deal`` of the rules engine for the bots'
views (a search bot's decision costs milliseconds, the call around it microseconds). It plays every
game (classic, Coinche, three- and two-handed) with every rule option. An illegal action raises
``ValueError`` naming the deal and the action, and nothing is played.

>>> b = BatchEnv(4, game="coinche", seed=1)
>>> b.obs.shape, b.mask.shape, int(b.mask[0].sum())
((4, 769), (4, 118), 61)
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> steps = 0
>>> while not b.dones[0]:
...     _ = b.step(b.sample(rng))
...     steps += 1
>>> float(b.rewards[0].sum())
0.0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from belote.bots import Bot, make_bot
from belote.env import make_rules
from belote.env.encoding import ACTIONS, FIELD, GAMES, OBS_SIZE
from belote.game import DONE, Deal
from belote.rules import Rules

_MISSING: ImportError | None = None
try:
    from belote.env import _batch
except ImportError as error:  # built by the package's install where a C compiler is found
    _batch = None
    _MISSING = error

__all__ = ["GAMES_BATCHED", "BatchEnv", "available"]

#: The games the batched engine plays.
GAMES_BATCHED = ("classic", "coinche", "three-handed", "two-handed")
#: The fields the engine writes, in the order of its own table (``_batch.c``'s ``F_...``); the
#: others (the match's score and what waits for the next deal) stay 0 in an episode of one deal.
_FIELDS = (
    "hand",
    "trick",
    "played",
    "turned",
    "shown",
    "game",
    "phase",
    "options",
    "dealer",
    "to_move",
    "bid_round",
    "last_bid",
    "highest_bid",
    "bidder",
    "level",
    "mode",
    "coinched",
    "taker",
    "trump",
    "declared",
    "belote",
    "hand_sizes",
    "won_points",
    "won_tricks",
    "table",
    "covering",
    "face_down",
)


def available() -> bool:
    """Whether the C engine was built (it is by ``pip install`` wherever a C compiler is found)."""
    return _batch is not None


def _config(rules: Rules, learner: int | None, bots_in_c: bool) -> tuple[int, ...]:
    """The rules as the engine reads them (``_batch.c``'s ``C_...``, in order)."""
    variant = rules.game
    declarations = rules.declarations and variant.has_declarations
    return (
        variant.players,
        rules.step,
        rules.play.flags,
        int(variant.contracts),
        int(variant.players == 3),
        variant.tricks,
        GAMES.index(variant.name),
        int(declarations),
        int(rules.declaration_card_reuse),
        int(rules.declaration_tie == "none"),
        int(rules.rounding),
        int(rules.round_five == "up"),
        int(rules.litige == "carry"),
        int(rules.belote_counts),
        6 if rules.no_trump_all_trump else 4,
        rules.coinche_max_bid,
        int(rules.generale),
        int(rules.coinche_made == "points"),
        rules.coinche_failed,
        rules.surcoinche,
        int(rules.declarations),
        int(bool(variant.table_cards)),
        variant.take_extra,
        -1 if learner is None else learner,
        int(bots_in_c),
        variant.playing_hand,
        variant.out_of_play,
    )


#: The most players a game has: the engine's tables of the deal are this wide.
_SEATS = 4


def _dealing(rules: Rules) -> list[int]:
    """How the game deals, as the engine reads it (``_batch.c``'s ``read_dealing``): each table is the
    game's own function (``belote.variants``) applied to a deck whose card ``i`` lies at place ``i``, so
    the cards it gives are places of the deck. The seats beyond the game's players are 0."""
    variant = rules.game
    n = variant.players
    deck = tuple(range(32))
    seats = range(_SEATS)

    def row(values: Sequence[int], fill: int = 0) -> list[int]:
        return [*values, *[fill] * (_SEATS - len(values))]

    orders, turned, first = [], [], []
    second, tables, ups, under = [], [], [], []

    def no_taker() -> None:
        """A taker at a seat the game has not, or a dealer's there: nothing dealt."""
        second.extend(row([]))
        tables.extend(row([]))
        ups.extend(row([]))
        under.extend([-1] * 32)

    for dealer in seats:
        if dealer >= n:
            orders += row([])
            turned.append(-1)
            first += row([])
            for _ in seats:
                no_taker()
            continue
        order = variant.order(dealer, rules.step)
        hands, card = variant.first_distribution(deck, order)
        orders += row(order)
        turned.append(-1 if card is None else int(card))
        first += row(hands)
        for taker in seats:
            if taker >= n:
                no_taker()
                continue
            full, lying, table = variant.second_distribution(deck, list(hands), order, taker)
            below = list(lying) if lying is not None else [-1] * 32
            face_up = sum(1 << c for c in range(32) if below[c] >= 0)
            second += row(full)
            tables += row(table)
            ups += row([t & face_up for t in table])
            under += below
    camps = []
    for taker in seats:
        camps += row(variant.camps(taker) if taker < n else ())
    return [
        *orders,
        *turned,
        *row(variant.parity),
        *row(variant.team_of),
        *camps,
        *first,
        *second,
        *tables,
        *ups,
        *under,
    ]


class BatchEnv:
    """``num_envs`` deals of one game and rule set, stepped together in C."""

    def __init__(
        self,
        num_envs: int = 1024,
        game: str | None = None,
        rules: Rules | dict[str, Any] | None = None,
        seed: int | None = None,
        reward_scale: float = 1.0,
        learner: int | None = None,
        bot: str = "heuristic",
        bot_options: dict[str, Any] | None = None,
    ) -> None:
        if _batch is None:
            raise ImportError(
                "belote.env.batch needs its C engine, built when the package is installed with a C compiler "
                f"(pip install . on a machine with gcc or clang): {_MISSING}"
            )
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        if not (isinstance(reward_scale, (int, float)) and np.isfinite(reward_scale) and reward_scale > 0):
            raise ValueError(f"reward_scale must be a finite number above 0, not {reward_scale!r}")
        self.rules = make_rules(game, rules)
        if self.rules.variant not in GAMES_BATCHED:
            raise ValueError(f"the batched engine plays {', '.join(GAMES_BATCHED)}, not {self.rules.variant}")
        self.num_envs = num_envs
        self.players = self.rules.players
        if learner is not None and not (isinstance(learner, int) and 0 <= learner < self.players):
            raise ValueError(f"learner must be a seat, 0 to {self.players - 1} in this game, not {learner!r}")
        #: The seat the caller plays against the bots; None: the caller plays every seat.
        self.learner = learner
        self.bot = bot
        #: Any other bot than the heuristic one plays through its Python class (``belote.bots``), each
        #: deal followed by a ``Deal`` of the rules engine for the bots' views.
        self._bots: dict[int, Bot] = {}
        self._mirrors: list[Deal] = []
        if bot != "heuristic":
            if learner is None:
                raise ValueError("bot needs a learner seat: in self-play the caller plays every seat")
            self._bots = {
                s: make_bot(bot, seed=s, **dict(bot_options or {})) for s in range(self.players) if s != learner
            }
        elif bot_options:
            raise ValueError("the heuristic bot of the batch takes no options (it plays in C as belote.bots' does)")
        self.reward_scale = float(reward_scale)
        self.obs: npt.NDArray[np.float32] = np.zeros((num_envs, OBS_SIZE), np.float32)
        self.mask: npt.NDArray[np.int8] = np.zeros((num_envs, ACTIONS), np.int8)
        self.seat: npt.NDArray[np.int64] = np.zeros(num_envs, np.int64)
        self.rewards: npt.NDArray[np.float32] = np.zeros((num_envs, self.players), np.float32)
        self.dones: npt.NDArray[np.bool_] = np.zeros(num_envs, np.bool_)
        self._engine = _batch.Engine(
            num_envs,
            _config(self.rules, learner, not self._bots),
            [FIELD[name].offset for name in _FIELDS],
            [FIELD[name].width for name in _FIELDS],
            _dealing(self.rules),
            _levels(),
            self.reward_scale,
            self.obs,
            self.mask,
            self.seat,
            self.rewards,
            self.dones.view(np.uint8),
        )
        self._seeds = np.random.default_rng(seed)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """A new deal everywhere (``seed``: the same seed, the same deals); returns ``obs`` and ``mask``."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        self._engine.reset(int(self._seeds.integers(2**63)))
        self.dones[:] = False
        if self._bots:
            self._mirrors = [Deal(self.rules, *self.deal(i)) for i in range(self.num_envs)]
            self._play_bots()
        return self.obs, self.mask

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """One action for each deal's seat to move; returns ``obs``, ``mask``, ``rewards``, ``dones``
        (the arrays themselves, written in place)."""
        a = np.ascontiguousarray(actions, dtype=np.int64)
        if a.shape != (self.num_envs,):
            raise ValueError(f"actions must be {self.num_envs} whole numbers, one a deal, not of shape {a.shape}")
        self._engine.step(a)
        if self._bots:
            for i, mirror in enumerate(self._mirrors):
                self._follow(i, mirror, int(a[i]))
            self._play_bots()
        return self.obs, self.mask, self.rewards, self.dones

    def _follow(self, i: int, mirror: Deal, action: int) -> None:
        """Deal ``i``'s Python twin plays the action the engine played; a new one for a new deal."""
        mirror.apply(action)
        if mirror.phase == DONE:
            self._mirrors[i] = Deal(self.rules, *self.deal(i))

    def _play_bots(self) -> None:
        """The Python bots play until it is the learner's turn in every deal."""
        engine, bots, seat = self._engine, self._bots, self.seat
        for i in range(self.num_envs):
            while seat[i] != self.learner:
                mirror = self._mirrors[i]
                action = int(bots[mirror.to_move].act(mirror.view(mirror.to_move)))
                engine.act(i, action)
                self._follow(i, mirror, action)

    def sample(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A legal action for each deal, drawn evenly from its mask (a random player's)."""
        weights = rng.random(self.mask.shape) * self.mask
        return np.asarray(weights.argmax(axis=1), np.int64)

    def bot_action(self, i: int) -> int:
        """The heuristic bot's action for deal ``i``'s seat to move (the same as ``belote.bots.HeuristicBot``'s)."""
        return int(self._engine.bot_action(i))

    def deal(self, i: int) -> tuple[int, tuple[int, ...]]:
        """Deal ``i``'s dealer and deck, as ``belote.game.Deal(rules, dealer, deck)`` takes them."""
        dealer, deck = self._engine.deal(i)
        return int(dealer), tuple(deck)

    def set_deal(self, i: int, dealer: int, deck: tuple[int, ...] | list[int]) -> None:
        """Deal ``i`` starts again on this deck (the next deals are drawn as before)."""
        self._engine.set_deal(i, dealer, list(deck))
        self.dones[i] = False
        if self._bots:
            self._mirrors[i] = Deal(self.rules, dealer, tuple(deck))
            self._play_bots()


def _levels() -> tuple[int, ...]:
    from belote.contracts import LEVELS

    return LEVELS
