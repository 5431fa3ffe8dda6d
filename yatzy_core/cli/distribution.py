"""`yatzy distribution`: the exact final-score distribution of a policy, summed up or in full.

An `add_*_parser(subparsers)` function for `command.SUBCOMMANDS`. Max-mean play's numbers are the
`distribution.optimal_play` results (from the per-user cache when there, else computed, a few
seconds, and cached); --goal, --beat and --risk play the policy that maximises P(total >= T),
P(total > S) or E[exp(THETA * total)] (`policy_play`: its table, then the compiled forward pass).
"""
from __future__ import annotations

import argparse
import json

from .args import chosen_objective, flag, objective_flags, printable, rules_argument, rules_flag
from ..objectives.objective import MEAN, AdviceObjective
from ..objectives.registry import objective_for

QUANTILES = (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99)


def thresholds(optimal_mean: float, most: int) -> list[int]:
    """Five totals T to print P(total >= T) for, the same for every policy of a game: round
    steps around its optimal mean (50 apart when the game's most total is 300 or more, as in
    Yahtzee and Yatzy: 150 ... 350), the window moved to fit between one step and `most`.

    >>> thresholds(248.44, 374), thresholds(31.5, 48), thresholds(45, 48), thresholds(60, 310)
    ([150, 200, 250, 300, 350], [20, 25, 30, 35, 40], [25, 30, 35, 40, 45], [50, 100, 150, 200, 250])
    """
    step = 50
    if most < 300:
        step = max((s for s in (1, 2, 5, 10, 20, 25) if s <= most / 8), default=1)
    top = max(most // step, 5) * step
    centre = min(max(round(optimal_mean / step) * step, 3 * step), top - 2 * step)
    return [centre + k * step for k in range(-2, 3)]


def add_distribution_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "distribution", help="exact final-score distribution of optimal play",
        description="Mean, standard deviation, quantiles and tails of the final score under "
                    "optimal play, and the chances of the upper bonus and of the n-of-a-kind "
                    "box; exact (no simulation).")
    rules_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object, the full pmf included")
    objective_flags(p, "play every turn for")
    p.add_argument("--no-cache", action="store_true",
                   help="compute afresh, neither reading nor writing the per-user cache")
    p.set_defaults(run=run_distribution)
    return p


def figures(play, rules, optimal_mean: float | None = None) -> dict:
    """The figures the command prints, from an `OptimalPlay` (P(total >= T) at the `thresholds` of
    the game's optimal mean: the play's own mean when it is max-mean play).

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
    from ..objectives.targets import max_total

    d = play.distribution
    kind = kind_box(rules)
    return {
        "rules": rules.name, "mean": d.mean, "std": d.std,
        "quantiles": {f"{100 * q:g}": d.quantile(q) for q in QUANTILES},
        "p_at_least": {str(x): d.p_at_least(x) for x in thresholds(optimal_mean or d.mean, max_total(rules))},
        "p_upper_bonus": play.bonus_probabilities["upper_bonus"] if rules.tracks_upper else None,
        "n_of_a_kind_box": rules.box_names[kind] if kind >= 0 else None,
        "p_n_of_a_kind": play.bonus_probabilities["n_of_a_kind"] if kind >= 0 else None,
    }


def policy_of(args, rules) -> AdviceObjective:
    """The objective whose whole-game policy the flags ask for (`args.chosen_objective`; one played
    from the card starts from the empty one), checked for a whole game; ValueError naming a flag."""
    kind, values, asked = chosen_objective(args)
    if asked is None:
        return MEAN
    with flag(asked):
        objective = objective_for(kind.key, points=0 if kind.on_card else None, **values)
        objective.check(rules, whole_game=True)
    return objective


def play_of(rules, use_cache: bool, progress: bool, objective: AdviceObjective = MEAN):
    """The OptimalPlay of a whole game played for `objective`, its work announced first."""
    from .long_work import announce_work

    if progress:
        announce_work(objective, rules, None, use_cache, forward=True)
    return objective.play(rules, use_cache=use_cache, progress=progress)


def run_distribution(args) -> int:
    from ..engine.solutions import solution_for
    from ..game.rules import get_rules

    rules = get_rules(args.rules)
    if rules.saved_rolls:
        raise ValueError(f"argument {rules_flag(args)}: {rules.name!r} saves rolls: the command gives its expected score "
                         f"and standard deviation (yatzy solve --std), not its whole distribution")
    objective = policy_of(args, rules)
    play = play_of(rules, not args.no_cache, not args.json, objective)
    optimal = None if objective.mean_play else solution_for(rules, use_cache=not args.no_cache).expected_score
    s = {**figures(play, rules, optimal), "policy": objective.policy, **objective.summary(play.distribution)}
    if args.json:
        print(json.dumps({**s, "pmf": play.distribution.probabilities.tolist()}))
        return 0
    how = "optimal play" if objective.mean_play else f"the {objective.policy} policy"
    print(f"{printable(rules.name)}: final score under {how} (exact)")
    print(f"mean {s['mean']:.4f}, std {s['std']:.4f}")
    for line in objective.summary_lines(s):
        print(line)
    print("quantiles: " + ", ".join(f"{q}% {x}" for q, x in s["quantiles"].items()))
    print("P(total >= T): " + ", ".join(f"{x} {p:.6f}" for x, p in s["p_at_least"].items()))
    bonus = "none in these rules" if s["p_upper_bonus"] is None else f"{s['p_upper_bonus']:.6f}"
    print(f"P(upper bonus): {bonus}")
    if s["n_of_a_kind_box"] is not None:
        print(f"P({s['n_of_a_kind_box']} box scores): {s['p_n_of_a_kind']:.6f}")
    return 0
