"""A game position: a score card (used boxes, upper total, Yahtzee-bonus flag) plus the dice on
the table and the rerolls left this turn, checked when it is made. Every layer above the engine
asks its questions of a `Position`; scoring a box uses the turn engine's own `score_box`.

>>> p = Position.make("yahtzee", used={"ones"}, upper_total=3, dice="66665", rolls_left=0)
>>> p.points("sixes"), p.points("four_of_a_kind"), p.points("yahtzee")
(24, 29, 0)
>>> p.score("sixes", next_dice="12345").upper_total
27
>>> q = Position.make("yatzy", used="fours,fives,sixes", upper_total=60, dice="22222", rolls_left=0)
>>> int(q.scored("twos").box_points), int(q.scored("twos").bonus)   # the upper bonus at 63
(10, 50)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..game.checks import whole_number
from ..game.dice import counts_of
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace
from .turn import Scored, score_box

__all__ = ["Position", "parse_dice", "upper_totals", "most_points", "shown", "counted", "rerolls_left"]


def parse_dice(dice, faces: int = 6) -> tuple[int, ...]:
    """Dice from "11112", "1,1,1,1,2", "1 1 1 1 2" or a sequence of ints, sorted.

    >>> parse_dice("2,1 6"), parse_dice("51")
    ((1, 2, 6), (1, 5))
    """
    if not isinstance(dice, str) and not hasattr(dice, "__iter__"):
        raise TypeError(f"dice must be text like '11112' or a sequence of ints, got {type(dice).__name__}")
    if isinstance(dice, str):
        text = dice.strip()
        parts = text.replace(",", " ").split() if ("," in text or " " in text) else list(text)
        if faces > 9 and len(parts) == 1 and len(text) > 1:
            raise ValueError(f"dice {dice!r}: with {faces} faces separate the dice by commas")
        try:
            dice = [int(p) for p in parts]
        except ValueError:
            raise ValueError(f"cannot read dice {dice!r}: write them as 11112 or 1,1,1,1,2") from None
    dice = list(dice)
    bad = [d for d in dice if isinstance(d, bool) or not isinstance(d, (int, np.integer))]
    if bad:         # checked before sorting: [[2], [2]] or "x" never reach it (faces: by the caller)
        raise ValueError(f"dice must be whole numbers 1..{faces}, got {shown(bad)}")
    return tuple(sorted(dice))


def shown(value, limit: int = 60) -> str:
    """`value`'s repr cut to `limit` characters (a hostile value may be huge)."""
    try:
        text = repr(value)
    except (RecursionError, ValueError):     # nested too deep, or an int too long to print
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def counted(n: int, one: str, many: str | None = None) -> str:
    """n (thousands separated) and the noun, singular for one.

    >>> counted(1, "die", "dice"), counted(5, "die", "dice"), counted(0, "roll"), counted(2000, "game")
    ('1 die', '5 dice', '0 rolls', '2,000 games')
    """
    return f"{n:,} {one}" if n == 1 else f"{n:,} {many or one + 's'}"


def rerolls_left(n: int) -> str:
    """How a position's rerolls are said to a player.

    >>> rerolls_left(1), rerolls_left(2), rerolls_left(0)
    ('1 reroll left', '2 rerolls left', '0 rerolls left')
    """
    return f"{counted(n, 'reroll')} left"


def _parse_used(used) -> frozenset[str]:
    """The used boxes' names; a name given twice or an empty one ('ones,,twos', 'ones,') is a
    ValueError (a slip the card would hide), text with no name at all is no box used.

    >>> sorted(_parse_used("twos, ones")), _parse_used("")
    (['ones', 'twos'], frozenset())
    """
    if used is None or isinstance(used, (set, frozenset)):
        return frozenset(used or ())
    if isinstance(used, str):
        used = [name.strip() for name in used.split(",")] if used.strip() else []
    if not hasattr(used, "__iter__"):
        raise TypeError(f"used must be box names (text like 'ones,twos' or a set), got {type(used).__name__}")
    used = list(used)
    if "" in used:
        raise ValueError(f"used holds an empty box name: {shown(used)}")
    twice = sorted({name for name in used if used.count(name) > 1}, key=str)
    if twice:
        raise ValueError(f"used names {', '.join(map(str, twice))} more than once")
    return frozenset(used)


def _flag(value) -> bool:
    """A true/false argument: a bool (or 0/1), never text such as "no", which bool() makes True."""
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer)) and value in (0, 1)):
        return bool(value)
    raise ValueError(f"yahtzee_bonus must be True or False, got {shown(value)}")


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


def most_points(rules: Rules, used, upper_total: int, yahtzee_bonus: bool = False) -> int:
    """The most points a card can hold with boxes `used` filled, this (uncapped) upper total
    and the Yahtzee flag (the Yahtzee box holds its 50), bonuses included. Exact but for the
    Yahtzee bonuses, a sound upper bound: the upper boxes hold `upper_total`, the upper bonus
    counts once that reaches the threshold, each used lower box its best score (normal or
    joker), a Yahtzee box the rules track holds 0 unless flagged, and a flagged card one
    Yahtzee bonus per other used box (the order they were filled in is not known).

    >>> most_points(get_rules("yahtzee"), {"chance"}, 0)
    30
    >>> most_points(get_rules("yahtzee"), {"sixes", "yahtzee", "chance"}, 30, yahtzee_bonus=True)
    310
    """
    boxes = [i for i, b in enumerate(rules.boxes) if b.name in used and not b.is_upper]
    best = rules.box_most
    if rules.tracks_yahtzee_bonus and not yahtzee_bonus:
        boxes = [i for i in boxes if i != rules.yahtzee_index]    # used, not holding 50: scratched
    most = upper_total + int(best[boxes].sum())
    if rules.tracks_upper and upper_total >= rules.upper_bonus_threshold:
        most += rules.upper_bonus
    if yahtzee_bonus:
        most += rules.yahtzee_bonus * (len(used) - 1)
    return most


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
                   rolls_left, _flag(yahtzee_bonus))

    def __post_init__(self):
        """Check every part; readable parts (a rules name, "11112", "ones,twos") are converted
        as in `make`, so `Position("yahtzee", ...)` works too."""
        if not isinstance(self.rules, (str, Rules)):
            raise TypeError(f"rules must be a rule set's name or a Rules value, got {type(self.rules).__name__}")
        rules = get_rules(self.rules)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "used", _parse_used(self.used))
        if not isinstance(self.dice, (str, tuple, list, np.ndarray)):
            raise TypeError(f"dice must be text like '11112' or a list of ints, got {type(self.dice).__name__}")
        rules.dice.validate(parse_dice(self.dice, rules.faces))   # ValueError naming a wrong count or face
        object.__setattr__(self, "dice", tuple(sorted(int(d) for d in parse_dice(self.dice, rules.faces))))
        object.__setattr__(self, "yahtzee_bonus", _flag(self.yahtzee_bonus))
        for name in sorted(self.used):
            rules.box_index(name)   # ValueError listing the valid names
        if len(self.used) == rules.n_boxes:
            raise ValueError("all boxes are used: the game is over, there is nothing to advise")
        if rules.forced_order and set(self.used) != set(rules.box_names[:len(self.used)]):
            raise ValueError(f"the used boxes must be the first {len(self.used)} of the card "
                             f"({', '.join(rules.box_names[:len(self.used)])}): rules "
                             f"{rules.name!r} fill the boxes in card order")
        if not isinstance(self.upper_total, (int, np.integer)) or isinstance(self.upper_total, bool):
            raise ValueError(f"upper total must be a whole number, got {self.upper_total!r}")
        if self.upper_total not in upper_totals(rules, self.used):
            upper_used = [b.name for b in rules.boxes if b.is_upper and b.name in self.used]
            raise ValueError(f"upper total {self.upper_total} cannot be made with the used upper "
                             f"boxes ({', '.join(upper_used) or 'none'})")
        last = rules.rolls_per_turn - 1
        if rules.saved_rolls:   # up to (rolls_per_turn - 1) saved by each turn played so far
            last *= 1 + len(self.used)
        if (isinstance(self.rolls_left, bool) or not isinstance(self.rolls_left, (int, np.integer))
                or not 0 <= self.rolls_left <= last):
            raise ValueError(f"rolls_left counts the rerolls still allowed: 0..{last}, "
                             f"got {self.rolls_left!r}")
        if self.yahtzee_bonus:
            if not rules.tracks_yahtzee_bonus:
                raise ValueError(f"rules {rules.name!r} have no Yahtzee bonus to flag")
            if rules.yahtzee_box not in self.used:
                raise ValueError(f"the Yahtzee bonus flag needs the {rules.yahtzee_box!r} box used "
                                 "(holding 50)")

    @property
    def least_points(self) -> int:
        """The fewest points a card in this position holds, bonuses included: its upper total,
        the upper bonus once that reaches the threshold, the Yahtzee box's points when flagged.

        >>> Position.make("yahtzee", used="sixes,fives,fours,chance", upper_total=63, dice="12345").least_points
        98
        """
        return sum(self._least_parts().values())

    def _least_parts(self) -> dict[str, int]:
        rules = self.rules
        parts = {"its upper total": self.upper_total}
        if rules.tracks_upper and self.upper_total >= rules.upper_bonus_threshold:
            parts["the upper bonus"] = rules.upper_bonus
        if self.yahtzee_bonus:
            parts[f"the {rules.yahtzee_box} box"] = int(rules.score_table[:, rules.yahtzee_index].max())
        return parts

    @property
    def most_points(self) -> int:
        """The most points a card in this position can hold, bonuses included (`most_points`).

        >>> Position.make("yahtzee", used="chance", dice="12345", rolls_left=0).most_points
        30
        """
        return most_points(self.rules, self.used, self.upper_total, self.yahtzee_bonus)

    def points_so_far(self, points) -> int:
        """`points` as the card's points so far (bonuses included): a whole number, at least
        `least_points` and at most `most_points`; ValueError naming points and the bound."""
        points, parts = whole_number("points", points), self._least_parts()
        least = sum(parts.values())
        if points < least:
            held = " and ".join(f"{name} {n}" for name, n in parts.items() if n)
            raise ValueError(f"points {points} is less than the {least} this card holds already ({held})")
        if points > self.most_points:
            used = ", ".join(b for b in self.rules.box_names if b in self.used) or "none"
            raise ValueError(f"points {points} is more than this card can hold: at most {self.most_points} "
                             f"with boxes {used} used and upper total {self.upper_total}")
        return points

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
    def scored(self, box: str) -> Scored:
        """What scoring these dice in `box` does now (`turn.score_box`); ValueError if the box is
        used or not allowed."""
        s = score_box(StateSpace(self.rules), self.state(), self.roll, self.rules.box_index(box))
        if not s.allowed:
            why = "already used" if box in self.used else "not allowed by the joker rule"
            raise ValueError(f"box {box!r} is {why}; allowed now: {', '.join(self.box_points())}")
        return s

    def box_points(self) -> dict[str, int]:
        """Points each allowed box gives these dice now (box, joker, upper and Yahtzee bonus)."""
        s = score_box(StateSpace(self.rules), self.state(), self.roll, np.arange(self.rules.n_boxes))
        return {name: int(p) for name, p, ok in zip(self.rules.box_names, s.points, s.allowed) if ok}

    def points(self, box: str) -> int:
        """Points scoring these dice in `box` gives now; ValueError if the box is not allowed."""
        return int(self.scored(box).points)

    def keep(self, kept, rolled=None, rng: np.random.Generator | None = None) -> "Position":
        """Keep some dice and reroll the rest: `rolled` gives the new dice, else `rng` draws them."""
        kept = parse_dice(kept, self.rules.faces)
        if not all(isinstance(d, (int, np.integer)) and 1 <= d <= self.rules.faces for d in kept):
            raise ValueError(f"kept must be dice 1..{self.rules.faces}, got {list(kept)[:10]}")
        if self.rolls_left == 0:
            raise ValueError("no rerolls left: score a box instead")
        if any(c > have for c, have in zip(counts_of(kept, self.rules.faces), self.counts)):
            raise ValueError(f"cannot keep {list(kept)}: the dice are {list(self.dice)}")
        free = self.rules.n_dice - len(kept)
        if rolled is None:
            rolled = _draw(free, self.rules.faces, rng)
        rolled = parse_dice(rolled, self.rules.faces)
        if len(rolled) != free:
            raise ValueError(f"keeping {counted(len(kept), 'die', 'dice')} rerolls {free}, "
                             f"got {counted(len(rolled), 'new die', 'new dice')}")
        return Position(self.rules, self.used, self.upper_total, kept + rolled, self.rolls_left - 1,
                        self.yahtzee_bonus)

    def score(self, box: str, next_dice=None, rng: np.random.Generator | None = None) -> "Position | None":
        """Score the dice in `box`; the next turn's first roll (given or drawn), None if the card is full."""
        rules, s = self.rules, self.scored(box)     # ValueError unless allowed
        upper_total = self.upper_total + (int(s.box_points) if rules.boxes[rules.box_index(box)].is_upper else 0)
        flag = bool(StateSpace(rules).decode(s.next_state)[2])
        used = self.used | {box}
        if len(used) == rules.n_boxes:
            return None
        dice = _draw(rules.n_dice, rules.faces, rng) if next_dice is None else next_dice
        return Position(rules, used, upper_total, parse_dice(dice, rules.faces),
                        rules.rolls_per_turn - 1, flag)

    def __str__(self) -> str:
        used = ", ".join(n for n in self.rules.box_names if n in self.used) or "none"
        bonus = ", Yahtzee bonus on" if self.yahtzee_bonus else ""
        return (f"{self.rules.name}: dice {' '.join(map(str, self.dice))}, {rerolls_left(self.rolls_left)}; "
                f"used: {used}; upper total {self.upper_total}{bonus}")


def _draw(n: int, faces: int, rng) -> tuple[int, ...]:
    rng = np.random.default_rng() if rng is None else rng
    return tuple(sorted(int(d) for d in rng.integers(1, faces + 1, size=n)))
