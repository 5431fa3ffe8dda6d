"""The closed forms in probability.py against independent enumeration with dice.py."""
from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np
import pytest
import sympy as sp

from yatzy_core.game import probability as pr
from yatzy_core.game.dice import arrangements, dice_space, multisets


def frac(r) -> Fraction:
    """sympy Rational -> Fraction, so exact values from both modules compare directly."""
    r = sp.Rational(r)
    return Fraction(int(r.p), int(r.q))


# ---- counting ------------------------------------------------------------------------------

@pytest.mark.parametrize("k", range(7))
def test_outcomes_match_enumeration(k):
    assert pr.outcomes(k) == len(multisets(k)) == comb(k + 5, 5)
    if k >= 1:
        assert pr.outcomes(k) == dice_space(k).n_rolls


def test_series_agrees_with_binomial():
    assert pr.outcomes_series(8) == [pr.outcomes(k) for k in range(9)]


def test_ordered_rolls_and_keepers():
    space = dice_space(5)
    assert pr.ORDERED_ROLLS == sum(arrangements(r) for r in space.rolls) == 6 ** 5
    assert pr.KEEPERS == space.n_keepers == sum(comb(k + 5, 5) for k in range(6))


# ---- the i-to-j matrices -------------------------------------------------------------------

@lru_cache(maxsize=None)
def exact_row(keeper: int) -> tuple[tuple[int, Fraction], ...]:
    """(roll, P(roll | keeper)) for every roll the keeper can reach, from dice.py."""
    space = dice_space(5)
    return tuple((int(r), space.p_exact(keeper, int(r)))
                 for k, r in space.pairs if k == keeper)


def face_row_by_enumeration(i: int, rolls: int) -> list[Fraction]:
    """P(j sixes | i sixes kept) after `rolls` rolls, keeping every six, from dice.py."""
    space = dice_space(5)
    dist = {space.keeper_index[(0, 0, 0, 0, 0, i)]: Fraction(1)}
    for _ in range(rolls):
        after = {}
        for k, p in dist.items():
            for r, q in exact_row(k):
                sixes = int(space.rolls[r][5])
                kept = space.keeper_index[(0, 0, 0, 0, 0, sixes)]
                after[kept] = after.get(kept, 0) + p * q
        dist = after
    row = [Fraction(0)] * 6
    for k, p in dist.items():
        row[int(space.keepers[k][5])] += p
    return row


@pytest.mark.parametrize("rolls", [1, 2])
@pytest.mark.parametrize("i", range(6))
def test_face_matrix_matches_enumeration(i, rolls):
    exact = [frac(p) for p in pr.face_matrix(rolls).row(i)]
    assert exact == face_row_by_enumeration(i, rolls)


@pytest.mark.parametrize("rolls", [0, 1, 2, 3])
def test_face_matrix_is_stochastic_and_upper_triangular(rolls):
    m = pr.face_matrix(rolls)
    assert all(sum(m.row(i)) == 1 for i in range(6))
    assert m.is_upper
    assert m == pr.face_matrix(1) ** rolls


def test_two_rolls_is_formula_with_eleven_36ths():
    q = sp.Rational(11, 36)
    formula = sp.Matrix(6, 6, lambda i, j: sp.binomial(5 - i, j - i) * q ** (j - i)
                        * (1 - q) ** (5 - j) if j >= i else 0)
    assert pr.face_matrix(2) == pr.face_matrix(1) ** 2 == formula


def test_float_versions():
    for rolls in (1, 2):
        f = pr.face_matrix_float(rolls)
        assert f.dtype == np.float64 and f.shape == (6, 6)
        np.testing.assert_allclose(f.sum(axis=1), 1, atol=1e-12)
        np.testing.assert_allclose(f, np.array(pr.face_matrix(rolls).evalf(30).tolist(), float),
                                   rtol=1e-15, atol=0)
    np.testing.assert_allclose(pr.face_matrix_float(1) @ pr.face_matrix_float(1),
                               pr.face_matrix_float(2), atol=1e-15)


def test_published_row_has_one_typo():
    (stay, s4, p4), (fill, f4, p5) = pr.published_check()
    assert (frac(stay), frac(fill)) == (Fraction(25, 36), Fraction(11, 36))
    assert s4 == p4                  # 0.6944 is 25/36 rounded
    assert f4 != p5 and f4 == 0.3056  # 0.3046 is not 11/36 rounded
    assert p4 + p5 != pytest.approx(1, abs=1e-4)   # the printed row does not even sum to 1


def test_bad_arguments():
    with pytest.raises(ValueError, match="dice counts"):
        pr.face_entry(6, 2)
    with pytest.raises(ValueError, match="rolls"):
        pr.face_matrix(-1)
    with pytest.raises(ValueError, match="rolls"):
        pr.yahtzee_chance(0)


# ---- P(Yahtzee in a turn) ------------------------------------------------------------------

def most_common_markov(rolls: int, switch: bool = True) -> Fraction:
    """P(5 alike) by a Markov chain over the 252 rolls of dice.py: keep the most common face.

    With switch=False the face chosen after the first roll is kept for the whole turn.
    """
    space = dice_space(5)
    dist = {(r, None): space.p_exact(0, r) for r in range(space.n_rolls)}
    for _ in range(rolls - 1):
        after = {}
        for (r, face), p in dist.items():
            counts = space.rolls[r]
            if face is None or switch:
                face = int(np.argmax(counts))
            keep = [0] * 6
            keep[face] = int(counts[face])
            k = space.keeper_index[tuple(keep)]
            for r2, q in exact_row(k):
                after[(r2, face)] = after.get((r2, face), 0) + p * q
        dist = after
    return sum(p for (r, _), p in dist.items() if space.rolls[r].max() == 5)


def test_yahtzee_chance_matches_markov_over_rolls():
    assert frac(pr.yahtzee_chance()) == most_common_markov(3) == Fraction(347897, 7558272)
    assert round(float(pr.yahtzee_chance()), 5) == 0.04603


def test_never_switching_is_first_roll_then_face_matrix():
    assert frac(pr.yahtzee_chance(switch=False)) == most_common_markov(3, switch=False)
    assert pr.yahtzee_chance(switch=False) < pr.yahtzee_chance()


@pytest.mark.parametrize("rolls", [1, 2, 4])
def test_other_turn_lengths(rolls):
    assert frac(pr.yahtzee_chance(rolls)) == most_common_markov(rolls)


@pytest.mark.parametrize("i", range(6))
def test_max_count_rows_match_dice_space(i):
    space = dice_space(5)
    k = space.keeper_index[(i, 0, 0, 0, 0, 0)]
    row = [Fraction(0)] * 6
    for r in range(space.n_rolls):
        row[int(space.rolls[r].max())] += space.p_exact(k, r)
    assert [frac(p) for p in pr.max_count_matrix().row(i)] == row
