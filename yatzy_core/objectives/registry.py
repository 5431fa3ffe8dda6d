"""The one registry of objectives: each class declares its key, title and parameters here, and
everything that offers objectives to people is generated from it.

`objective_for` (a key and keywords to an objective), the CLI's flags (`cli.args.objective_flags`,
`cli.args.chosen_objective`) and the explorer's and the coach's "Play for" menus and inputs
(`ui.objective_inputs`) read `REGISTRY`; none of them names an objective. A parameter may be of
any shape: a number (`int`, `float`: the CLI checks its range, a widget asks for it), or a
structured value (a whole opponent card, say) that parses its own flag text (`Parameter.parse`):
the widgets ask for that text in a text box (`Input(text=True)`) and parse it the same way, or
not at all (`input=None`: offered on the command line only).

>>> from yatzy_core.objectives.goals import AtLeast
>>> [p.flag for p in objective_class("beat").parameters], objective_class("reach") is AtLeast
(['--beat'], True)
>>> objective_for("reach", total=250, points=10)
AtLeast(total=250, points=10)
>>> objective_for("walk")            # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: objective must be one of mean, reach, beat, risk, ... got 'walk'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["Input", "Parameter", "REGISTRY", "registered", "objective_class", "objective_for", "titles",
           "offered", "slot_values"]


@dataclass(frozen=True)
class Input:
    """How the explorer and the coach ask for a parameter: one of their input slots, "goal" or
    "lead" (whole-number boxes), "theta" (a slider) or "card" (a text box for a structured value,
    read by the parameter's `parse`); objectives whose values mean alike share a slot (a total to
    reach and a score to beat), so switching between them keeps what was typed."""

    slot: str              # one of ui.objective_inputs.SLOTS
    label: str             # the input's description while this objective is chosen
    low: float = 0         # the input's range and step (a slider's; a box's bounds; unused for text)
    high: float = 0
    step: float = 1
    refused: tuple = ()    # (value, why) pairs the input may show but the objective cannot take
    text: bool = False     # a text box whose text `Parameter.parse` reads (ValueError: shown as one line)
    placeholder: str = ""  # what an empty text box shows (an example of the syntax)


@dataclass(frozen=True)
class Parameter:
    """One parameter of an objective: its keyword, its type, its CLI flag and its input."""

    name: str                          # the class's field and objective_for's keyword
    kind: type                         # int, float, or a structured type read by `parse`
    flag: str                          # the CLI flag; an objective's first one chooses it
    metavar: str
    help: str                          # "{ranks}" is the command's verb ("rank the choices by")
    missing: str                       # the error when it is not given
    low: float | None = None           # the CLI's range for a number (None: no bound)
    high: float | None = None
    why: str = ""                      # says why `high` is the most (after "must be at most N")
    input: Input | None = None         # None: not asked for by the widgets
    parse: Callable[[str], Any] | None = None   # a structured kind: the flag's text to a value (ValueError)


REGISTRY: dict[str, type] = {}   # key -> objective class, in the order offered


def registered(cls: type) -> type:
    """Class decorator: offer `cls` under its `key` (a key or a flag taken twice is refused)."""
    if cls.key in REGISTRY:
        raise ValueError(f"objective key {cls.key!r} is taken by {REGISTRY[cls.key].__name__}")
    flags = {p.flag for other in REGISTRY.values() for p in other.parameters} | {
        other.flag for other in REGISTRY.values() if getattr(other, "flag", None)}
    taken = [p.flag for p in cls.parameters if p.flag in flags] + [
        f for f in [getattr(cls, "flag", None)] if f and f in flags]
    if taken:
        raise ValueError(f"{cls.__name__}: flag {taken[0]} is taken by another objective")
    REGISTRY[cls.key] = cls
    return cls


def objective_class(key: str) -> type:
    """The class registered under `key`; ValueError listing the keys."""
    if key not in REGISTRY:
        raise ValueError(f"objective must be one of {', '.join(REGISTRY)}, got {key!r}")
    return REGISTRY[key]


def objective_for(key: str, *, points: int | None = None, **values):
    """The objective `key` names, made from its parameters' `values` and, for one played from a
    card (`on_card`), the `points` on it; ValueError naming what is missing. The one place the
    CLI, the explorer and the coach turn a choice into an objective."""
    return objective_class(key).make(points=points, **values)


def titles() -> dict[str, str]:
    """{key: title} of every registered objective, in the order offered."""
    return {key: cls.title for key, cls in REGISTRY.items()}


def offered() -> dict[str, str]:
    """{key: title} of the objectives the widgets can ask for (every parameter has an input)."""
    return {key: cls.title for key, cls in REGISTRY.items() if all(p.input for p in cls.parameters)}


def slot_values(key: str, slots: dict) -> dict:
    """The keywords of objective `key` read from the widgets' input slots {slot: value}; a text
    slot's value is parsed by its parameter (ValueError saying what is wrong with the text).

    >>> slot_values("beat", {"goal": 223, "theta": 0.05}), slot_values("mean", {"goal": 223})
    ({'score': 223}, {})
    >>> slot_values("versus", {"card": "used=chance;upper=3", "lead": -4})
    {'opponent': OpponentCard(used=('chance',), upper_total=3, yahtzee_bonus=False), 'lead': -4}
    """
    return {p.name: p.parse(slots[p.input.slot]) if p.input.text else slots[p.input.slot]
            for p in objective_class(key).parameters if p.input}
