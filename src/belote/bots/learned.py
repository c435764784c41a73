"""The learned bot: a policy network that plays as the search bot did, without searching.

One network for every game and both phases, trained on the search bot's own decisions (``belote
dataset``: behaviour cloning, training/learned_train.py): it reads the seat's observation
(``belote.env.encode`` of its view, the research environments' 769 numbers) and gives each of the
118 actions a score; the bot plays the legal action scored highest (``temperature`` above 0: drawn
from the scores' softmax with the bot's seed). A decision costs two products of small matrices,
under a tenth of a millisecond, and reads nothing but the view: no card of another hand.

The weights are ``src/belote/data/learned-policy.npz``: ``W1`` (769 x hidden), ``b1``, ``W2`` (hidden
x 118), ``b2``, kept as float16 and computed in float64 (the same scores on every machine of one
numpy build; an exact tie, rarely, goes to the lowest action's number).

>>> from belote.game import Match
>>> m = Match(seed=3)
>>> bot = LearnedBot(seed=1)
>>> bot.act(m.view(m.to_move)) in m.legal_actions()
True
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from belote.env.encoding import ACTIONS, OBS_SIZE, encode
from belote.game import Action, PlayerView

WEIGHTS = "learned-policy.npz"
DEFAULT_PATH = Path(__file__).resolve().parent.parent / "data" / WEIGHTS


class Policy:
    """The network of a weights file: ``scores(observation)`` gives each action's score."""

    def __init__(self, w1: npt.ArrayLike, b1: npt.ArrayLike, w2: npt.ArrayLike, b2: npt.ArrayLike) -> None:
        self.w1 = np.asarray(w1, np.float64)
        self.b1 = np.asarray(b1, np.float64)
        self.w2 = np.asarray(w2, np.float64)
        self.b2 = np.asarray(b2, np.float64)
        hidden = self.b1.shape[0]
        shapes = (self.w1.shape, self.b1.shape, self.w2.shape, self.b2.shape)
        if shapes != ((OBS_SIZE, hidden), (hidden,), (hidden, ACTIONS), (ACTIONS,)):
            raise ValueError(f"not a policy of {OBS_SIZE} inputs and {ACTIONS} actions: shapes {shapes}")

    def scores(self, observation: npt.ArrayLike) -> npt.NDArray[np.float64]:
        x = np.asarray(observation, np.float64)
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        out: npt.NDArray[np.float64] = h @ self.w2 + self.b2
        return out

    @classmethod
    def load(cls, path: Any) -> Policy:
        with np.load(path) as f:
            return cls(f["W1"], f["b1"], f["W2"], f["b2"])


@cache
def policy() -> Policy:
    """The packaged network, read once."""
    return Policy.load(DEFAULT_PATH)


class LearnedBot:
    """The legal action the packaged network scores highest (or drawn, at a ``temperature``)."""

    name = "learned"

    def __init__(self, seed: int | None = None, temperature: float = 0.0) -> None:
        if not (isinstance(temperature, (int, float)) and 0.0 <= temperature < float("inf")):
            raise ValueError(f"temperature must be 0 or more, not {temperature!r}")
        self.temperature = float(temperature)
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        legal = sorted(view.legal)
        scores = policy().scores(encode(view))[legal]
        if self.temperature == 0.0:
            return legal[int(np.argmax(scores))]
        weights = np.exp((scores - scores.max()) / self.temperature)
        return legal[self.rng.choices(range(len(legal)), weights=weights.tolist())[0]]


__all__ = ["DEFAULT_PATH", "WEIGHTS", "LearnedBot", "Policy", "policy"]
