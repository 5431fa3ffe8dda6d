"""Six dice: optimal games on a small 6-dice rule set average its solved value (the issue's proof
item, on a game small enough for CI), and the committed Maxi Yatzy result file is whole."""
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from yatzy_core.game.rules import get_rules
from yatzy_core.players.simulation import simulate, summary
from yatzy_core.engine.solver import solve

RESULT = Path(__file__).resolve().parents[1] / "results" / "maxi-yatzy-no-saved-rolls.json"
MAXI = get_rules("maxi-yatzy-no-saved-rolls")


@pytest.fixture(scope="module")
def small_maxi():
    """Six dice, six boxes of the Maxi Yatzy card, bonus 50 at 30 (solved in a fraction of a second)."""
    boxes = ("ones", "sixes", "three_pairs", "full_straight", "tower", "maxi_yatzy")
    rules = MAXI.with_(name="maxi-six-boxes", boxes=tuple(b for b in MAXI.boxes if b.name in boxes),
                       upper_bonus=50, upper_bonus_threshold=30)
    return solve(rules, progress=False, moments=True)


def test_six_dice_optimal_games_average_the_solved_value(small_maxi):
    frame = simulate(small_maxi.rules, "optimal", games=20_000, seed=3, progress=False, solution=small_maxi)
    table = summary(frame)
    mean, sem = table.loc["total", "mean"], table.loc["total", "sem"]
    assert abs(mean - small_maxi.expected_score) < 3 * sem, (mean, sem, small_maxi.expected_score)
    assert table.loc["total", "std"] == pytest.approx(small_maxi.std, rel=0.05)
    assert set(frame.columns[:6]) == set(small_maxi.rules.box_names)
    assert frame["maxi_yatzy"].isin([0, 100]).all() and frame["full_straight"].isin([0, 21]).all()


def test_float32_tables_give_the_same_games(small_maxi):
    """Maxi Yatzy is solved in float32 tables: the choices, hence the games, do not move here."""
    narrow = solve(small_maxi.rules, progress=False, dtype=np.float32)
    assert narrow.expected_score == pytest.approx(small_maxi.expected_score, abs=1e-4)
    a = simulate(small_maxi.rules, "optimal", games=2_000, seed=5, progress=False, solution=small_maxi)
    b = simulate(small_maxi.rules, "optimal", games=2_000, seed=5, progress=False, solution=narrow)
    assert (a["total"] != b["total"]).mean() < 0.01


def upper_pairs(threshold: int) -> int:
    """(used upper boxes, upper total capped at the threshold) pairs some game reaches, counted
    by hand: each used face adds 0..6 of itself."""
    count = 0
    for used in range(64):
        totals = {0}
        for face in range(1, 7):
            if used >> (face - 1) & 1:
                totals = {min(t + face * c, threshold) for t in totals for c in range(7)}
        count += len(totals)
    return count


def test_the_committed_result_file_is_whole():
    record = json.loads(RESULT.read_text())     # committed: its absence is a failure
    readings = record["readings"]
    assert record["sha256"] == hashlib.sha256(json.dumps(readings, sort_keys=True).encode()).hexdigest()
    swedish = readings["maxi-yatzy-no-saved-rolls"]
    assert swedish["counts"]["turn_states"] == 2**20 * 85
    assert swedish["counts"]["reachable_turn_states"] == upper_pairs(84) * 2**14 == 3510 * 2**14
    assert (swedish["rules"]["upper_bonus"], swedish["rules"]["upper_bonus_threshold"]) == (100, 84)
    # the numbers describe today's rule file, not an earlier one
    from yatzy_core.engine.cache import rules_fingerprint
    assert swedish["rules"]["fingerprint"] == rules_fingerprint(MAXI)
    for reading in readings.values():
        sim = reading.get("simulation")
        if sim:
            assert abs(sim["mean"] - reading["expected_score"]) <= 3 * sim["sem"]
            assert sim["sample_std"] == pytest.approx(reading["std"], rel=0.03)
            assert sum(sim["box_means"].values()) == pytest.approx(sim["mean"], abs=1e-3)
