"""What a review costs the server: ``POST /api/analyse`` timed from the client, first and again.

The app runs in this process (Starlette's test client) with one bot worker process, as ``belote serve
--think-workers 1`` would: each deal's first answer is an analysis made in that worker (wall time:
the worker's CPU plus the trip), the second the kept answer (the cache a page stepping or reloading
hits). Deals are played by heuristic bots (bench/analyse.py). While an analysis runs the event loop
stays free: the health route's time during one is printed too.

    python bench/review.py [--deals 5] [--seed 1] [--games classic,three-handed]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from starlette.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from analyse import played_deal
from belote.server.app import create_app
from belote.server.tables import ServerConfig


def ask(client: TestClient, record: dict[str, object], times: list[float], done: threading.Event) -> None:
    """One analysis asked for, its wall time kept."""
    start = time.perf_counter()
    answer = client.post("/api/analyse", json=record)
    times.append(time.perf_counter() - start)
    assert answer.status_code == 200, answer.text
    done.set()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="classic,three-handed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(db_path=Path(folder) / "bench.sqlite3", config=ServerConfig(think_workers=1))
        with TestClient(app) as client:
            for variant in args.games.split(","):
                first, again, health = [], [], []
                for i in range(args.deals):
                    record = played_deal(args.seed + i, variant)
                    done = threading.Event()

                    worker = threading.Thread(target=ask, args=(client, record, first, done))
                    worker.start()
                    while not done.is_set():  # the loop answers other requests meanwhile
                        start = time.perf_counter()
                        client.get("/api/health")
                        health.append(time.perf_counter() - start)
                        done.wait(0.2)
                    worker.join()
                    start = time.perf_counter()
                    assert client.post("/api/analyse", json=record).status_code == 200
                    again.append(time.perf_counter() - start)
                print(
                    f"{variant:13} {args.deals} deals: first answer median {statistics.median(first):.2f} s "
                    f"(max {max(first):.2f}), kept answer median {1000 * statistics.median(again):.1f} ms, "
                    f"/api/health during analyses median {1000 * statistics.median(health):.1f} ms "
                    f"(max {1000 * max(health):.1f})"
                )


if __name__ == "__main__":
    main()
