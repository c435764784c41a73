"""The dataset of the bots' self-play (belote.dataset, ``belote dataset``): its sample in tests/data/dataset.

Each game's sample (two one-deal matches of the search bot, seed 1) is read as a program reads it,
with pyarrow; every decision is checked against its deal record replayed through the engine: the
observation is ``encode`` of the seat's view, the mask its legal actions, the action the record's,
and each double-dummy value the analysis's. Made again, the sample is the same.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
import pytest

from belote import cli, dataset
from belote.analysis import dd_cards, limit_for, margin
from belote.env import action_mask, encode
from belote.game import BIDDING, parse_action
from belote.record import load_deal, replay
from games import GAMES

SAMPLE = Path(__file__).parent / "data" / "dataset"


@pytest.mark.parametrize("game", GAMES)
def test_the_sample_is_what_its_records_say(game: str) -> None:
    meta, records, table = dataset.read(SAMPLE / game)
    assert meta["format"] == dataset.FORMAT == "belote-dataset/1"
    assert (meta["rules"]["variant"], meta["matches"], meta["deals"], meta["seed"]) == (game, 2, len(records), 1)
    assert table.schema.equals(dataset.schema(), check_metadata=True)
    assert [c["name"] for c in meta["columns"]] == table.column_names
    rows = table.to_pylist()
    at = 0
    for number, record in enumerate(records):
        assert replay(record)["valid"], record
        deal, _, error = load_deal({**record, "bids": [], "plays": []})  # the deal as dealt, replayed below
        assert error is None and deal is not None
        for step, text in enumerate(record["bids"] + record["plays"]):
            row = rows[at]
            at += 1
            seat = deal.to_move
            view = deal.view(seat)
            action = int(parse_action(text))
            assert (row["deal"], row["step"], row["seat"], row["action"]) == (number, step, seat, action)
            assert row["phase"] == (0 if deal.phase is BIDDING else 1)
            assert np.array_equal(np.array(row["observation"], np.float32), encode(view))
            assert np.array_equal(np.array(row["mask"], np.int8), action_mask(view.legal))
            if deal.phase is BIDDING:
                assert row["dd_value"] is None
            else:
                found = dd_cards(deal, limit_for(deal.rules), keep=True)
                if found is None:
                    assert row["dd_value"] is None
                else:
                    want = {c: margin(deal, seat, r.points) for c, (_v, r) in found.items()}
                    got = {c: v for c, v in enumerate(row["dd_value"]) if not math.isnan(v)}
                    assert got == pytest.approx(want) and set(got) == set(view.legal)
            deal.apply(action)
    assert at == len(rows)


@pytest.mark.parametrize("game", ["classic", "three-handed"])
def test_made_again_the_sample_is_the_same(game: str, tmp_path: Path) -> None:
    meta = dataset.make(dataset.spec_for(game, "search", 1), 2, tmp_path, jobs=2 if game == "classic" else 1)
    kept, _, table = dataset.read(SAMPLE / game)
    assert meta == kept
    assert (tmp_path / "deals.jsonl").read_text() == (SAMPLE / game / "deals.jsonl").read_text()
    made = pq.read_table(tmp_path / "decisions.parquet")
    assert made.schema.equals(table.schema, check_metadata=True) and made.num_rows == table.num_rows
    for name in table.column_names:  # NaN (a card not legal) equal to NaN
        assert np.array_equal(column(made, name), column(table, name), equal_nan=True), name


def column(table: Any, name: str) -> np.ndarray[Any, Any]:
    """A column as numbers: a list column's rows as rows of an array, a null row as a row of -1."""
    values = table.column(name).to_pylist()
    width = max((len(v) for v in values if isinstance(v, list)), default=0)
    rows = [v if v is not None else [-1.0] * width for v in values]
    return np.array(rows, np.float64)


def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "set"
    args = ["dataset", "--game", "coinche", "--deals", "1", "--seed", "3", "--bot", "heuristic", "-o", str(out)]
    assert cli.main(args) == 0
    assert f"{out}: 1 deals (1 matches)" in capsys.readouterr().out
    meta = json.loads((out / "dataset.json").read_text())
    assert meta["bot"] == {"bot": "heuristic", "options": {}} and meta["rules"]["variant"] == "coinche"
    record = json.loads((out / "deals.jsonl").read_text())
    assert pq.read_table(out / "decisions.parquet").num_rows == len(record["bids"]) + len(record["plays"])
    assert cli.main(["dataset", "--deals", "0", "-o", str(out)]) == 2
    assert "--deals must be at least 1, not 0" in capsys.readouterr().err
    assert cli.main(["dataset", "--deals", "1", "--bot-option", "worlds=x", "-o", str(out)]) == 2
    assert "the search bot refuses" in capsys.readouterr().err


def test_without_pyarrow_the_command_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    assert cli.main(["dataset", "--deals", "1", "-o", str(tmp_path / "x")]) == 2
    assert "pyarrow is missing: pip install 'belote[data]'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_the_reading_of_docs_dataset_md_runs() -> None:
    text = (Path(__file__).parent.parent / "docs" / "dataset.md").read_text()
    [code] = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    done: dict[str, Any] = {}
    exec(code.replace("classic-10k", str(SAMPLE / "classic")), done)
    _, records, _ = dataset.read(SAMPLE / "classic")
    plays = sum(len(r["plays"]) for r in records)
    assert done["obs"].shape == (plays, 769) and done["mask"].shape == (plays, 118) and done["dd"].shape == (plays, 32)
    assert all(done["mask"][i, a] for i, a in enumerate(done["action"]))
