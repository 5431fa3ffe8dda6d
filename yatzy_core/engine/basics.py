"""What the compiled kernels and the Python engine both speak, in a numba-free leaf below both:
the one tie tolerance, a turn's outcomes as plain arrays, and what a table of state values
offers. The kernels (`compiled/`) import these from here, never from the Python engine above
them; `engine.turn` and `engine.turn_forward` re-export them where they are documented.

>>> TIE
1e-09
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from ..game.states import StateSpace

__all__ = ["TIE", "NEG", "TurnOutcomes", "StateValues"]

TIE = 1e-9    # choices this close to the best are equally good (`engine.turn`: the one tie rule)
NEG = -np.inf  # the value of a choice that is not allowed


@dataclass(frozen=True)
class TurnOutcomes:
    """How a turn ends from each of S states: (n_rolls, S) arrays, one column per state."""

    prob: np.ndarray         # P(final roll | state) under the optimal policy
    box: np.ndarray          # box the final roll is scored in
    points: np.ndarray       # all points it earns now: box + upper bonus + Yahtzee bonus
    upper_bonus: np.ndarray  # the part of `points` that is the upper bonus
    yahtzee_bonus: np.ndarray  # the part of `points` that is a Yahtzee bonus
    next_state: np.ndarray   # state index at the start of the next turn

    @property
    def box_points(self) -> np.ndarray:
        """The points written in the chosen box itself."""
        return self.points - self.upper_bonus - self.yahtzee_bonus


class StateValues(Protocol):
    """A solved table as the forward pass reads it (`solver.Solution` is one): each state's
    value, indexed by its space."""

    space: StateSpace
    values: np.ndarray
