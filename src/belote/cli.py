"""The ``belote`` command."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence

from belote.game import Deal, shuffled_deck
from belote.record import RecordError, dumps, read, replay, text_report, to_record
from belote.rules import PRESETS, RulesError, find_rules


def _rules_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", default="classic", choices=sorted(PRESETS), help="a rules preset (default: classic, seed 000)"
    )


def cmd_deal(args: argparse.Namespace) -> int:
    """A random deal played by random legal moves, printed as a record."""
    rng = random.Random(args.seed)
    rules = find_rules(args.rules)
    deal = Deal(
        rules, rng.randrange(rules.players) if args.dealer is None else "NESW".index(args.dealer), shuffled_deck(rng)
    )
    while deal.phase != "done":
        actions = deal.legal_actions()
        deal.apply(actions[rng.randrange(len(actions))])
    print(dumps(to_record(deal)) if not args.pretty else json.dumps(to_record(deal), indent=2, ensure_ascii=False))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        data = read(args.file)
        out = replay(data)
    except RecordError as e:
        print(f"belote replay: {args.file}: not a deal record: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        print(text_report(data))
    return 0 if out["valid"] else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="belote", description="Belote, the French card game.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("deal", help="print a random deal, played by random legal moves, as a deal record")
    p.add_argument("--seed", type=int, default=None, help="the random seed (the same seed gives the same deal)")
    p.add_argument("--dealer", choices=list("NESW"), default=None, help="the dealer (default: drawn by the seed)")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    _rules_arg(p)
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser("replay", help="replay a deal record: the deal for people, or --json for programs")
    p.add_argument("file", help="a deal record (format belote-deal/1)")
    p.add_argument("--json", action="store_true", help="print the replay as one JSON object")
    p.set_defaults(func=cmd_replay)
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
