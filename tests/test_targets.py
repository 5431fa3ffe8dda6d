"""The target solver (targets.py, target_kernel.py) against the turn engine and the Fraction
brute force, the exponential utility pass, and the proofs of issue 10: the target policy
reaches every target at least as often as max-mean play, and simulated games of it hit the
target as often as computed."""
from fractions import Fraction

import numpy as np
import pytest

from test_turn import TINY, solve_with
from yatzy_core.engine.bruteforce import brute_force_at_least, brute_force_value
from yatzy_core.objectives.distribution import score_distribution
from yatzy_core.advice.objective_advice import play_to_target
from yatzy_core.objectives.policy_play import second_player
from yatzy_core.objectives import risk as risk_module
from yatzy_core.game.rules import get_rules
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives import targets as targets_module
from yatzy_core.engine.cache import cache_path
from yatzy_core.objectives.risk import certainty_equivalent, risk_table, solve_risk
from yatzy_core.objectives.targets import bands, solve_targets
from yatzy_core.engine.turn import MEAN_LANES, TargetLanes, ExpUtility, turn_values

N = 45   # past TINY's most points (2 + 4 + 10 + 12 + bonus 10 = 38)


@pytest.fixture(scope="module")
def tiny():
    return solve_targets(TINY, N)


def test_every_state_and_target_matches_the_turn_engine(tiny):
    space, values = solve_with(TINY, TargetLanes(N + 1))
    reach = np.flatnonzero(space.reachable)
    assert np.abs(tiny[reach] - values[reach]).max() < 1e-14
    assert tiny.p_at_least(39) == 0.0 < tiny.p_at_least(38) and tiny.p_at_least(0) == 1.0


@pytest.mark.parametrize("target", [12, 20, 26, 32, 38])
def test_the_start_matches_the_exact_brute_force(tiny, target):
    exact = brute_force_at_least(TINY, target)
    assert tiny.p_at_least(target) == pytest.approx(float(exact), abs=1e-14)
    assert 0 < exact < 1


def test_a_target_between_whole_points_is_the_next_whole_one(tiny):
    exact = float(brute_force_at_least(TINY, 26))
    assert tiny.p_at_least(25.5) == tiny.p_at_least(26) == pytest.approx(exact, abs=1e-14)
    assert tiny.p_at_least(25.5) < tiny.p_at_least(25) and tiny.p_at_least(38.5) == 0.0
    for bad in ("26", float("nan"), None, True):
        with pytest.raises(ValueError, match="target must be a finite number"):
            tiny.p_at_least(bad)


def test_brute_force_targets_are_the_distribution_of_a_sure_thing():
    assert brute_force_at_least(TINY, 0) == 1 and brute_force_at_least(TINY, 39) == 0
    assert brute_force_at_least(TINY, 2) == 1     # chance alone gives 2 at least


def numpy_targets(rules, n_max, within):
    """The same table by the readable turn engine on the states of a subgame."""
    space = StateSpace(rules)
    values = np.zeros((space.size, n_max + 1))
    values[:, 0] = 1
    states = []
    for k in reversed(range(rules.n_boxes)):
        layer = space.layer(k)
        layer = layer[(space.decode(layer)[0] & within) == within]
        if len(layer):
            values[layer] = turn_values(space, values, layer, TargetLanes(n_max + 1))
            states.append(layer)
    return values, np.concatenate(states)


@pytest.mark.parametrize("name, open_boxes", [
    ("yahtzee", ("threes", "full_house", "chance")),        # Yahtzee box used: bonus and joker
    ("yahtzee", ("yahtzee", "sixes", "small_straight")),
    ("yatzy", ("fives", "two_pairs", "yatzy")),
    ("forced-yatzy", ("full_house", "chance", "yatzy")),    # forced order
])
def test_real_subgames_match_the_turn_engine(name, open_boxes):
    rules = get_rules(name)
    within = (1 << rules.n_boxes) - 1 - sum(1 << rules.box_index(b) for b in open_boxes)
    fast = solve_targets(rules, 160, within=within)
    values, states = numpy_targets(rules, 160, within)
    assert np.abs(fast[states] - values[states]).max() < 1e-13
    assert (fast.band[states] <= 160).all()


def test_bands_skip_only_impossible_targets():
    space = StateSpace(get_rules("yahtzee-no-bonus"))
    last = space.index((1 << 13) - 1 - (1 << space.rules.box_index("chance")), 0)
    assert bands(space, 375, [last, space.index(0, 0)]).tolist() == [30, 375]


def test_float32_tables_agree_to_a_millionth():
    rules = get_rules("yahtzee")
    within = (1 << 13) - 1 - sum(1 << rules.box_index(b) for b in ("ones", "yahtzee", "chance"))
    a, b = (solve_targets(rules, 120, within=within, dtype=d) for d in (np.float64, np.float32))
    assert b.data.dtype == np.float32 and np.abs(a.data - b.data).max() < 1e-6


@pytest.mark.parametrize("theta", [0.2, -0.2, 0.05])
def test_exponential_utility_matches_the_turn_engine(theta):
    space, want = solve_with(TINY, ExpUtility(theta))
    got = solve_risk(TINY, [theta, 1.0])
    reach = np.flatnonzero(space.reachable)
    assert np.abs(got[reach, 0] - want[reach]).max() < 1e-12 * np.abs(want[reach]).max()


def test_a_tiny_theta_gives_back_the_mean():
    mean = float(brute_force_value(TINY))
    u = solve_risk(TINY, [1e-7, -1e-7, 0.3, -0.3])[0]
    ce = certainty_equivalent(u, np.array([1e-7, -1e-7, 0.3, -0.3]))
    assert ce[:2] == pytest.approx([mean, mean], abs=1e-5)
    assert ce[2] > mean > ce[3]               # bold above the mean, cautious below
    with pytest.raises(ValueError, match="theta"):
        solve_risk(TINY, [0.0])


def test_risk_tables_are_cached_per_theta(tmp_path, monkeypatch):
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    want = solve_risk(TINY, [-0.2])[:, 0]
    assert np.array_equal(risk_table(TINY, -0.2).utilities, want)
    assert cache_path(TINY, "risk-bfc999999999999a").exists()                # -0.2's float64 bits
    assert not cache_path(TINY, "risk-3fc999999999999a").exists()            # +0.2's
    monkeypatch.setattr(risk_module, "solve_risk", lambda *a, **k: pytest.fail("solved again"))
    assert np.array_equal(risk_table(TINY, -0.2).utilities, want)                  # read back, not solved
    for bad in (0, float("nan"), True, "0.1"):
        with pytest.raises(ValueError, match="theta"):
            risk_table(TINY, bad)


def test_the_target_policy_beats_max_mean_at_every_target(tiny):
    dist = score_distribution(TINY, use_cache=False)
    mean_p = np.array([dist.p_at_least(t) for t in range(N + 1)])
    best = tiny.vector(0)
    assert (best >= mean_p - 1e-12).all()
    assert (best > mean_p + 1e-3).sum() >= 5     # and strictly better at several


def test_simulated_games_hit_the_target_as_computed(tiny, goal=24):
    rng = np.random.default_rng(goal)
    games = 2000
    hits = sum(play_to_target(tiny, goal, rng) >= goal for _ in range(games))
    p = tiny.p_at_least(goal)
    assert abs(hits / games - p) <= 3 * np.sqrt(p * (1 - p) / games), (hits, p)


def test_two_players_on_a_tiny_game(tiny):
    dist = score_distribution(TINY, use_cache=False).probabilities
    mean = second_player(dist, None, dist)
    beat = second_player(dist, tiny)
    assert sum(mean.values()) == pytest.approx(1.0)
    assert mean["second wins"] == pytest.approx(mean["first wins"])   # the same play: symmetric
    assert beat["second wins"] > mean["second wins"] + 0.01
    assert beat["second wins"] == pytest.approx(sum(p * tiny.p_at_least(x + 1) for x, p in enumerate(dist)))


def test_the_beat_policy_ties_as_its_forward_distribution_says(tiny):
    """W(start, S + 1) - V(start, S + 1) is P(final = S) of the policy playing to beat S: checked
    against that policy's exact distribution (a forward pass, an independent computation)."""
    from yatzy_core.objectives.policy_play import target_distribution, tie_table
    W = tie_table(tiny)
    start = tiny.vector(0)
    for S in (11, 20, 25, 30, 37):
        d = target_distribution(tiny, S + 1)
        assert W[0, S + 1] - start[S + 1] == pytest.approx(d[S], abs=1e-12)
        assert start[S + 1] == pytest.approx(d[S + 1:].sum(), abs=1e-12)
    dist = score_distribution(TINY, use_cache=False).probabilities
    beat = second_player(dist, tiny, ties=W[0])
    assert beat["tie"] == pytest.approx(sum(p * target_distribution(tiny, x + 1)[x]
                                            for x, p in enumerate(dist) if p > 0), abs=1e-10)
    assert beat["second wins"] == pytest.approx(second_player(dist, tiny)["second wins"])


def test_the_tie_table_is_the_forward_passs_tail_with_jokers_and_both_bonuses():
    """W(start, S + 1) is P(final >= S) playing for S + 1: the backward carry of W
    (`policy_ties`) against the forward pass's pmf (`policy_forward`), both along the same
    choices, on a Yahtzee game of four boxes (forced jokers, Yahtzee bonus 100, upper bonus 35
    at 20)."""
    from yatzy_core.objectives.policy_play import target_distribution, tie_table
    y = get_rules("yahtzee")
    box = dict(zip(y.box_names, y.boxes))
    small = y.with_(name="fives-sixes-yahtzee-chance", upper_bonus_threshold=20,
                    boxes=(box["fives"], box["sixes"], box["yahtzee"], box["chance"]))
    t = solve_targets(small, 300)
    W = tie_table(t)
    assert W.shape == (672, 301) and W[0, :2] == pytest.approx([1.0, 1.0], abs=1e-14)
    for S in (40, 75, 110, 160, 240):
        d = target_distribution(t, S + 1)
        assert W[0, S + 1] == pytest.approx(d[S:].sum(), abs=1e-14)
    assert W[0, 111] == pytest.approx(0.1433948190285185, abs=1e-14)   # P(final >= 110) playing for 111


@pytest.mark.parametrize("name, threshold", [("yahtzee-verhoeff", 20), ("yatzy", 20)])
def test_the_tie_table_is_the_forward_passs_tail_with_free_jokers_or_no_yahtzee_bonus(name, threshold):
    """The same identity on five boxes of a rule set with free jokers (any box takes n of a
    kind once the Yahtzee box is used; Yahtzee bonus 100) and of one with an upper bonus but no
    Yahtzee bonus or jokers (Yatzy: 50 at the threshold)."""
    from yatzy_core.objectives.policy_play import target_distribution, tie_table
    rules = get_rules(name)
    box = dict(zip(rules.box_names, rules.boxes))
    kind = "yahtzee" if "yahtzee" in box else "yatzy"
    small = rules.with_(name=f"five-boxes-{name}", upper_bonus_threshold=threshold,
                        boxes=tuple(box[b] for b in ("fives", "sixes", "full_house", kind, "chance")))
    t = solve_targets(small, 260)
    W = tie_table(t)
    assert W[0, :2] == pytest.approx([1.0, 1.0], abs=1e-14)
    for S in (30, 70, 100, 130, 180, 210):
        d = target_distribution(t, S + 1)
        assert W[0, S + 1] == pytest.approx(d[S:].sum(), abs=1e-14)
        assert W[0, S + 1] - t.p_at_least(S + 1) == pytest.approx(d[S], abs=1e-9)   # the tie: exactly S


@pytest.mark.parametrize("goal", [14, 26, 33])
def test_the_target_policy_played_forwards_reaches_the_computed_probability(tiny, goal):
    """The exact distribution of the policy (policy_play) hits the goal with V(start, goal), and
    gives up mean points for it."""
    from yatzy_core.objectives.policy_play import target_distribution
    d = target_distribution(tiny, goal)
    assert d.sum() == pytest.approx(1.0, abs=1e-12)
    assert d[goal:].sum() == pytest.approx(tiny.p_at_least(goal), abs=1e-9)   # choices within TIE
    assert d @ np.arange(len(d)) <= float(brute_force_value(TINY)) + 1e-12


def test_risk_play_forwards_has_the_utility_it_promised():
    from yatzy_core.objectives.policy_play import risk_distribution
    theta = -0.15
    table = risk_table(TINY, theta, use_cache=False)
    u = table.utilities
    d = risk_distribution(table)
    assert -(d @ np.exp(theta * np.arange(len(d)))) == pytest.approx(u[0], rel=1e-12)


def test_the_committed_target_results_describe_todays_rules():
    """results/targets.json (written by benchmarks/targets.py from whole tables, minutes each)
    is whole, is for today's rule files, and its max-mean column is the exact distribution's."""
    import hashlib
    import json
    from pathlib import Path

    from yatzy_core.engine.cache import rules_fingerprint
    from yatzy_core.objectives.distribution import score_distribution
    record = json.loads((Path(__file__).resolve().parents[1] / "results" / "targets.json").read_text())
    readings = record["readings"]
    assert record["sha256"] == hashlib.sha256(json.dumps(readings, sort_keys=True).encode()).hexdigest()
    for name, reading in readings.items():
        assert reading["fingerprint"] == rules_fingerprint(get_rules(name))
        for t, p in reading["p_at_least"].items():   # playing for T never does worse
            assert p["playing_for_T"] >= p["playing_for_the_mean"] - 1e-6, (name, t)
    exact = score_distribution("yahtzee-no-bonus", progress=False)
    for t, p in readings["yahtzee-no-bonus"]["p_at_least"].items():
        assert p["playing_for_the_mean"] == pytest.approx(exact.p_at_least(int(t)), abs=1e-6)
