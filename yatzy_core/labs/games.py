"""The game labs: chapter 5's backward induction V(open boxes) and chapter 8's target recursion
V(open boxes, n), each checked against the package on every state of a small game.

The games are those whose state between turns is the set of open boxes (no upper bonus, no
Yahtzee bonus), so that a student's function takes a frozenset of box names. States are checked
from the full card back, as backward induction fills them in: the first wrong state reported is
the one to fix first, since the states before it read its value.
"""
from __future__ import annotations

from fractions import Fraction

from ..game.checks import instance_of
from ..game.ruleset import Rules
from ..game.states import StateSpace
from ..engine.bruteforce import brute_force_value
from ..engine.solver import solve
from ..objectives.targets import max_total, solve_targets
from .sandbox import TIME_LIMIT
from .report import Report, compare, function, run

__all__ = ["check_backward_induction", "check_target_recursion", "open_states"]


def _small_game(rules) -> Rules:
    """`rules` if its state is its open boxes; TypeError/ValueError naming the argument if not."""
    instance_of("rules", rules, Rules, "a Rules value (a small game, e.g. from game.rulefile.loads)")
    if rules.tracks_upper or rules.tracks_yahtzee_bonus or rules.saved_rolls:
        raise ValueError(f"rules must be a game whose state is its open boxes (no upper bonus, no Yahtzee "
                         f"bonus, no saved rolls), got {rules.name!r}")
    return rules


def open_states(rules: Rules) -> list[tuple[frozenset, int, str]]:
    """Every state as (open box names, mask of used boxes, how to name it), fewest open first.

    >>> from yatzy_core.game.rules import get_rules
    >>> game = get_rules("yatzy").with_(boxes=get_rules("yatzy").boxes[:2], upper_bonus=0)
    >>> [label for _, _, label in open_states(game)]
    ['with no box open', 'with {ones} open', 'with {twos} open', 'with {ones, twos} open']
    """
    names, full = rules.box_names, (1 << rules.n_boxes) - 1
    out = []
    for m in sorted(range(full + 1), key=lambda m: (bin(m).count("1"), m)):   # m: the open boxes
        open_ = [names[b] for b in range(rules.n_boxes) if m >> b & 1]
        label = f"with {{{', '.join(open_)}}} open" if open_ else "with no box open"
        out.append((frozenset(open_), full & ~m, label))
    return out


def _value_case(where: str, open_boxes: frozenset, expected):
    def case(ask):
        compare(where, expected, ask(where, open_boxes))
    return case


def check_backward_induction(V, rules: Rules, time_limit: float = TIME_LIMIT) -> Report:
    """Check `V(open_boxes)`, the expected points still to come from the start of a turn with
    these boxes open (a frozenset of box names), on every state of the small game `rules`:
    against the package's solver (`solve`) to 1e-9, and the empty card against the exact brute
    force (`brute_force_value`) when the answer is an exact fraction. V runs without the
    package's solvers, each call within `time_limit` seconds (labs/sandbox.py)."""
    function("V", V)
    rules = _small_game(rules)
    solution = solve(rules, progress=False, backend="numpy")
    exact = brute_force_value(rules)
    cases = []
    for open_boxes, used, label in open_states(rules):
        expected = exact if used == 0 else float(solution.values[solution.space.index(used, 0, 0)])
        cases.append(_value_case(label, open_boxes, expected))
    return run(getattr(V, "__name__", "V"), V, cases, time_limit)


def _target_case(label: str, open_boxes: frozenset, expected):
    def case(ask):
        for n, p in enumerate(expected, start=-1):          # certain and impossible: exactly 1 and 0
            where = f"{label}, n = {n}"
            compare(where, Fraction(p) if p in (0, 1) else p, ask(where, open_boxes, n))
    return case


def check_target_recursion(V, rules: Rules, time_limit: float = TIME_LIMIT) -> Report:
    """Check `V(open_boxes, n)`, the best chance of scoring at least n more points from the start
    of a turn with these boxes open, on every state of the small game `rules` and every n from
    -1 to one more than the game's most points, against the package's target table
    (`solve_targets`, float64) to 1e-9. V runs without the package's solvers, each call
    within `time_limit` seconds (labs/sandbox.py)."""
    function("V", V)
    rules = _small_game(rules)
    n_max = max_total(rules) + 1
    table = solve_targets(rules, n_max)
    space = StateSpace(rules)
    cases = []
    for open_boxes, used, label in open_states(rules):
        row = [1.0] + [float(p) for p in table.vector(space.index(used, 0, 0))]   # n = -1, 0, ..., n_max
        cases.append(_target_case(label, open_boxes, row))
    return run(getattr(V, "__name__", "V"), V, cases, time_limit)
