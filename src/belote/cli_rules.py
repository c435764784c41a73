"""The rule options of the command line: ``--rules PRESET`` and ``--option NAME=VALUE``, read by the spec
of each option (``belote.rules.OPTIONS``), and ``--game GAME``, from the registry of the games.
``belote play``, ``deal``, ``arena`` and ``scores`` share them.

>>> parser = argparse.ArgumentParser()
>>> add_rules_arguments(parser)
>>> rules_from_args(parser.parse_args(["--rules", "coinche", "--option", "surcoinche=3"])).surcoinche
3
>>> rules_from_args(parser.parse_args(["--option", "deals=null", "--option", "rounding=true"])).rounding
True
"""

from __future__ import annotations

import argparse

from belote.rules import OPTION_SPECS, PRESETS, Rules, RulesError, find_rules
from belote.variants import VARIANTS

#: The preset of the default rules (those of seed 000), which ``--rules`` gives when not named.
DEFAULT_PRESET = next(name for name, rules in PRESETS.items() if rules == Rules())


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        default=DEFAULT_PRESET,
        choices=rules_choices(),
        help=f"a rules preset (default: {DEFAULT_PRESET}, seed 000); the games: {', '.join(VARIANTS)}",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option on top of the preset, e.g. --option surcoinche=3 --option rounding=true "
        f"(docs/rules.md tells each; the options: {', '.join(OPTION_SPECS)}); may be given several times",
    )


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    """``--game GAME``: a game of the registry, as it is when the parser is made (``--rules GAME``)."""
    parser.add_argument(
        "--game",
        default=None,
        choices=list(VARIANTS),
        help="the game (its preset; the same as --rules GAME)",
    )


def option_of(text: str) -> tuple[str, object]:
    """One ``NAME=VALUE``: the option's name and its value, read by the option's kind (raises RulesError).

    >>> option_of("target=1000"), option_of(" direction = counterclockwise ")
    (('target', 1000), ('direction', 'counterclockwise'))
    >>> option_of("surcoinche=5")
    Traceback (most recent call last):
    ...
    belote.rules.RulesError: rule option 'surcoinche' must be one of 3, 4, not '5'
    """
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise RulesError(f"a rule option is NAME=VALUE, such as surcoinche=3, not {text!r}")
    spec = OPTION_SPECS.get(name)
    if spec is None:
        raise RulesError(f"unknown rule option {name!r}; the options are: {', '.join(OPTION_SPECS)}")
    return name, spec.parse(value)


def rules_choices() -> list[str]:
    """What ``--rules`` takes: a preset, or a game that has none of its own (its default rules), in
    the registry as it is now.

    >>> rules_choices()[:3]
    ['classic', 'classic-1000', 'coinche']
    """
    return sorted(PRESETS) + [game for game in VARIANTS if game not in PRESETS]


def base_rules(name: str) -> Rules:
    """The rules ``--rules NAME`` names: the preset, or a game's default rules (raises RulesError)."""
    if name not in PRESETS and name in VARIANTS:
        return Rules(variant=name)
    return find_rules(name)


def rules_from_args(args: argparse.Namespace, **overrides: object) -> Rules:
    """The preset of ``--rules``, each ``--option NAME=VALUE`` on top, then ``overrides`` that are not None."""
    rules = base_rules(args.rules)
    changes = dict(option_of(option) for option in args.option)
    changes.update({k: v for k, v in overrides.items() if v is not None})
    return Rules.from_dict(changes, base=rules) if changes else rules
