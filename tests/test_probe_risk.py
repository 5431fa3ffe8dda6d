"""The hostile-input probe's risk and goal findings: risk choices ranked on the certainty-equivalent
scale, theta bounded by the rules' points, unreachable goals answered at once from no table,
one target table per rule set, and negative numbers as flag values.

The reference values are computed here, independently of the solver: a float64 backward
induction over ordered dice (the referee's `moves`, no keepers, no state space, no kernel)."""
import json
import math
from functools import lru_cache
from itertools import product

import numpy as np
import pytest

from test_turn import TINY
from yatzy_core.objectives import tables as goals
from yatzy_core.objectives import targets as targets_module
from yatzy_core.engine.position import Position
from yatzy_core.engine.bruteforce import moves, normal_scores, rerolls
from yatzy_core.engine.cache import cache_path
from yatzy_core.cli.command import main
from yatzy_core.objectives.policy_play import risk_distribution
from yatzy_core.advice.objective_advice import target_advice, risk_advice
from yatzy_core.game.rulefile import load
from yatzy_core.game.rules import Rules, get_rules
from yatzy_core.objectives.distribution import score_distribution
from yatzy_core.objectives.midgame import (position_distribution, risk_position_distribution,
                                           target_position_distribution)
from yatzy_core.objectives.risk import RiskTable, check_theta, risk_table, solve_risk
from yatzy_core.objectives.targets import max_total, solve_targets, target_table

THETAS = [-3.0, -1.0, -0.4, -0.1, -1e-3, 1e-6, 1e-3, 0.1, 0.4, 1.0, 3.0]   # TINY allows |theta| <= 18
LATE = ["advise", "--rules", "yahtzee-no-bonus", "--dice", "12345", "--rolls-left", "0", "--upper", "40",
        "--used", "ones,twos,threes,fours,fives,sixes,three_of_a_kind,four_of_a_kind,full_house,"
                  "small_straight,yahtzee"]


def exact_utilities(rules, thetas) -> np.ndarray:
    """Best E[sign(theta) exp(theta X)] from the empty card, X the points to come, for each
    theta at once: float64 backward induction over ordered dice, every reroll subset."""
    th = np.asarray(thetas, dtype=np.float64)
    n, faces, full = rules.n_dice, rules.faces, (1 << len(rules.boxes)) - 1
    rolls = list(product(range(1, faces + 1), repeat=n))
    choices = {d: rerolls(d, faces) for d in rolls}
    scores = {d: normal_scores(rules, d) for d in rolls}

    @lru_cache(maxsize=None)
    def value(state):
        if state[0] == full:
            return np.sign(th)
        now = {d: np.max([np.exp(th * p) * value(after) for p, after in moves(rules, d, scores[d], state)], axis=0)
               for d in rolls}
        for _ in range(rules.rolls_per_turn - 1):
            now = {d: np.max([now[d]] + [np.mean([now[o] for o in outs], axis=0) for _, outs in choices[d]], axis=0)
                   for d in rolls}
        return np.mean([now[d] for d in rolls], axis=0)
    return value((0, 0, 0))


@pytest.fixture(scope="module")
def exact_ce():
    u = exact_utilities(TINY, THETAS)
    return dict(zip(THETAS, np.log(np.sign(THETAS) * u) / np.array(THETAS)))


@pytest.mark.parametrize("theta", THETAS)
def test_the_risk_policy_reaches_the_exact_certainty_equivalent(theta, exact_ce):
    """The policy played forwards (its choices by the tie rule) is as good as the optimum: before,
    choices whose utilities were within 1e-9 of each other counted as tied, whatever their CE."""
    u = solve_risk(TINY, [theta])[:, 0]
    assert math.log(np.sign(theta) * u[0]) / theta == pytest.approx(exact_ce[theta], abs=1e-7)
    d = risk_distribution(RiskTable(TINY, theta, u))
    policy = math.log(d @ np.exp(theta * np.arange(len(d)))) / theta    # log E[exp(theta X)] / theta
    assert policy == pytest.approx(exact_ce[theta], abs=1e-7)


@pytest.fixture(scope="module")
def yahtzee_utilities():
    return solve_risk("yahtzee", [-0.4, -0.1, 0.4])   # one pass, three lanes


@pytest.mark.parametrize("lane, theta", [(0, -0.4), (1, -0.1), (2, 0.4)])
def test_the_probes_position_is_ranked_by_certainty_equivalent(lane, theta, yahtzee_utilities):
    p = Position.make("yahtzee", dice="11112", rolls_left=2)
    ranked = risk_advice(p, theta, RiskTable(get_rules("yahtzee"), theta, yahtzee_utilities[:, lane]))
    ce = [a.certainty_equivalent for a in ranked]
    assert all(b <= a + 1e-9 for a, b in zip(ce, ce[1:])), list(zip([a.label for a in ranked], ce))[:5]
    assert ranked[0].label == "keep 1 1 1 1"


def test_a_late_cautious_position_is_ranked_by_certainty_equivalent():
    """Five boxes open, theta -0.4: every utility is below 1e-9, so the old ranking was the tie rule's."""
    rules = get_rules("yahtzee")
    used = set(rules.box_names) - {"ones", "twos", "chance", "full_house", "small_straight"}
    p = Position.make(rules, used=used, dice="11112", rolls_left=2)
    ce = [a.certainty_equivalent for a in risk_advice(p, -0.4)]
    assert all(b <= a + 1e-9 for a, b in zip(ce, ce[1:])) and max(ce) - min(ce) > 0.5


def test_the_most_total_and_the_theta_range():
    assert max_total(get_rules("yahtzee")) == 105 + 35 + (30 + 30 + 25 + 30 + 40 + 50 + 30) + 12 * 100
    assert max_total(get_rules("yahtzee-no-bonus")) == 375
    assert check_theta(-0.44, get_rules("yahtzee")) == -0.44
    for bad in (0.45, -0.45, 1e-11, -1e-320, 5e-324, 0.0, float("nan"), float("inf"), True, "0.1"):
        with pytest.raises(ValueError, match=r"theta .*0\.4444"):
            check_theta(bad, get_rules("yahtzee"))


@pytest.fixture
def big_points(tmp_path):
    """Two dice, a pair worth 10,000 and chance: at most 10,012 points."""
    path = tmp_path / "big.toml"
    path.write_text('n_dice = 2\nupper_bonus = 0\n[[boxes]]\nname = "doubles"\nscorer = "all_same"\n'
                    'points = 10000\n[[boxes]]\nname = "chance"\nscorer = "chance"\n')
    return path


def test_a_rule_files_points_bound_theta(big_points):
    rules = load(big_points)
    p = Position.make(rules, used={"chance"}, dice="11", rolls_left=0)
    for bad in (5.0, -0.4, 0.071):     # 700 / 10,012 = 0.0699
        with pytest.raises(ValueError, match="theta"):
            risk_advice(p, bad)
    for theta in (0.069, -0.069):      # a sure 10,000: its certainty equivalent is 10,000
        assert [a.certainty_equivalent for a in risk_advice(p, theta)] == pytest.approx([10000.0], abs=1e-6)


def test_the_command_line_refuses_theta_past_a_rule_files_range(capsys, big_points):
    status = main(["advise", "--rules-file", str(big_points), "--dice", "11", "--rolls-left", "0",
                   "--used", "chance", "--risk", "0.4", "--json"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("yatzy: error: argument --risk: theta") and "0.06992" in err


@pytest.mark.parametrize("value", ["-1e-320", "5e-324", "1e-11", "-1e-17", "-inf", "-nan", "1.9"])
def test_theta_out_of_range_is_one_line_naming_risk(capsys, value):
    status = main(LATE + ["--risk", value, "--json"])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("yatzy: error: argument --risk: theta must be")


@pytest.mark.parametrize("value", ["-1e-3", "-.05", "-1E-2", "-0.5"])
def test_negative_numbers_are_values(capsys, value):
    status = main(LATE + ["--risk", value, "--json"])
    out, _ = capsys.readouterr()
    rows = json.loads(out)          # strict JSON: Infinity or NaN would not parse
    assert status == 0 and rows[0]["box"] == "large_straight"
    assert all(math.isfinite(r["certainty_equivalent"]) for r in rows)


def test_negative_whole_numbers_are_still_refused_by_the_flag(capsys):
    status = main(LATE + ["--goal", "-1e3"])
    _, err = capsys.readouterr()
    assert status == 2 and "argument --goal: invalid int value: '-1e3'" in err


def _no_solving(monkeypatch):
    fail = lambda *a, **k: pytest.fail("a table was solved or read")  # noqa: E731
    for name in ("solve_targets", "target_table", "targets_for", "cached_caps"):
        monkeypatch.setattr(goals, name, fail)


@pytest.mark.parametrize("goal", [1576, 2000, 10 ** 9])
def test_a_goal_past_the_most_points_is_answered_at_once(monkeypatch, goal):
    _no_solving(monkeypatch)
    p = Position.make("yahtzee", dice="11112", rolls_left=2)
    answer = target_advice(p, 0, goal)                  # (no table solved: _no_solving)
    assert {a.probability for a in answer} == {0.0}
    from yatzy_core.advice.advisor import advise
    assert [a.label for a in answer] == [a.label for a in advise(p)]   # all tied: the mean's order
    assert answer[0].label == "keep 1 1 1 1"


def test_a_late_goal_past_the_open_boxes_is_zero_for_every_allowed_box(monkeypatch):
    _no_solving(monkeypatch)
    rules = get_rules("yahtzee-no-bonus")
    p = Position.make(rules, used=set(rules.box_names) - {"chance", "ones"}, upper_total=63,
                      dice="11111", rolls_left=0)
    answer = target_advice(p, 200, 200 + 30 + 5 + 1)     # chance 30 and ones 5 at most
    assert [(a.box, a.probability) for a in answer] == [("ones", 0.0), ("chance", 0.0)]


def test_the_command_line_answers_goal_2000_at_once(capsys, monkeypatch):
    _no_solving(monkeypatch)
    status = main(["advise", "--rules", "yahtzee", "--dice", "11112", "--rolls-left", "2", "--goal", "2000",
                   "--json"])
    out, _ = capsys.readouterr()
    assert status == 0
    assert {r["probability"] for r in json.loads(out)} == {0.0}


def test_every_goal_shares_one_cached_table(tmp_path, monkeypatch):
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    first = target_table(TINY, 10)
    files = sorted(p.name for p in tmp_path.rglob("*targets*"))
    solved = []
    monkeypatch.setattr(targets_module, "solve_targets", lambda *a, **k: solved.append(a) or pytest.fail("solved"))
    for goal in (20, 38, 39, 2000, 10 ** 9):
        table = target_table(TINY, goal)
        assert table.n_max == first.n_max == 38          # TINY's most: 2 + 4 + 10 + 12 + bonus 10
        assert table.p_at_least(goal) == pytest.approx(float(first.vector(0)[goal]) if goal <= 38 else 0.0)
    assert sorted(p.name for p in tmp_path.rglob("*targets*")) == files and len(files) == 1
    assert cache_path(TINY, "targets-38-float32").exists()


# ---- the goal and risk entry points: a bad argument is a TypeError or ValueError naming it ------

TINY_POSITION = Position.make(TINY, dice="12", rolls_left=1)
TINY_U = risk_table(TINY, 0.1, use_cache=False)          # a table for theta > 0: +1 at the full card


@pytest.mark.parametrize("call_, error, named", [
    (lambda p: target_advice("x", 0, 35), TypeError, "position must be a Position"),
    (lambda p: target_advice(p, 0, 35, targets="x"), TypeError, "targets must be a target table"),
    (lambda p: target_advice(p, 0, 3, targets=solve_targets("yahtzee-no-bonus", 5, within=(1 << 13) - 2)),
     ValueError, "targets are for rules 'yahtzee-no-bonus'"),
    (lambda p: risk_advice("x", 0.1), TypeError, "position must be a Position"),
    (lambda p: risk_advice(p, 0.1, [1, 2]), TypeError, "table must be a RiskTable"),
    (lambda p: risk_advice(p, 0.1, TINY_U.utilities), TypeError, "table must be a RiskTable"),
    (lambda p: RiskTable(TINY, 0.1, np.zeros(3)), ValueError, "utilities must be one finite float64 per state"),
    (lambda p: RiskTable(TINY, 0.1, "x"), ValueError, "utilities must be one finite float64 per state"),
    (lambda p: RiskTable(TINY, 0.1, np.full(len(TINY_U.utilities), np.nan)), ValueError, "utilities must be one finite"),
    (lambda p: risk_advice(p, -0.1, TINY_U), ValueError, "the risk table is for 'tiny' and theta=0.1"),
    (lambda p: RiskTable(TINY, 0.1, np.zeros(len(TINY_U.utilities))), ValueError, "utilities are not a table"),
    (lambda p: RiskTable(TINY, -0.1, TINY_U.utilities), ValueError, "utilities are not a table for theta=-0.1"),
    (lambda p: risk_position_distribution(p, TINY_U.utilities), TypeError, "table must be a RiskTable"),
    (lambda p: risk_distribution(TINY_U.utilities), TypeError, "table must be a RiskTable"),
    (lambda p: position_distribution(p, "x"), TypeError, "solution must be a Solution"),
    (lambda p: target_position_distribution(p, "x", 35), TypeError, "targets must be a target table"),
    (lambda p: score_distribution(TINY, solution="x", use_cache=False), TypeError, "solution must be a Solution"),
    (lambda p: solve_risk(TINY, []), ValueError, "thetas must hold at least one"),
    (lambda p: solve_risk(TINY, [0.1], within=1 << 4), ValueError, "within must be a mask of used boxes 0..15"),
    (lambda p: solve_targets(TINY, 10, within="x"), ValueError, "within must be a whole number"),
    (lambda p: solve_targets(TINY, 10, within=-1), ValueError, "within must be a whole number >= 0, got -1"),
    (lambda p: solve_targets(TINY, 10, within=10 ** 6), ValueError, "within must be a mask"),
])
def test_bad_goal_and_risk_arguments_are_named(call_, error, named):
    with pytest.raises(error, match=named):
        call_(TINY_POSITION)


def test_a_utility_table_of_the_right_sign_is_still_taken():
    negative = RiskTable(TINY, -0.1, solve_risk(TINY, [-0.1])[:, 0])
    assert risk_advice(TINY_POSITION, -0.1, negative) == risk_advice(TINY_POSITION, -0.1)
    assert solve_risk(TINY, [0.1], within=(1 << 4) - 1)[0, 0] == 0      # the full card only: no start value
