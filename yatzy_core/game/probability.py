"""Exact dice probabilities in closed form (sympy): counting outcomes and the i-to-j matrices.

These are the textbook numbers a player can check by hand; `dice.py` enumerates the same things
and the tests hold the two against each other.

>>> [outcomes(n) for n in range(6)], ORDERED_ROLLS, KEEPERS
([1, 6, 21, 56, 126, 252], 7776, 462)
>>> yahtzee_chance()
347897/7558272
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product

import numpy as np
import sympy as sp

__all__ = [
    "outcomes", "outcomes_series", "hit", "face_entry", "face_matrix", "to_float",
    "face_matrix_float", "published_check", "max_count_matrix", "yahtzee_chance"]

DICE = 5    # dice in a Yahtzee / Yatzy roll
FACES = 6   # faces of a die

n, x = sp.symbols("n x", integer=True, nonnegative=True)

# Stars and bars: n dice of 6 faces are 6 counts summing to n, so C(n + 5, 5) multisets.
OUTCOMES = sp.binomial(n + FACES - 1, FACES - 1)
ORDERED_ROLLS = FACES ** DICE                                 # 7776 rolls when order matters
KEEPERS = int(sp.summation(OUTCOMES, (n, 0, DICE)))          # 462 ways to keep 0..5 dice

# A published table of the two-roll matrix prints the row from 4 dice as 0.6944 / 0.3046;
# the exact row is 25/36 / 11/36, so its second entry should read 0.3056.
PUBLISHED_TWO_ROLL_FROM_4 = (0.6944, 0.3046)


def outcomes(k: int) -> int:
    """Number of different rolls of k dice, order ignored: C(k + 5, 5)."""
    return int(OUTCOMES.subs(n, k))


def outcomes_series(k_max: int = DICE) -> list[int]:
    """The same counts read off the generating function 1/(1 - x)^6, one factor per face.

    >>> outcomes_series()
    [1, 6, 21, 56, 126, 252]
    >>> sp.factor(sp.expand_func(OUTCOMES))
    (n + 1)*(n + 2)*(n + 3)*(n + 4)*(n + 5)/120
    """
    poly = sp.series(1 / (1 - x) ** FACES, x, 0, k_max + 1).removeO()
    return [int(poly.coeff(x, k)) for k in range(k_max + 1)]


def hit(rolls: int = 1) -> sp.Rational:
    """Chance that one die shows the chosen face within `rolls` rolls (rerolling misses).

    >>> hit(1), hit(2), hit(3)
    (1/6, 11/36, 91/216)
    """
    return 1 - (1 - sp.Rational(1, FACES)) ** rolls


def face_entry(i: int, j: int, rolls: int = 1) -> sp.Rational:
    """P(j dice of the chosen face | i kept, the rest rolled up to `rolls` times).

    >>> face_entry(4, 5), face_entry(4, 5, rolls=2), face_entry(3, 2)
    (1/6, 11/36, 0)
    """
    if not (0 <= i <= DICE and 0 <= j <= DICE):
        raise ValueError(f"dice counts must be 0..{DICE}, got i={i}, j={j}")
    if j < i:
        return sp.Integer(0)
    q = hit(rolls)
    return sp.binomial(DICE - i, j - i) * q ** (j - i) * (1 - q) ** (DICE - j)


@lru_cache(maxsize=None)
def face_matrix(rolls: int = 1) -> sp.ImmutableMatrix:
    """6x6 exact matrix of face_entry(i, j): kept dice of one face never leave, misses reroll.

    Rolling twice is the one-roll matrix squared, the same formula with 11/36 for 1/6:

    >>> face_matrix(2) == face_matrix(1) ** 2
    True
    >>> face_matrix(2)[4, 4:], face_matrix(1)[0, 5]
    (Matrix([[25/36, 11/36]]), 1/7776)
    """
    if rolls < 0:
        raise ValueError(f"rolls must be 0 or more, got {rolls}")
    return sp.ImmutableMatrix(DICE + 1, DICE + 1, lambda i, j: face_entry(i, j, rolls))


def to_float(matrix: sp.MatrixBase) -> np.ndarray:
    """float64 numpy copy of an exact matrix, for plotting and fast products."""
    return np.array(matrix.tolist(), dtype=np.float64)


def face_matrix_float(rolls: int = 1) -> np.ndarray:
    """face_matrix(rolls) as a float64 array."""
    return to_float(face_matrix(rolls))


def published_check() -> list[tuple[sp.Rational, float, float]]:
    """(exact, exact to 4 places, published) for the two-roll row from 4 dice: one typo.

    >>> published_check()
    [(25/36, 0.6944, 0.6944), (11/36, 0.3056, 0.3046)]
    """
    exact = face_matrix(2)[4, 4:]
    return [(p, round(float(p), 4), pub) for p, pub in zip(exact, PUBLISHED_TWO_ROLL_FROM_4)]


@lru_cache(maxsize=None)
def max_count_matrix() -> sp.ImmutableMatrix:
    """6x6 exact P(most common face shows j dice | i of one face kept, the rest rolled).

    Unlike face_matrix, a better face may turn up among the rolled dice: from a kept pair, three
    of a new face makes j = 3. Row 0 (nothing kept) is the first roll; it equals row 1, so keeping
    one die or rerolling all five makes no difference. Built by listing every ordered roll.

    >>> M = max_count_matrix()
    >>> M[0, :]
    Matrix([[0, 5/54, 25/36, 125/648, 25/1296, 1/1296]])
    >>> M[2, 2:], face_matrix()[2, 2:]
    (Matrix([[5/9, 10/27, 5/72, 1/216]]), Matrix([[125/216, 25/72, 5/72, 1/216]]))
    >>> M[0, :] == M[1, :], M[3:, :] == face_matrix()[3:, :]
    (True, True)
    """
    rows = []
    for i in range(DICE + 1):
        ways = [0] * (DICE + 1)
        for roll in product(range(FACES), repeat=DICE - i):
            counts = [roll.count(f) for f in range(FACES)]
            counts[0] += i                   # the kept dice show face 0
            ways[max(counts)] += 1
        rows.append([sp.Rational(w, FACES ** (DICE - i)) for w in ways])
    return sp.ImmutableMatrix(rows)


def yahtzee_chance(rolls: int = 3, switch: bool = True) -> sp.Rational:
    """P(all five dice alike within `rolls` rolls), always keeping the most common face.

    The first roll picks the face (row 0 of max_count_matrix). With switch=False the player
    never changes face afterwards, so the later rolls follow face_matrix(rolls - 1); switching
    to a face that shows more dice is worth about 0.07 percentage points:

    >>> yahtzee_chance(), round(float(yahtzee_chance()), 5)
    (347897/7558272, 0.04603)
    >>> yahtzee_chance(switch=False), round(float(yahtzee_chance(switch=False)), 5)
    (4108139/90699264, 0.04529)
    """
    if rolls < 1:
        raise ValueError(f"rolls must be 1 or more, got {rolls}")
    first = max_count_matrix()[0, :]
    later = max_count_matrix() ** (rolls - 1) if switch else face_matrix(rolls - 1)
    return (first * later)[DICE]
