"""Chapter 13's lab check (yatzy_core/labs/versus.py): the course's solution passes, a stub is not
written yet, and common wrong recursions are named at their first wrong state, the last turns first."""
from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest

from yatzy_core import get_rules
from yatzy_core.game.rulefile import loads
from yatzy_core.labs import check_versus_recursion

from test_labs import defined, lab_cells, stubbed

DUEL = loads("""
name = "pair-or-chance"
n_dice = 2
rolls_per_turn = 2
upper_bonus_threshold = 0
upper_bonus = 0
[[boxes]]
name = "pair"
scorer = "all_same"
points = 10
[[boxes]]
name = "chance"
scorer = "chance"
""")


def score(box, dice):
    return {"pair": 10 * (dice[0] == dice[1]), "chance": sum(dice)}[box]


def solver(flip=True, tie=Fraction(1, 2)):
    """The notebook's solution, with knobs that make it wrong."""
    @cache
    def W(mine, theirs, d):
        return turn(mine, theirs, d, (), 1)

    @cache
    def turn(mine, theirs, d, kept, rerolls):
        if len(kept) < 2:
            return sum(turn(mine, theirs, d, tuple(sorted(kept + (f,))), rerolls) for f in range(1, 7)) / 6
        if rerolls == 0:
            return max(after(theirs, mine - {b}, d + score(b, kept)) for b in mine)
        return max(turn(mine, theirs, d, k, rerolls - 1) for j in range(3) for k in combinations(kept, j))

    def after(theirs, mine, d):
        if not mine and not theirs:
            return Fraction(1) if d > 0 else tie if d == 0 else Fraction(0)
        return 1 - W(theirs, mine, -d if flip else d)
    return W


def test_the_versus_check_passes_the_solution_and_names_the_first_wrong_state():
    assert str(check_versus_recursion(solver(), DUEL)) == "W: all 10 checks passed"
    # a tie counted as a loss: wrong first where the last turn can tie, 10 behind with only the
    # pair open (a pair, 11/36 with one reroll, ties: worth 1/2)
    assert str(check_versus_recursion(solver(tie=Fraction(0)), DUEL)) == (
        "W: 0 of 10 checks passed; mover {pair} open, waiter no box open, d = -10: expected 11/72, got 0")


def test_the_lead_must_change_sides_with_the_turn():
    # the other player's lead is -d: read as d, 11 behind looks like 11 ahead to the waiter
    assert str(check_versus_recursion(solver(flip=False), DUEL)) == (
        "W: 2 of 10 checks passed; mover {pair} open, waiter {pair} open, d = -11: expected 0, got 1285/1296")


def test_a_stub_and_bad_arguments():
    def W(mine, theirs, d):
        raise NotImplementedError("write this")
    assert str(check_versus_recursion(W, DUEL)) == (
        "W: 0 of 10 checks passed; W is not written yet (it raises NotImplementedError): "
        "replace the `raise` line with your code")
    with pytest.raises(ValueError, match="rules must be a game whose state is its open boxes"):
        check_versus_recursion(W, get_rules("yahtzee"))
    with pytest.raises(TypeError, match="W must be a function"):
        check_versus_recursion(0.5, DUEL)


def test_the_chapter_13_lab_is_a_stub_then_its_solution_then_a_check(capsys):
    (stub, _), (solution, solution_tags), (check, check_tags), *later = lab_cells("13_two_players")
    student = stubbed(stub)
    assert student == {"W"} and "solution" in solution_tags and student <= defined(solution)
    assert {"lab-check", "nbval-check-output"} <= set(check_tags) and "check_versus_recursion(" in check
    assert [t for t, tags in later if "solution" not in tags and student & defined(t)] == []
    namespace = {"Fraction": Fraction, "DUEL": DUEL}
    exec(stub, namespace)
    exec(check, namespace)
    assert "W is not written yet" in capsys.readouterr().out
