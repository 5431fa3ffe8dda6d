"""The spread of a saved-roll game (Maxi Yatzy as played): the exact standard deviation of the
final score under the advisor's choices, from the compiled second-moment pass, against the
brute force in exact Fractions on tiny rule files and against seeded optimal games."""
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from test_saved_rolls import GAMES, TEXTS
from yatzy_core.engine.bruteforce import brute_force_saved_moments
from yatzy_core.engine.saved import saved_memory, solve_saved
from yatzy_core.engine.solver import solve
from yatzy_core.game.rules import get_rules
from yatzy_core.game.states import OVERHEAD, StateSpace


@cache
def exact(name: str) -> tuple[Fraction, Fraction]:
    return brute_force_saved_moments(GAMES[name])


def exact_std(name: str) -> float:
    mean, second = exact(name)
    return float(second - mean * mean) ** 0.5


@pytest.mark.parametrize("name", GAMES)
def test_second_moments_match_brute_force(name):
    fast = solve_saved(GAMES[name], progress=False, moments=True)
    mean, second = exact(name)
    assert fast.expected_score == solve_saved(GAMES[name], progress=False).expected_score   # same values
    assert fast.expected_score == pytest.approx(float(mean), abs=1e-12)
    assert float(fast.second[0][0, 0]) == pytest.approx(float(second), rel=1e-12)
    assert fast.std == pytest.approx(exact_std(name), abs=1e-9)


def test_keeping_two_layers_gives_the_same_spread():
    whole = solve_saved(GAMES["two-dice"], progress=False, moments=True)
    lean = solve_saved(GAMES["two-dice"], progress=False, moments=True, keep=0)
    assert lean.std == whole.std and lean.second[1] is None and lean.layers[1] is None


def test_a_values_only_solution_has_no_spread():
    with pytest.raises(ValueError, match=r"solve_saved\(\.\.\., moments=True\)"):
        solve_saved(GAMES["forced"], progress=False).std


def test_seeded_optimal_games_agree_with_the_exact_moments():
    """4,000 games by `play_saved` (the same choices and tie rule): the mean and the mean of the
    squared totals within 3 standard errors of the exact first and second moments."""
    from yatzy_core.players.saved_play import play_saved
    solved = solve_saved(GAMES["two-dice"], progress=False, moments=True)
    total = play_saved(solved, games=4_000, seed=7).frame["total"].to_numpy(dtype=float)
    mean, second = exact("two-dice")
    assert abs(total.mean() - float(mean)) < 3 * total.std() / np.sqrt(len(total))
    squares = total ** 2
    assert abs(squares.mean() - float(second)) < 3 * squares.std() / np.sqrt(len(squares))
    assert total.std() == pytest.approx(solved.std, rel=0.05)


def test_moments_double_the_tables_memory():
    maxi = get_rules("maxi-yatzy")
    overhead = StateSpace(maxi).size * OVERHEAD
    values, both = (saved_memory(maxi, keep=0, moments=m) - overhead for m in (False, True))
    assert both == 2 * values


def test_cli_prints_the_exact_std_of_a_saved_roll_rule_file(tmp_path, capsys):
    from yatzy_core.cli.command import main
    path = tmp_path / "tiny.toml"
    path.write_text('name = "tiny"\nsaved_rolls = true\n' + TEXTS["two-boxes"])
    assert main(["solve", "--rules-file", str(path), "--std"]) == 0
    out = capsys.readouterr().out
    assert f"expected score: {float(exact('two-boxes')[0]):.4f}" in out
    assert f"std: {exact_std('two-boxes'):.4f}" in out
    assert main(["solve", "--rules-file", str(path), "--goal", "20"]) == 2
    assert "argument --goal: not computed for a game with saved rolls" in capsys.readouterr().err


def test_without_saved_rolls_the_std_is_the_solvers(tmp_path, capsys):
    from yatzy_core.cli.command import main
    path = tmp_path / "plain.toml"
    path.write_text('name = "plain"\n' + TEXTS["two-boxes"])
    assert main(["solve", "--rules-file", str(path), "--std", "--no-cache"]) == 0
    plain = GAMES["two-boxes"].with_(saved_rolls=False, name="plain")
    assert f"std: {solve(plain, progress=False, moments=True).std:.4f}" in capsys.readouterr().out


def test_a_big_solve_with_moments_says_its_memory_and_time_first(monkeypatch):
    import yatzy_core.engine.saved as saved
    from yatzy_core.engine.solver import SolveWarning
    monkeypatch.setattr(saved, "LOUD_BYTES", 0)        # as if this tiny game were Maxi Yatzy
    need = saved_memory(GAMES["forced"], moments=True) / 1e9
    with pytest.warns(SolveWarning, match=rf"'forced' with saved rolls and second moments need about "
                                          rf"{need:.1f} GB of memory, and about {saved.MOMENTS_TIME}x the time"):
        solve_saved(GAMES["forced"], progress=False, moments=True)
