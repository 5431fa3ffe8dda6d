"""`yatzy distribution`: the exact final-score distribution of optimal play, summed up or in full.

An `add_*_parser(subparsers)` function for `cli.SUBCOMMANDS`. The numbers are the
`distribution.optimal_play` results (from the per-user cache when there, else computed, a few
seconds, and cached).
"""
from __future__ import annotations

import argparse
import json

from .args import printable, rules_argument

QUANTILES = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)
THRESHOLDS = (150, 200, 250, 300, 350)


def add_distribution_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "distribution", help="exact final-score distribution of optimal play",
        description="Mean, standard deviation, quantiles and tails of the final score under "
                    "optimal play, and the chances of the upper bonus and of the n-of-a-kind "
                    "box; exact (no simulation).")
    rules_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object, the full pmf included")
    p.add_argument("--no-cache", action="store_true",
                   help="compute afresh, neither reading nor writing the per-user cache")
    p.set_defaults(run=run_distribution)
    return p


def figures(play, rules) -> dict:
    """The figures the command prints, from an `OptimalPlay`.

    >>> from yatzy_core.objectives.distribution import OptimalPlay, ScoreDistribution
    >>> from yatzy_core.game.rules import get_rules
    >>> import numpy as np
    >>> play = OptimalPlay("yatzy", {}, {"upper_bonus": 0.5, "n_of_a_kind": 0.25},
    ...                    ScoreDistribution("yatzy", np.r_[np.zeros(200), 0.5, np.zeros(99), 0.5]))
    >>> s = figures(play, get_rules("yatzy"))
    >>> s["mean"], s["quantiles"]["50"], s["p_at_least"]["250"], s["n_of_a_kind_box"]
    (250.0, 200, 0.5, 'yatzy')
    """
    from ..objectives.distribution import kind_box

    d = play.distribution
    kind = kind_box(rules)
    return {
        "rules": rules.name, "mean": d.mean, "std": d.std,
        "quantiles": {f"{100 * q:g}": d.quantile(q) for q in QUANTILES},
        "p_at_least": {str(x): d.p_at_least(x) for x in THRESHOLDS},
        "p_upper_bonus": play.bonus_probabilities["upper_bonus"] if rules.tracks_upper else None,
        "n_of_a_kind_box": rules.box_names[kind] if kind >= 0 else None,
        "p_n_of_a_kind": play.bonus_probabilities["n_of_a_kind"] if kind >= 0 else None,
    }


def run_distribution(args) -> int:
    from ..objectives.distribution import optimal_play
    from ..game.rules import get_rules

    rules = get_rules(args.rules)
    play = optimal_play(rules, use_cache=not args.no_cache, progress=not args.json)
    s = figures(play, rules)
    if args.json:
        print(json.dumps({**s, "pmf": play.distribution.probabilities.tolist()}))
        return 0
    print(f"{printable(rules.name)}: final score under optimal play (exact)")
    print(f"mean {s['mean']:.4f}, std {s['std']:.4f}")
    print("quantiles: " + ", ".join(f"{q}% {x}" for q, x in s["quantiles"].items()))
    print("P(total >= T): " + ", ".join(f"{x} {p:.6f}" for x, p in s["p_at_least"].items()))
    bonus = "none in these rules" if s["p_upper_bonus"] is None else f"{s['p_upper_bonus']:.6f}"
    print(f"P(upper bonus): {bonus}")
    if s["n_of_a_kind_box"] is not None:
        print(f"P({s['n_of_a_kind_box']} box scores): {s['p_n_of_a_kind']:.6f}")
    return 0
