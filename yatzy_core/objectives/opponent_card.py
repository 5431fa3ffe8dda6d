"""An opponent's card as a player sees it across the table: the boxes used, the upper total and
whether the Yahtzee box holds its 50 (what decides the rest of their game; their points so far
are in the lead). The one card type of the two-player objectives (`Versus`, exact in the endgame;
`Outscore`, the approximation before it), with one flag syntax: fields separated by ';',
`used=` or `open=` a comma list of boxes, `upper=` the upper total, `yahtzee-bonus` the flag.

>>> OpponentCard.parse("used=ones,twos;upper=5;yahtzee-bonus")
OpponentCard(used=('ones', 'twos'), upper_total=5, yahtzee_bonus=True)
>>> card = OpponentCard.parse("used=ones,twos,chance;upper=5")
>>> from yatzy_core.game.rules import get_rules
>>> from yatzy_core.game.states import StateSpace
>>> space = StateSpace(get_rules("yahtzee"))
>>> bin(int(space.decode(card.state(space))[0]))   # ones, twos and chance: bits 0, 1 and 12
'0b1000000000011'
>>> OpponentCard.parse("upper=x")
Traceback (most recent call last):
ValueError: upper total must be a whole number, got 'x'
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..engine.position import upper_totals
from ..game.checks import instance_of, whole_number
from ..game.rules import Rules
from ..game.states import StateSpace
from .registry import Parameter

__all__ = ["OpponentCard", "CARD_HELP", "LEAD_LIMIT", "lead_parameter"]

CARD_HELP = "used=BOX,BOX,...;upper=N;yahtzee-bonus (or open=BOX,BOX instead of used=)"
LEAD_LIMIT = 2000    # |lead| the flags take: past any built-in game's most points (yahtzee 1575), so decided


def lead_parameter(flag: str, card_flag: str) -> Parameter:
    """The lead of a two-player objective (`Versus`, `Outscore`): one range, one wording.

    >>> lead_parameter("--lead", "--versus").missing
    "enter the lead: your points minus the opponent's, bonuses included, negative when behind (--lead)"
    """
    return Parameter("lead", int, flag, "N", "your points minus the opponent's, bonuses included, negative "
                     f"when behind (with {card_flag})",
                     f"enter the lead: your points minus the opponent's, bonuses included, negative when behind "
                     f"({flag})", -LEAD_LIMIT, LEAD_LIMIT)


@dataclass(frozen=True)
class OpponentCard:
    """The opponent's card as the mover sees it: the used boxes, the upper total (uncapped, as
    on the paper) and whether the Yahtzee box holds its 50. `open_boxes` lists the open boxes
    instead of the used ones when given (the rules turn either into the other)."""

    used: frozenset = frozenset()
    upper_total: int = 0
    yahtzee_bonus: bool = False
    open_boxes: frozenset | None = None

    def __post_init__(self):
        for name in ("used", "open_boxes"):
            boxes = getattr(self, name)
            if boxes is not None or name == "used":     # used=None is no collection (open_boxes=None: not given)
                if isinstance(boxes, str) or not isinstance(boxes, Iterable):
                    raise ValueError(f"{name} must be a collection of box names, not "
                                     f"{'the string ' if isinstance(boxes, str) else ''}{boxes!r:.30} "
                                     "(OpponentCard.parse reads flag text)")
                try:
                    object.__setattr__(self, name, frozenset(boxes))
                except TypeError:        # a list among the names
                    raise ValueError(f"{name} must be a collection of box names, got {boxes!r:.40}") from None
        if self.used and self.open_boxes is not None:
            raise ValueError("give the opponent's used boxes or open boxes, not both")
        whole_number("upper_total", self.upper_total)
        instance_of("yahtzee_bonus", self.yahtzee_bonus, bool, "True or False")

    def __repr__(self) -> str:
        listed = (f"open_boxes={tuple(sorted(self.open_boxes))!r}" if self.open_boxes is not None
                  else f"used={tuple(sorted(self.used))!r}")
        return f"OpponentCard({listed}, upper_total={self.upper_total}, yahtzee_bonus={self.yahtzee_bonus})"

    @classmethod
    def parse(cls, text: str) -> "OpponentCard":
        """The card from flag text (see the module); ValueError saying what is wrong.

        >>> OpponentCard.parse("open=chance,yahtzee; upper=70")
        OpponentCard(open_boxes=('chance', 'yahtzee'), upper_total=70, yahtzee_bonus=False)
        >>> OpponentCard.parse("")      # nothing used yet
        OpponentCard(used=(), upper_total=0, yahtzee_bonus=False)
        >>> OpponentCard.parse("open=chance;open=ones")
        Traceback (most recent call last):
        ValueError: opponent's card: open= given twice
        """
        fields: dict = {}
        seen: set = set()
        for part in (p.strip() for p in str(text).split(";")):
            key, equals, value = part.partition("=")
            key = key.strip().lower()
            if key in seen and key in ("used", "open", "upper", "yahtzee-bonus"):
                raise ValueError(f"opponent's card: {key}{'=' if key != 'yahtzee-bonus' else ''} given twice")
            seen.add(key)
            if key in ("used", "open") and equals:   # a bare "open" is no card: "open=" (none open) is
                names = [b.strip() for b in value.split(",") if b.strip()]
                twice = sorted({b for b in names if names.count(b) > 1})
                if twice:               # a slip ("ones,ones" for "ones,twos"), never meant
                    raise ValueError(f"opponent's card: box {twice[0]!r} named twice in {key}=")
                fields["used" if key == "used" else "open_boxes"] = frozenset(names)
            elif key == "upper" and equals:
                if not re.fullmatch(r"\s*[+-]?[0-9]+\s*", value):    # not int()'s "1_0" nor other scripts' digits
                    raise ValueError(f"upper total must be a whole number, got {value.strip()[:20]!r}")
                fields["upper_total"] = int(value)
            elif key == "yahtzee-bonus" and not value:
                fields["yahtzee_bonus"] = True
            elif part:
                raise ValueError(f"unknown card field {part[:30]!r}: write {CARD_HELP}")
        if "used" in fields and "open_boxes" in fields:
            raise ValueError("give the opponent's used boxes or open boxes, not both")
        return cls(**fields)

    def used_in(self, rules: Rules) -> frozenset:
        """The used boxes in `rules` (from `open_boxes` when given); ValueError naming a wrong box."""
        for name in sorted(self.used | (self.open_boxes or frozenset())):
            try:
                rules.box_index(name)
            except ValueError as err:
                raise ValueError(f"opponent's card: {err}") from None
        return self.used if self.open_boxes is None else frozenset(rules.box_names) - self.open_boxes

    def check(self, rules: Rules) -> None:
        """ValueError naming what in this card cannot be a card of `rules`."""
        self.state(StateSpace(rules))

    def mask(self, rules: Rules) -> int:
        """The used boxes as bits (bit b: box b)."""
        return sum(1 << rules.box_index(b) for b in self.used_in(rules))

    def state(self, space: StateSpace) -> int:
        """The card's state in `space` (a full card too: the opponent may have finished),
        checked as a Position's card is; ValueError naming what is wrong."""
        rules = space.rules
        used = self.used_in(rules)
        if self.upper_total not in upper_totals(rules, used):
            raise ValueError(f"opponent's card: upper total {self.upper_total} cannot be made with its used "
                             f"upper boxes ({', '.join(b.name for b in rules.boxes if b.is_upper and b.name in used) or 'none'})")
        if self.yahtzee_bonus and not (rules.tracks_yahtzee_bonus and rules.yahtzee_box in used):
            raise ValueError(f"opponent's card: the Yahtzee bonus flag needs rules with one and the "
                             f"{rules.yahtzee_box!r} box used")
        if rules.forced_order and used != frozenset(rules.box_names[:len(used)]):
            raise ValueError("opponent's card: these rules fill the boxes in card order")
        upper = min(self.upper_total, rules.upper_cap) if rules.tracks_upper else 0
        return int(space.index(self.mask(rules), upper, int(self.yahtzee_bonus)))
