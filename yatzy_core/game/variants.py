"""House rules: a built-in rule set with a few rules changed, and the classic what-if questions.

A variant is checked exactly as a rule file is (it goes through `rulefile.loads`), so a change
the rules cannot hold (a threshold above the best upper total, forced order with a joker rule)
raises the rule file's ValueError naming the field. Its name says what changed, so two variants
never share a cached solution by name.

>>> v = variant("yatzy", upper_bonus=0)
>>> v.name, v.upper_bonus, v.box_names == get_rules("yatzy").box_names
('yatzy, upper_bonus 0', 0, True)
>>> point_boxes("yahtzee")
{'full_house': 25, 'small_straight': 30, 'large_straight': 40, 'yahtzee': 50}
>>> variant("yahtzee", points={"full_house": 30}).score("full_house", [2, 2, 3, 3, 3])
30
"""
from __future__ import annotations

from typing import NamedTuple

from .rulefile import dumps, loads
from .rules import Rules, get_rules
from .scoring import Box, make_scorer

__all__ = ["KNOBS", "QUESTIONS", "Question", "knobs", "point_boxes", "variant", "describe",
           "rules_for", "answer"]

# the rules a variant may change: the Rules field and its type
KNOBS = {"upper_bonus_threshold": int, "upper_bonus": int, "yahtzee_bonus": int,
         "rolls_per_turn": int, "forced_order": bool}


def point_boxes(rules: str | Rules) -> dict[str, int]:
    """The boxes that score fixed points (straights, Hasbro's full house, Yahtzee) and their points.

    >>> point_boxes("yatzy")
    {'small_straight': 15, 'large_straight': 20, 'yatzy': 50}
    """
    return {b.name: b.spec["points"] for b in get_rules(rules).boxes
            if b.spec is not None and b.spec.get("points") is not None}


def knobs(rules: str | Rules) -> dict:
    """What a variant may change, as these rules have it: the KNOBS and the box points.

    >>> knobs("yatzy")["upper_bonus"], knobs("forced-yatzy")["forced_order"]
    (50, True)
    """
    rules = get_rules(rules)
    return {**{k: getattr(rules, k) for k in KNOBS}, "points": point_boxes(rules)}


def describe(changes: dict) -> str:
    """Changes in words, as variant names carry them.

    >>> describe({"upper_bonus": 0, "points": {"full_house": 30}})
    'upper_bonus 0, full_house 30 points'
    """
    words = [f"{k} {str(v).lower() if isinstance(v, bool) else v}"
             for k, v in changes.items() if k != "points"]
    words += [f"{box} {p} points" for box, p in changes.get("points", {}).items()]
    return ", ".join(words)


def variant(base: str | Rules, points: dict[str, int] | None = None, name: str | None = None,
            **changes) -> Rules:
    """`base` with some KNOBS changed and some fixed box scores set (`points`, box -> points).

    Only what differs from `base` goes into the name. A Yahtzee bonus on rules without one
    (Yatzy) is paid for the box that scores n of a kind (`yahtzee_box`); the joker stays off.
    Changing a box's points also moves its joker value when that was the same number.
    """
    base = get_rules(base)
    for key, value in changes.items():
        if key not in KNOBS:
            raise ValueError(f"variant cannot change {key!r}; it changes: {', '.join(KNOBS)}, points")
        kind = KNOBS[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise TypeError(f"{key} must be {'true or false' if kind is bool else 'a whole number'}, "
                            f"got {value!r}")
    changes = {k: v for k, v in changes.items() if getattr(base, k) != v}
    fixed = point_boxes(base)
    points = dict(points or {})
    for box, p in points.items():
        if box not in fixed:
            raise ValueError(f"points: box {box!r} of {base.name!r} does not score fixed points; "
                             f"those are: {', '.join(fixed) or 'none'}")
        if isinstance(p, bool) or not isinstance(p, int):
            raise TypeError(f"points[{box!r}] must be a whole number, got {p!r}")
    points = {box: p for box, p in points.items() if fixed[box] != p}
    fields = dict(changes)
    if changes.get("yahtzee_bonus") and base.yahtzee_box is None:
        fields["yahtzee_box"] = _kind_box(base)
    said = {**changes, **({"points": points} if points else {})}
    rules = base.with_(name=name or (f"{base.name}, {describe(said)}" if said else base.name),
                       description=(f"{base.name} with {describe(said)}" if said else base.description),
                       boxes=tuple(_with_points(b, points[b.name], base) if b.name in points else b
                                   for b in base.boxes), **fields)
    return loads(dumps(rules), source=f"{base.name} with {describe(said) or 'no changes'}")


def _kind_box(rules: Rules) -> str:
    kinds = [b.name for b in rules.boxes if b.spec and b.spec["scorer"] == "all_same"]
    if len(kinds) != 1:
        raise ValueError(f"yahtzee_bonus: rules {rules.name!r} need one n-of-a-kind box "
                         f"(scorer 'all_same') to pay it on, found {len(kinds)}")
    return kinds[0]


def _with_points(box: Box, points: int, rules: Rules) -> Box:
    spec = {k: v for k, v in box.spec.items() if k != "scorer"}
    scorer = make_scorer(box.spec["scorer"], **{**spec, "points": points})
    joker = points if box.joker_value == box.spec["points"] else box.joker_value
    return Box(box.name, scorer, box.face, joker, int(scorer(rules.dice.rolls).max()))


# ---- the classic questions ---------------------------------------------------------------------

class Question(NamedTuple):
    """A what-if: the expected score of `rules` minus that of `compared` (each a built-in name, or
    a name and the changes made to it)."""

    question: str
    rules: str | tuple[str, dict]
    compared: str | tuple[str, dict]


QUESTIONS = (
    Question("What is the upper bonus worth? (Yatzy)", "yatzy", ("yatzy", {"upper_bonus": 0})),
    Question("What is the upper bonus worth? (Yahtzee)", "yahtzee", ("yahtzee", {"upper_bonus": 0})),
    Question("What does a third reroll add?", "yahtzee-3-rerolls", "yahtzee"),
    Question("What does the second reroll add?", "yahtzee", ("yahtzee", {"rolls_per_turn": 2})),
    Question("What does the first reroll add?", ("yahtzee", {"rolls_per_turn": 2}),
             ("yahtzee", {"rolls_per_turn": 1})),
    Question("What does forced order cost?", "yatzy", "forced-yatzy"),
    Question("What are the Yahtzee bonus and joker worth?", "yahtzee", "yahtzee-no-bonus"),
)


def rules_for(spec: str | tuple[str, dict]) -> Rules:
    """The rules a question names: a built-in name, or (name, changes) for a variant.

    >>> rules_for(("yahtzee", {"rolls_per_turn": 2})).name
    'yahtzee, rolls_per_turn 2'
    """
    return get_rules(spec) if isinstance(spec, str) else variant(spec[0], **spec[1])


def answer(question: Question, expected_score) -> tuple[str, str, float, str, float, float]:
    """(question, rules, their value, compared rules, their value, difference), the values from
    `expected_score(rules)` (e.g. `lambda r: solve(r, progress=False).expected_score`)."""
    a, b = rules_for(question.rules), rules_for(question.compared)
    va, vb = float(expected_score(a)), float(expected_score(b))
    return question.question, a.name, va, b.name, vb, va - vb
