"""Chapter 5's second lab step: the Bellman operator T of a small game, checked on several tables.

T takes any table J of values, one per state (here a dict from the frozenset of open boxes to a
number), and returns TJ: from each state with a box open, one turn played optimally against J
after it; on the full card, 0. A student's T is fed tables that each test one thing T must do:
the zero table (one turn and nothing after), the exact values V (the fixed point, TV = V), V plus
a constant on every state (T passes it through) and a seeded table of small whole numbers. Every
state is compared with the package's turn (`engine.turn.turn_values`), fewest open boxes first.

>>> from yatzy_core.game.rules import get_rules
>>> game = get_rules("yatzy").with_(name="ones-twos", boxes=get_rules("yatzy").boxes[:2], upper_bonus=0)
>>> [name for name, _ in probe_tables(game)]
['J = 0', 'J = V', 'J = V + 10', 'J = seeded whole numbers']
>>> print(check_bellman_operator(lambda J: dict(J), game))
<lambda>: 9 of 16 checks passed; T(J) with {ones} open, for J = 0: expected 455/216, got 0
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..engine.solver import solve
from ..engine.turn import turn_values
from ..game.ruleset import Rules
from ..game.states import StateSpace
from .games import _small_game as small_game, open_states
from .report import TIME_LIMIT, Report, Wrong, compare, function, run

__all__ = ["check_bellman_operator", "probe_tables"]

SEED = 45            # the seeded table's generator: the same table on every run
CONSTANT = 10        # the shift of the "V + c" table


def probe_tables(rules: Rules) -> list[tuple[str, dict]]:
    """The tables J a student's T is checked on, by name: each a dict from every frozenset of
    open boxes (the full card's, empty, included) to a number."""
    rules = small_game(rules)
    states = open_states(rules)
    solution = solve(rules, progress=False, backend="numpy")
    exact = {open_: float(solution.values[solution.space.index(used, 0, 0)]) for open_, used, _ in states}
    draws = np.random.default_rng(SEED).integers(0, 21, size=len(states))
    return [("J = 0", {open_: Fraction(0) for open_, _, _ in states}),
            ("J = V", exact),
            (f"J = V + {CONSTANT}", {open_: v + CONSTANT for open_, v in exact.items()}),
            ("J = seeded whole numbers", {open_: Fraction(int(draws[i])) if open_ else Fraction(0)
                                          for i, (open_, _, _) in enumerate(states)})]


def _reference(rules: Rules, J: dict) -> dict:
    """TJ by the package's turn: every state with a box open, and 0 on the full card."""
    space, states = StateSpace(rules), open_states(rules)
    table = np.zeros(space.size)
    for open_, used, _ in states:
        table[space.index(used, 0, 0)] = float(J[open_])
    index = np.array([space.index(used, 0, 0) for open_, used, _ in states if open_])
    values = iter(turn_values(space, table, index))
    return {open_: float(next(values)) if open_ else Fraction(0) for open_, _, _ in states}


def check_bellman_operator(T, rules: Rules, time_limit: float = TIME_LIMIT) -> Report:
    """Check `T(J)`, the Bellman operator of the small game `rules` (J and TJ dicts from frozensets
    of open boxes to numbers), on every state of each of `probe_tables(rules)`, against the
    package's turn to 1e-9; the full card's TJ must be 0."""
    function("T", T)
    rules = small_game(rules)
    states = open_states(rules)
    answers: dict[str, object] = {}

    def case(name: str, J: dict, expected: dict, open_, label: str):
        def check(ask):
            where = f"T(J) {label}, for {name}"
            if name not in answers:
                answers[name] = ask(f"T(J), for {name}", dict(J))
            got = answers[name]
            if not isinstance(got, dict):
                raise Wrong(f"T(J), for {name}: T must return a dict from frozensets of open boxes to "
                            f"numbers, got {type(got).__name__}")
            if open_ not in got:
                raise Wrong(f"{where}: the dict T returned has no entry for this state")
            compare(where, expected[open_], got[open_])
        return check

    cases = []
    for name, J in probe_tables(rules):
        expected = _reference(rules, J)
        cases += [case(name, J, expected, open_, label) for open_, _, label in states]
    return run(getattr(T, "__name__", "T"), T, cases, time_limit)
