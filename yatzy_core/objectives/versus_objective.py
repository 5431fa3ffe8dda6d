"""Play to beat a real opponent: `Versus(opponent card, lead)` ranks the mover's choices by
P(win) + 1/2 P(tie) against that card, exactly, from the endgame tables (`endgame`).

The opponent's card is an `opponent_card.OpponentCard` (used boxes, upper total, the Yahtzee-50 flag); the lead
is the mover's points minus the opponent's, bonuses included. The two players alternate whole
turns and each plays to win (`two_player`); the mover's turn is worked by the turn engine on the
values of ending it in each card with each lead, read from the stored layer after it. Positions
beyond the tables (someone with more boxes open than they hold) go to `Versus.beyond_tables`: a
ValueError for now, the one place an approximation takes over.

>>> Versus(OpponentCard.parse("open=chance;upper=3"), lead=-5).words
"playing to beat the opponent's card, -5 points"
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..engine import turn as engine
from ..engine.position import Position
from ..game.checks import instance_of
from ..game.rules import Rules
from ..game.states import StateSpace
from .objective import AdviceObjective
from .opponent_card import CARD_HELP, OpponentCard
from .registry import Parameter, registered

__all__ = ["Versus"]

@registered
@dataclass(frozen=True)
class Versus(AdviceObjective):
    """Beat this opponent: P(win) + 1/2 P(tie) against `opponent`'s card with the mover `lead`
    points ahead (negative: behind), both playing to win from here, exactly."""

    opponent: OpponentCard
    lead: int = 0
    key: ClassVar[str] = "versus"
    title: ClassVar[str] = "beat an opponent's card"
    parameters: ClassVar[tuple] = (
        Parameter("opponent", OpponentCard, "--versus", "CARD",
                  "{ranks} the chance to beat the opponent whose card is CARD: " + CARD_HELP,
                  "enter the opponent's card (--versus)", parse=OpponentCard.parse),
        Parameter("lead", int, "--lead", "N", "your points minus the opponent's, bonuses included (with --versus)",
                  "enter the lead: your points minus the opponent's (--lead)", -5000, 5000),
    )
    measure: ClassVar[str] = "probability"
    label: ClassVar[str] = "P(win) + ½P(tie)"
    column: ClassVar[str] = "P(win)+P(tie)/2"

    def __post_init__(self):
        instance_of("opponent", self.opponent, OpponentCard, "an OpponentCard (OpponentCard.parse reads flag text)")
        if isinstance(self.lead, bool) or not isinstance(self.lead, (int, np.integer)):
            raise ValueError(f"lead must be a whole number (your points minus the opponent's), got {self.lead!r}")
        object.__setattr__(self, "lead", int(self.lead))

    @property
    def words(self) -> str:
        return f"playing to beat the opponent's card, {self.lead:+d} points"

    def aim(self) -> str:
        return (f"playing to win against the opponent's card (lead {self.lead:+d}), both playing to win "
                "from here: P(win) + 1/2 P(tie), exact from the endgame tables")

    @property
    def policy(self) -> str:
        return f"versus (lead {self.lead:+d})"

    def check(self, rules: Rules, whole_game: bool = False) -> None:
        AdviceObjective.check(self, rules)
        if whole_game:
            raise ValueError("objective: versus is advice from a position against a card, not a whole game's policy")
        if rules.saved_rolls:
            raise ValueError(f"objective: the two-player tables do not play saved rolls ({rules.name!r})")
        self.opponent.state(StateSpace(rules))

    def _states(self, position: Position) -> tuple[StateSpace, int, int]:
        space = StateSpace(position.rules)
        return space, position.state(space), self.opponent.state(space)

    def reach(self, position: Position) -> tuple[int, int]:
        """(the mover's open boxes, the opponent's)."""
        n = position.rules.n_boxes
        return n - len(position.used), n - len(self.opponent.used_in(position.rules))

    def beyond_tables(self, position: Position, open_boxes: int) -> None:
        """The one place for a position beyond the endgame tables (more than `open_boxes` open):
        for now a ValueError; an approximation (the "outscore" objective) may answer here instead."""
        mine, theirs = self.reach(position)
        raise ValueError(f"versus: exact two-player advice is stored for both players with at most "
                         f"{open_boxes} boxes open; here you have {mine} open and the opponent {theirs}")

    def _open_check(self, position: Position) -> None:
        from .endgame import DEFAULT_OPEN
        mine, theirs = self.reach(position)
        if not theirs <= mine <= theirs + 1:
            raise ValueError(f"versus: with {mine} boxes open you cannot be the one to move against a card with "
                             f"{theirs} open (the player to move has as many boxes open as the other, or one more)")
        if mine > DEFAULT_OPEN:
            self.beyond_tables(position, DEFAULT_OPEN)

    def table(self, position, use_cache=True, progress=False):
        """The endgame layer this position's turn reads (built and cached when missing)."""
        from .endgame import endgame_layer
        self._open_check(position)
        mine, theirs = self.reach(position)
        if mine == 1 and theirs == 0:
            return None                # the last turn reads the finished game
        return endgame_layer(position.rules, theirs, mine - 1, use_cache, progress)

    def turn(self, position, table=None, use_cache=True, mean=None):
        from .endgame import turn_values
        self._open_check(position)
        space, mover, waiter = self._states(position)
        later, lanes = turn_values(space, mover, waiter, self.lead, use_cache)
        final = engine.box_values(space, later, np.array([mover]), lanes)
        at = lanes.reach + self.lead
        return engine.evaluate(space, final, choose=False), lambda a: a[..., at]

    def work(self, rules, position=None, use_cache=True, forward=False):
        """The layer to build when it is not cached and not small (yahtzee's (2, 1): about 2 min)."""
        from ..engine.cache import cache_path
        from .endgame import layer_kind, layer_values, RATE_SECONDS
        if position is None:
            return "", 0.0
        self._open_check(position)
        mine, theirs = self.reach(position)
        if mine == 1 and theirs == 0 or not use_cache:
            return "", 0.0
        layer = (theirs, mine - 1)
        if cache_path(rules, layer_kind(*layer)).exists():
            return "", 0.0
        values = layer_values(rules, *layer)
        return f"the endgame table ({layer[0]},{layer[1]}) of {rules.name} ({values:.3g} values, then cached)", \
            values * RATE_SECONDS
