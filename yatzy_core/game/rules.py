"""The rule sets by name: the built-in ones are TOML rule files in `yatzy_core/game/rulesets/`
(read by rulefile.py into `Rules` values, defined in ruleset.py), each box naming one scorer of
the catalogue in scoring.py.

>>> yatzy = get_rules("yatzy")
>>> yatzy.score("two_pairs", [1, 2, 2, 4, 4]), yatzy.score("full_house", [5, 5, 6, 6, 6])
(12, 28)
"""
from __future__ import annotations

from pathlib import Path

from .checks import instance_of, true_or_false
from .rulefile import DEFAULTS, load
from .ruleset import Rules

__all__ = ["Rules", "get_rules", "rule_names", "builtin_differences", "BUILTIN", "CLASSIC", "UPPER_NAMES"]

UPPER_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes")

# The rule sets shipped are the files yatzy_core/game/rulesets/<name>.toml: a new file is a new
# built-in. CLASSIC are the five whose numbers the notebooks, studies and widgets show (a choice,
# kept here); the others follow by name: newer games, some with more than 5 dice.
RULESETS = Path(__file__).with_name("rulesets")
CLASSIC = ("yahtzee", "yahtzee-verhoeff", "yahtzee-no-bonus", "yatzy", "yatzy-thesis")


def builtin_names(folder: Path = RULESETS) -> tuple[str, ...]:
    """The rule sets of a folder of rule files, by file name: CLASSIC first, the rest sorted.

    >>> builtin_names()[:2], len(builtin_names()) == len(list(RULESETS.glob("*.toml")))
    (('yahtzee', 'yahtzee-verhoeff'), True)
    """
    return CLASSIC + tuple(sorted(p.stem for p in Path(folder).glob("*.toml") if p.stem not in CLASSIC))


BUILTIN = builtin_names()

_CACHE: dict[str, Rules] = {}


def get_rules(name: str | Rules) -> Rules:
    """A built-in rule set by name (or a Rules value, returned as is)."""
    if isinstance(name, Rules):
        return name
    instance_of("rules", name, str, "a rule set's name (str) or Rules")
    if name not in BUILTIN:
        raise ValueError(f"unknown rules {name!r}; choose one of: {', '.join(BUILTIN)}")
    if name not in _CACHE:
        _CACHE[name] = load(RULESETS / f"{name}.toml")
    return _CACHE[name]


def rule_names(include_new: bool = False) -> list[str]:
    """Names of the built-in rule sets: the five classic ones, or with include_new all of them.

    >>> rule_names(include_new=True)[5:]
    ['forced-yatzy', 'maxi-yatzy', 'maxi-yatzy-no-saved-rolls', 'yahtzee-3-rerolls']
    """
    return list(BUILTIN if true_or_false("include_new", include_new) else CLASSIC)


def builtin_differences(rules: Rules) -> list[str]:
    """How `rules` differ from the built-in rule set of their name, one phrase each ("upper_bonus
    9000 (built-in 35)"); [] when they are that rule set or no built-in has the name. A log or a
    rule file may borrow a built-in's name: what shows the name says when the rules are not it.

    >>> builtin_differences(get_rules("yahtzee").with_(upper_bonus=9000))
    ['upper_bonus 9000 (built-in 35)']
    """
    if rules.name not in BUILTIN:
        return []
    builtin = get_rules(rules.name)
    out = [f"{key} {_shown(getattr(rules, key))} (built-in {_shown(getattr(builtin, key))})"
           for key in DEFAULTS if key not in ("name", "description") and getattr(rules, key) != getattr(builtin, key)]
    if rules.box_names != builtin.box_names:
        return out + [f"boxes {', '.join(rules.box_names)} (built-in {', '.join(builtin.box_names)})"]
    same_dice = (rules.n_dice, rules.faces) == (builtin.n_dice, builtin.faces)
    for i, (mine, theirs) in enumerate(zip(rules.boxes, builtin.boxes)):
        if mine != theirs or mine.spec != theirs.spec or same_dice and (
                (rules.score_table[:, i] != builtin.score_table[:, i]).any()):
            out.append(f"box {mine.name} {_box(mine)} (built-in {_box(theirs)})")
    return out


def _shown(value) -> str:
    return repr(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)


def _box(box) -> str:
    """A box's scorer and parameters as a rule file writes them."""
    spec = box.spec or {"scorer": "hand-made"}
    extra = {} if box.joker_value is None else {"joker_value": box.joker_value}
    return ", ".join(f"{k} {_shown(v)}" for k, v in {**spec, **extra, "max_score": box.max_score}.items())
