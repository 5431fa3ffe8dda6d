"""Dice multisets: sizes, index maps, and exact transition probabilities."""
from collections import defaultdict
from fractions import Fraction
from math import comb, prod

import numpy as np
import pytest

from yatzy_core.game.dice import counts_of, dice_of, dice_space

SPACE = dice_space(5)


def test_sizes():
    assert (SPACE.n_rolls, SPACE.n_keepers, SPACE.n_pairs) == (252, 462, 4368)
    # a (keeper, roll) pair picks 0..c dice of each face the roll shows c times
    assert SPACE.n_pairs == sum(prod(int(c) + 1 for c in r) for r in SPACE.rolls)


def test_pairs_are_exactly_the_sub_multisets():
    keepers, rolls = SPACE.keepers[SPACE.pairs[:, 0]], SPACE.rolls[SPACE.pairs[:, 1]]
    assert (keepers <= rolls).all()
    nonzero = np.argwhere(SPACE.transition > 0)
    assert np.array_equal(nonzero, SPACE.pairs)


@pytest.mark.parametrize("n", range(1, 7))
def test_other_dice_counts(n):
    space = dice_space(n)
    assert space.n_rolls == comb(n + 5, 5)
    assert space.n_keepers == comb(n + 6, 6)   # keepers of 0..n dice
    assert [s.stop - s.start for s in space.level_slices] == [comb(k + 5, 5) for k in range(n + 1)]
    assert (space.rolls.sum(axis=1) == n).all()
    np.testing.assert_allclose(space.transition.sum(axis=1), 1, atol=1e-12)


def test_index_maps_round_trip():
    for i, k in enumerate(SPACE.keepers):
        key = tuple(int(c) for c in k)
        assert SPACE.keeper_index[key] == i
        assert counts_of(dice_of(key)) == key
    for r, roll in enumerate(SPACE.rolls):
        key = tuple(int(c) for c in roll)
        assert SPACE.roll_index[key] == r
        assert SPACE.keeper_index[key] == SPACE.roll_offset + r
    assert len(set(SPACE.keeper_index)) == SPACE.n_keepers


def test_add_and_remove_die_are_inverse():
    for k, keeper in enumerate(SPACE.keepers):
        for f in range(6):
            bigger = SPACE.add_die[k, f]
            if keeper.sum() == 5:
                assert bigger == -1
                continue
            want = keeper.copy()
            want[f] += 1
            assert np.array_equal(SPACE.keepers[bigger], want)
            assert k in SPACE.remove_die[bigger]
        if keeper.sum() > 0:
            for s in SPACE.remove_die[k]:
                assert SPACE.keepers[s].sum() == keeper.sum() - 1
                assert (SPACE.keepers[s] <= keeper).all()


def test_counts_and_dice():
    assert counts_of([1, 1, 3, 6, 6]) == (2, 0, 1, 0, 0, 2)
    assert dice_of((0, 2, 0, 0, 0, 1)) == (2, 2, 6)


def test_exact_rows_sum_to_one():
    sums = defaultdict(Fraction)
    for k, r in SPACE.pairs:
        sums[int(k)] += SPACE.p_exact(int(k), int(r))
    assert len(sums) == SPACE.n_keepers
    assert set(sums.values()) == {Fraction(1)}
    np.testing.assert_allclose(SPACE.transition.sum(axis=1), 1, rtol=0, atol=1e-12)


def p(keep, roll):
    """P(roll | keeper) with both given as dice."""
    return SPACE.p_exact(SPACE.keeper_index[counts_of(keep)], SPACE.roll_index[counts_of(roll)])


def test_hand_checked_fractions():
    assert p([], [1, 1, 1, 1, 1]) == Fraction(1, 7776)
    assert p([], [1, 2, 3, 4, 5]) == Fraction(120, 7776)     # 5! orders
    assert p([], [2, 2, 3, 3, 5]) == Fraction(30, 7776)      # 5!/(2! 2!)
    assert p([1, 1], [1, 1, 2, 2, 3]) == Fraction(3, 216)    # 3 orders of 2,2,3
    assert p([6, 6, 6, 6], [6, 6, 6, 6, 6]) == Fraction(1, 6)
    assert p([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]) == 1
    assert p([6], [1, 1, 1, 1, 1]) == 0                      # the kept six cannot vanish
    assert SPACE.transition[0].max() == pytest.approx(120 / 7776)
    assert SPACE.roll_probabilities().sum() == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("dice, named", [
    ([1, 2, 3, 4, 5, 6], "expected 5 dice, got 6"),
    ([1, 2, 3, 4], "expected 5 dice, got 4"),
    ([1, 2, 3, 4, 7], "[7]"),
    ([0, 2, 3, 4, 5], "[0]"),
    ([1, 2, 3, 4, 2.5], "[2.5]"),
    ([1, 2, 3, 4, "5"], "['5']"),
])
def test_validate_names_the_problem(dice, named):
    with pytest.raises(ValueError) as err:
        SPACE.validate(dice)
    assert named in str(err.value)


def test_validate_accepts_numpy_ints():
    assert SPACE.validate(np.array([6, 6, 1, 2, 6])) == (1, 1, 0, 0, 0, 3)


@pytest.mark.parametrize("args", [(0,), (7,), (5, 1), (5, 13)])
def test_dice_space_bounds(args):
    with pytest.raises(ValueError, match="must be"):
        dice_space(*args)
