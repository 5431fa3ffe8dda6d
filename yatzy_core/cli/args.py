"""Argument types of the `yatzy` command: each checks one flag before any work and names it.

argparse turns an `ArgumentTypeError` into `argument --flag: message`, so every malformed value
ends in one line that says which flag is wrong; echoed input is shortened (`short`).

>>> whole(1, 10)("7"), short("x" * 100, 12)
(7, 'xxxxxxxxxxx…')
"""
from __future__ import annotations

import os
import stat
import tempfile
from argparse import ArgumentTypeError
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..game.checks import is_control

__all__ = [
    "short", "printable", "text", "path", "folder", "whole", "rules_argument", "rules_flag", "builtin_rules",
    "strategy_name", "strategy_list", "flag", "OutputFile", "objective_flags", "parameter_type", "chosen_objective", "card_flags"]

MAX_TEXT = 200      # longest value any text flag accepts (dice, box lists, names)
MAX_PATH = 4096     # longest path (Linux's PATH_MAX)
MAX_MESSAGE = 300   # longest error or warning line the command prints


def short(text, limit: int = 40) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis (control characters
    escaped: a rule file's name must not drive the terminal)."""
    text = printable(" ".join(str(text).split()))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def printable(text) -> str:
    r"""`text` with control characters (escape codes, bidi overrides) shown as \x1b-style
    escapes, so text from a file prints as text and never as commands to the terminal.

    >>> print(printable("red\x1b[31m!"))
    red\x1b[31m!
    """
    return "".join(ch.encode("unicode_escape").decode("ascii") if is_control(ch) and ch != "\n" else ch
                   for ch in str(text))


def text(value: str) -> str:
    """Any text flag: at most MAX_TEXT characters."""
    if len(value) > MAX_TEXT:
        raise ArgumentTypeError(f"too long ({len(value):,} characters, at most {MAX_TEXT}): "
                                f"{short(value)!r}")
    return value


def path(value: str, what: str = "file") -> str:
    """A file path flag: not empty (an empty one would silently mean no file at all), at most
    MAX_PATH characters (Linux's PATH_MAX; text flags stop at MAX_TEXT)."""
    if len(value) > MAX_PATH:
        raise ArgumentTypeError(f"too long ({len(value):,} characters, at most {MAX_PATH:,}): {short(value)!r}")
    if not value.strip():
        raise ArgumentTypeError(f"empty path; name a {what}")
    return value


def folder(value: str) -> str:
    """A folder flag (--checkpoint): an existing folder, or a new one in an existing folder (a
    mistyped path must not become a tree of new folders; a file there is not a folder).

    >>> folder("/")
    '/'
    """
    target = Path(path(value, "folder"))
    if (target.exists() or target.is_symlink()) and not target.is_dir():   # a link to nothing too
        raise ArgumentTypeError(f"{short(value)} is not a folder")
    if not target.exists() and not target.parent.is_dir():
        raise ArgumentTypeError(f"{short(value)}: its folder {short(target.parent)} does not exist")
    return value


def whole(lo: int | None = None, hi: int | None = None, why: str = ""):
    """A type for a whole-number flag in lo..hi (None: no limit that side); `why` explains hi."""
    def convert(value: str) -> int:
        try:
            n = int(text(value))
        except ValueError:
            raise ArgumentTypeError(f"invalid int value: {short(value)!r}") from None
        if lo is not None and n < lo:
            raise ArgumentTypeError(f"must be at least {lo}, got {short(n)}")
        if hi is not None and n > hi:
            raise ArgumentTypeError(f"must be at most {hi:,}{why}, got {short(n)}")
        return n
    convert.__name__ = "whole number"
    return convert


def number(lo: float | None = None, hi: float | None = None):
    """A type for a number flag in lo..hi (None: no limit that side). A risk appetite's range
    depends on the rules' points, so `Risk.check` checks it once the rules are known."""
    def convert(value: str) -> float:
        try:
            x = float(text(value))
        except ValueError:
            raise ArgumentTypeError(f"invalid number: {short(value)!r}") from None
        if (lo is not None and x < lo) or (hi is not None and x > hi):
            raise ArgumentTypeError(f"must be between {lo} and {hi}, got {short(x)}")
        return x
    convert.__name__ = "number"
    return convert


def rules_argument(parser) -> None:
    """The --rules / --rules-file flags every subcommand shares."""
    from ..game.rules import rule_names
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--rules", default="yahtzee", metavar="NAME", type=builtin_rules,
                       help=f"rule set: {', '.join(rule_names(include_new=True))} (default: yahtzee)")
    group.add_argument("--rules-file", metavar="FILE", type=path,
                       help="a rule file (TOML) instead of --rules")


def rules_flag(args) -> str:
    """The flag that gave the rules, to name in an error about them."""
    return "--rules-file" if getattr(args, "rules_file", None) else "--rules"


def objective_flags(parser, ranks: str) -> None:
    """Every registered objective's flags (`objectives.registry`; --goal T, --beat S, --risk THETA),
    the first flag of each in one group, so one objective at most: what `advise` ranks by (`ranks`
    "rank the choices by") or what `distribution` plays for ("play every turn for")."""
    from ..objectives.registry import REGISTRY
    group = parser.add_mutually_exclusive_group()
    for objective in REGISTRY.values():
        if not objective.parameters and objective.flag:   # chosen by a flag of its own, no value
            group.add_argument(objective.flag, action="store_true", dest=_dest(objective),
                               help=objective.flag_help.format(ranks=ranks))
        for i, p in enumerate(objective.parameters):
            (parser if i else group).add_argument(p.flag, type=parameter_type(p), default=None, metavar=p.metavar,
                                                  dest=_dest(p), help=p.help.format(ranks=ranks))


def _dest(parameter) -> str:
    """The argparse name of a parameter's flag (or of an objective's own flag)."""
    return parameter.flag.lstrip("-").replace("-", "_")


def parameter_type(parameter):
    """The argparse type of an objective's parameter: a whole number or a number in its range,
    or a structured value read by its own `parse` (its ValueError becomes the flag's message).

    >>> from yatzy_core.objectives.registry import objective_class
    >>> parameter_type(objective_class("reach").parameters[0])("250")
    250
    """
    if parameter.kind is int:
        return whole(parameter.low, parameter.high, parameter.why)
    if parameter.kind is float:
        return number(parameter.low, parameter.high)

    def convert(value: str):
        try:
            return parameter.parse(text(value))
        except ValueError as err:
            raise ArgumentTypeError(str(err)) from None
    convert.__name__ = parameter.metavar
    return convert


def chosen_objective(args) -> tuple[type, dict, str | None]:
    """(the objective class the flags choose, its parameters' values, the flag that chose it):
    the mean's class and no flag when none was given."""
    from ..objectives.registry import REGISTRY
    chosen = next((o for o in REGISTRY.values()
                   if (not o.parameters and o.flag and getattr(args, _dest(o), False))
                   or (o.parameters and getattr(args, _dest(o.parameters[0])) is not None)), None)
    for objective in REGISTRY.values():      # a second parameter (--lead) without its objective's flag
        stray = [p.flag for p in objective.parameters[1:] if getattr(args, _dest(p), None) is not None]
        if stray and objective is not chosen:
            raise ValueError(f"argument {stray[0]}: goes with {objective.parameters[0].flag}")
    if chosen is not None:
        for p in chosen.parameters[1:]:      # --versus without --lead: the flag missing, named
            if getattr(args, _dest(p)) is None:
                raise ValueError(f"argument {p.flag}: {p.missing}")
        flag = chosen.parameters[0].flag if chosen.parameters else chosen.flag
        return chosen, {p.name: getattr(args, _dest(p)) for p in chosen.parameters}, flag
    return next(o for o in REGISTRY.values() if o.mean_play), {}, None


def card_flags() -> str:
    """The flags of the objectives played from the points on the card ("--goal or --beat")."""
    from ..objectives.registry import REGISTRY
    flags = [o.parameters[0].flag for o in REGISTRY.values() if o.on_card and o.parameters]
    return " or ".join([", ".join(flags[:-1]), flags[-1]] if len(flags) > 1 else flags)


def builtin_rules(value: str):
    """The built-in Rules of a name, resolved here once: the commands pass the value down (a Rules
    goes through every later `get_rules` as is), never the name to be looked up again."""
    from ..game.rules import get_rules
    try:
        return get_rules(text(value))
    except ValueError as err:
        raise ArgumentTypeError(str(err)) from None


def strategy_name(value: str) -> str:
    from ..players.registry import get_strategy
    try:
        get_strategy(text(value))
    except ValueError as err:
        raise ArgumentTypeError(str(err)) from None
    return value


def strategy_list(value: str) -> list[str]:
    """Comma-separated strategy names, each known."""
    names = [n.strip() for n in text(value).split(",") if n.strip()]
    if not names:
        raise ArgumentTypeError("name at least one strategy")
    return [strategy_name(n) for n in names]


@contextmanager
def flag(name: str):
    """Report a ValueError/TypeError raised inside as `argument NAME: ...` (the flag at fault)."""
    try:
        yield
    except (ValueError, TypeError) as err:
        raise ValueError(f"argument {name}: {err}") from None


# ---- an output file, checked before the work and never overwritten unasked ----------------------

@dataclass
class OutputFile:
    """A file to write after long work: its folder is proven writable first (a temporary file is
    made there now), an existing file is refused unless `force`, and the result is moved into
    place at the end, so neither the work nor a file that was there is lost."""

    path: Path
    force: bool
    tmp: Path
    name: str = "--csv"

    @classmethod
    def open(cls, path: str, force: bool, name: str = "--csv") -> "OutputFile":
        target = Path(path)
        _check_target(target, path, force, name)
        try:
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f"{target.name}.", suffix=".partial")
        except OSError as err:
            raise ValueError(f"argument {name}: cannot write in {short(target.parent)!s} "
                             f"({err.strerror or err})") from None
        os.close(fd)
        return cls(target, force, Path(tmp), name)

    def commit(self) -> None:
        """Move the written temporary file into place (os.link refuses a file that appeared),
        with the mode a newly created file gets (mkstemp's is 0600)."""
        from ..engine.cache import new_file_mode
        os.chmod(self.tmp, new_file_mode())
        if self.force:
            _check_target(self.path, str(self.path), True, self.name)   # nothing swapped in since
            os.replace(self.tmp, self.path)
            return
        try:
            os.link(self.tmp, self.path)
        except FileExistsError:         # another program made it while the work ran: keep both
            kept = self._keep()
            raise ValueError(f"argument {self.name}: {short(str(self.path), 80)} appeared meanwhile (another "
                             f"program made it); the result is kept beside it as {short(kept.name, 80)}") from None
        os.unlink(self.tmp)

    def _keep(self) -> Path:
        """The finished result under a free name beside the target (NAME.new, NAME.new2, ...)."""
        for n in range(1, 1000):
            kept = self.path.with_name(f"{self.path.name}.new{n if n > 1 else ''}")
            try:
                os.link(self.tmp, kept)
                return kept
            except FileExistsError:
                continue
        raise ValueError(f"argument {self.name}: {short(str(self.path))} appeared while this ran, and so did "
                         "999 names beside it")

    def discard(self) -> None:
        if self.tmp.exists():
            self.tmp.unlink()


def _check_target(target: Path, path: str, force: bool, name: str) -> None:
    """Refuse a folder, a device, a FIFO or a socket (--force would replace it with a plain
    file: /dev/null run as root), and an existing file or link unless `force`."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        if os.path.islink(target) and not force:    # a link to nothing: the name is taken
            raise ValueError(f"argument {name}: {short(path)} exists (a link to a missing file); "
                             "pass --force to replace the link") from None
        return
    except OSError as err:
        raise ValueError(f"argument {name}: cannot use {short(path)} ({err.strerror or err})") from None
    if stat.S_ISDIR(mode):
        raise ValueError(f"argument {name}: {short(path)} is a folder")
    if not stat.S_ISREG(mode):
        raise ValueError(f"argument {name}: {short(path)} is not a regular file (a device, FIFO "
                         "or socket); name a plain file")
    if not force:
        raise ValueError(f"argument {name}: {short(path)} exists; pass --force to overwrite it")
