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
