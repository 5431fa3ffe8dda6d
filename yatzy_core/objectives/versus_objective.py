"""Play to beat a real opponent: `Versus(opponent card, lead)` ranks the mover's choices by
P(win) + 1/2 P(tie) against that card, exactly, from the endgame tables (`endgame`).

The opponent's card is an `opponent_card.OpponentCard` (used boxes, upper total, the Yahtzee-50 flag); the lead
is the mover's points minus the opponent's, bonuses included. The two players alternate whole
turns and each plays to win (`two_player`); the mover's turn is worked by the turn engine on the
values of ending it in each card with each lead, read from the stored layer after it. Positions
beyond the tables (someone with more boxes open than they hold) go to `Versus.beyond_tables`, the
one place the approximation (`outscore.Outscore`, labelled as such with its measured loss) takes
over; its refusal of an early position of a full game (a table over its memory bound) stays.

>>> Versus(OpponentCard.parse("open=chance;upper=3"), lead=-5).words
"playing to beat the opponent's card, -5 points"
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np

from ..engine import turn as engine
from ..engine.position import Position
from ..game.checks import instance_of
from ..game.rules import Rules
from ..game.states import StateSpace
from .objective import AdviceObjective
from .opponent_card import CARD_HELP, LEAD_LIMIT, OpponentCard, lead_parameter
from .outscore import Outscore
from .registry import Input, Parameter, registered

__all__ = ["Versus"]

READY_SECONDS = 30   # the most a widget's click may wait for an endgame layer to be built

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
                  "enter the opponent's card (--versus)", parse=OpponentCard.parse,
                  input=Input("card", "Their card", text=True, placeholder="used=ones,chance;upper=3")),
        replace(lead_parameter("--lead", "--versus"), input=Input("lead", "Your lead", -LEAD_LIMIT, LEAD_LIMIT)),
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
        from .endgame import DEFAULT_OPEN
        return (f"playing to win against the opponent's card (lead {self.lead:+d}): P(win) + 1/2 P(tie), exact "
                f"from the endgame tables where both players have at most {DEFAULT_OPEN} boxes open (more where "
                f"`yatzy versus endgame --open` stored them); before "
                f"that {self.approximation.aim()}")

    def aim_at(self, position: Position) -> str:
        """The sentence above a ranking at `position`: exact, or the approximation and its loss."""
        answer = self.answer_for(position)
        if answer is not self:
            return answer.aim()
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

    no_outlook: ClassVar[str] = "objective versus: no final-score outlook (it ranks choices by the chance to win only)"

    def outlook(self, position, scored, use_cache=True):
        raise ValueError(self.no_outlook)

    def _states(self, position: Position) -> tuple[StateSpace, int, int]:
        space = StateSpace(position.rules)
        return space, position.state(space), self.opponent.state(space)

    def reach(self, position: Position) -> tuple[int, int]:
        """(the mover's open boxes, the opponent's)."""
        n = position.rules.n_boxes
        return n - len(position.used), n - len(self.opponent.used_in(position.rules))

    @property
    def approximation(self) -> Outscore:
        """The objective that answers beyond the tables: `Outscore` against the same card and lead."""
        return Outscore(self.opponent, self.lead)

    def beyond_tables(self, position: Position, open_boxes: int) -> Outscore:
        """The one place for a position beyond the endgame tables (more than `open_boxes` open):
        the approximation answers there (labelled as such, with its measured loss)."""
        return self.approximation

    def answer_for(self, position: Position, use_cache: bool = True) -> AdviceObjective:
        """This objective inside the endgame tables (at most `endgame.DEFAULT_OPEN` boxes open, or
        beyond where the layer the turn reads is in the cache: `yatzy versus endgame --open 3`);
        the approximation (`beyond_tables`) before them. ValueError when the mover cannot be the
        one to move against this card."""
        from .endgame import DEFAULT_OPEN
        mine, theirs = self.reach(position)
        if not theirs <= mine <= theirs + 1:
            raise ValueError(f"versus: with {mine} boxes open you cannot be the one to move against a card with "
                             f"{theirs} open (the player to move has as many boxes open as the other, or one more)")
        if mine <= DEFAULT_OPEN or use_cache and self._stored(position.rules, theirs, mine - 1):
            return self
        return self.beyond_tables(position, DEFAULT_OPEN)

    @staticmethod
    def _stored(rules: Rules, open_mover: int, open_waiter: int) -> bool:
        """Whether layer (open_mover, open_waiter) is in the cache (built by `versus endgame --open`);
        a damaged one is then refused by `endgame.endgame_layer`, saying so, never approximated."""
        from ..engine.cache import cache_path
        from .endgame import layer_kind
        return cache_path(rules, layer_kind(open_mover, open_waiter)).exists()

    def _approximated(self, position: Position, then, use_cache: bool = True):
        """`then(approximation)` beyond the tables, its refusal (a table over its memory bound) said
        as versus's; None inside the tables."""
        answer = self.answer_for(position, use_cache)
        if answer is self:
            return None
        try:
            return then(answer)
        except ValueError as err:
            mine, theirs = self.reach(position)
            raise ValueError(f"versus: beyond the endgame tables ({mine} boxes open, the opponent {theirs}) the "
                             f"approximation answers, but {err}") from None

    def table(self, position, use_cache=True, progress=False):
        """The endgame layer this position's turn reads (built and cached when missing); before
        the endgame, the approximation's table."""
        from .endgame import endgame_layer
        approximated = self._approximated(position, lambda a: a.table(position, use_cache, progress), use_cache)
        if approximated is not None:
            return approximated
        mine, theirs = self.reach(position)
        if mine == 1 and theirs == 0:
            return None                # the last turn reads the finished game
        return endgame_layer(position.rules, theirs, mine - 1, use_cache, progress)

    def turn(self, position, table=None, use_cache=True, mean=None):
        from .endgame import turn_values
        approximated = self._approximated(position, lambda a: a.turn(position, table, use_cache, mean),
                                          use_cache)
        if approximated is not None:
            return approximated
        space, mover, waiter = self._states(position)
        later, lanes, at = turn_values(space, mover, waiter, self.lead, use_cache)   # a decided lead clamped
        final = engine.box_values(space, later, np.array([mover]), lanes)
        return engine.evaluate(space, final, choose=False), lambda a: a[..., at]

    def ready(self, position):
        """A click never starts a build of minutes: the endgame layer a position needs, when it is
        not cached and would take more than about half a minute, is built by its own command (before
        the endgame: the approximation's table, `Outscore.ready`)."""
        if self._approximated(position, lambda a: a.ready(position) or True) is not None:
            return
        what, seconds = self.work(position.rules, position)
        if seconds > READY_SECONDS:
            state = "damaged" if "cannot be read" in what else "not built yet"
            raise ValueError(f"versus: {what} is {state}: run `yatzy versus endgame --rules "
                             f"{position.rules.name}` once (about {max(1, round(seconds / 60))} min), "
                             "or fill more boxes")

    def work(self, rules, position=None, use_cache=True, forward=False):
        """The layer to build when it is not cached and whole (`endgame.layer_fault`: a damaged
        file is built again) and not small (yahtzee's (2, 1): about 2 min)."""
        from .endgame import layer_fault, layer_values, RATE_SECONDS
        if position is None:
            return "", 0.0
        approximated = self._approximated(position, lambda a: a.work(rules, position, use_cache, forward), use_cache)
        if approximated is not None:
            return approximated        # the approximation's table (`Outscore.work`)
        mine, theirs = self.reach(position)
        if mine == 1 and theirs == 0 or not use_cache:
            return "", 0.0
        layer = (theirs, mine - 1)
        fault = layer_fault(rules, *layer)
        if not fault:
            return "", 0.0
        values = layer_values(rules, *layer)
        damage = "" if fault == "is not in the cache" else f"its file {fault}; "
        return f"the endgame table ({layer[0]},{layer[1]}) of {rules.name} ({damage}{values:.3g} values, then cached)", \
            values * RATE_SECONDS
