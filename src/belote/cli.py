"""The ``belote`` command."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from belote import sheet_cli, tournament_cli
from belote.cli_rules import add_game_argument, add_rules_arguments, rules_from_args
from belote.game import SEATS, Deal, shuffled_deck
from belote.record import RecordError, dumps, read_all, replay, text_report, to_record
from belote.rules import RulesError
from belote.variants import DEFAULT_GAME, VARIANTS


def cmd_deal(args: argparse.Namespace) -> int:
    """A random deal played by random legal moves, printed as a record."""
    rng = random.Random(args.seed)
    rules = rules_from_args(args)
    deal = Deal(
        rules, rng.randrange(rules.players) if args.dealer is None else SEATS.index(args.dealer), shuffled_deck(rng)
    )
    while deal.phase != "done":
        actions = deal.legal_actions()
        deal.apply(actions[rng.randrange(len(actions))])
    print(dumps(to_record(deal)) if not args.pretty else json.dumps(to_record(deal), indent=2, ensure_ascii=False))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """One record, or a table's archive (JSON lines): each deal in turn; 1 when one is not valid."""
    try:
        records = read_all(args.file)
        outs = [replay(data) for data in records]
    except RecordError as e:
        print(f"belote replay: {args.file}: not a deal record: {e}", file=sys.stderr)
        return 2
    for i, (data, out) in enumerate(zip(records, outs, strict=True)):
        if args.json:
            print(json.dumps(out, ensure_ascii=False))
        else:
            print(("\n" if i else "") + text_report(data))
    return 0 if all(out["valid"] for out in outs) else 1


def cmd_analyse(args: argparse.Namespace) -> int:
    """Every deal of a record file analysed: double dummy, the bot's view, the par; text or JSON lines."""
    from belote.analysis import AnalysisError, Options, analyse, read_records, text_report
    from belote.analysis import dumps as analysis_dumps

    options = Options(seed=args.seed, think=args.think, view=not args.no_view)
    status = 0
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"belote analyse: {args.file}: cannot read: {e}", file=sys.stderr)
        return 2
    try:
        for number, record in enumerate(read_records(text), 1):
            try:
                out = analyse(record, options)
            except AnalysisError as e:
                if e.code == "not_a_record":
                    raise
                print(f"belote analyse: {args.file}: deal {number}: {e} ({e.code})", file=sys.stderr)
                status = 1
                continue
            print(analysis_dumps(out) if args.json else text_report(out), flush=True)
    except AnalysisError as e:
        print(f"belote analyse: {args.file}: {e} ({e.code})", file=sys.stderr)
        return 2
    return status


def cmd_problems(args: argparse.Namespace) -> int:
    """Training problems from deals played by bots, written as JSON lines."""
    from belote.problems import generate, problem_dumps

    if args.game is not None:  # a game's own preset, the --option changes on top
        args.rules = args.game
    rules = rules_from_args(args)
    written = 0
    with open(args.output, "w", encoding="utf-8") as f:
        for problem in generate(rules, args.count, seed=args.seed, min_cost=args.min_cost):
            f.write(problem_dumps(problem) + "\n")
            written += 1
    print(f"belote problems: {written} problems written to {args.output}", file=sys.stderr)
    return 0


def make_team(bot: str, think: float | None, given: list[str], flag: str, timeout: float | None) -> Any:
    """A ``belote.arena.Team`` from the command line: the bot's name, its ``think``, its options as
    ``NAME=VALUE`` (checked against its constructor before a deal is played), an outside program's
    decision ``timeout``. Raises ``ValueError`` with what is wrong."""
    from belote.arena import Team
    from belote.bots import EXEC, bot_options

    options: dict[str, Any] = {} if think is None else {"think": think}
    if bot.startswith(EXEC):
        if given:
            raise ValueError(f"{flag}: an outside program takes no options here (its own command line does)")
        if timeout is not None:
            options["timeout"] = timeout
        return Team(bot, options)
    known = bot_options(bot)
    for item in given:
        name, eq, text = item.partition("=")
        if not eq or not name:
            raise ValueError(f"{flag} takes NAME=VALUE, not {item!r}")
        if name not in known:
            raise ValueError(f"{flag}: the {bot} bot has no option {name!r}; its options: {', '.join(known) or 'none'}")
        try:
            options[name] = json.loads(text)
        except ValueError:
            options[name] = text
    made = Team(bot, options)
    try:
        made.make(0)  # an option of the wrong kind is refused before a deal is played
    except (TypeError, ValueError) as e:
        raise ValueError(f"{flag}: the {bot} bot refuses {made.label!r}: {e}") from None
    return made


def cmd_arena(args: argparse.Namespace) -> int:
    """Two bots on duplicate deals: the difference per deal with its 95% interval."""
    from belote.arena import ArenaError, run_arena
    from belote.bot_protocol import ProgramError

    rules = rules_from_args(args, target=args.target, deals=args.match_deals)
    try:
        ns = make_team(args.ns, args.ns_think, args.ns_bot, "--ns-bot", args.bot_timeout)
        ew = make_team(args.ew, args.ew_think, args.ew_bot, "--ew-bot", args.bot_timeout)
    except ValueError as e:
        print(f"belote arena: {e}", file=sys.stderr)
        return 2
    try:
        result = run_arena(ns, ew, deals=args.deals, seed=args.seed, rules=rules, jobs=args.jobs)
    except (ArenaError, ProgramError) as e:
        notes = "".join(f"; {n}" for n in getattr(e, "__notes__", ()))
        print(f"belote arena: {e}{notes}", file=sys.stderr)
        return 2
    print(json.dumps(result.to_json()) if args.json else result.report())
    return 0


def cmd_benchmark(args: argparse.Namespace) -> int:
    """A bot against the benchmark's fixed opponents on its fixed deals (belote.benchmark)."""
    from belote.arena import ArenaError
    from belote.benchmark import GAMES, OPPONENTS, run_benchmark
    from belote.bot_protocol import ProgramError

    try:
        team = make_team(args.bot, None, args.bot_option, "--bot-option", args.bot_timeout)
    except ValueError as e:
        print(f"belote benchmark: {e}", file=sys.stderr)
        return 2

    def done(cell: Any) -> None:
        lo, hi = cell.result.ci95
        print(f"{cell.game} against {cell.opponent}: {cell.result.mean:+.1f} ({lo:+.1f} .. {hi:+.1f})", file=sys.stderr)

    try:
        result = run_benchmark(
            team,
            games=args.game or GAMES,
            opponents=args.opponent or [o.name for o in OPPONENTS],
            pairs=args.pairs,
            jobs=args.jobs,
            done=done,
        )
    except (ArenaError, ProgramError) as e:
        notes = "".join(f"; {n}" for n in getattr(e, "__notes__", ()))
        print(f"belote benchmark: {e}{notes}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.report())
        if args.markdown:
            print("\n".join(result.markdown_rows(args.markdown)))
    return 0


def cmd_dataset(args: argparse.Namespace) -> int:
    """The bots' self-play as a dataset: deal records, and every decision as a learner sees it."""
    from pathlib import Path

    try:
        import pyarrow  # noqa: F401  (the dataset's files: asked for here, not halfway through a run)

        from belote import dataset
    except ImportError as e:
        print(f"belote dataset: {e.name} is missing: pip install 'belote[data]'", file=sys.stderr)
        return 2
    if args.deals < 1:
        print(f"belote dataset: --deals must be at least 1, not {args.deals}", file=sys.stderr)
        return 2
    try:
        team = make_team(args.bot, None, args.bot_option, "--bot-option", None)
    except ValueError as e:
        print(f"belote dataset: {e}", file=sys.stderr)
        return 2
    spec = dataset.spec_for(args.game, team, args.seed)
    out = Path(args.output)
    step = max(1, args.deals // 20)

    def done(j: int) -> None:
        if (j + 1) % step == 0 or j + 1 == args.deals:
            print(f"{j + 1} of {args.deals} matches", file=sys.stderr)

    meta = dataset.make(spec, args.deals, out, jobs=args.jobs or 1, done=done)
    print(f"{out}: {meta['deals']} deals ({meta['matches']} matches), deals.jsonl and decisions.parquet")
    return 0


def cmd_bot_serve(args: argparse.Namespace) -> int:
    """A built-in bot behind the line protocol (docs/bot-protocol.md), on standard input and output."""
    from belote.bot_protocol import main_serve
    from belote.bots import bot_names, bot_options

    if args.name not in bot_names():
        print(f"belote bot serve: no bot named {args.name!r}; the bots are: {', '.join(bot_names())}", file=sys.stderr)
        return 2
    if args.think is not None and "think" not in bot_options(args.name):
        print(f"belote bot serve: the {args.name} bot takes no --think (the search bot does)", file=sys.stderr)
        return 2
    return main_serve(args.name, {} if args.think is None else {"think": args.think})


def cmd_bot_check(args: argparse.Namespace) -> int:
    """A few deals against a program: what it got wrong; status 0 when nothing, 1 otherwise."""
    from belote.bot_check import check

    rules = rules_from_args(args)
    report = check(
        args.command,
        rules,
        deals=args.deals,
        seed=args.seed,
        timeout=args.timeout,
        handshake_timeout=args.handshake_timeout,
    )
    print(json.dumps(report.to_json(), ensure_ascii=False) if args.json else report.text())
    return 0 if report.ok else 1


def workers(text: str) -> int:
    """A number of worker processes: 0 or more."""
    n = int(text)
    if n < 0:
        raise argparse.ArgumentTypeError("0 (threads) or more")
    return n


def cmd_serve(args: argparse.Namespace) -> int:
    """The web table and the score sheet, with a SQLite file as the store."""
    from belote.server import logs
    from belote.server.app import create_app
    from belote.server.store import default_path
    from belote.server.tables import ServerConfig

    logs.setup(args.log_format)
    db = args.db or default_path()
    where = f"tables and score sheets in Redis at {args.redis}" if args.redis else f"store: {db}"
    print(f"belote: serving on http://{args.host}:{args.port} ({where})", flush=True)
    config = ServerConfig(
        queue_wait=args.queue_wait,
        queue_deals=args.queue_deals,
        daily_boards=args.daily_boards,
        daily_bots=args.daily_bots,
        turn_timer=args.turn_timer,
        pace=args.pace,
        origins=tuple(args.origin),
        table_rate=(args.tables_per_minute, 60.0),
        message_rates=args.message_rates,
        sockets_per_address=args.sockets_per_address,
        hint_rate=(args.hints_per_minute, 60.0),
        expire_after=args.expire_after,
        expire_solo_after=args.expire_solo_after,
        sweep_every=args.sweep_every,
        expire_sheets_after=args.expire_sheets_after,
        think_workers=args.think_workers,
    )
    app = create_app(db_path=db, config=config, redis_url=args.redis)
    server = _guarded_server(app, args)
    server.run()
    return 0 if server.started else 3  # uvicorn's status for a server that could not start


def _guarded_server(app: Starlette, args: argparse.Namespace) -> Server:
    """uvicorn's server of ``app``, its connections limited (``belote.server.connections``) and the
    ``Host`` of its requests checked (``belote.server.hosts``)."""
    from belote.server import connections, hosts

    before, files = connections.raise_file_limit()
    plan = connections.plan(files) if files else connections.Plan(0, 2048, 0)
    total = plan.total if args.max_connections is None else args.max_connections
    if plan.total and not 0 < total <= plan.total:
        total = plan.total  # past it, accept would fail for want of descriptors
    guard = connections.Connections(
        per_address=args.connections_per_address,
        total=total,
        proxies=connections.Proxies(args.forwarded_allow_ips),
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
        metrics=app.state.metrics,
        turn_away_at_once=plan.backlog,
    )
    names = hosts.HostNames.listening_on(args.host, args.host_name)
    raised = f" (raised from {before})" if files > before else ""
    connections.log.info(
        "open files at most %s%s: at most %s connections, %s from one address; a request's headers in %g s, "
        "its body in %g s; the names of this server: %s",
        files or "as the system allows",
        raised,
        total or "any number of",
        args.connections_per_address or "any number",
        args.header_timeout,
        args.body_timeout,
        names,
    )
    return connections.server(
        hosts.HostCheck(app, names, app.state.metrics),
        guard,
        plan.backlog,
        host=args.host,
        port=args.port,
        log_level="warning",
        log_config=None,  # uvicorn's records go to the root logger: one form for every line
        ws_max_size=65536,
        proxy_headers=args.forwarded_allow_ips is not None,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )


def cmd_play(args: argparse.Namespace) -> int:
    """A match in the terminal against bots, in any game."""
    from belote.terminal import TerminalGame

    rules = rules_from_args(args, target=args.target, deals=args.deals)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    options = {"think": args.think} if args.bot == "search" else {}
    return TerminalGame(rules, seed, bot=args.bot, bot_options=options, delay=args.delay).run()


if TYPE_CHECKING:
    from starlette.applications import Starlette

    from belote.server.connections import Server

    #: The subparsers of ``belote``, which each subcommand's function adds itself to.
    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]


def deal_parser(sub: Subcommands) -> None:
    p = sub.add_parser("deal", help="print a random deal, played by random legal moves, as a deal record")
    p.add_argument("--seed", type=int, default=None, help="the random seed (the same seed gives the same deal)")
    p.add_argument("--dealer", choices=list(SEATS), default=None, help="the dealer (default: drawn by the seed)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_deal)


def serve_parser(sub: Subcommands) -> None:
    p = sub.add_parser("serve", help="start the web table on http://127.0.0.1:8000 (and the score sheet at /scores)")
    p.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    p.add_argument("--db", default=None, help="the SQLite file of the store (default: $BELOTE_DB or the data folder)")
    p.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="share the tables with other processes through Redis (e.g. redis://localhost:6379/0)",
    )
    _serve_pace(p)
    _serve_limits(p)
    _serve_connections(p)
    _serve_logs_and_expiry(p)
    p.set_defaults(func=cmd_serve)


def _queue_deals(text: str) -> int:
    """A number of deals for the queue's matches, as a table's ``deals`` setting takes it."""
    n = int(text)
    if not 1 <= n <= 100:
        raise argparse.ArgumentTypeError("1 to 100 deals")
    return n


def _daily_boards(text: str) -> int:
    """A number of boards for the daily tournaments, as a private one takes it."""
    from belote.tournament import MAX_BOARDS, MIN_BOARDS

    n = int(text)
    if not MIN_BOARDS <= n <= MAX_BOARDS:
        raise argparse.ArgumentTypeError(f"{MIN_BOARDS} to {MAX_BOARDS} boards")
    return n


def _serve_pace(p: argparse.ArgumentParser) -> None:
    """How the tables go: the queue's wait, the turn timer, the bots' pace."""
    p.add_argument(
        "--queue-wait", type=float, default=20.0, help="seconds before bots fill an online table (default 20)"
    )
    p.add_argument(
        "--queue-deals",
        type=_queue_deals,
        default=None,
        metavar="N",
        help="deals in a match of the online tables (1 to 100; default: played to the target score, 1000)",
    )
    p.add_argument(
        "--daily-boards",
        type=_daily_boards,
        default=8,
        metavar="N",
        help="boards of the daily tournaments this server makes (1 to 16; default 8)",
    )
    p.add_argument(
        "--daily-bots",
        choices=("easy", "normal", "strong"),
        default="normal",
        help="the bots of the daily tournaments (default normal)",
    )
    p.add_argument(
        "--turn-timer", type=int, default=30, help="seconds a player has to act before a bot plays (default 30)"
    )
    p.add_argument(
        "--pace", type=float, default=1.0, help="multiplies the bots' pauses (default 1; 0: bots play at once)"
    )


def _serve_limits(p: argparse.ArgumentParser) -> None:
    """Who may connect, how much each client address may open, where the bots think."""
    p.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="URL",
        help="a page besides the server's own whose websockets and requests are taken, e.g. "
        "https://belote.example (repeat for several)",
    )
    p.add_argument(
        "--tables-per-minute",
        type=int,
        default=20,
        metavar="N",
        help="new tables (solo, private, places in the queue) and score sheets one client address may create "
        "in a minute, together, in all the processes with --redis (default 20; 0: no limit)",
    )
    p.add_argument(
        "--message-rates",
        type=float,
        default=1.0,
        metavar="X",
        help="multiplies how many of each message one client may send in 10 seconds (docs/operations.md; "
        "default 1; 0: no limit)",
    )
    p.add_argument(
        "--sockets-per-address",
        type=int,
        default=32,
        metavar="N",
        help="websockets one client address may hold open at once, in all the processes with --redis "
        "(default 32; 0: no limit)",
    )
    p.add_argument(
        "--hints-per-minute",
        type=int,
        default=20,
        metavar="N",
        help="hints one client address may ask for in a minute, in all the processes with --redis "
        "(default 20; 0: no limit)",
    )
    p.add_argument(
        "--think-workers",
        type=workers,
        default=None,
        metavar="N",
        help="processes the bots think in (default: one per core; 0: threads of the server's process)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="behind a reverse proxy: the proxies (comma-separated addresses, or *) whose X-Forwarded-For "
        "gives the client's address, which the limits count by",
    )


def _serve_connections(p: argparse.ArgumentParser) -> None:
    """How many connections, how slow a request, and which names (docs/operations.md, "Connections")."""
    p.add_argument(
        "--connections-per-address",
        type=int,
        default=64,
        metavar="N",
        help="connections (HTTP and websockets) one client address may hold open at once in this process; "
        "a proxy of --forwarded-allow-ips is not limited by it (default 64; 0: no limit)",
    )
    p.add_argument(
        "--max-connections",
        type=int,
        default=None,
        metavar="N",
        help="connections this process holds at once (default and most: its limit of open files, raised to "
        "the hard limit at start, less room for its own files)",
    )
    p.add_argument(
        "--header-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="a request's headers arrive within this time of its first byte, or it is answered 408 and "
        "closed (default 10; 0: no limit)",
    )
    p.add_argument(
        "--body-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="a request's body arrives within this time of its headers, or it is answered 408 and closed "
        "(default 30; 0: no limit)",
    )
    p.add_argument(
        "--host-name",
        action="append",
        default=[],
        metavar="NAME",
        help="a name of this server that the Host of a request may give, e.g. belote.example (repeat for "
        "several); localhost and IP addresses always may; without one, a server listening on 0.0.0.0 or :: "
        "takes any Host",
    )


def _serve_logs_and_expiry(p: argparse.ArgumentParser) -> None:
    """How the log is written, and when unused tables leave the store."""
    p.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="how log lines are written to standard error: text for people, json for programs (one object "
        "a line: time, level, logger, message, table)",
    )
    p.add_argument(
        "--expire-after",
        type=float,
        default=7 * 24 * 3600,
        metavar="SECONDS",
        help="a private or online table nobody used for this long (finished, or no action and no socket) "
        "is removed from the store (default 604800: a week)",
    )
    p.add_argument(
        "--expire-solo-after",
        type=float,
        default=24 * 3600,
        metavar="SECONDS",
        help="the same for a solo table (default 86400: a day)",
    )
    p.add_argument(
        "--sweep-every",
        type=float,
        default=600,
        metavar="SECONDS",
        help="seconds between two sweeps of the expired tables and score sheets (default 600)",
    )
    p.add_argument(
        "--expire-sheets-after",
        type=float,
        default=90 * 24 * 3600,
        metavar="SECONDS",
        help="a score sheet nobody changed for this long is removed from the store (default 7776000: 90 days; "
        "0: kept for ever)",
    )


def play_parser(sub: Subcommands) -> None:
    others = ", ".join(name for name in VARIANTS if name != DEFAULT_GAME)
    p = sub.add_parser(
        "play",
        help="play a match in the terminal against bots (South at four and three hands, North at two)",
        description=f"A match in the terminal against bots, in any game: --rules {others}... "
        "You sit South (your partner North) at four players, South against North and East at three, North "
        "against East at two. Type a card's number or name; bids as take, pass, a suit letter, or in Coinche a "
        "contract such as 110H, 90NT, 160AT, capotS, and coinche, surcoinche; q quits.",
    )
    p.add_argument("--bot", default="search", help="the bots to play with (random, heuristic, search, learned)")
    p.add_argument("--think", type=float, default=1.0, help="the search bot's thinking time, as a multiple")
    p.add_argument("--seed", type=int, default=None, help="the random seed of the match")
    p.add_argument("--target", type=int, default=None, help="the line to reach (default 501)")
    p.add_argument("--deals", type=int, default=None, help="play a number of deals instead of to a line")
    p.add_argument("--delay", type=float, default=0.6, help="seconds between the bots' cards")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_play)


def replay_parser(sub: Subcommands) -> None:
    p = sub.add_parser("replay", help="replay a deal record: the deal for people, or --json for programs")
    p.add_argument("file", help="a deal record (format belote-deal/1), or JSON lines of them (a table's archive)")
    p.add_argument("--json", action="store_true", help="print each deal's replay as one line of JSON")
    p.set_defaults(func=cmd_replay)


def analyse_parser(sub: Subcommands) -> None:
    p = sub.add_parser(
        "analyse",
        help="analyse deal records: what each card cost double dummy, the bot's view, the par of the bidding",
        description="Every deal of FILE (a deal record, or JSON lines of records) analysed: for each card "
        "played, the double-dummy value of every legal card in the deal's points and the cost of the card "
        "played; the search bot's evaluation from the player's own view and its card; the par of each trump "
        "for each side and the bot's bids; a summary per player. Format: docs/analysis.md.",
    )
    p.add_argument("file", help="a deal record (format belote-deal/1) or JSON lines of records")
    p.add_argument("--json", action="store_true", help="one JSON object per deal, a line each (belote-analysis/1)")
    p.add_argument("--seed", type=int, default=0, help="the search bot's seed (default 0)")
    p.add_argument("--think", type=float, default=1.0, help="the search bot's thinking (default 1)")
    p.add_argument("--no-view", action="store_true", help="double dummy and par only: no bot's view (faster)")
    p.set_defaults(func=cmd_analyse)


def problems_parser(sub: Subcommands) -> None:
    p = sub.add_parser(
        "problems",
        help="write training problems: positions where one card is clearly best, as JSON lines",
        description="Deals shuffled from the seed and played by bots; a position is kept when one legal card "
        "is best double dummy by at least --min-cost points over every other and the search bot, from the "
        "player's view alone, plays it. Format: docs/analysis.md.",
    )
    p.add_argument("--count", type=int, required=True, help="how many problems to write")
    p.add_argument("--seed", type=int, default=1, help="the seed of the deals (default 1)")
    add_game_argument(p)
    p.add_argument("--min-cost", type=int, default=20, help="the least cost of every other card (default 20)")
    p.add_argument("-o", "--output", required=True, help="the file to write (JSON lines)")
    add_rules_arguments(p)
    p.set_defaults(func=cmd_problems)


def _outside_bot_and_json(p: argparse.ArgumentParser) -> None:
    """The flags the arena and the benchmark share: an outside bot's time, and the figures as JSON."""
    p.add_argument(
        "--bot-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="an outside bot's time for one decision (exec:COMMAND; default 30)",
    )
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")


def arena_parser(sub: Subcommands) -> None:
    p = sub.add_parser(
        "arena",
        help="two bots against each other on duplicate deals, with a 95%% confidence interval",
        description="Team A (--ns) against team B (--ew) on duplicate deals. Each match is played at two tables "
        "with the same decks in the same order: at table 1 A sits N/S and B E/W, at table 2 the seats are swapped. "
        "The report gives A's points minus B's per deal, over the pairs of the same deal at both tables. "
        "Every game of --rules is played so (coinche, two-handed: A is N at table 1, E at table 2); at three "
        "hands there are six tables, A alone at N, E, S at tables 1-3 against two copies of B, and the other "
        "way round at tables 4-6.",
    )
    p.add_argument("--ns", required=True, metavar="BOT", help="team A: N/S at table 1, E/W at table 2")
    p.add_argument("--ew", required=True, metavar="BOT", help="team B: E/W at table 1, N/S at table 2")
    p.add_argument(
        "--deals",
        type=int,
        default=1000,
        help="duplicate pairs to play: the same deck at both tables (default 1000)",
    )
    p.add_argument("--seed", type=int, default=1, help="the seed of the matches (default 1)")
    p.add_argument("--jobs", type=int, default=None, help="processes to play in (default: every core)")
    p.add_argument("--ns-think", type=float, default=None, metavar="X", help="team A's option think (time scale)")
    p.add_argument("--ew-think", type=float, default=None, metavar="X", help="team B's option think (time scale)")
    for side, team in (("ns", "A"), ("ew", "B")):
        p.add_argument(
            f"--{side}-bot",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help=f"an option of team {team}'s bot, given to its constructor (the value read as JSON, else as text); "
            "repeat it for more, e.g. --ns-bot worlds=20 --ns-bot horizon=null (docs/bots.md names the search bot's)",
        )
    p.add_argument("--target", type=int, default=None, help="the match's target score (default: the preset's)")
    p.add_argument("--match-deals", type=int, default=None, metavar="N", help="matches of N deals, not to a target")
    _outside_bot_and_json(p)
    add_rules_arguments(p)
    p.set_defaults(func=cmd_arena)


def benchmark_parser(sub: Subcommands) -> None:
    from belote.benchmark import GAMES, OPPONENTS, PAIRS, VERSION

    p = sub.add_parser(
        "benchmark",
        help="a bot against fixed opponents on fixed duplicate deals of every game: figures to quote",
        description=f"{VERSION}: the bot against the random, heuristic and search bots (the search bot at its "
        f"default budget of nodes, without its card-play prior), {PAIRS} duplicate pairs of one-deal matches of "
        "each game, from fixed seeds: the bot's points less the opponent's per deal, with the 95%% confidence "
        "interval (docs/bots.md, where the built-in bots' rows are).",
    )
    p.add_argument(
        "--bot", required=True, metavar="BOT", help='a built-in bot, or "exec:COMMAND" (docs/bot-protocol.md)'
    )
    p.add_argument(
        "--bot-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of the bot, given to its constructor (the value read as JSON, else as text); repeat for more",
    )
    p.add_argument("--game", action="append", choices=GAMES, help="only this game (repeat for more)")
    p.add_argument(
        "--opponent", action="append", choices=[o.name for o in OPPONENTS], help="only this opponent (repeat for more)"
    )
    p.add_argument(
        "--pairs",
        type=int,
        default=PAIRS,
        metavar="N",
        help=f"pairs a cell (default {PAIRS}, the benchmark's; fewer give a first look, not its figures)",
    )
    p.add_argument("--jobs", type=int, default=None, help="processes to play in (default: every core)")
    _outside_bot_and_json(p)
    p.add_argument("--markdown", metavar="NAME", help="print also the bot's rows of the table of docs/bots.md")
    p.set_defaults(func=cmd_benchmark)


def dataset_parser(sub: Subcommands) -> None:
    p = sub.add_parser(
        "dataset",
        help="the bots' self-play as a dataset: deal records, and each decision's observation, mask, action "
        "and double-dummy values (Parquet)",
        description="Plays one-deal matches of the bot at every seat and writes, in the folder -o: deals.jsonl "
        "(the deal records), decisions.parquet (one row a decision: the observation of docs/env.md, the legal "
        "actions' mask, the action, and for a card the double-dummy value of every legal card) and "
        "dataset.json (how it was made). The same arguments write the same data (docs/dataset.md). Needs "
        "pip install 'belote[data]'.",
    )
    p.add_argument("--game", choices=[name for name in VARIANTS], default=DEFAULT_GAME, help="the game")
    p.add_argument("--deals", type=int, required=True, metavar="N", help="one-deal matches to play")
    p.add_argument("--seed", type=int, default=1, help="the seed of the matches and the bots (default 1)")
    p.add_argument("--bot", default="search", metavar="BOT", help="the bot at every seat (default search)")
    p.add_argument(
        "--bot-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of the bot, given to its constructor (the value read as JSON, else as text)",
    )
    p.add_argument("--jobs", type=int, default=1, help="processes to play in (default 1)")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="the folder to write (made if need be)")
    p.set_defaults(func=cmd_dataset)


def bot_parser(sub: Subcommands) -> None:
    p = sub.add_parser(
        "bot",
        help="bots as programs: serve a built-in bot, or check a program, over the line protocol",
        description="Outside bots speak a line protocol on their standard input and output "
        '(docs/bot-protocol.md); `belote arena --ns "exec:python mybot.py"` plays any of them.',
    )
    bot = p.add_subparsers(dest="bot_command", metavar="COMMAND")
    bot.required = True
    q = bot.add_parser("serve", help="run a built-in bot (random, heuristic, search, learned) behind the line protocol")
    q.add_argument("name", help="the bot: random, heuristic, search or learned")
    q.add_argument("--think", type=float, default=None, help="the search bot's thinking time, as a multiple")
    q.set_defaults(func=cmd_bot_serve)
    q = bot.add_parser(
        "check",
        help="play a few deals against a program and report what it got wrong",
        description="The program plays one seat of each deal (the seats in turn) against random bots. The "
        "report lists refused answers (with the rules' refusal codes), lines that are no action, timeouts, "
        "crashes and a bad handshake; the status is 0 when there was nothing to report, 1 otherwise.",
    )
    q.add_argument("command", help='the program, as one argument: "python mybot.py"')
    q.add_argument("--deals", type=int, default=4, help="deals to play (default 4)")
    q.add_argument("--seed", type=int, default=1, help="the seed of the deals (default 1)")
    q.add_argument("--timeout", type=float, default=5.0, help="seconds a decision may take (default 5)")
    q.add_argument(
        "--handshake-timeout", type=float, default=30.0, help="seconds the program has to greet (default 30)"
    )
    q.add_argument("--json", action="store_true", help="print the report as one JSON object")
    add_rules_arguments(q)
    q.set_defaults(func=cmd_bot_check)


#: The subcommands, in the order ``belote --help`` lists them: each adds its parser (with its flags
#: and its ``func``) to the subparsers.
SUBCOMMANDS: tuple[Callable[[Subcommands], object], ...] = (
    deal_parser,
    serve_parser,
    play_parser,
    tournament_cli.register,
    sheet_cli.add_parser,
    replay_parser,
    analyse_parser,
    problems_parser,
    arena_parser,
    benchmark_parser,
    dataset_parser,
    bot_parser,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="belote", description="Belote, the French card game.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for add in SUBCOMMANDS:
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except RulesError as e:
        print(f"belote: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (| head): nothing more to say
        sys.stderr.close()
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
