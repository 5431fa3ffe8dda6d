"""The advisor: every choice open in one game position, ranked by the points it should still bring.

A `Position` is a score card (used boxes, upper total, Yahtzee-bonus flag) plus the dice on the
table and the rerolls left this turn, checked when it is made. `advise` reads the solved state
values and works through the rest of this one turn with the solver's own functions (`turn.py`
on a single state), so its numbers are the solver's numbers.

>>> p = Position.make("yahtzee", used={"ones"}, upper_total=3, dice="66665", rolls_left=0)
>>> p.points("sixes"), p.points("four_of_a_kind"), p.points("yahtzee")
(24, 29, 0)
>>> p.score("sixes", next_dice="12345").upper_total
27
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np

from .cache import get_solution
from .dice import counts_of, dice_of
from .rules import Rules, get_rules
from .solver import Solution
from .states import StateSpace
from .turn import best_subkeeper, box_values, keeper_values, zero_values

TIE_DECIMALS = 9  # expected values equal to this many decimals count as ties when ranking


def parse_dice(dice, faces: int = 6) -> tuple[int, ...]:
    """Dice from "11112", "1,1,1,1,2", "1 1 1 1 2" or a sequence of ints, sorted.

    >>> parse_dice("2,1 6"), parse_dice("51")
    ((1, 2, 6), (1, 5))
    """
    if isinstance(dice, str):
        text = dice.strip()
        parts = text.replace(",", " ").split() if ("," in text or " " in text) else list(text)
        if faces > 9 and len(parts) == 1 and len(text) > 1:
            raise ValueError(f"dice {dice!r}: with {faces} faces separate the dice by commas")
        try:
            dice = [int(p) for p in parts]
        except ValueError:
            raise ValueError(f"cannot read dice {dice!r}: write them as 11112 or 1,1,1,1,2") from None
    return tuple(sorted(dice))


def _parse_used(used) -> frozenset[str]:
    if used is None:
        return frozenset()
    if isinstance(used, str):
        used = [name.strip() for name in used.split(",")]
    return frozenset(name for name in used if name)


def upper_totals(rules: Rules, used) -> frozenset[int]:
    """Every (uncapped) upper total the used upper boxes can hold: the sums of face * count.

    >>> sorted(upper_totals(get_rules("yatzy"), {"twos"}))
    [0, 2, 4, 6, 8, 10]
    """
    totals = {0}
    for box in rules.boxes:
        if box.is_upper and box.name in used:
            totals = {t + box.face * c for t in totals for c in range(rules.n_dice + 1)}
    return frozenset(totals)


@dataclass(frozen=True)
class Position:
    """A validated game position: the card, the dice showing and the rerolls left this turn.

    `upper_total` is the real upper total (shown to people); lookups use it capped at the bonus
    threshold. `yahtzee_bonus` says the Yahtzee box holds its 50, which makes later n-of-a-kinds
    earn the Yahtzee bonus.
    """

    rules: Rules
    used: frozenset[str]
    upper_total: int
    dice: tuple[int, ...]
    rolls_left: int
    yahtzee_bonus: bool = False

    @classmethod
    def make(cls, rules: str | Rules, used=(), upper_total: int = 0, dice=(), rolls_left: int | None = None,
             yahtzee_bonus: bool = False) -> "Position":
        """A Position from readable parts: rules by name, box names, dice as a list or "11112";
        rolls_left defaults to all the rerolls of a turn (right after its first roll)."""
        rules = get_rules(rules)
        rolls_left = rules.rolls_per_turn - 1 if rolls_left is None else rolls_left
        return cls(rules, _parse_used(used), upper_total, parse_dice(dice, rules.faces),
                   rolls_left, bool(yahtzee_bonus))

    def __post_init__(self):
        rules = self.rules
        object.__setattr__(self, "used", frozenset(self.used))
        rules.dice.validate(self.dice)   # ValueError naming a wrong count or a bad face
        object.__setattr__(self, "dice", tuple(sorted(int(d) for d in self.dice)))
        for name in sorted(self.used):
            rules.box_index(name)   # ValueError listing the valid names
        if len(self.used) == rules.n_boxes:
            raise ValueError("all boxes are used: the game is over, there is nothing to advise")
        if not isinstance(self.upper_total, (int, np.integer)) or isinstance(self.upper_total, bool):
            raise ValueError(f"upper total must be a whole number, got {self.upper_total!r}")
        if self.upper_total not in upper_totals(rules, self.used):
            upper_used = [b.name for b in rules.boxes if b.is_upper and b.name in self.used]
            raise ValueError(f"upper total {self.upper_total} cannot be made with the used upper "
                             f"boxes ({', '.join(upper_used) or 'none'})")
        last = rules.rolls_per_turn - 1
        if not isinstance(self.rolls_left, (int, np.integer)) or not 0 <= self.rolls_left <= last:
            raise ValueError(f"rolls_left counts the rerolls still allowed: 0..{last}, "
                             f"got {self.rolls_left!r}")
        if self.yahtzee_bonus:
            if not rules.tracks_yahtzee_bonus:
                raise ValueError(f"rules {rules.name!r} have no Yahtzee bonus to flag")
            if rules.yahtzee_box not in self.used:
                raise ValueError(f"the Yahtzee bonus flag needs the {rules.yahtzee_box!r} box used "
                                 "(holding 50)")

    # -- what the solver's tables are indexed by
    @property
    def mask(self) -> int:
        return sum(1 << self.rules.box_index(name) for name in self.used)

    @property
    def upper(self) -> int:
        """The upper total capped as the state space stores it."""
        return min(self.upper_total, self.rules.upper_cap)

    @property
    def flag(self) -> int:
        return int(self.yahtzee_bonus)

    @property
    def counts(self) -> tuple[int, ...]:
        return counts_of(self.dice, self.rules.faces)

    @property
    def roll(self) -> int:
        return self.rules.dice.roll_index[self.counts]

    def state(self, space: StateSpace | None = None) -> int:
        return int((space or StateSpace(self.rules)).index(self.mask, self.upper, self.flag))

    # -- stepping forward
    def box_points(self) -> dict[str, int]:
        """Points each allowed box gives these dice now (box, joker, upper and Yahtzee bonus)."""
        space = StateSpace(self.rules)
        now = box_values(space, zero_values(self.rules), np.array([self.state(space)]))[:, self.roll, 0]
        return {name: int(round(p)) for name, p in zip(self.rules.box_names, now) if np.isfinite(p)}

    def points(self, box: str) -> int:
        """Points scoring these dice in `box` gives now; ValueError if the box is not allowed."""
        self.rules.box_index(box)
        allowed = self.box_points()
        if box not in allowed:
            why = "already used" if box in self.used else "not allowed by the joker rule"
            raise ValueError(f"box {box!r} is {why}; allowed now: {', '.join(allowed)}")
        return allowed[box]

    def keep(self, kept, rolled=None, rng: np.random.Generator | None = None) -> "Position":
        """Keep some dice and reroll the rest: `rolled` gives the new dice, else `rng` draws them."""
        kept = parse_dice(kept, self.rules.faces)
        if self.rolls_left == 0:
            raise ValueError("no rerolls left: score a box instead")
        if any(c > have for c, have in zip(counts_of(kept, self.rules.faces), self.counts)):
            raise ValueError(f"cannot keep {list(kept)}: the dice are {list(self.dice)}")
        free = self.rules.n_dice - len(kept)
        if rolled is None:
            rolled = _draw(free, self.rules.faces, rng)
        rolled = parse_dice(rolled, self.rules.faces)
        if len(rolled) != free:
            raise ValueError(f"keeping {len(kept)} dice rerolls {free}, got {len(rolled)} new dice")
        return Position(self.rules, self.used, self.upper_total, kept + rolled, self.rolls_left - 1,
                        self.yahtzee_bonus)

    def score(self, box: str, next_dice=None, rng: np.random.Generator | None = None) -> "Position | None":
        """Score the dice in `box`; the next turn's first roll (given or drawn), None if the card is full."""
        self.points(box)    # ValueError unless allowed
        rules, b = self.rules, self.rules.box_index(box)
        raw = int(rules.score_table[self.roll, b])
        upper_total = self.upper_total + (raw if rules.boxes[b].is_upper else 0)
        flag = self.yahtzee_bonus or (box == rules.yahtzee_box and raw > 0 and rules.tracks_yahtzee_bonus)
        used = self.used | {box}
        if len(used) == rules.n_boxes:
            return None
        dice = _draw(rules.n_dice, rules.faces, rng) if next_dice is None else next_dice
        return Position(rules, used, upper_total, parse_dice(dice, rules.faces),
                        rules.rolls_per_turn - 1, flag)

    def __str__(self) -> str:
        used = ", ".join(n for n in self.rules.box_names if n in self.used) or "none"
        bonus = ", Yahtzee bonus on" if self.yahtzee_bonus else ""
        return (f"{self.rules.name}: dice {' '.join(map(str, self.dice))}, {self.rolls_left} rerolls left; "
                f"used: {used}; upper total {self.upper_total}{bonus}")


def _draw(n: int, faces: int, rng) -> tuple[int, ...]:
    rng = np.random.default_rng() if rng is None else rng
    return tuple(sorted(int(d) for d in rng.integers(1, faces + 1, size=n)))


@dataclass(frozen=True)
class Advice:
    """One choice: keep these dice and reroll the rest, or score this box; with the points still
    expected in this game after making it, and how many fewer that is than the best choice."""

    action: str                         # "keep" or "box"
    keep: tuple[int, ...] | None
    box: str | None
    expected: float
    loss: float

    @property
    def label(self) -> str:
        if self.action == "box":
            return f"score {self.box}"
        return "reroll all" if not self.keep else "keep " + " ".join(map(str, self.keep))

    def to_dict(self) -> dict:
        """JSON-ready: {"action": "keep", "keep": [1, 1], ...} or {"action": "box", "box": ...}."""
        choice = {"keep": list(self.keep)} if self.action == "keep" else {"box": self.box}
        return {"action": self.action, **choice, "expected": round(self.expected, 4),
                "loss": round(self.loss, 4)}


def sub_keepers(counts) -> list[tuple[int, ...]]:
    """Every distinct sub-multiset (as counts) of a roll, the empty one and the whole roll included.

    >>> len(sub_keepers((4, 1, 0, 0, 0, 0))), len(sub_keepers((1, 1, 1, 1, 1, 0)))
    (10, 32)
    """
    return [tuple(c) for c in product(*(range(n + 1) for n in counts))]


def _solution_for(rules: Rules, solution: Solution | None) -> Solution:
    if solution is None:
        return get_solution(rules)
    if solution.rules != rules:
        raise ValueError(f"the solution is for rules {solution.rules.name!r}, "
                         f"the position for {rules.name!r}")
    return solution


def advise(position: Position, solution: Solution | None = None) -> list[Advice]:
    """Every distinct choice in this position, best first, with its expected points still to come.

    With rerolls left the choices are the distinct keepers of the dice (keeping all five means
    not rerolling); after the last roll they are the boxes allowed. Ties (equal to 9 decimals)
    are ordered keepers with more dice first, then by their dice; boxes in score-card order.

    >>> ranked = advise(Position.make("yahtzee", dice="11112", rolls_left=2))
    >>> ranked[0].to_dict()
    {'action': 'keep', 'keep': [1, 1, 1, 1], 'expected': 270.2986, 'loss': 0.0}
    >>> ranked[1].label, round(ranked[1].loss, 4)
    ('keep 1 1 1 1 2', 10.1064)
    """
    rules = position.rules
    solution = _solution_for(rules, solution)
    space = solution.space
    boxes = box_values(space, solution.values, np.array([position.state(space)]))
    if position.rolls_left == 0:
        options = [((b,), Advice("box", None, name, float(v), 0.0))
                   for b, (name, v) in enumerate(zip(rules.box_names, boxes[:, position.roll, 0]))
                   if np.isfinite(v)]
    else:
        roll_values = boxes.max(axis=0)
        for _ in range(position.rolls_left - 1):
            roll_values = best_subkeeper(space, keeper_values(space, roll_values))
        keep = keeper_values(space, roll_values)[:, 0]
        index = rules.dice.keeper_index
        options = []
        for counts in sub_keepers(position.counts):
            dice = dice_of(counts)
            options.append(((-len(dice), dice), Advice("keep", dice, None, float(keep[index[counts]]), 0.0)))
    options.sort(key=lambda o: (-round(o[1].expected, TIE_DECIMALS), o[0]))
    best = options[0][1].expected
    return [Advice(a.action, a.keep, a.box, a.expected, best - a.expected) for _, a in options]
