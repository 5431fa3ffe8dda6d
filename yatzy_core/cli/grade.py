"""`yatzy grade`: a finished game graded later, from a saved coach log or a game played on paper.

An `add_*_parser(subparsers)` function for `command.SUBCOMMANDS`. A log (the coach's "Save log",
`gamelog.dumps`) is replayed move by move through `coach.Game`, so every grade is computed
again, never read from the file; `--paper` reads a game typed one turn a line
(`gamelog.paper_game`). `--beat S` also grades each move by the chance to beat S it gave away
(not for a game with saved rolls, whose grades are in expected points; its bank is printed).
A log's own rules are checked before any solve (at most LOG_SOLVE_BYTES), and rules that borrow
a built-in rule set's name are graded with a first line saying how they differ from it.
"""
from __future__ import annotations

import re

import argparse
import json
from pathlib import Path

from .args import path, printable, rules_argument, rules_flag, short, whole

MAX_BYTES = 1_000_000    # a game log is a few kilobytes; refuse anything far larger unread
LOG_SOLVE_BYTES = 2_500_000_000   # a log's own rules are solved for it up to this (the largest
                                  # built-in without saved rolls, maxi-yatzy-no-saved-rolls, needs 1.96 GB)
WORST = 3


def add_grade_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "grade", help="grade a saved game log or a game played on paper",
        description="Replay a game move by move and grade every move against optimal play: "
                    "expected points lost, luck, the costliest moves; with --beat S also the "
                    "chance to beat S each move gave away.")
    p.add_argument("log", metavar="FILE", type=path,
                   help="a game log saved by the coach (JSON), or with --paper a text file, one turn a line")
    p.add_argument("--paper", action="store_true",
                   help="FILE is a paper game: 'roll choice roll choice ... box' a line (rules from --rules)")
    rules_argument(p)
    p.set_defaults(rules=None)     # a log holds its own rules; --rules must agree with them
    for action in p._actions:
        if action.dest == "rules":
            action.help = ("the log's rules (default: those the log holds; refused if they differ), "
                           "or a --paper game's rules (default: yahtzee)")
    p.add_argument("--beat", type=whole(0, 2000), default=None, metavar="S",
                   help="also grade each move by the chance to beat S it gave away")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_grade)
    return p


def read_log(path: str) -> str:
    """The file's text; ValueError naming FILE when it is missing, too big or not text."""
    file = Path(path)
    try:
        size = file.stat().st_size
        if not file.is_file():
            raise ValueError(f"argument FILE: {path} is not a file")
        if size > MAX_BYTES:
            raise ValueError(f"argument FILE: {path} holds {size:,} bytes, a game log is at most {MAX_BYTES:,}")
        return file.read_text(encoding="utf-8-sig")    # a byte-order mark is allowed
    except OSError as err:
        raise ValueError(f"argument FILE: cannot read {path} ({err.strerror or err})") from None
    except UnicodeDecodeError:
        raise ValueError(f"argument FILE: {path} is not UTF-8 text") from None


def _graded_game(args):
    """The game of FILE replayed: a fault in the file names FILE, a clash with the log's own
    rules names --rules (or --rules-file)."""
    from ..advice.gamelog import paper_game, parse, replay, rules_of
    from ..game.rules import get_rules

    content = read_log(args.log)
    flag = rules_flag(args)
    if args.paper:
        rules = get_rules(args.rules or "yahtzee")
        _gradable(rules, flag)
        return _reading(args, flag, lambda: paper_game(rules, content))
    log = _reading(args, flag, lambda: parse(content))
    rules = _reading(args, flag, lambda: rules_of(log, given=args.rules))
    _gradable(rules, f"FILE: {args.log}" if args.rules is None else flag)
    if args.rules is None:
        _solvable(rules, args.log)
    return _reading(args, flag, lambda: replay(log, rules=args.rules))


def _reading(args, flag: str, read):
    """read(), a fault in the file named as FILE's, a clash with its rules as the flag's."""
    from ..advice.gamelog import RulesMismatch
    try:
        return read()
    except RulesMismatch as err:
        raise ValueError(f"argument {flag}: {err}") from None
    except (ValueError, TypeError) as err:
        raise ValueError(f"argument FILE: {args.log}: {err}") from None


def _gradable(rules, where: str) -> None:
    """A game with saved rolls is graded from its whole table: refused, naming `where` (the rules
    flag, or FILE when the rules are the log's own), when that is more than the command solves on
    demand (Maxi Yatzy), rather than deep in the replay."""
    from ..engine.saved import WHOLE_TABLE_BYTES, saved_memory
    if rules.saved_rolls and saved_memory(rules) > WHOLE_TABLE_BYTES:
        raise ValueError(f"argument {where}: grading a game of {rules.name!r} (saved rolls) needs its whole table, "
                         f"about {saved_memory(rules, 4) / 1e9:.1f} GB in float32: more than the command "
                         f"solves on demand ({WHOLE_TABLE_BYTES / 1e9:.1f} GB)")


def _solvable(rules, log: str) -> None:
    """A log's own rules are solved for it only within LOG_SOLVE_BYTES: a 2 kB log holding a
    large rule file must not start a solve of gigabytes unasked (given with --rules-file, the
    rules are the user's choice, and the solver's memory guard alone applies)."""
    from ..game.states import StateSpace, memory_estimate
    if rules.saved_rolls:          # `_gradable` holds those to their own budget
        return
    space = StateSpace(rules)
    need = memory_estimate(space)
    if need > LOG_SOLVE_BYTES:
        raise ValueError(f"argument FILE: {log}: its rules {short(rules.name)!r} need about {need / 1e9:.1f} GB "
                         f"({space.size:,} states), over the {LOG_SOLVE_BYTES / 1e9:.1f} GB a log's own "
                         "rules get: give them with --rules-file to grade it")


def run_grade(args) -> int:
    from ..game.rules import builtin_differences
    game = _graded_game(args)
    summary = game.summary()
    grades = None
    saving = game.rules.saved_rolls
    if args.beat is not None:
        if saving:
            raise ValueError(f"argument --beat: not computed for a game with saved rolls "
                             f"(rules {game.rules.name!r})")
        from ..advice.beat_grades import grade_to_beat      # the target kernel: only when asked
        grades = grade_to_beat(game, args.beat)
    differ = builtin_differences(game.rules)
    if args.json:
        out = {"rules": summary.rules, "builtin_differences": differ, "finished": summary.finished,
               "total": summary.total if summary.finished else None, "points_so_far": summary.total,
               "moves": summary.moves,
               "optimal_moves": summary.optimal_moves, "expected_points_lost": summary.total_loss,
               "luck": summary.luck,
               "decisions": [{"turn": d.turn, "choice": d.label, "best": d.best.label, "loss": d.loss}
                             for d in game.decisions]}
        if saving:
            out["saved_rolls"] = game.saved
        if grades is not None:
            out["beat"] = {"score": args.beat, "given_away": [g.given_away for g in grades],
                           "best_for_it": sum(g.optimal for g in grades)}
        print(json.dumps(out))
        return 0
    if differ:        # a borrowed built-in name: say so before the name is printed as the rules
        whose = "the log's own" if args.rules is None and not args.paper else "the given"
        print(f"Rules {printable(game.rules.name)!r} are {whose}, not the built-in {game.rules.name}: "
              f"{'; '.join(differ)}")
    print(summary)
    if saving:
        print(f"Saved rolls in the bank: {game.saved}")
    if grades is not None:
        print(f"To beat {args.beat}: {sum(g.optimal for g in grades)} of {len(grades)} moves best for it; "
              f"probability given away, summed over the moves: {sum(g.given_away for g in grades):.4f}")
        for g in sorted((g for g in grades if not g.optimal), key=lambda g: -g.given_away)[:WORST]:
            print(f"  turn {g.decision.turn}: {g.decision.choice.text} (P {g.probability:.4f}), "
                  f"best {_displayed(g.best_label)} (P {g.best:.4f})")
    return 0


def _displayed(label: str) -> str:
    """A choice's label with its box by the display name the card shows ("score Large straight")."""
    from ..game.scoring import box_label
    return re.sub(r"^score (\w+)", lambda m: f"score {box_label(m.group(1))}", label)
