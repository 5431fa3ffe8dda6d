"""The two-player plan's count, compiled: open leads summed over every pair of card groups.

A pair of groups (mover a, waiter b), each a row (least points so far, most, most still to
gain) and a count of cards, has the leads max(a_least - b_most, -a_gain) .. min(a_most -
b_least, b_gain) open (`objectives.versus_plan`). A whole yatzy layer is some 2e9 pairs of
groups: too many for numpy's outer arrays (tens of GB), a few seconds in this loop.
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

__all__ = ["open_leads"]


def open_leads(movers: np.ndarray, mover_counts: np.ndarray, waiters: np.ndarray,
               waiter_counts: np.ndarray) -> int:
    """Sum over pairs of groups of (open leads) x (mover's cards) x (waiter's cards).

    >>> rows = np.array([[0, 0, 6]])          # an empty card of one die: nothing yet, 6 to gain
    >>> full = np.array([[k, k, 0] for k in range(1, 7)])     # a full card of k points, k = 1..6
    >>> open_leads(rows, np.array([1]), full, np.ones(6))     # one open lead, -k, against each
    6
    """
    a = np.ascontiguousarray(movers, dtype=np.int64)
    b = np.ascontiguousarray(waiters, dtype=np.int64)
    return int(_open_leads(a[:, 0].copy(), a[:, 1].copy(), a[:, 2].copy(),
                           np.asarray(mover_counts, np.int64), b[:, 0].copy(), b[:, 1].copy(),
                           b[:, 2].copy(), np.asarray(waiter_counts, np.int64)))


@njit(parallel=True, cache=True)
def _open_leads(a_least, a_most, a_gain, a_count, b_least, b_most, b_gain, b_count):
    total = np.zeros(len(a_least), np.int64)
    for i in prange(len(a_least)):
        row = 0
        for j in range(len(b_least)):
            low = max(a_least[i] - b_most[j], -a_gain[i])
            high = min(a_most[i] - b_least[j], b_gain[j])
            row += max(high - low + 1, 0) * b_count[j]
        total[i] = row * a_count[i]
    return total.sum()
