"""Issue 36's probe of the solved-table cache and the goals (items 7, 8, 9, 17, 18, 20): a goal's
whole table is cached once and read after; caps come from the rules, never from a file's name; a
file is trusted by its fingerprint and contents, keyed exactly; a position's open-boxes game never
reaches the cache; and points a card cannot hold are refused, naming the most it can."""
import os
import time
import warnings

import numpy as np
import pytest

from test_tiny_rule_files import GAMES, box
from yatzy_core import AtLeast, Beat, Position, advise
from yatzy_core.objectives import tables as tables_module
from yatzy_core.advice.advisor import rest_of_game
from yatzy_core.cli.command import main
from yatzy_core.engine import cache, solutions
from yatzy_core.engine.cache import (CacheWarning, cache_path, get_solution, layout_digest, remove_stale_temporaries,
                                     write_trusted)
from yatzy_core.engine.position import most_points
from yatzy_core.game.rulefile import loads
from yatzy_core.game.rules import get_rules
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives import risk as risk_module
from yatzy_core.objectives import targets as targets_module
from yatzy_core.objectives.midgame import target_position_distribution
from yatzy_core.objectives.risk import risk_table, solve_risk
from yatzy_core.objectives.targets import FORMAT, cached_caps, default_cap, max_total, solve_targets, target_table

# 7 boxes (one more than advice's late positions), 2 dice of 3 faces: 128 turn states
SEVEN = loads('name = "seven"\nn_dice = 2\nfaces = 3\nrolls_per_turn = 2\nupper_bonus = 0\n'
              + box("ones", "upper", face=1) + box("twos", "upper", face=2) + box("threes", "upper", face=3)
              + box("pair", "pairs", count=1) + box("doubles", "all_same", points=8)
              + box("straight", "straight", faces=[2, 3], points=5) + box("chance", "chance"))
THREE = GAMES["three-dice"]     # 4 boxes, an upper bonus


def _fail(what):
    def fail(*args, **kwargs):
        pytest.fail(f"{what} was called")
    return fail


def _files(folder):
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


# ---- item 7: an early goal solves and caches the whole table; a later goal reads it ----------

def test_an_early_goal_caches_the_whole_table_and_a_later_goal_reads_it(private_cache, monkeypatch):
    from yatzy_core.engine import solutions
    monkeypatch.setattr(solutions, "_loaded", {})               # another test's mean table: not here
    start = Position.make(SEVEN, dice="12", rolls_left=1)       # 7 boxes open: not a late position
    exact = solve_targets(SEVEN, max_total(SEVEN))              # float64, not cached
    first = advise(start, objective=AtLeast(20))
    files = sorted([cache_path(SEVEN).name, cache_path(SEVEN, f"targets-{max_total(SEVEN)}-float32").name])
    assert _files(private_cache) == files                      # the mean's table (ties) and the goals'
    monkeypatch.setattr(targets_module, "solve_targets", _fail("solve_targets"))
    monkeypatch.setattr(tables_module, "solve_targets", _fail("solve_targets"))
    monkeypatch.setattr(targets_module, "_LAST_READ", {})       # read from the file, not from memory
    again = advise(start, objective=AtLeast(20))
    assert [(a.label, a.probability) for a in again] == [(a.label, a.probability) for a in first]
    later = advise(start, objective=Beat(20))                   # another goal: the same table
    p_keep = {a.label: a.probability for a in later}
    assert _files(private_cache) == files
    for a in first:       # float32 tables: the float64 solve's numbers to a millionth
        assert a.probability == pytest.approx(float(_p(exact, start, a, 20)), abs=1e-6)
    for a in later:
        assert p_keep[a.label] == pytest.approx(float(_p(exact, start, a, 21)), abs=1e-6)


def _p(exact, position, advice, goal):
    """P(final >= goal) of one advised choice, from the float64 table by the turn engine."""
    from yatzy_core.engine.turn import TargetLanes, box_values, evaluate
    from yatzy_core.objectives.midgame import mean_turn
    from yatzy_core.advice.ranking import choices
    space = exact.space
    state = np.array([position.state(space)])
    turn = evaluate(space, box_values(space, exact, state, TargetLanes(exact.n_max + 1)), choose=False)
    ranked = choices(position, turn, lambda a: a[..., goal], "probability", mean_turn(space, int(state[0])))
    return {a.label: a.probability for a in ranked}[advice.label]


def test_no_cache_goal_advice_neither_reads_nor_writes(private_cache):
    """Nothing kept: the open boxes' table is solved in float64, as exact as the whole game's."""
    start = Position.make(SEVEN, dice="12", rolls_left=1)
    ranked = advise(start, use_cache=False, objective=AtLeast(20))
    assert _files(private_cache) == []
    exact = solve_targets(SEVEN, max_total(SEVEN))
    for a in ranked:
        assert a.probability == pytest.approx(float(_p(exact, start, a, 20)), abs=1e-12)


# ---- items 8 and 17: caps come from the rules; files are found by name, never parsed ---------

@pytest.mark.parametrize("cap", ["99999999", "²", "٣", "-1", "0038"])
def test_a_planted_cap_in_a_file_name_is_ignored(private_cache, monkeypatch, cap):
    private_cache.mkdir()
    planted = private_cache / cache_path(THREE, "targets-0-float32").name.replace("-targets-0-", f"-targets-{cap}-")
    planted.write_bytes(b"")
    assert cap in planted.name
    real = targets_module.solve_targets
    asked = []

    def solve(rules, n_max=None, *args, **kwargs):
        asked.append(n_max)
        assert n_max <= max_total(rules), f"asked to solve to {n_max}"
        return real(rules, n_max, *args, **kwargs)
    monkeypatch.setattr(targets_module, "solve_targets", solve)
    assert cached_caps(THREE) == []
    table = target_table(THREE, 10)
    assert asked == [default_cap(THREE)] and table.n_max == max_total(THREE) == 48
    assert table.p_at_least(10) == pytest.approx(float(real(THREE, 10).vector(0)[10]), abs=1e-6)
    assert planted.read_bytes() == b""                                   # never rewritten
    assert cached_caps(THREE) == [48]


def test_the_default_caps_of_the_built_in_rules_are_todays():
    """The widths that were keyed by name (targets.N_MAX) are now derived from the rules, the
    same for every rule set with recorded numbers; the rule sets that fell to the unnamed default
    400 now get 500 like Yahtzee (their most is above it; values below a cap never depend on it)."""
    assert {n: default_cap(get_rules(n)) for n in ("yahtzee-no-bonus", "yahtzee", "yatzy", "yatzy-thesis",
                                                    "forced-yatzy")} == {
        "yahtzee-no-bonus": 375, "yahtzee": 500, "yatzy": 374, "yatzy-thesis": 374, "forced-yatzy": 374}
    assert {n: default_cap(get_rules(n)) for n in ("yahtzee-verhoeff", "yahtzee-3-rerolls",
                                                    "maxi-yatzy-no-saved-rolls")} == dict.fromkeys(
        ("yahtzee-verhoeff", "yahtzee-3-rerolls", "maxi-yatzy-no-saved-rolls"), 500)
    assert not hasattr(targets_module, "N_MAX")


def _plant(rules, cap, data, **fields):
    space = StateSpace(rules)
    path = cache_path(rules, f"targets-{cap}-float32")
    extra = {"seconds": 0.0, "n_max": cap, "dtype": "float32", "layout": layout_digest(space)}
    write_trusted(path, rules, data, FORMAT, **{**extra, **fields})
    return path


@pytest.mark.parametrize("fields", [{"n_max": 9}, {"dtype": "float64"}, {"dtype": "U5"}])
def test_a_file_whose_contents_differ_from_its_name_is_rebuilt(private_cache, fields):
    good = solve_targets(THREE, 48, dtype=np.float32)
    path = _plant(THREE, 48, good.data.astype(np.float64) + 0.25, **fields)   # wrong numbers too
    with pytest.warns(CacheWarning, match="holds targets up to"):
        table = target_table(THREE, 48)
    assert np.array_equal(table.data, good.data) and table.data.dtype == np.float32
    assert np.array_equal(target_table(THREE, 48).data, good.data) and path.exists()


def test_a_damaged_larger_table_is_not_rebuilt_for_a_smaller_goal(private_cache, monkeypatch):
    rules = GAMES["two-dice"]                                   # most 65 (Yahtzee bonuses)
    monkeypatch.setattr(targets_module, "TARGET_WIDTH", 40)     # a default width below the most
    assert cached_caps(rules) == [] and default_cap(rules) == 40
    private_cache.mkdir()
    top = cache_path(rules, f"targets-{max_total(rules)}-float32")
    top.write_bytes(b"damaged")
    with pytest.warns(CacheWarning, match="a larger table is not used, solved to 40 instead"):
        table = target_table(rules, 30)
    assert table.n_max == 40 and top.read_bytes() == b"damaged"


def test_a_goal_within_the_default_cap_reads_the_smaller_table_when_both_are_cached(private_cache, monkeypatch):
    """Once a goal past the default cap has cached the widest table, goals within the cap still
    read their own, smaller table (the wide one was read for every later goal: 3x the bytes)."""
    rules = GAMES["two-dice"]                                   # most 65 (Yahtzee bonuses)
    monkeypatch.setattr(targets_module, "TARGET_WIDTH", 40)
    assert target_table(rules, 30).n_max == 40                  # the default cap's, solved and cached
    assert target_table(rules, 60).n_max == max_total(rules)    # the widest, solved and cached
    assert cached_caps(rules) == [40, max_total(rules)]
    monkeypatch.setattr(targets_module, "solve_targets", _fail("solve_targets"))
    monkeypatch.setattr(targets_module, "_LAST_READ", {})
    assert target_table(rules, 30).n_max == 40 and target_table(rules, 50).n_max == max_total(rules)


def test_a_foreign_temporary_name_is_not_read_as_a_process_id(tmp_path):
    foreign = tmp_path / ".x.npz.٣.abc.tmp"                     # an Arabic-Indic digit three
    foreign.write_bytes(b"")
    old = time.time() - 2 * cache.STALE_SECONDS
    os.utime(foreign, (old, old))
    assert remove_stale_temporaries(tmp_path) == [] and foreign.exists()


# ---- item 18: keyed exactly, trusted by fingerprint ---------------------------------------------

def test_thetas_equal_to_twelve_digits_get_files_of_their_own(private_cache, monkeypatch):
    a, b = 0.05, np.nextafter(0.05, 1.0)
    want = {a: solve_risk(THREE, [a])[:, 0], b: solve_risk(THREE, [b])[:, 0]}
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        for theta in (a, b):
            assert np.array_equal(risk_table(THREE, theta).utilities, want[theta])
        monkeypatch.setattr(risk_module, "solve_risk", _fail("solve_risk"))
        for theta in (a, b, a):
            assert np.array_equal(risk_table(THREE, theta).utilities, want[theta])
    assert len(_files(private_cache)) == 2


def test_rules_whose_names_make_one_file_name_share_it(private_cache, monkeypatch):
    nine, other = THREE.with_(name="nine"), THREE.with_(name="Nine!")
    assert cache_path(nine) == cache_path(other)
    first = get_solution(nine, progress=False)
    table = target_table(nine, 10)
    monkeypatch.setattr(cache, "solve", _fail("solve"))
    monkeypatch.setattr(targets_module, "solve_targets", _fail("solve_targets"))
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheWarning)
        for rules in (other, nine, other):
            assert np.array_equal(get_solution(rules, progress=False).values, first.values)
            again = target_table(rules, 10)
            assert again.rules == rules and np.array_equal(again.data, table.data)
    assert len(_files(private_cache)) == 2                     # the solution and the target table


# ---- item 20: a position's open-boxes game is never cached ---------------------------------------

def test_advising_a_subgame_writes_nothing_to_the_cache(private_cache):
    rules = get_rules("yahtzee")
    p = Position.make(rules, used=set(rules.box_names) - {"chance", "yahtzee", "sixes"}, upper_total=40,
                      dice="66655", rolls_left=1)
    rest = rest_of_game(p)
    before = _files(private_cache)
    assert len(advise(rest)) > 1
    advise(rest, objective=AtLeast(30))
    from yatzy_core.objectives.distribution import score_distribution
    score_distribution(rest.rules)
    target_table(rest.rules, 20)
    risk_table(rest.rules, 0.01)
    assert _files(private_cache) == before == []
    assert rest.rules not in solutions._loaded                  # nor kept in memory, one per position


# ---- item 9: points a card cannot hold are refused, naming the most it can hold -------------------

def test_impossible_points_are_refused_naming_the_most():
    p = Position.make("yahtzee", dice="12345", rolls_left=0, used="chance")
    assert p.most_points == 30
    for objective in (AtLeast(520, points=500), Beat(519, points=500), AtLeast(32, points=31)):
        with pytest.raises(ValueError, match="points .* is more than this card can hold: at most 30"):
            advise(p, objective=objective)


@pytest.mark.parametrize("flag, goal", [("--goal", "520"), ("--beat", "519")])
def test_the_command_refuses_impossible_points(capsys, flag, goal):
    status = main(["advise", "--rules", "yahtzee", "--dice", "12345", "--rolls-left", "0", "--used", "chance",
                   "--points", "500", flag, goal])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.strip() == ("yatzy: error: argument --points: points 500 is more than this card can hold: "
                           "at most 30 with boxes chance used and upper total 0")


def test_the_most_a_card_holds_is_reached_and_never_passed():
    """Random games of a tiny game with both bonuses: the points on the card never pass
    `most_points`, and reach it; a card holding them is accepted."""
    rules = GAMES["two-dice"]
    rng = np.random.default_rng(7)
    reached = False
    for _ in range(300):
        p, points = Position.make(rules, dice=rng.integers(1, 7, 2).tolist(), rolls_left=0), 0
        while p is not None:
            assert p.least_points <= points <= p.most_points
            reached |= bool(p.used) and points == p.most_points
            assert p.points_so_far(points) == points
            allowed = list(p.box_points())
            box_ = allowed[rng.integers(len(allowed))]
            points += p.points(box_)
            p = p.score(box_, rng=rng)
    assert reached


def test_the_distribution_from_a_state_refuses_impossible_points():
    rules = THREE
    table = solve_targets(rules, 48)
    state = int(table.space.index(0b0001, 2, 0))       # ones scored, the bonus's 2 reached: 2 or 3 ones
    assert most_points(rules, {"ones"}, 2) == 7 and most_points(rules, {"ones"}, 3) == 8
    d = target_position_distribution(state, table, 20, points=8)
    assert d.p_at_least(20) == pytest.approx(float(table.vector(state)[12]), abs=1e-9)
    with pytest.raises(ValueError, match="points 9 is more than a card in state .* can hold: at most 8"):
        target_position_distribution(state, table, 20, points=9)


# ---- unbounded writes elsewhere: a table per theta ------------------------------------------------

def test_risk_tables_of_a_rule_set_are_bounded(private_cache, monkeypatch):
    monkeypatch.setattr(risk_module, "RISK_TABLES", 3)
    thetas = [0.01 * k for k in range(1, 7)]
    other = cache_path(GAMES["two-dice"], "risk-" + "0" * 16)      # another rule set's: not pruned
    private_cache.mkdir()
    other.write_bytes(b"")
    for theta in thetas[:3]:
        risk_table(THREE, theta)
    old = time.time() - 100
    for k, theta in enumerate(thetas[:3]):                         # written in this order, a second apart
        path = cache_path(THREE, risk_module._risk_kind(theta))
        os.utime(path, (old + k, old + k))
    risk_table(THREE, thetas[0])                                   # read: now the most recently used
    for theta in thetas[3:5]:
        risk_table(THREE, theta)
    kept = {cache_path(THREE, risk_module._risk_kind(t)).name for t in (thetas[0], thetas[3], thetas[4])}
    assert set(_files(private_cache)) == kept | {other.name}
