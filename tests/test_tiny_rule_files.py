"""Tiny games written as rule files, solved by the numpy reference solver and by the independent
brute force in exact Fractions: forced order, six dice (villa, tower) and catalogue scorers."""
from fractions import Fraction
from functools import cache

import pytest

from yatzy_core.engine.bruteforce import brute_force_value
from yatzy_core.game.rulefile import loads
from yatzy_core.engine.solver import solve


def box(name, scorer, **params):
    lines = [f'name = "{name}"', f'scorer = "{scorer}"'] + [f"{k} = {v}" for k, v in params.items()]
    return "\n[[boxes]]\n" + "\n".join(lines) + "\n"


THREE_DICE = (  # 3 dice: upper bonus 5 once the ones reach 2, then a pair, a run and chance
    "n_dice = 3\nrolls_per_turn = 2\nupper_bonus = 5\nupper_bonus_threshold = 2\n"
    + box("ones", "upper", face=1) + box("pair", "pairs", count=1)
    + box("run", "run", length=3, points=10) + box("chance", "chance"))
TWO_DICE = (  # 2 dice, 4 rolls, a Yahtzee bonus for further doubles (joker "none")
    "n_dice = 2\nrolls_per_turn = 4\nupper_bonus = 4\nupper_bonus_threshold = 5\nyahtzee_box = \"doubles\"\n"
    "yahtzee_bonus = 10\n" + box("twos", "upper", face=2) + box("doubles", "all_same", points=8)
    + box("sixes", "upper", face=6) + box("straight", "straight", faces=[3, 4], points=7))
SIX_DICE = (  # 6 dice of 2 faces, small enough for brute force: villa 3+3 and tower 4+2
    "n_dice = 6\nfaces = 2\nrolls_per_turn = 2\nupper_bonus = 0\n"
    + box("villa", "villa") + box("tower", "tower") + box("twos", "upper", face=2))
FOUR_DICE = (  # 4 dice of 3 faces: one and two pairs, the highest three alike, full sums
    "n_dice = 4\nfaces = 3\nupper_bonus = 0\n" + box("two_pairs", "pairs", count=2)
    + box("three", "of_a_kind", n=3) + box("all", "of_a_kind_total", n=2))

GAMES = {}
for name, text in {"three-dice": THREE_DICE, "two-dice": TWO_DICE, "six-dice": SIX_DICE,
                   "four-dice": FOUR_DICE}.items():
    GAMES[name] = loads(f'name = "{name}"\n' + text)
    GAMES[name + "-forced"] = loads(f'name = "{name}-forced"\nforced_order = true\n' + text)


@cache
def exact(name: str) -> Fraction:
    return brute_force_value(GAMES[name])


@pytest.mark.parametrize("name", GAMES)
def test_numpy_solver_matches_brute_force(name):
    fast = solve(GAMES[name], progress=False, backend="numpy").expected_score
    assert fast == pytest.approx(float(exact(name)), abs=1e-12)


@pytest.mark.parametrize("name", ["three-dice", "two-dice", "six-dice", "four-dice"])
def test_forced_order_costs_points(name):
    """Forced order only takes choices away, and here it always takes some value."""
    assert exact(name + "-forced") < exact(name)


def test_forced_order_by_hand():
    """One die, one roll a turn, boxes ones then chance. Forced: 1/6 in ones, then 7/2 in
    chance. Free: a 1 goes in ones (1 + 7/2), a 2 or 3 too (0 + 7/2), a 4-6 in chance (d + 1/6)."""
    header = "n_dice = 1\nrolls_per_turn = 1\nupper_bonus = 0\n"
    boxes = box("ones", "upper", face=1) + box("chance", "chance")
    free = (1 + Fraction(7, 2) + 2 * Fraction(7, 2) + sum(d + Fraction(1, 6) for d in (4, 5, 6))) / 6
    assert brute_force_value(loads(header + boxes)) == free == Fraction(9, 2)
    forced = loads(header + "forced_order = true\n" + boxes)
    assert brute_force_value(forced) == Fraction(1, 6) + Fraction(7, 2)


SIX_OF_SIX = loads('name = "six-of-six"\nn_dice = 6\nupper_bonus = 0\n'
                   + box("villa", "villa") + box("tower", "tower"))


def test_six_dice_of_six_faces_both_backends():
    """Too big for brute force: the compiled kernel against the numpy reference, and one roll
    of six dice for a six-alike box against the count 6 / 6**6."""
    values = [solve(SIX_OF_SIX, progress=False, backend=b, moments=False).expected_score
              for b in ("numpy", "numba")]
    assert values[0] == pytest.approx(values[1], abs=1e-9) and values[0] > 0
    one_roll = loads('n_dice = 6\nrolls_per_turn = 1\nupper_bonus = 0\n'
                     + box("maxi", "all_same", points=100))
    assert solve(one_roll, progress=False, backend="numpy").expected_score == pytest.approx(
        float(Fraction(100 * 6, 6 ** 6)), abs=1e-12)


@pytest.mark.parametrize("name", ["three-dice", "two-dice", "six-dice", "four-dice"])
def test_compiled_kernel_on_rule_files(name):
    fast = solve(GAMES[name], progress=False, backend="numba", moments=False).expected_score
    assert fast == pytest.approx(float(exact(name)), abs=1e-12)
