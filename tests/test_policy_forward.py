"""The compiled forward pass of any policy (engine/compiled/policy_turn.py, policy_forward.py)
checked against independent numbers on the small game TINY: the target policy hits every goal
with the target table's probability, the mean policy gives today's distribution, the risk
policy gives back its certainty equivalent, and choices equally likely are ordered by the mean."""
import numpy as np
import pytest

from test_turn import TINY
from yatzy_core.engine.bruteforce import brute_force_value
from yatzy_core.engine.compiled.policy_turn import PolicyTables
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives.distribution import score_distribution
from yatzy_core.objectives.policy_play import policy_play, policy_tables, risk_play, target_play
from yatzy_core.objectives.risk import risk_table, solve_risk  # noqa: F401
from yatzy_core.objectives.targets import max_total, solve_targets

N = 45


@pytest.fixture(scope="module")
def tiny():
    return solve_targets(TINY, N)


@pytest.fixture(scope="module")
def mean_pmf():
    return score_distribution(TINY, use_cache=False).probabilities


def test_the_target_policy_reaches_every_goal_with_the_tables_probability(tiny):
    for goal in range(0, max_total(TINY) + 2):
        d = target_play(tiny, goal).distribution
        assert d.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
        # choices within TIE = 1e-9 of the best count as equally likely, then the mean decides
        assert d.p_at_least(goal) == pytest.approx(tiny.p_at_least(goal), abs=1e-9), goal
        assert d.mean <= float(brute_force_value(TINY)) + 1e-12


def test_the_mean_policy_through_the_new_path_is_todays_distribution(mean_pmf):
    play = policy_play(StateSpace(TINY), policy_tables(StateSpace(TINY), points=True))
    d = play.distribution.probabilities
    assert len(d) == len(mean_pmf) and np.abs(d - mean_pmf).max() < 1e-12
    assert play.box_expectations["total"] == pytest.approx(float(brute_force_value(TINY)), abs=1e-12)


def test_the_default_policy_tables_are_the_mean_policy(mean_pmf):
    """No arguments: the max-mean values with the points scored now (not mean[next] alone)."""
    play = policy_play(StateSpace(TINY), policy_tables(StateSpace(TINY)))
    assert np.abs(play.distribution.probabilities - mean_pmf).max() < 1e-12
    assert play.box_expectations["total"] == pytest.approx(float(brute_force_value(TINY)), abs=1e-12)


@pytest.mark.parametrize("goal", [0, 39, 45])
def test_a_goal_met_or_out_of_reach_plays_for_the_mean(tiny, goal, mean_pmf):
    """Every choice is equally likely to reach it (1 or 0): the tie rule orders them by the mean."""
    d = target_play(tiny, goal).distribution.probabilities
    assert np.abs(d - mean_pmf).max() < 1e-12


@pytest.mark.parametrize("theta", [-0.5, -0.15, -0.01, 0.01, 0.1, 0.4])
def test_the_risk_policy_gives_back_its_certainty_equivalent(theta):
    table = risk_table(TINY, theta, use_cache=False)
    u = table.utilities
    d = risk_play(table).distribution.probabilities
    x = np.arange(len(d))
    assert np.log(d @ np.exp(theta * x)) / theta == pytest.approx(np.log(np.sign(theta) * u[0]) / theta, abs=1e-9)


def test_a_goal_above_the_table_is_refused(tiny):
    with pytest.raises(ValueError, match="goal"):
        target_play(tiny, N + 1)


@pytest.mark.parametrize("name", ["three-dice", "two-dice", "two-dice-forced", "four-dice"])
def test_the_mean_policy_matches_todays_distribution_on_tiny_rule_files(name):
    """Upper bonus, Yahtzee bonus without joker, forced order, three faces: the new path's
    scoring of every (roll, box) is `turn.score_box`'s."""
    from test_tiny_rule_files import GAMES
    rules = GAMES[name]
    d = policy_play(StateSpace(rules), policy_tables(StateSpace(rules), points=True)).distribution.probabilities
    ref = score_distribution(rules, use_cache=False).probabilities
    assert len(d) == len(ref) and np.abs(d - ref).max() < 1e-12


@pytest.mark.parametrize("goal", [10, 20, 30])
def test_from_a_position_the_target_policy_reaches_its_tables_value(tiny, goal):
    """From a card with ones scored (2 points) at the start of a turn: P(final >= goal) is
    V(state, goal - 2), and the final scores start at 2."""
    space = tiny.space
    state = int(space.index(1, 2, 0))                 # ones used, upper total 2
    d = target_play(tiny, goal, start=([state], [2], [1.0])).distribution
    assert d.probabilities[:2].sum() == 0 and d.probabilities.sum() == pytest.approx(1.0, abs=1e-12)
    assert d.p_at_least(goal) == pytest.approx(float(tiny.vector(state)[goal - 2]), abs=1e-9)


def test_the_pass_is_the_same_one_state_at_a_time(tiny, monkeypatch):
    """Outcome buffers reused chunk after chunk (here one state per chunk, the pools grown to
    fit) give the pmf of one chunk per layer."""
    from yatzy_core.engine.compiled import policy_forward
    whole = target_play(tiny, 30).distribution.probabilities
    monkeypatch.setattr(policy_forward, "CHUNK_BYTES", 8)
    d = target_play(tiny, 30).distribution.probabilities
    assert len(d) == len(whole) and np.abs(d - whole).max() < 1e-15


@pytest.mark.parametrize("tied_lanes", [0, 5])
def test_the_tie_walk_of_eight_lanes_is_the_rule_written_plainly(tied_lanes):
    """policy_lanes._tie_keeper (one walk when every lane has a single keeper at the floor, a
    second when one has more) against the rule: the keepers at the floor, the best mean among
    them, the first in preference order within TIE of it. Lanes with coarse values tie often."""
    from yatzy_core.engine.compiled.layout import tables, vectorizing
    from yatzy_core.engine.compiled.policy_lanes import _tie_keeper
    from yatzy_core.engine.turn import TIE
    s, t = tables(TINY)
    rng = np.random.default_rng(tied_lanes)
    n_keepers, n_rolls = t.add_die.shape[0], t.score.shape[0]
    k1, k2 = rng.random((n_keepers, 8)), rng.random((n_keepers, 8))
    k1[:, :tied_lanes] = rng.integers(0, 3, (n_keepers, tied_lanes)) / 2
    k2[:, :tied_lanes] = rng.integers(0, 3, (n_keepers, tied_lanes)) * 1.0
    floor = np.empty((n_rolls, 8))
    choice = np.zeros((n_rolls, 8), np.int64)
    ties = 0
    for r in range(n_rolls):
        keepers = t.pref_keeper[t.pref_start[r]:t.pref_start[r + 1]]
        floor[r] = k1[keepers].max(axis=0) - TIE
        with vectorizing():     # as the passes compile it: the numba cache keeps the first build
            _tie_keeper(k1, k2, floor, r, t.pref_keeper, t.pref_start, choice)
        for v in range(8):
            good = [k for k in keepers if k1[k, v] >= floor[r, v]]
            ties += len(good) > 1
            best = max(k2[k, v] for k in good)
            assert choice[r, v] == next(k for k in good if k2[k, v] >= best - TIE)
    assert (ties > 0) == (tied_lanes > 0)


@pytest.mark.parametrize("mode", [1, 2])
def test_the_last_roll_of_eight_lanes_is_the_rule_written_plainly(mode):
    """policy_lanes.last_roll8 (lanes as scalars, the box as a float) against the rule: among
    the allowed open boxes, those within TIE of the best primary value (for risk, its certainty
    equivalent: the product with K), the best mean among them, the first box in card order
    within TIE of it. Coarse values in half the lanes make ties; a box left out is never chosen."""
    from yatzy_core.engine.compiled.layout import vectorizing
    from yatzy_core.engine.compiled.policy_lanes import last_roll8
    from yatzy_core.engine.turn import TIE
    rng = np.random.default_rng(mode)
    n_rolls, n_boxes, n_slots = 30, 6, 40
    slot_of = rng.integers(0, n_slots, (n_rolls, n_boxes))
    alw = rng.random((n_rolls, n_boxes)) < 0.8
    alw[:, 1] = True
    boxes = np.array([0, 1, 3, 4, 5])                   # box 2 closed
    p1, m = rng.random((n_slots, 8)), rng.random((n_slots, 8)) * 10
    p1[:, :4] = rng.integers(0, 3, (n_slots, 4)) / 2
    m[:, :4] = rng.integers(0, 3, (n_slots, 4)) * 1.0
    sign = 1.0 if mode == 1 else -1.0
    p1 *= sign
    K = 1.0 if mode == 1 else float(np.exp(0.1 * TIE))
    pt = PolicyTables(*[np.zeros(1)] * 7, np.array([1.0, TIE] if mode == 1 else [K, 0.0]), np.zeros(1, np.int64),
                      *[np.zeros(1, np.int64)] * 3)
    e1, e2, box = np.zeros((n_rolls, 8)), np.zeros((n_rolls, 8)), np.zeros((n_rolls, 8), np.int64)
    with vectorizing():         # as the passes compile it: the numba cache keeps the first build
        last_roll8(alw, slot_of, boxes, p1, m, pt, K, e1, e2, box)
    ties = 0
    for r in range(n_rolls):
        for v in range(8):
            open_ = [b for b in boxes if alw[r, b]]
            top = max(p1[slot_of[r, b], v] for b in open_)
            floor = top - TIE if mode == 1 else top * K
            good = [b for b in open_ if p1[slot_of[r, b], v] >= floor]
            ties += len(good) > 1
            best = max(m[slot_of[r, b], v] for b in good)
            chosen = next(b for b in good if m[slot_of[r, b], v] >= best - TIE)
            assert box[r, v] == chosen
            assert (e1[r, v], e2[r, v]) == (p1[slot_of[r, chosen], v], m[slot_of[r, chosen], v])
    assert ties > 0


@pytest.mark.parametrize("objective", ["target", "risk"])
def test_a_missing_next_row_is_an_error_not_lost_mass(tiny, monkeypatch, objective):
    """A next state without a row (a fault: the pass allocates every reachable one) stops the
    pass with a ValueError whichever thread meets it, instead of dropping the mass sent there
    (an exception raised in a worker thread of a parallel loop is lost)."""
    from yatzy_core.engine.compiled import policy_forward
    push_layer = policy_forward._push_layer

    def without_a_row(rows, where, nxt, *rest):
        where[nxt.states] = -1                      # every next row gone: each part meets one
        return push_layer(rows, where, nxt, *rest)

    monkeypatch.setattr(policy_forward, "_push_layer", without_a_row)
    with pytest.raises(ValueError, match="has no row"):
        if objective == "target":
            target_play(tiny, 30)
        else:
            risk_play(risk_table(TINY, 0.05, use_cache=False))
