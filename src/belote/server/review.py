"""The review of a finished deal over HTTP: ``POST /api/analyse`` and the page at ``/review``.

The body is one deal record (``shared/spec/deal-record.md``, any of the four games), the answer the
``belote-analysis/1`` object of ``belote.analysis.analyse`` with the search bot's view, exactly as
``belote analyse --json`` prints it (docs/analysis.md). The page fetches a table's finished deals
(``GET /api/tables/{id}/records``) or reads a file dropped on it, and asks this route for each deal
it shows.

An analysis is seconds of CPU, so the route is guarded against a hostile network before any of it
is spent:

- the body is read no further than ``MAX_BODY`` bytes, and must be a record the engine replays to
  its end: a deal in progress is refused (``deal_not_over``), and so is anything that is not a
  record (``not_a_record``) or holds an illegal action (``illegal_record``), with a 400 and never a
  traceback; the record is checked here, on the event loop, since replaying 40 actions is cheap;
- one analysis at a time per client address (a second answers 429 ``analysis_running``), and at most
  ``cap`` at once in the process (503 ``analyses_busy`` with ``Retry-After``): a refusal, never a
  queue that grows;
- the analysis runs in the bots' worker pool (``Thinker.analyse``), off the event loop, so tables
  keep playing; the cap leaves workers for the bots, and the fair queue gives the address its turn
  with the others (an address analysing leaves the next worker to another's bots);
- the last ``CACHE`` answers are kept by the record's canonical text: a page stepping through a
  deal, reloading, or two players of the table reviewing the same deal cost one analysis.

Nothing hidden can leak through the route: it analyses only what the client sends, the whole deck
included, and the table's records come from ``GET /api/tables/{id}/records``, which never gives the
deal in progress.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from belote.actions import Refusal
from belote.record import RecordError, load_deal, to_record
from belote.server import assets
from belote.server.limits import TooMany
from belote.server.player_routes import me
from belote.server.thinking import Thinker, WorkersLost, address_owner
from belote.server.wire import BadRequest, parse_json, read_body, refused

__all__ = ["CACHE", "MAX_BODY", "Analyses", "routes"]

log = logging.getLogger("belote.server")
#: The longest body read: a record is about 1 kB (a deck, 40 actions, its rules); 64 kB leaves room
#: for any spelling of one and refuses anything else before it is read.
MAX_BODY = 65_536
#: Analyses kept, answered again without a second thought (one is 20 to 60 kB of JSON).
CACHE = 64
#: Seconds a client refused for the cap is told to wait (an analysis takes a few).
RETRY_AFTER = 3


class Analyses:
    """The analyses under way (in all, and per client address) and the last answers, by record."""

    def __init__(self, cache: int = CACHE) -> None:
        self.size = cache
        self.cache: OrderedDict[str, bytes] = OrderedDict()
        self.running: dict[str, int] = {}

    @staticmethod
    def cap(thinker: Thinker) -> int:
        """Analyses at once: half the bots' workers (at least one), so that tables keep thinking."""
        return max(1, thinker.workers // 2)

    def cached(self, key: str) -> bytes | None:
        found = self.cache.get(key)
        if found is not None:
            self.cache.move_to_end(key)
        return found

    def keep(self, key: str, answer: bytes) -> None:
        self.cache[key] = answer
        self.cache.move_to_end(key)
        while len(self.cache) > self.size:
            self.cache.popitem(last=False)


def checked_record(data: Any) -> tuple[str, dict[str, Any]]:
    """The canonical text of a finished deal's record (the cache's key) and the record; raises
    ``BadRequest`` with ``not_a_record``, ``illegal_record`` or ``deal_not_over``."""
    if not isinstance(data, dict):
        raise BadRequest("not a deal record: a deal record is a JSON object", "not_a_record")
    try:
        played, score_before, error = load_deal(data)
    except RecordError as e:
        raise BadRequest(f"not a deal record: {e}", "not_a_record") from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        # A value of a type the record's reader does not expect where it looks (a hostile body).
        log.info("a record to analyse broke its reader: %r", e)
        raise BadRequest("not a deal record: a value has the wrong type", "not_a_record") from None
    if error is not None:
        where = f"{error['key']}[{error['index']}]"
        raise BadRequest(f"{where} {error['action']}: {error['message']}", "illegal_record")
    if played.phase != "done":
        raise BadRequest("the deal is not over: its review opens once it ends", "deal_not_over", 409)
    key = json.dumps(to_record(played, score_before), sort_keys=True, separators=(",", ":"))
    return key, data


async def analyse_route(request: Request) -> Response:
    """``POST /api/analyse``: a finished deal's record in, its analysis (``belote-analysis/1``) out."""
    analyses: Analyses = request.app.state.analyses
    thinker: Thinker = request.app.state.tables.config.thinker
    try:
        body = await read_body(request, MAX_BODY)
        key, record = checked_record(parse_json(body, MAX_BODY) if body.strip() else None)
    except Refusal as e:
        return refused(request, e)
    found = analyses.cached(key)
    if found is not None:
        await _count_for_player(request, key, json.loads(found))
        return Response(found, media_type="application/json")
    who = request.client.host if request.client is not None else ""
    if analyses.running.get(who):
        busy = TooMany("one analysis at a time from one address: wait for the one under way", "analysis_running")
        return refused(request, busy, headers={"Retry-After": str(RETRY_AFTER)})
    cap = Analyses.cap(thinker)
    if sum(analyses.running.values()) >= cap:
        full = BadRequest(
            f"the server is at its limit of {cap} analyses at once: try again shortly", "analyses_busy", 503, max=cap
        )
        return refused(request, full, headers={"Retry-After": str(RETRY_AFTER)})
    analyses.running[who] = analyses.running.get(who, 0) + 1
    try:
        result = await thinker.analyse(record, address_owner(who))
    except WorkersLost:
        log.error("an analysis lost its worker twice")
        lost = BadRequest("the server could not analyse that deal just now: try again", "server_error", 503)
        return refused(request, lost)
    finally:
        analyses.running[who] -= 1
        if not analyses.running[who]:
            del analyses.running[who]
    answer = json.dumps(result, ensure_ascii=False).encode("utf-8")
    analyses.keep(key, answer)
    await _count_for_player(request, key, result)
    return Response(answer, media_type="application/json")


async def _count_for_player(request: Request, key: str, result: dict[str, Any]) -> None:
    """A person with an identity who reviews a deal of a match they played (``?match=ID&seat=S`` and
    ``Authorization: Bearer <player secret>``, docs/players.md): the double-dummy cost of that seat's
    cards joins their statistics, once a deal, when the match is kept with them at that seat and the
    deal is one of its records (a record made up for the purpose counts nothing). Anything else
    counts nothing and changes no answer."""
    seat, match_id = request.query_params.get("seat"), request.query_params.get("match")
    if "authorization" not in request.headers or not match_id or seat not in result.get("players", {}):
        return
    try:
        player = await me(request)
    except Refusal:
        return
    store = request.app.state.players.store
    match = await store.match(match_id)
    seats = [] if match is None else [s for side in match["sides"] for s in side]
    if not any(s.get("seat") == seat and s.get("player") == player["id"] for s in seats):
        return
    if key not in _record_keys(await store.match_records(match_id) or ""):
        return
    mine = result["players"][seat]
    counters = {"analysed_cards": int(mine["solved"]), "dd_cost_tenths": round(10 * float(mine["cost"]))}
    game = str(result.get("game") or "classic")
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    await store.add_analysis(player["id"], game, f"{digest}:{seat}", counters)


def _record_keys(lines: str) -> set[str]:
    """The canonical texts of a kept match's records (``checked_record``'s keys)."""
    keys = set()
    for line in lines.splitlines():
        try:
            keys.add(checked_record(json.loads(line))[0])
        except (Refusal, json.JSONDecodeError):
            continue
    return keys


async def review_page(request: Request) -> Response:
    return assets.page(request, "review.html")


routes: list[Route] = [
    Route("/review", review_page, methods=["GET"]),
    Route("/api/analyse", analyse_route, methods=["POST"]),
]
