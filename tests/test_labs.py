"""The labs' checks (yatzy_core/labs): each passes the course's own solution, reports a stub as not
written yet, and names the first wrong case, with the expected and the given value, for several
kinds of wrong answer."""
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import factorial, prod

import pytest

from yatzy_core import get_rules
from yatzy_core.game.rulefile import loads
from yatzy_core.labs import (Report, check_backward_induction, check_keeper_table, check_target_recursion,
                             check_transition_row)
from yatzy_core.labs.report import show

LAB = loads("""
name = "three-dice-lab"
n_dice = 3
rolls_per_turn = 2
upper_bonus_threshold = 0
upper_bonus = 0
[[boxes]]
name = "sixes"
scorer = "upper"
face = 6
[[boxes]]
name = "three_alike"
scorer = "all_same"
points = 15
[[boxes]]
name = "chance"
scorer = "chance"
""")


def stub(*args):
    raise NotImplementedError("write this")


# ---- chapter 2: the transition row ---------------------------------------------------------------

def transition_row(kept, n_dice=5, orders=True):
    """The notebook's solution: the multinomial count of each way to roll the free dice."""
    free, row = n_dice - len(kept), {}
    for rest in combinations_with_replacement(range(1, 7), free):
        ways = factorial(free) // prod(factorial(rest.count(f)) for f in set(rest)) if orders else 1
        row[tuple(sorted(kept + rest))] = Fraction(ways, 6 ** free)
    return row


def test_the_transition_check_passes_the_solution_and_floats():
    assert str(check_transition_row(transition_row)) == "transition_row: all 5 checks passed"
    as_floats = check_transition_row(lambda kept, n: {r: float(p) for r, p in transition_row(kept, n).items()})
    assert as_floats.ok and as_floats.passed == 5
    import sympy as sp                                  # chapter 2 counts with sympy: its Rationals are exact
    as_sympy = check_transition_row(lambda kept, n: {r: sp.Rational(p.numerator, p.denominator)
                                                     for r, p in transition_row(kept, n).items()})
    assert as_sympy.ok


@pytest.mark.parametrize("wrong, message", [
    (lambda kept, n: transition_row(kept, n, orders=False),         # every multiset 6**-free
     "1 of 5 checks passed; at keeper () of 2 dice, roll (1, 2): expected 1/18, got 1/36: every roll got "
     "the same chance, but rolls are not equally likely: (1, 2) comes up two ways (1 then 2, 2 then 1), "
     "(1, 1) one; count each roll's orders"),
    (lambda kept, n: transition_row((), n),                         # the kept dice rerolled too
     "0 of 5 checks passed; at keeper (1,) of 2 dice, roll (1, 1): expected 1/6, got 1/36"),
    (lambda kept, n: {r: p for r, p in transition_row(kept, n).items() if r[-1] < 6},
     "0 of 5 checks passed; at keeper () of 2 dice, roll (1, 6): expected 1/18, got nothing (the roll is missing)"),
    (lambda kept, n: {r[::-1]: p for r, p in transition_row(kept, n).items()},
     "1 of 5 checks passed; at keeper () of 2 dice: the key (2, 1) is not one of the rolls (a sorted tuple of 2 dice 1..6)"),
    (lambda kept, n: {**transition_row(kept, n), (1,) * n: Fraction(1, 6 ** n)} if kept[:1] == (6,) else
     transition_row(kept, n),                                       # a roll that cannot come up
     "0 of 5 checks passed; at keeper (6,) of 2 dice, roll (1, 1): expected 0, got 1/36"),
    (lambda kept, n: list(transition_row(kept, n).values()),
     "0 of 5 checks passed; at keeper () of 2 dice: expected a dict from rolls (sorted tuples) to numbers, got list"),
    (lambda kept, n: 1 / (len(kept) - 1) if kept else transition_row(kept, n),
     "0 of 5 checks passed; at keeper (1,) of 2 dice: your function raised ZeroDivisionError: division by zero"),
])
def test_the_transition_check_names_the_first_wrong_roll(wrong, message):
    report = check_transition_row(wrong)
    assert not report.ok and str(report) == f"transition_row: {message}"


def test_a_stub_is_not_written_yet():
    for report in (check_transition_row(stub), check_keeper_table(stub), check_backward_induction(stub, LAB),
                   check_target_recursion(stub, LAB)):
        assert not report.ok and report.passed == 0
        assert str(report).endswith("is not written yet (it raises NotImplementedError): "
                                    "replace the `raise` line with your code")


# ---- chapter 4: the keepers recursion ----------------------------------------------------------

def keeper_table(roll_value, n_dice=5, faces=6, rolls=True):
    """The notebook's solution: one more die at a time, from the rolls down to the empty keeper."""
    table = dict(roll_value)
    for size in range(n_dice - 1, -1, -1):
        for kept in combinations_with_replacement(range(1, 7), size):
            table[kept] = sum(table[tuple(sorted(kept + (f,)))] for f in range(1, faces + 1)) / faces
    return table if rolls else {k: v for k, v in table.items() if len(k) < n_dice}


def test_the_keepers_check_passes_the_solution():
    assert str(check_keeper_table(keeper_table)) == "keeper_table: all 6 checks passed"


@pytest.mark.parametrize("wrong, message", [
    (lambda values, n: keeper_table(values, n, faces=5),            # a missing face: (1, 5), never 6
     "0 of 6 checks passed; with roll values 'the larger die' of 2 dice, at keeper (): "
     "expected 161/36, got 19/5"),
    (lambda values, n: keeper_table(values, n, rolls=False),       # the rolls themselves left out
     "0 of 6 checks passed; with roll values 'the larger die' of 2 dice, at keeper (1, 1): "
     "expected 1, got nothing (the keeper is missing)"),
])
def test_the_keepers_check_names_the_first_wrong_keeper(wrong, message):
    report = check_keeper_table(wrong)
    assert not report.ok and str(report) == f"keeper_table: {message}"


def test_the_keepers_check_names_the_roll_values_that_go_wrong():
    def max_not_mean(values, n):                      # a decision node where a chance node belongs
        table = dict(values)
        for size in range(n - 1, -1, -1):
            for kept in combinations_with_replacement(range(1, 7), size):
                table[kept] = max(table[tuple(sorted(kept + (f,)))] for f in range(1, 7))
        return table

    assert str(check_keeper_table(max_not_mean)) == (
        "keeper_table: 0 of 6 checks passed; with roll values 'the larger die' of 2 dice, "
        "at keeper (): expected 161/36, got 6")

    def five_dice_only(values, n):                    # right for 5 dice, wrong for fewer
        return keeper_table(values, 5) if n == 5 else keeper_table({k: 0 * v for k, v in values.items()}, n)

    assert str(check_keeper_table(five_dice_only)) == (
        "keeper_table: 3 of 6 checks passed; with roll values 'the larger die' of 2 dice, "
        "at keeper (): expected 161/36, got 0")


# ---- chapters 5 and 8: a whole small game, backwards -----------------------------------------------

def score(box, dice):
    return {"sixes": 6 * dice.count(6), "three_alike": 15 * (len(set(dice)) == 1), "chance": sum(dice)}[box]


def solver(rerolls=1, future=True):
    """The notebook's solution of chapter 5, with knobs that make it wrong."""
    @cache
    def V(open_boxes):
        return keep(open_boxes, (), rerolls) if open_boxes else Fraction(0)

    @cache
    def keep(open_boxes, kept, left):
        if len(kept) == 3:
            if left == 0:
                return max(score(b, kept) + (V(open_boxes - {b}) if future else 0) for b in open_boxes)
            return max(keep(open_boxes, k, left - 1) for j in range(4) for k in combinations(kept, j))
        return sum(keep(open_boxes, tuple(sorted(kept + (f,))), left) for f in range(1, 7)) / 6
    return V


def test_the_backward_induction_check_passes_the_solution_exact_or_float():
    assert str(check_backward_induction(solver(), LAB)) == "V: all 8 checks passed"
    V = solver()
    assert check_backward_induction(lambda s: float(V(s)), LAB).passed == 8


def test_the_backward_induction_check_names_the_first_wrong_state():
    report = check_backward_induction(solver(future=False), LAB)
    assert report.passed == 4 and report.problem.startswith("with {sixes, three_alike} open")
    assert str(check_backward_induction(solver(rerolls=0), LAB)) == (
        "V: 1 of 8 checks passed; with {sixes} open: expected 11/2, got 3")


def test_the_empty_card_is_compared_exactly_with_the_brute_force():
    V = solver()
    off = check_backward_induction(lambda s: V(s) + (Fraction(1, 10 ** 12) if len(s) == 3 else 0), LAB)
    exact = Fraction(8662815271, 362797056)
    assert off.passed == 7 and off.problem == (
        f"with {{sixes, three_alike, chance}} open: expected {exact}, "
        f"got {exact + Fraction(1, 10 ** 12)}")
    assert check_backward_induction(lambda s: float(V(s)) + 1e-12, LAB).ok     # a float: to 1e-9


def target_solver(strict=False, rerolls=1):
    """The notebook's solution of chapter 8, with knobs that make it wrong."""
    @cache
    def V(open_boxes, n):
        if n < 0 or n == 0 and not strict:
            return Fraction(1)
        return keep(open_boxes, n, (), rerolls) if open_boxes else Fraction(0)

    @cache
    def keep(open_boxes, n, kept, left):
        if len(kept) == 3:
            if left == 0:
                return max(V(open_boxes - {b}, n - score(b, kept)) for b in open_boxes)
            return max(keep(open_boxes, n, k, left - 1) for j in range(4) for k in combinations(kept, j))
        return sum(keep(open_boxes, n, tuple(sorted(kept + (f,))), left) for f in range(1, 7)) / 6
    return V


def test_the_target_check_passes_the_solution():
    assert str(check_target_recursion(target_solver(), LAB)) == "V: all 8 checks passed"


def test_the_target_check_names_the_first_wrong_state_and_n():
    assert str(check_target_recursion(target_solver(strict=True), LAB)) == (
        "V: 0 of 8 checks passed; with no box open, n = 0: expected 1, got 0")
    assert str(check_target_recursion(target_solver(rerolls=0), LAB)) == (
        "V: 1 of 8 checks passed; with {sixes} open, n = 1: expected 31031/46656, got 91/216")


def test_bad_arguments_are_named():
    with pytest.raises(TypeError, match="transition_row must be a function"):
        check_transition_row({})
    with pytest.raises(ValueError, match="rules must be a game whose state is its open boxes"):
        check_backward_induction(solver(), get_rules("yahtzee"))
    with pytest.raises(TypeError, match="rules must be a Rules value"):
        check_target_recursion(target_solver(), "yahtzee")


def test_the_report_reads_as_one_line():
    assert str(Report("f", 3, 2, "at x: expected 1, got 2")) == "f: 2 of 3 checks passed; at x: expected 1, got 2"
    assert repr(Report("f", 3, 3)) == "f: all 3 checks passed" and Report("f", 3, 3).ok
    assert [show(x) for x in (Fraction(3), 0.1 + 0.2, 1e-20, "six")] == ["3", "3/10", "1e-20", "str 'six'"]


# ---- a common wrong idea fails first, and is named ---------------------------------------------

def test_equally_likely_multisets_fail_the_first_keepers_case_and_are_named():
    """Averaging over the rolls a keeper can become, as if each were equally likely, gets the sums
    right (d and 7 - d are symmetric): it passed three of the six cases when the first three were
    sums. Now a case without that symmetry comes first, and it fails there, named."""
    def average_over_rolls(values, n):
        return {kept: sum(v for r, v in values.items() if all(r.count(d) >= kept.count(d) for d in kept))
                / sum(all(r.count(d) >= kept.count(d) for d in kept) for r in values)
                for size in range(n + 1) for kept in combinations_with_replacement(range(1, 7), size)}

    report = check_keeper_table(average_over_rolls)
    assert report.passed == 2 and str(report) == (
        "keeper_table: 2 of 6 checks passed; with roll values 'the larger die' of 2 dice, at keeper (): "
        "expected 161/36, got 13/3: that is the plain average over the rolls the keeper can become, as if "
        "every roll were equally likely; they are not: a roll comes up in as many ways as it has orders, "
        "so average over the next die (1/6 each) instead")


# ---- the package's solvers are not there to call ----------------------------------------------------

def test_calling_the_package_instead_of_writing_the_lab_is_noticed():
    from yatzy_core import dice_space, solve
    from yatzy_core.engine.turn import keeper_values   # noqa: F401 (named in the function below)

    def by_p_exact(kept, n):
        space = dice_space(n)
        k = [dice_of_(x) for x in space.keepers].index(kept)
        return {dice_of_(r): space.p_exact(k, i) for i, r in enumerate(space.rolls)}

    def by_solve(open_boxes):
        try:                                             # a student's `except` does not hide it
            return solve(LAB, progress=False).values[0]
        except Exception:
            return 0

    def by_targets(open_boxes, n):
        import yatzy_core
        return yatzy_core.solve_targets(LAB, 50).vector(0)[0]

    assert str(check_transition_row(by_p_exact)) == (
        "transition_row: 0 of 5 checks passed; at keeper () of 2 dice: your function calls the package's "
        "DiceSpace.p_exact (yatzy_core.game.dice); the lab asks you to compute it yourself (the check runs "
        "your function without the package's solvers)")
    assert "calls the package's solve (yatzy_core.engine.solver)" in str(check_backward_induction(by_solve, LAB))
    assert "calls the package's solve_targets (yatzy_core.objectives.targets)" in str(
        check_target_recursion(by_targets, LAB))
    assert solve(LAB, progress=False, backend="numpy").values.size     # the kernel's own are untouched


def dice_of_(counts):
    from yatzy_core import dice_of
    return dice_of(counts)


# ---- a student's function cannot hang, end or fool the check ----------------------------------------

def test_a_function_that_never_returns_ends_with_one_line():
    import multiprocessing

    def forever(open_boxes):
        while True:
            pass

    report = check_backward_induction(forever, LAB, time_limit=0.5)
    assert str(report) == ("forever: 0 of 8 checks passed; with no box open: your function did not return "
                           "within 0.5 s (a loop that never ends, or a recursion that never reaches a known case?)")
    assert multiprocessing.active_children() == []          # the child was ended, not left running


def test_sys_exit_and_os_exit_do_not_escape():
    import os
    import sys

    def exits(open_boxes):
        sys.exit(3)

    def ends(open_boxes):
        os._exit(3)

    assert str(check_backward_induction(exits, LAB)) == (
        "exits: 0 of 8 checks passed; with no box open: your function called sys.exit(3); return a value instead")
    assert str(check_backward_induction(ends, LAB)) == (
        "ends: 0 of 8 checks passed; with no box open: your function ended the process (exit code 3); "
        "return a value instead")


@pytest.mark.parametrize("bad, shown", [(float("nan"), "nan"), (float("inf"), "inf")])
def test_nan_and_inf_are_named(bad, shown):
    V = solver()
    report = check_backward_induction(lambda s: bad if len(s) == 1 else V(s), LAB)
    assert str(report) == (
        f"<lambda>: 5 of 8 checks passed; with {{sixes}} open: expected 11/2, got {shown}, which is no number "
        "a chance or an expected score can be (a 0/0, or an inf from a division by zero or an overflow?)")


def test_the_right_numbers_as_strings_do_not_pass():
    V = solver()
    report = check_backward_induction(lambda s: str(V(s)), LAB)
    assert str(report) == ("<lambda>: 0 of 8 checks passed; with no box open: expected a number (0), got str '0'")
    rows = check_transition_row(lambda kept, n: {r: f"{float(p)}" for r, p in transition_row(kept, n).items()})
    assert rows.passed == 0 and "expected a number (1/36), got str '0.027777777777777776'" in str(rows)


def test_what_the_function_prints_is_shown(capsys):
    V = solver()

    def chatty(open_boxes):
        print("asked", sorted(open_boxes))
        return V(open_boxes)

    assert check_backward_induction(chatty, LAB).ok
    assert capsys.readouterr().out.splitlines()[:2] == ["asked []", "asked ['sixes']"]


# ---- the labs in the notebooks: stub, solution, check ---------------------------------------------

LABS = {"02_counting_with_sympy": "check_transition_row", "04_keepers": "check_keeper_table",
        "05_solving_the_game": "check_backward_induction", "08_playing_to_win": "check_target_recursion"}


def lab_cells(stem):
    """The lab's stub, solution and check cells of a notebook, and the code cells after the stub."""
    import json
    from pathlib import Path
    cells = json.loads((Path(__file__).parents[1] / "notebooks" / f"{stem}.ipynb").read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    tags = [c["metadata"].get("tags", []) for c in code]
    stubs = [i for i, t in enumerate(tags) if "lab-stub" in t]
    assert len(stubs) == 1, stem
    i = stubs[0]
    return [("".join(c["source"]), t) for c, t in zip(code[i:], tags[i:])]


def defined(text):
    """Names a cell binds at its top level (def, class, assignment, import)."""
    import ast
    names = set()
    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def stubbed(text):
    """The functions of a stub cell that still raise NotImplementedError."""
    import ast
    return {node.name for node in ast.parse(text).body if isinstance(node, ast.FunctionDef)
            and isinstance(node.body[-1], ast.Raise) and "NotImplementedError" in ast.unparse(node.body[-1])}


@pytest.mark.parametrize("stem", sorted(LABS))
def test_each_lab_is_a_stub_then_its_solution_then_a_check(stem):
    (stub, stub_tags), (solution, solution_tags), (check, check_tags), *later = lab_cells(stem)
    student = stubbed(stub)
    assert student and "solution" in solution_tags and "nbval-check-output" in check_tags
    assert student <= defined(solution), (stem, student - defined(solution))
    assert "solution" not in check_tags and f"{LABS[stem]}(" in check and student & defined(check) == set()
    assert "lab-check" in check_tags         # the student's edition knows which stored outputs are the teacher's
    clobbering = [text.splitlines()[0] for text, tags in later
                  if "solution" not in tags and student & defined(text)]
    assert clobbering == [], stem            # no cell a student runs overwrites their function


@pytest.mark.parametrize("stem", sorted(LABS))
def test_without_the_solution_the_check_says_not_written_yet(stem, capsys):
    """The student's edition: the solution cell removed, the check runs on the stub."""
    (stub, _), _, (check, _), *_ = lab_cells(stem)
    namespace = {"Fraction": Fraction, "LAB": LAB}
    exec(stub, namespace)
    exec(check, namespace)
    printed = capsys.readouterr().out
    name = sorted(stubbed(stub))[0]
    assert printed == (f"{name}: 0 of {printed.split(' of ')[1].split()[0]} checks passed; {name} is not written "
                       "yet (it raises NotImplementedError): replace the `raise` line with your code\n")


def test_without_fork_the_check_runs_in_process_and_still_contains_sys_exit(monkeypatch):
    """Where fork is missing (Windows), the function runs in the notebook's process: no time limit,
    but sys.exit() is still reported, not raised."""
    import multiprocessing
    import sys
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert check_backward_induction(solver(), LAB).ok
    assert str(check_backward_induction(lambda s: sys.exit(3), LAB)).endswith(
        "with no box open: your function called sys.exit(3); return a value instead")
