"""The compiled whole-game pass (engine/compiled/forward.py) against a slow reference built from
the numpy turn (`turn_forward.turn_outcomes`): a dense row of points per state, every state kept
as it is (no representatives), pushed roll by roll. Small games with an upper bonus, Yahtzee
bonuses, jokers (forced and free) and Yatzy's boxes; the pass must give the same distribution,
box expectations and bonus probabilities, and identical results when run again.
"""
import numpy as np
import pytest

from yatzy_core.engine.compiled.forward import push_layers, start_rows
from yatzy_core.engine.solver import solve
from yatzy_core.engine.turn_forward import turn_outcomes
from yatzy_core.objectives.distribution import final_scores, forward, kind_box
from yatzy_core.objectives.targets import max_total

from test_distribution import SMALL


def reference_pass(solution):
    """(P(final score = x), expected points of each box, P(upper bonus)) by the numpy turn."""
    space, values = solution.space, solution.values
    width = max_total(solution.rules) + 1
    rows = {space.index(0, 0, 0): np.eye(1, width)[0]}
    boxes, upper_bonus = np.zeros(space.n_boxes), 0.0
    for _ in range(space.n_boxes):
        states = sorted(rows)
        o = turn_outcomes(space, values, states)
        later = {}
        for c, state in enumerate(states):
            source, p_state = rows[state], rows[state].sum()
            for r in np.flatnonzero(o.prob[:, c]):
                q, points = o.prob[r, c], int(o.points[r, c])
                boxes[o.box[r, c]] += q * p_state * o.box_points[r, c]
                upper_bonus += q * p_state * (o.upper_bonus[r, c] > 0)
                row = later.setdefault(int(o.next_state[r, c]), np.zeros(width))
                row[points:] += q * source[:width - points]
        rows = later
    return sum(rows.values()), boxes, upper_bonus


@pytest.fixture(scope="module", params=sorted(SMALL))
def game(request):
    solution = solve(SMALL[request.param], progress=False)
    return solution, forward(solution), reference_pass(solution)


def test_distribution_equals_the_reference(game):
    solution, play, (pmf, _, _) = game
    ours = play.distribution.probabilities
    assert abs(ours.sum() - 1.0) < 1e-12
    assert np.abs(ours - pmf[:len(ours)]).max() < 1e-14 and not pmf[len(ours):].any()
    assert play.distribution.mean == pytest.approx(solution.expected_score, abs=1e-9)


def test_boxes_and_bonus_equal_the_reference(game):
    solution, play, (_, boxes, upper_bonus) = game
    names = solution.rules.box_names
    assert np.abs(np.array([play.box_expectations[n] for n in names]) - boxes).max() < 1e-12
    assert play.bonus_probabilities["upper_bonus"] == pytest.approx(upper_bonus, abs=1e-12)   # other sum orders


def test_a_second_pass_is_bit_identical(game):
    """The pass has no order that depends on threads: the same rows, bit for bit."""
    solution, play, _ = game
    again = push_layers(solution, start_rows([solution.space.index(0, 0, 0)], [0], [1.0]),
                        kind_box(solution.rules))[0]
    assert np.array_equal(final_scores(again), play.distribution.probabilities)


def test_the_pass_with_progress_names_a_kernel_that_exists(game):
    """With progress on, the pass first asks whether its kernel was compiled before, by name."""
    solution, play, _ = game
    shown = forward(solution, progress=True)
    assert np.array_equal(shown.distribution.probabilities, play.distribution.probabilities)
