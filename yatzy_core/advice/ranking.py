"""A choice in a position (`Advice`) and the one enumeration of a position's choices, ranked,
for every objective: `advisor.advise` and the other objectives. workers (`objective_advice.py`) all list them here.

>>> a = Advice("box", None, "large_straight", 261.5314, 0.0, now=True)
>>> a.label, a.text
('score large_straight now', 'score Large straight now')
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine.position import Position, counted
from ..engine.choice import ranked
from ..engine.turn import Turn
from ..engine.turn_choices import roll_options
from ..game.dice import dice_of
from ..game.scoring import box_label

__all__ = ["Advice", "choices", "choice_label", "choice_text", "choice_dict", "keep_all"]


@dataclass(frozen=True)
class Advice:
    """One choice: keep these dice and reroll the rest, or score this box (with rerolls left:
    stop rolling, `now`); its `value` for the objective, in the objective's `measure`, and how
    much less that is than the best choice's (`loss`)."""

    action: str                         # "keep" or "box"
    keep: tuple[int, ...] | None
    box: str | None
    value: float
    loss: float
    measure: str = "expected"           # or "probability" or "certainty_equivalent"
    now: bool = False                   # a box scored with rerolls left
    saving: int = 0                     # rolls that scoring now saves for later turns (saved_rolls)

    @property
    def label(self) -> str:
        return choice_label(self.action, self.keep, self.box, self.now, self.saving)

    @property
    def text(self) -> str:
        """How the choice reads to a player: the label with the box's display name."""
        return choice_text(self.action, self.keep, self.box, self.now, self.saving)

    @property
    def expected(self) -> float | None:
        """Expected points still to come (the mean's measure), else None."""
        return self.value if self.measure == "expected" else None

    @property
    def probability(self) -> float | None:
        return self.value if self.measure == "probability" else None

    @property
    def certainty_equivalent(self) -> float | None:
        return self.value if self.measure == "certainty_equivalent" else None

    def to_dict(self) -> dict:
        """JSON-ready: the choice, the value under its measure's name, and the loss, in full
        precision (machine output carries the float; the human table rounds)."""
        return {**choice_dict(self.action, self.keep, self.box), self.measure: self.value,
                "loss": self.loss}


def _options(position: Position, turn: Turn, pick, measure: str) -> list[Advice]:
    """The choices of `position` in card and keeper order (`turn_choices.roll_options`), valued
    by `pick` of the turn."""
    rules = position.rules
    now = position.rolls_left > 0
    saving = position.rolls_left if rules.saved_rolls else 0
    return [Advice("box", None, rules.box_names[i], v, 0.0, measure, now, saving) if kind == "box"
            else Advice("keep", dice_of(rules.dice.keepers[i]), None, v, 0.0, measure)
            for kind, i, v in roll_options(rules, turn, pick, position.roll, position.rolls_left)]


def choice_label(action: str, keep, box, now: bool = False, saving: int = 0) -> str:
    """How a choice reads: "keep 1 1", "reroll all", "score chance", "score chance now" or, in a
    game with saved rolls, "score chance now, saving 2 rolls"."""
    if action == "box" and saving:
        return f"score {box} now, saving {counted(saving, 'roll')}"
    if action == "box":
        return f"score {box} now" if now else f"score {box}"
    return "reroll all" if not keep else "keep " + " ".join(map(str, keep))


def choice_text(action: str, keep, box, now: bool = False, saving: int = 0) -> str:
    """`choice_label` for a player to read: the box by its display name (`box_label`), as the card
    shows it ("score Large straight now"); the label stays what logs and JSON carry."""
    return choice_label(action, keep, box_label(box) if box else box, now, saving)


def choice_dict(action: str, keep, box) -> dict:
    """A choice as JSON fields: {"action": "keep", "keep": [...]} or {"action": "box", "box": ...}."""
    return {"action": action, **({"keep": list(keep)} if action == "keep" else {"box": box})}


def choices(position: Position, turn: Turn, pick, measure: str = "expected",
            mean: Turn | None = None) -> list[Advice]:
    """Every choice of `position`, best first, valued by `pick` of the turn's values (the
    component of a vector objective, or a scale). The one enumeration of every objective: after
    the last roll the allowed boxes; with rerolls left each allowed box scored now (its
    final-roll value for these dice, what keeping all dice was worth at best) and the keepers
    that reroll at least one die. Within TIE: by `mean` (the max-mean turn of the position,
    for an objective other than the mean: choices equally likely are ordered by their expected
    points), then boxes first in card order, then keepers with more dice first, then by their
    dice (`choice.ranked`)."""
    options = _options(position, turn, pick, measure)
    second = None
    if mean is not None:
        second = [a.value for a in _options(position, mean, lambda a: a, "expected")]
    order = ranked([a.value for a in options], range(len(options)), second)
    best = options[order[0]].value
    return [replace(options[i], loss=best - options[i].value) for i in order]


def keep_all(position: Position, rank) -> Advice:
    """What keeping every die is worth: no choice in a ranking but a roll spent, so the best
    choice from the same dice with one roll fewer (`rank(position)` lists choices, best first).
    The coach grades it by the mean, the beat grades by the chance to beat a score.

    >>> from yatzy_core import advise, get_rules
    >>> rules = get_rules("yahtzee-no-bonus")
    >>> chance = rules.with_(name="chance-only", boxes=rules.boxes[-1:], upper_bonus=0, yahtzee_box=None)
    >>> keep_all(Position.make(chance, dice="12346"), advise).expected   # 4 + 6 + 3 x 3.5
    20.5
    """
    return rank(replace(position, rolls_left=position.rolls_left - 1))[0]
