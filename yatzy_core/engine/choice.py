"""How choices are taken. An objective's operator is its own through three optional parts: a
full card's value per state (`terminal_values`), a combine that sees the scored parts
(`combined`), and the rule its choices are taken by (`choice_rule`: `Lexicographic`); the turn
engine (`engine.turn`) asks them of every objective (duck-typed, so this module stays below
it) and falls back to the plain `terminal`/`combine` and to choosing lane by lane by the one tie
rule (`preferred_box`, `preferred_keeper`, `ranked`). `engine.table_solver` reads them to pick
a table's path (the pair kernel `compiled.policy_table` for a `Lexicographic` rule).

>>> LEXICOGRAPHIC.box(np.array([[[1.0, 3.0]], [[1.0 + 1e-12, 2.0]]]))[1].tolist()   # tied chance: the mean
[0]
"""
from __future__ import annotations

import numpy as np

from ..game.states import StateSpace
from .basics import NEG, TIE

__all__ = ["terminal_values", "combined", "choice_rule", "Lexicographic", "LEXICOGRAPHIC", "preferred_box",
           "preferred_keeper", "ranked"]


def terminal_values(objective, space: StateSpace) -> np.ndarray:
    """(size, lanes...) the objective's values of every state as a full card (its
    `terminal_states`, else `terminal(size)`, the same in every state).

    >>> from yatzy_core.game.rules import get_rules
    >>> from yatzy_core.engine.turn import TargetLanes
    >>> terminal_values(TargetLanes(3), StateSpace(get_rules("yatzy"))).shape
    (2097152, 3)
    """
    per_state = getattr(objective, "terminal_states", None)
    return per_state(space) if per_state is not None else objective.terminal(space.size)


def combined(objective, scored, later: np.ndarray) -> np.ndarray:
    """The objective's value of each scored box (`Scored`, flat) followed by a state worth
    `later`: its `combine_scored`, else `combine` of the points in all."""
    parts = getattr(objective, "combine_scored", None)
    return parts(scored, later) if parts is not None else objective.combine(scored.points, later)


def choice_rule(objective):
    """The objective's `choice` (`Lexicographic`), or None: the best lane by lane."""
    return getattr(objective, "choice", None)


class Lexicographic:
    """The choice rule of a value made of two lanes, (primary, tie-break): the best primary; of
    the choices within TIE of it, the best tie-break; of those within TIE of that, the first in
    the rule's preference order (boxes: card order; keepers: most dice, then `dice.keepers`
    order). A choice's value is the chosen choice's pair, as the compiled policy takes it
    (`policy_lanes`): the tie-break lane is then the value of the policy the primary picks, exact.

    >>> v, i = LEXICOGRAPHIC.box(np.array([[[0.5, 10.0]], [[0.5, 12.0]], [[0.4, 90.0]]]))
    >>> v.tolist(), i.tolist()                   # equal chances: the better mean; never the 0.4
    ([[0.5, 12.0]], [1])
    """

    @staticmethod
    def _chosen(p: np.ndarray, m: np.ndarray, top: np.ndarray, best_m) -> np.ndarray:
        """Whether each choice (primary p, tie-break m) is good: p within TIE of `top`, m
        within TIE of `best_m` (None: the best m among those with a good p, over axis 0)."""
        good = p >= top - TIE
        if best_m is None:
            best_m = np.where(good, m, NEG).max(axis=0)
        return good & (m >= best_m - TIE)

    def box(self, final: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(values, index) of each roll's chosen box, from (n_boxes, n_rolls, S..., 2) values."""
        ok = self._chosen(final[..., 0], final[..., 1], final[..., 0].max(axis=0), None)
        index = np.argmax(ok, axis=0)               # the first good one in card order
        return np.take_along_axis(final, index[None, ..., None], axis=0)[0], index

    def keeper(self, space: StateSpace, keep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(values, keeper) of each roll's chosen sub-keeper, from (n_keepers, S..., 2) keeper
        values: every roll's sub-keepers in preference order (`dice.preferred_pairs`)."""
        k, starts = space.rules.dice.preferred_pairs
        rolls = np.repeat(np.arange(len(starts) - 1), np.diff(starts))
        flat = keep.reshape(len(keep), -1, 2)
        pairs = flat[k]                                             # (pairs, N, 2)
        p, m = pairs[..., 0], pairs[..., 1]
        top = np.maximum.reduceat(p, starts[:-1], axis=0)[rolls]
        best_m = np.maximum.reduceat(np.where(p >= top - TIE, m, NEG), starts[:-1], axis=0)[rolls]
        ok = self._chosen(p, m, top, best_m)
        at = np.where(ok, np.arange(len(k))[:, None], len(k))
        first = np.minimum.reduceat(at, starts[:-1], axis=0)        # (n_rolls, N): the chosen pair
        values = pairs[first, np.arange(first.shape[1])]
        shape = (len(first),) + keep.shape[1:-1]
        return values.reshape(shape + (2,)), k[first].reshape(shape)


LEXICOGRAPHIC = Lexicographic()


# ---- the one tie rule of a choice lane by lane (`engine.turn`'s docstring) ----------------------

def preferred_box(final: np.ndarray) -> np.ndarray:
    """Index of the first box within TIE of the best, for each (roll, state, ...).

    >>> preferred_box(np.array([[1.0], [2.0 - 1e-12], [2.0]]))
    array([1])
    """
    best = final.max(axis=0)
    arg = np.full(best.shape, len(final) - 1, dtype=np.int64)
    for b in range(len(final) - 2, -1, -1):
        arg[final[b] >= best - TIE] = b
    return arg


def preferred_keeper(space: StateSpace, keep: np.ndarray, roll_values: np.ndarray) -> np.ndarray:
    """(n_rolls, S, ...) keeper chosen in each roll: of those within TIE of the roll's best
    value, the one with the most dice, then the first in order (`dice.preferred_pairs`)."""
    k, starts = space.rules.dice.preferred_pairs
    n_rolls = roll_values.shape[0]
    from .compiled.turn_ties import first_good   # numba on first use: importing the package does not load it
    out = np.empty((n_rolls, roll_values[0].size), dtype=np.int64)
    first_good(keep.reshape(len(keep), -1), roll_values.reshape(n_rolls, -1), k, starts, TIE, out)
    return out.reshape(roll_values.shape)


def ranked(values, preference, second=None) -> list[int]:
    """Indices of `values`, best first: those within TIE of the best, in order of `preference`
    (smaller first), then the same for the rest. With `second`, those within TIE of the best
    are ranked by `second` first (the same way), then by preference.

    >>> ranked([1.0, 2.0, 2.0 - 1e-12, 0.5], [3, 2, 1, 0])
    [2, 1, 0, 3]
    >>> ranked([1.0, 1.0, 0.0], [0, 1, 2], second=[20.0, 25.0, 30.0])   # equally likely: the mean
    [1, 0, 2]
    """
    left = sorted(range(len(values)), key=lambda i: -values[i])
    out = []
    while left:
        top = values[left[0]] - TIE
        group = [i for i in left if values[i] >= top]
        if second is None:
            out += sorted(group, key=lambda i: preference[i])
        else:
            out += [group[j] for j in ranked([second[i] for i in group], [preference[i] for i in group])]
        left = [i for i in left if values[i] < top]
    return out
