"""An opponent's card as a player sees it across the table: the boxes used, the upper total and
whether the Yahtzee box holds its 50 (what decides the rest of their game; their points so far
are in the lead). One small type that the two-player objectives take as a structured parameter
(`registry.Parameter.parse` reads it from a command-line flag).

>>> card = OpponentCard.parse("ones,twos,chance upper=5")
>>> sorted(card.used), card.upper_total, card.yahtzee_bonus
(['chance', 'ones', 'twos'], 5, False)
>>> from yatzy_core.game.rules import get_rules
>>> from yatzy_core.game.states import StateSpace
>>> space = StateSpace(get_rules("yahtzee"))
>>> bin(int(space.decode(card.state(space))[0]))   # ones, twos and chance: bits 0, 1 and 12
'0b1000000000011'
"""
from __future__ import annotations

from dataclasses import dataclass

from ..engine.position import upper_totals
from ..game.rules import Rules
from ..game.states import StateSpace

__all__ = ["OpponentCard"]


@dataclass(frozen=True)
class OpponentCard:
    """The opponent's used boxes (names), upper total (uncapped) and Yahtzee-50 flag."""

    used: frozenset = frozenset()
    upper_total: int = 0
    yahtzee_bonus: bool = False

    def __post_init__(self):
        names = self.used.split(",") if isinstance(self.used, str) else self.used
        object.__setattr__(self, "used", frozenset(n.strip() for n in names if n.strip()))
        if isinstance(self.upper_total, bool) or not isinstance(self.upper_total, int) or self.upper_total < 0:
            raise ValueError(f"opponent's upper total must be a whole number >= 0, got {self.upper_total!r}")
        if not isinstance(self.yahtzee_bonus, bool):
            raise ValueError(f"opponent's yahtzee_bonus must be True or False, got {self.yahtzee_bonus!r}")

    @classmethod
    def parse(cls, text: str) -> "OpponentCard":
        """A card from 'BOX,BOX,... [upper=N] [yahtzee50]' ('none' or nothing: an empty card).

        >>> OpponentCard.parse("none upper=0").used
        frozenset()
        >>> OpponentCard.parse("ones upper=x")
        Traceback (most recent call last):
        ValueError: opponent's card: upper=x is not a whole number (write e.g. 'ones,twos upper=5 yahtzee50')
        """
        used, upper, flag = "", 0, False
        for word in str(text).split():
            if word.startswith("upper="):
                if not word[6:].isdigit():
                    raise ValueError(f"opponent's card: {word} is not a whole number "
                                     "(write e.g. 'ones,twos upper=5 yahtzee50')")
                upper = int(word[6:])
            elif word == "yahtzee50":
                flag = True
            elif not used:
                used = "" if word == "none" else word
            else:
                raise ValueError(f"opponent's card: {word!r} is not understood "
                                 "(write e.g. 'ones,twos upper=5 yahtzee50')")
        return cls(used, upper, flag)

    def check(self, rules: Rules) -> None:
        """ValueError naming what in this card cannot be a card of `rules`."""
        for name in sorted(self.used):
            rules.box_index(name)   # ValueError listing the valid names
        if self.upper_total not in upper_totals(rules, self.used):
            raise ValueError(f"opponent's upper total {self.upper_total} cannot be made with their used "
                             "upper boxes")
        if self.yahtzee_bonus and (not rules.tracks_yahtzee_bonus or rules.yahtzee_box not in self.used):
            raise ValueError(f"opponent's Yahtzee-50 flag needs rules with a Yahtzee bonus and their "
                             f"{rules.yahtzee_box!r} box used")

    def mask(self, rules: Rules) -> int:
        """The used boxes as bits (bit b: box b)."""
        self.check(rules)
        return sum(1 << rules.box_index(name) for name in self.used)

    def state(self, space: StateSpace) -> int:
        """The turn state of this card in `space` (upper total capped as the tables store it)."""
        rules = space.rules
        upper = min(self.upper_total, rules.upper_cap) if rules.tracks_upper else 0
        return int(space.index(self.mask(rules), upper, int(self.yahtzee_bonus)))
