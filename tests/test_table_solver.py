"""The generic table solver: the compiled path equals the turn engine's numpy reference on a tiny
game for the target and the risk operators, and a stop asked for ends a solve at a chunk."""
import numpy as np
import pytest

from yatzy_core.engine.chunked import Stopped, clear_stop, request_stop
from yatzy_core.engine.table_solver import reference_table
from yatzy_core.game.rules import Rules
from yatzy_core.game.scoring import Box, n_of_a_kind_fixed, total, upper
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives.risk import risk_operator, solve_risk
from yatzy_core.objectives.targets import solve_targets, target_operator

# two dice, three rolls a turn, an upper bonus of 10 once ones + twos reach 4 (as test_turn's)
TINY = Rules("tiny", (Box("ones", upper(1), face=1, max_score=2), Box("twos", upper(2), face=2, max_score=4),
                      Box("pair", n_of_a_kind_fixed(10)), Box("chance", total)),
             4, 10, n_dice=2, rolls_per_turn=3)
SPACE = StateSpace(TINY)
REACHED = np.flatnonzero(SPACE.reachable)


def test_the_compiled_targets_are_the_reference_operator():
    compiled = solve_targets(TINY, 40)
    reference = reference_table(SPACE, target_operator(TINY, 40))
    assert reference.shape == (SPACE.size, 41)
    np.testing.assert_allclose(compiled[REACHED], reference[REACHED], rtol=0, atol=1e-12)
    assert round(float(compiled.start_value[20]), 4) == round(float(reference[SPACE.index(0, 0)][20]), 4) > 0


def test_the_compiled_risk_table_is_the_reference_operator():
    thetas = np.array([-0.3, 0.2])
    compiled = solve_risk(TINY, thetas)
    reference = reference_table(SPACE, risk_operator(TINY, thetas))[:, :2]
    np.testing.assert_allclose(compiled[REACHED], reference[REACHED], rtol=1e-12)
    assert (np.sign(compiled[REACHED]) == np.sign(thetas)).all()


def test_a_stop_asked_for_ends_a_solve():
    request_stop()
    try:
        with pytest.raises(Stopped):
            solve_targets(TINY, 10)
    finally:
        clear_stop()
    assert solve_targets(TINY, 10).start_value[0] == 1.0     # and the next solve runs


class _MeanAfterNothing:
    """(0, points to come): a primary lane that ties everywhere, so the lexicographic choice is
    the mean's, from per-state terminal values."""

    from yatzy_core.engine.choice import LEXICOGRAPHIC as choice

    def terminal(self, size):
        return np.zeros((size, 2))

    def terminal_states(self, space):
        return self.terminal(space.size)

    def combine(self, points, later):
        out = later.copy()
        out[:, 1] += points
        return out


def _lexicographic_operator(compiled=False):
    from yatzy_core.engine.table_solver import Operator
    return Operator(_MeanAfterNothing(), widths=lambda space, states: np.full(len(states), 2, np.int64),
                    multiply=True, dense=True, per_state=True, compiled=compiled)


def test_a_lexicographic_operator_ties_to_its_second_lane():
    from yatzy_core.engine.solver import solve
    from yatzy_core.engine.table_solver import solve_table
    mean = solve(TINY, progress=False).values
    reference = reference_table(SPACE, _lexicographic_operator())
    solved = solve_table(SPACE, _lexicographic_operator()).data.reshape(SPACE.size, 2)
    np.testing.assert_allclose(reference[REACHED, 1], mean[REACHED], rtol=0, atol=1e-12)
    assert (reference[REACHED, 0] == 0).all()
    np.testing.assert_array_equal(solved[REACHED], reference[REACHED])
    assert round(float(reference[SPACE.index(0, 0), 1]), 4) == round(float(mean[SPACE.index(0, 0)]), 4)


def test_per_state_terminal_values_reach_the_start():
    """P(upper total reaches 4) with per-state terminal values: 1 on a full card whose upper
    total reached it; the primary lane is then that chance, checked, with only ones and twos
    open, by the target table of the upper boxes alone (the chance of 4 or more upper points)."""
    from yatzy_core.engine.choice import LEXICOGRAPHIC
    from yatzy_core.engine.table_solver import Operator, solve_table

    class BonusLane(_MeanAfterNothing):
        def terminal_states(self, space):
            out = np.zeros((space.size, 2))
            out[:, 0] = space.decode(np.arange(space.size))[1] >= space.rules.upper_bonus_threshold
            return out
    assert BonusLane.choice is LEXICOGRAPHIC
    op = Operator(BonusLane(), widths=lambda space, states: np.full(len(states), 2, np.int64),
                  multiply=True, dense=True, per_state=True, compiled=False)
    p = solve_table(SPACE, op).data.reshape(SPACE.size, 2)[SPACE.index(0b1100, 0), 0]
    upper_only = TINY.with_(name="upper-only", boxes=TINY.boxes[:2], upper_bonus=0)
    reach = solve_targets(upper_only, 6).start_value[4]
    assert round(float(p), 4) == round(float(reach), 4) and 0 < p < 1


def test_the_compiled_lexicographic_table_is_the_turn_engine_bit_for_bit():
    """Upper bonus first (P(bonus), then this policy's mean) by the compiled pair kernel
    (`policy_table`) and by the turn engine: the same bits on the tiny game and on a five-box
    Yahtzee with the Yahtzee box (jokers and Yahtzee bonuses: states that choose alone)."""
    from yatzy_core.engine.table_solver import solve_table
    from yatzy_core.game.rules import get_rules
    from yatzy_core.objectives.bonus_first import bonus_operator
    yahtzee = get_rules("yahtzee")
    five = yahtzee.with_(name="five-boxes", boxes=tuple(yahtzee.boxes[i] for i in (0, 2, 5, 11, 12)),
                         upper_bonus_threshold=12)
    for rules in (TINY, five):
        space = StateSpace(rules)
        reached = np.flatnonzero(space.reachable)
        compiled = solve_table(space, bonus_operator(rules)).data.reshape(space.size, 2)
        reference = reference_table(space, bonus_operator(rules, compiled=False))
        np.testing.assert_array_equal(compiled[reached], reference[reached])
    assert [round(float(x), 6) for x in compiled[space.index(0, 0)]] == [0.999953, 91.013016]


def test_a_compiled_lexicographic_operator_needs_its_combine_as_data():
    from yatzy_core.engine.table_solver import solve_table
    with pytest.raises(ValueError, match="affine"):
        solve_table(SPACE, _lexicographic_operator(compiled=True))


def test_a_stop_asked_for_ends_a_lexicographic_solve():
    from yatzy_core.objectives.bonus_first import bonus_table
    request_stop()
    try:
        with pytest.raises(Stopped):
            bonus_table(TINY, use_cache=False)
    finally:
        clear_stop()
    assert round(bonus_table(TINY, use_cache=False).start_value, 4) == 0.6583     # and the next solve runs


@pytest.mark.parametrize("fields, name", [(dict(per_state=True), "per_state"), (dict(compiled=False), "compiled")])
def test_an_operator_refuses_dense_only_fields_without_dense_rows(fields, name):
    """per_state and the turn engine (compiled=False) read and write rows of lanes per state:
    without dense=True the operator is refused by the field's name, not deep in solve_table."""
    from yatzy_core.engine.table_solver import Operator
    with pytest.raises(ValueError, match=f"^{name}: .*needs dense=True"):
        Operator(_MeanAfterNothing(), widths=lambda space, states: np.full(len(states), 2, np.int64),
                 multiply=True, dense=False, **fields)


class _PointsWithoutUpperBonus:
    """Points to come, the upper bonus not counted: a combine that needs the scored parts
    (`Scored`), since the points in all cannot tell the bonus from the box."""

    def terminal(self, size):
        return np.zeros(size)

    def combine(self, points, later):
        return points + later

    def combine_scored(self, scored, later):
        return scored.box_points + scored.yahtzee_bonus + later


def test_a_combine_of_the_scored_parts_values_the_box_apart_from_the_bonus():
    """Played for points without the upper bonus, TINY is worth exactly the game without it
    (brute force, in Fractions), less than TINY's own optimum; `combine` alone (the points in
    all) gives back the optimum, so the parts are what differ."""
    from yatzy_core.engine.bruteforce import brute_force_value
    from yatzy_core.engine.table_solver import Operator
    from yatzy_core.engine.turn import MEAN_LANES
    objective = _PointsWithoutUpperBonus()
    op = Operator(objective, widths=lambda space, states: np.ones(len(states), np.int64), multiply=True,
                  dense=True, compiled=False)
    start = float(reference_table(SPACE, op)[SPACE.index(0, 0)])
    without = float(brute_force_value(TINY.with_(name="tiny-no-bonus", upper_bonus=0)))
    all_points = Operator(MEAN_LANES, widths=op.widths, multiply=True, dense=True, compiled=False)
    optimum = float(reference_table(SPACE, all_points)[SPACE.index(0, 0)])
    assert round(start, 10) == round(without, 10)
    assert round(optimum, 10) == round(float(brute_force_value(TINY)), 10)
    assert (round(start, 4), round(optimum, 4)) == (21.9748, 25.7815)
