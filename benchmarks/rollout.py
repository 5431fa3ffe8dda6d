"""Rollout on the whole card (not a test): one step of policy improvement from chapter 11's learned
rule list, and from its fallback alone, valued exactly on `yahtzee-no-bonus`; writes
results/rollout.json (the command, the machine and its load, each step's seconds, a sha256 of the
list's values and of the readings).

    NUMBA_NUM_THREADS=2 PYTHONPATH=. python benchmarks/rollout.py      # about 3 minutes on 2 cores

The list is learned exactly as the chapter learns it (200 seeded optimal games, seed 0, at most
15 rules, then pruned). For each base policy pi: V^pi of every state by one backward sweep
(`thumb_exact.list_values`), checked against the forward pass (`exact_play`) to 1e-9 at the
empty card; then the rollout policy, each turn played the best way for V^pi afterwards
(`thumb_exact.look_ahead`), valued exactly box by box by the forward pass. By the policy
improvement theorem it is never worse than pi; the optimum is the solver's value.
"""
import datetime
import hashlib
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from yatzy_core.engine.solutions import solution_for
from yatzy_core.game.rules import get_rules
from yatzy_core.objectives.distribution import optimal_play
from yatzy_core.players.thumb import DecisionList
from yatzy_core.players.thumb_exact import exact_play, learn, list_values, look_ahead, optimal_positions, prune
from yatzy_core.version import __version__
from results_file import write_result   # this folder's record writer (run as a script)

RESULT = Path(__file__).resolve().parents[1] / "results" / "rollout.json"
RULES = "yahtzee-no-bonus"
GAMES, SEED, MAX_RULES = 200, 0, 15      # chapter 11's settings


def rounded(play) -> dict:
    """A forward pass's expected points per box, the bonus and the total, to 6 decimals."""
    return {name: round(value, 6) for name, value in play.box_expectations.items()}


def rollout(name: str, dl: DecisionList, optimum: float, memo: dict) -> dict:
    """One base policy: its exact value both ways, its rollout's exact value, and the seconds."""
    clock = time.perf_counter()
    values = list_values(dl)
    backward = time.perf_counter() - clock
    base = exact_play(dl, memo=memo)
    assert abs(base.total - values[0]) < 1e-9, (name, base.total, values[0])   # the two ways agree
    clock = time.perf_counter()
    improved = exact_play(look_ahead(dl.rules, values))
    forward = time.perf_counter() - clock
    gain = improved.total - base.total
    print(f"{name}: {base.total:.4f} -> rollout {improved.total:.4f} (+{gain:.4f}, "
          f"{gain / (optimum - base.total):.1%} of the gap) in {backward:.0f} + {forward:.0f} s", flush=True)
    return {"rules_of_the_list": [str(rule) for rule in dl.items], "value": round(base.total, 6),
            "rollout_value": round(improved.total, 6), "gain": round(gain, 6),
            "share_of_gap_closed": round(gain / (optimum - base.total), 4),
            "values_sha256": hashlib.sha256(np.ascontiguousarray(values, "<f8").tobytes()).hexdigest(),
            "boxes": rounded(base), "rollout_boxes": rounded(improved),
            "seconds": {"policy_evaluation": round(backward, 1), "rollout_forward_pass": round(forward, 1)}}


def main() -> int:
    start, load = time.perf_counter(), round(os.getloadavg()[0], 1)
    rules = get_rules(RULES)
    optimum = solution_for(rules, progress=False).expected_score
    learned, _ = learn(optimal_positions(rules, games=GAMES, seed=SEED), n_rules=MAX_RULES)
    memo = {}
    rules_of_thumb, _ = prune(learned, memo)
    readings = {"rules": RULES, "optimal": round(optimum, 6),
                "optimal_boxes": rounded(optimal_play(RULES, progress=False)), "learned_list": rollout("learned list", rules_of_thumb, optimum, memo),
                "fallback_alone": rollout("fallback alone", DecisionList(rules), optimum, memo)}
    record = {"readings": readings, "package": "yatzy-core", "version": __version__,
              "date": str(datetime.date.today()),
              "command": f"NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS', 'unset')} "
                         "PYTHONPATH=. python benchmarks/rollout.py",
              "seconds": round(time.perf_counter() - start, 1),
              "machine": {"platform": platform.platform(), "python": platform.python_version(),
                          "cores": os.cpu_count(), "load_at_start": load,
                          "load_at_end": round(os.getloadavg()[0], 1)},
              "note": "shared 2-core machine (other jobs running): the seconds are upper bounds"}
    write_result(RESULT, record)
    print("wrote", RESULT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
