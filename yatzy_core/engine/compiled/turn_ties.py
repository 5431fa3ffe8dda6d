"""The tie walks of the Python turn engine, compiled: which keeper each roll keeps under the one
tie rule (`turn.preferred_keeper`), and the largest or smallest second moment among the keepers
tied for a roll (`turn_forward.second_moments`' bounds). Both run serially: their callers
already run blocks of states on several threads."""
from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["first_good", "extreme_good"]


@njit(cache=True)
def first_good(keep, roll_values, k, starts, tie, out):
    """out[r, s]: the first keeper of roll r (in `dice.preferred_pairs` order) within `tie` of the
    roll's value in state s."""
    n_rolls, S = roll_values.shape
    for r in range(n_rolls):
        out[r, :] = -1
        for pos in range(starts[r], starts[r + 1]):
            kk = k[pos]
            for s in range(S):
                if out[r, s] < 0 and keep[kk, s] >= roll_values[r, s] - tie:
                    out[r, s] = kk


@njit(cache=True)
def extreme_good(keep, roll_values, second, k, starts, tie, sign, out):
    """out[r, s]: the largest (sign +1) or smallest (-1) second moment of the keepers of roll r
    within `tie` of the roll's value in state s."""
    n_rolls, S = roll_values.shape
    for r in range(n_rolls):
        out[r, :] = -np.inf
        for pos in range(starts[r], starts[r + 1]):
            kk = k[pos]
            for s in range(S):
                if keep[kk, s] >= roll_values[r, s] - tie:
                    out[r, s] = max(out[r, s], sign * second[kk, s])
        out[r, :] *= sign
