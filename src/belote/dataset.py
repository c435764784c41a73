"""A dataset of the search bots' self-play: deal records, and every decision as a learner sees it.

``belote dataset --game classic --deals N -o DIR`` plays N one-deal matches of the bots (the search bot
at every seat by default, each seeded from the dataset's seed) and writes, in ``DIR``:

- ``deals.jsonl``: each deal's record (``belote-deal/1``, shared/spec/deal-record.md), line ``deal``;
- ``decisions.parquet``: one row a decision, the columns of ``SCHEMA``: the deal and the decision's
  number in it, the seat, the phase, the observation (``belote.env.encode`` of the seat's view), the
  legal actions' mask, the action taken, and for a card, the double-dummy value of every legal card
  (``belote.analysis``: what the deal is worth to the seat's side, its points less the mean of the
  others', if that card is played and everybody then plays perfectly with every hand seen);
- ``dataset.json``: how it was made (game, rules, bots, seed, deals, the node limit of the solver).

The same arguments write the same files. Parquet through pyarrow, the reference implementation of
Apache Arrow's columnar formats (``pip install 'belote[data]'``): a column file that pandas, polars,
DuckDB and Spark read as it is, compressed (zstd) to about 100 bytes a decision. docs/dataset.md
tells each column.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from belote.analysis import dd_cards, limit_for, margin
from belote.arena import Team, match_seed, play_seated
from belote.env.encoding import ACTIONS, OBS_SIZE, action_mask, encode
from belote.game import BIDDING, Match
from belote.record import dumps, to_record
from belote.rules import Rules, find_rules

#: The dataset's format, written in dataset.json.
FORMAT = "belote-dataset/1"
#: The columns of decisions.parquet, in order: (name, Arrow type as text, what).
COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("deal", "int32", "the deal: its line in deals.jsonl, from 0 (a deal thrown in has its line too)"),
    ("step", "int16", "the decision's number in its deal, from 0 (the first bid)"),
    ("seat", "int8", "the seat deciding: 0 N, 1 E, 2 S, 3 W (two and three hands: the first seats)"),
    ("phase", "int8", "0 a bid, 1 a card"),
    ("observation", f"fixed_size_list<float32>[{OBS_SIZE}]", "belote.env.encode of the seat's view (docs/env.md)"),
    ("mask", f"fixed_size_list<bool>[{ACTIONS}]", "the legal actions: true at each legal action's number"),
    ("action", "int16", "the action taken: the engine's number (docs/env.md, Actions)"),
    (
        "dd_value",
        "fixed_size_list<float32>[32]",
        "a card: for each card number, the deal's double-dummy value to the seat's side if it is played "
        "(NaN for a card not legal); null for a bid, or a position beyond the solver's node limit",
    ),
)


#: The columns that may hold null (a bid's ``dd_value``); every other column holds a value in every row.
NULLABLE = ("dd_value",)
#: The Arrow types of ``COLUMNS``' text, by pyarrow's name.
_ARROW_TYPES = {"int8": "int8", "int16": "int16", "int32": "int32", "float32": "float32", "bool": "bool_"}


def _arrow_type(text: str) -> Any:
    """The Arrow type a column's type is written as: ``int16``, or ``fixed_size_list<float32>[32]``."""
    import pyarrow as pa

    listed = re.fullmatch(r"fixed_size_list<(\w+)>\[(\d+)\]", text)
    if listed is None:
        return getattr(pa, _ARROW_TYPES[text])()
    return pa.list_(pa.field("element", getattr(pa, _ARROW_TYPES[listed[1]])()), int(listed[2]))


def schema() -> Any:
    """The Arrow schema of decisions.parquet: ``COLUMNS``, read."""
    import pyarrow as pa

    return pa.schema(
        [pa.field(name, _arrow_type(kind), nullable=name in NULLABLE) for name, kind, _ in COLUMNS],
        metadata={"format": FORMAT},
    )


@dataclass(frozen=True)
class Spec:
    """What a dataset is made of: its rules (each match one deal), the bot at every seat, the seed."""

    rules: Rules
    bot: Team
    seed: int

    def to_json(self, matches: int, deals: int) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "rules": self.rules.to_dict(),
            "bot": self.bot.to_json(),
            "seed": self.seed,
            "matches": matches,
            "deals": deals,
            "dd_node_limit": limit_for(self.rules),
            "columns": [{"name": n, "type": t, "what": w} for n, t, w in COLUMNS],
        }


def spec_for(game: str, bot: Team | str = "search", seed: int = 1) -> Spec:
    return Spec(replace(find_rules(game), deals=1), Team(bot) if isinstance(bot, str) else bot, seed)


@dataclass(frozen=True)
class Decision:
    deal: int  # the deal's number in its match (a deal thrown in is followed by another)
    step: int
    seat: int
    phase: int
    observation: np.ndarray[Any, Any]
    mask: np.ndarray[Any, Any]
    action: int
    dd_value: np.ndarray[Any, Any] | None


def play_deal(spec: Spec, j: int) -> Match:
    """The ``j``-th match of the dataset (of one deal), played to its end."""
    players = spec.rules.players
    return play_seated(spec.rules, match_seed(spec.seed, j), j % players, [spec.bot] * players)


def decisions(match: Match) -> Iterator[Decision]:
    """Every decision of a played one-deal match, as its seat saw it: the match replayed action by action."""
    again = Match(match.rules, match.seed, match.first_dealer)
    limit = limit_for(match.rules)
    step, number = 0, 0
    for action in match.actions:
        seat = again.to_move
        assert seat is not None
        deal = again.deal
        if len(again.deals) - 1 != number:
            step, number = 0, len(again.deals) - 1
        view = again.view(seat)
        bidding = deal.phase is BIDDING
        dd = None
        if not bidding:
            found = dd_cards(deal, limit, keep=True)
            if found is not None:
                dd = np.full(32, np.nan, np.float32)
                for card, (_v, result) in found.items():
                    dd[card] = margin(deal, seat, result.points)
        yield Decision(number, step, seat, 0 if bidding else 1, encode(view), action_mask(view.legal), int(action), dd)
        again.apply(action, seat=seat)
        step += 1


def _match_rows(args: tuple[Spec, int]) -> list[tuple[str, list[Decision]]]:
    """Match ``j`` of the dataset: each of its deals' record and decisions (one deal, unless deals were
    thrown in before it)."""
    spec, j = args
    match = play_deal(spec, j)
    zero = [0] * len(spec.rules.team_names)
    rows = list(decisions(match))
    return [(dumps(to_record(deal, zero)), [r for r in rows if r.deal == k]) for k, deal in enumerate(match.deals)]


def make(spec: Spec, deals: int, out: Path, jobs: int = 1, done: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Writes the dataset of ``deals`` one-deal matches into the folder ``out`` (made if need be): a
    match whose deal is thrown in deals again, and its deals thrown in are kept. Returns dataset.json."""
    import pyarrow.parquet as pq

    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    out.mkdir(parents=True, exist_ok=True)
    tasks = [(spec, j) for j in range(deals)]
    sch = schema()
    records: list[str] = []
    with pq.ParquetWriter(out / "decisions.parquet", sch, compression="zstd") as writer:
        results: Iterator[list[tuple[str, list[Decision]]]]
        pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
        try:
            results = pool.map(_match_rows, tasks, chunksize=4) if pool else map(_match_rows, tasks)
            for j, played in enumerate(results):
                for record, rows in played:
                    writer.write_table(_table(len(records), rows, sch))
                    records.append(record)
                if done is not None:
                    done(j)
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)
    (out / "deals.jsonl").write_text("".join(r + "\n" for r in records), encoding="utf-8")
    meta = spec.to_json(deals, len(records))
    (out / "dataset.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return meta


def _table(deal: int, rows: Sequence[Decision], sch: Any) -> Any:
    import pyarrow as pa

    n = len(rows)
    obs = np.stack([r.observation for r in rows]).astype(np.float32).reshape(-1)
    mask = np.stack([r.mask for r in rows]).astype(bool).reshape(-1)
    dd_valid = np.array([r.dd_value is not None for r in rows])
    dd = np.stack([r.dd_value if r.dd_value is not None else np.zeros(32, np.float32) for r in rows]).reshape(-1)
    return pa.table(
        [
            pa.array(np.full(n, deal, np.int32)),
            pa.array(np.array([r.step for r in rows], np.int16)),
            pa.array(np.array([r.seat for r in rows], np.int8)),
            pa.array(np.array([r.phase for r in rows], np.int8)),
            pa.FixedSizeListArray.from_arrays(pa.array(obs), type=sch.field("observation").type),
            pa.FixedSizeListArray.from_arrays(pa.array(mask), type=sch.field("mask").type),
            pa.array(np.array([r.action for r in rows], np.int16)),
            pa.FixedSizeListArray.from_arrays(pa.array(dd), type=sch.field("dd_value").type, mask=pa.array(~dd_valid)),
        ],
        schema=sch,
    )


def read(folder: Path) -> tuple[dict[str, Any], list[dict[str, Any]], Any]:
    """A dataset as written: its dataset.json, its deal records, its decisions (an Arrow table)."""
    import pyarrow.parquet as pq

    meta = json.loads((folder / "dataset.json").read_text(encoding="utf-8"))
    records = [json.loads(line) for line in (folder / "deals.jsonl").read_text(encoding="utf-8").splitlines()]
    return meta, records, pq.read_table(folder / "decisions.parquet")


__all__ = ["COLUMNS", "FORMAT", "Decision", "Spec", "decisions", "make", "play_deal", "read", "schema", "spec_for"]
