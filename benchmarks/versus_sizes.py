"""The two-player table's size for the full games (chapter 13 reads it): `plan_versus` of
yahtzee-no-bonus, yahtzee and yatzy, written to results/versus_plan.json. Minutes (the card pairs
of yatzy are many), so it runs here, not under the notebook.

    python benchmarks/versus_sizes.py
"""
import json
import time
from pathlib import Path

from yatzy_core.game.rules import get_rules
from yatzy_core.objectives.versus_plan import plan_versus

OUT = Path(__file__).resolve().parents[1] / "results" / "versus_plan.json"


def main() -> None:
    plans = {}
    for name in ("yahtzee-no-bonus", "yahtzee", "yatzy"):
        start = time.perf_counter()
        print(f"{name}: counting ...", flush=True)
        plan = plan_versus(get_rules(name))
        plans[name] = plan.as_dict() | {"count_seconds": round(time.perf_counter() - start, 1)}
        print("\n".join(plan.lines()), flush=True)
    tmp = OUT.with_suffix(".tmp")
    tmp.write_text(json.dumps(plans, indent=1) + "\n")
    tmp.replace(OUT)                                  # no half file


if __name__ == "__main__":
    main()
