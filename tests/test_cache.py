"""Saved solutions: reloaded exactly, and never trusted when damaged, foreign or stale."""
import numpy as np
import pytest

from yatzy_core.engine import cache
from yatzy_core.engine.cache import CacheError, get_solution, load, save
from yatzy_core.game.rules import get_rules


@pytest.fixture
def saved(solutions, tmp_path):
    solution = solutions("yahtzee-no-bonus")
    return solution, save(solution, tmp_path / "no-bonus.npz")


def test_round_trip_is_exact(saved):
    solution, path = saved
    again = load(path, get_rules("yahtzee-no-bonus"))
    assert np.array_equal(again.values, solution.values)
    assert np.array_equal(again.second, solution.second)
    assert again.expected_score == solution.expected_score
    assert path.stat().st_size < 8 * 2**20  # only reachable states: a few MB


def test_foreign_rules_are_refused(saved):
    _, path = saved
    with pytest.raises(CacheError, match="holds rules yahtzee-no-bonus, not yatzy"):
        load(path, get_rules("yatzy"))


def test_damaged_bytes_are_refused(saved, tmp_path):
    _, path = saved
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(CacheError, match="unreadable"):
        load(truncated, get_rules("yahtzee-no-bonus"))


def test_changed_numbers_fail_the_checksum(saved, tmp_path):
    _, path = saved
    with np.load(path) as data:
        fields = {k: data[k] for k in data.files}
    fields["numbers"] = fields["numbers"].copy()
    fields["numbers"][7] += 1.0
    tampered = tmp_path / "tampered.npz"
    np.savez(tampered, **fields)
    with pytest.raises(CacheError, match="checksum"):
        load(tampered, get_rules("yahtzee-no-bonus"))


def test_other_version_is_refused(saved, monkeypatch):
    _, path = saved
    monkeypatch.setattr(cache, "__version__", "0.0.0-other")
    with pytest.raises(CacheError, match="version"):
        load(path, get_rules("yahtzee-no-bonus"))


def test_get_solution_rebuilds_a_corrupt_cache_file(solutions, tmp_path, monkeypatch):
    rules = "yahtzee-no-bonus"
    real = solutions(rules)      # from the user's cache, before it is pointed at the damaged one
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    path = cache.cache_path(cache.get_rules(rules))
    path.write_bytes(b"not a solution")
    solved = []

    def counting_solve(r, progress=True, moments=False):
        solved.append(r.name)
        return real               # the real table, without spending a solve on it
    monkeypatch.setattr(cache, "solve", counting_solve)
    with pytest.warns(cache.CacheWarning, match="unreadable file .*; computed again"):
        solution = get_solution(rules, progress=False)
    assert solved == [rules]
    assert solution.expected_score == pytest.approx(245.8708, abs=5e-5)
    assert load(path, get_rules(rules)).expected_score == solution.expected_score  # rewritten, trusted


def test_moments_are_computed_once_and_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    plain = get_solution("yahtzee-no-bonus", progress=False)
    assert plain.second is None                        # values only by default
    first = get_solution("yahtzee-no-bonus", progress=False, moments=True)
    assert round(first.std, 4) == 39.8201
    again = load(cache.cache_path(get_rules("yahtzee-no-bonus")), get_rules("yahtzee-no-bonus"))
    assert again.second is not None and again.std == first.std
