"""Against the fastest public engine: precisit's `yatzy-solver` (Rust, on the package index).

Run by hand: `.venv/bin/pip install -e ".[baseline]"` once, then
`.venv/bin/python benchmarks/baseline.py [--positions N] [--repeats R]`.

In one process, for each rule set both engines solve (the Rust one with `Solver.build`, f64,
all cores; ours with `solve`, numba on all cores, compiled first), median of R runs each, and the
ratio of the medians. Then both value N random positions (random used boxes, upper total, Yahtzee
bonus flag, dice, rerolls left): every choice the Rust engine lists must have the same value in
`advise` to 1e-9, and the best choices must agree. Prints one table and the disagreements.
"""
from __future__ import annotations

import argparse
import os

import numpy as np

from solve import median_seconds   # this folder's timing helper (run as a script)
from yatzy_core import Position, advise, get_rules, solve
from yatzy_core.engine.position import upper_totals

# our rule set -> the Rust engine's variant (values checked equal below)
PAIRS = {"yahtzee": "american+forced-joker", "yahtzee-verhoeff": "american",
         "yahtzee-no-bonus": "american+no-bonus", "yatzy": "yatzy-scandinavian",
         "forced-yatzy": "yatzy-scandinavian+forced"}
NAMES = {"yahtzee": "five_of_a_kind"}   # our box name -> theirs, where they differ


def random_position(rules, rng) -> Position:
    """A legal position: used boxes, an upper total they can hold, the flag, dice, rerolls left."""
    while True:
        used = [b for b in rules.box_names if rng.random() < rng.random()]
        if len(used) < rules.n_boxes:
            break
    if rules.forced_order:               # only the first boxes of the card can be used
        used = rules.box_names[:len(used)]
    upper = int(rng.choice(sorted(upper_totals(rules, used))))
    flag = bool(rules.tracks_yahtzee_bonus and rules.yahtzee_box in used and rng.random() < 0.5)
    dice = sorted(int(d) for d in rng.integers(1, rules.faces + 1, rules.n_dice))
    rolls_left = int(rng.integers(0, rules.rolls_per_turn)) if not rules.forced_order else 0
    return Position.make(rules, used=used, upper_total=upper, dice=dice, rolls_left=rolls_left,
                         yahtzee_bonus=flag)


def notation(position: Position) -> str:
    """The Rust engine's situation text for one of our positions."""
    rules = position.rules
    filled = ",".join(NAMES.get(b, b) for b in rules.box_names if b in position.used) or "-"
    text = (f"dice {' '.join(map(str, position.dice))} | rolls {position.rolls_left} | "
            f"upper {min(position.upper_total, rules.upper_bonus_threshold)} | filled {filled}")
    if rules.yahtzee_box in position.used and rules.yahtzee_bonus:
        points = rules.boxes[rules.yahtzee_index].max_score if position.yahtzee_bonus else 0
        text += f" | {NAMES.get(rules.yahtzee_box, rules.yahtzee_box)} {points}"
    return text


def our_label(advice) -> str:
    if advice.action == "keep":
        return "keep " + " ".join(map(str, advice.keep)) if advice.keep else "keep -"
    return f"score {NAMES.get(advice.box, advice.box)}"


def compare(name: str, solver, solution, positions: int, rng) -> tuple[int, float]:
    """Positions whose values or best choices differ, and the largest value difference."""
    differ, worst = 0, 0.0
    for _ in range(positions):
        position = random_position(solution.rules, rng)
        ours = {our_label(a): a.value for a in advise(position, solution)}
        theirs = dict(solver.option_values(notation(position)))
        gaps = [abs(ours[label] - value) if label in ours else np.inf for label, value in theirs.items()
                if not label.startswith("keep -") or "keep -" in ours]
        worst = max([worst] + gaps)
        best_ours = {k for k, v in ours.items() if v >= max(ours.values()) - 1e-9}
        best_theirs = {k for k, v in theirs.items() if v >= max(theirs.values()) - 1e-9}
        if max(gaps) > 1e-9 or not best_theirs & best_ours:
            differ += 1
            if differ <= 3:
                print(f"  {name}: {notation(position)}\n    ours {sorted(ours.items(), key=lambda kv: -kv[1])[:3]}"
                      f"\n    theirs {sorted(theirs.items(), key=lambda kv: -kv[1])[:3]}")
    return differ, worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    import yatzy_solver as ys

    print(f"yatzy-solver {ys.SOLVER_VERSION}, {os.cpu_count()} cores, numba threads "
          f"{os.environ.get('NUMBA_NUM_THREADS', 'all')}\n")
    solve(get_rules("yahtzee-no-bonus"), progress=False)          # compile our kernel outside the timings
    rng = np.random.default_rng(2026)
    rows = []
    for ours_name, their_name in PAIRS.items():
        rules = get_rules(ours_name)
        ours_s = median_seconds(lambda: solve(rules, progress=False), args.repeats)
        theirs_s = median_seconds(lambda: ys.Solver.build(ys.Variant(their_name)), args.repeats)
        solution, solver = solve(rules, progress=False), ys.Solver.build(ys.Variant(their_name))
        ours_v, theirs_v = solution.expected_score, solver.state_value("upper 0 | filled -")
        differ, worst = compare(ours_name, solver, solution, args.positions, rng)
        rows.append((ours_name, their_name, ours_s, theirs_s, ours_v, theirs_v, differ, worst))
    print(f"\n| ours | yatzy-solver variant | our solve | their build | ratio | our E | their E "
          f"| positions differing / {args.positions} | largest value gap |")
    print("|---|---|---|---|---|---|---|---|---|")
    for o, t, os_, ts, ov, tv, d, w in rows:
        print(f"| {o} | {t} | {os_:.3f} s | {ts:.3f} s | {ts / os_:.1f}x | {ov:.6f} | {tv:.6f} "
              f"| {d} | {w:.1e} |")


if __name__ == "__main__":
    main()
