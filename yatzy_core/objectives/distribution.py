"""Exact results of optimal play, by pushing probability forwards through the optimal policy.

Every game starts in the empty card with probability 1. A layer of turn states (k boxes used)
passes its probability to the next layer along each state's turn outcomes
(`policy.turn_outcomes`: final roll, chosen box, points, next state), so after 13 (or 15) layers
we know exactly, with no sampling,

* the expected points of every box, of the upper bonus and of the Yahtzee bonuses,
* the probability of the upper bonus and of scoring the n-of-a-kind box at all,
* the whole distribution of the final score: each state carries the distribution of the points
  scored so far, a row of probabilities indexed by points, and a turn adds to the next state's
  row this row shifted by the points earned, times the outcome's probability (`_push`).

Only two layers of rows are in memory at a time. Ties between equally good choices are broken
as `policy` documents. Results are cached beside the solutions (`optimal_play`).

>>> d = ScoreDistribution("two coins", np.array([0.25, 0.5, 0.25]))
>>> d.mean, d.variance, d.quantile(0.5), d.p_at_least(1), d.p_at_least(1.5)
(1.0, 0.5, 1, 0.75, 0.25)
"""
from __future__ import annotations

import math
import resource
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from ..engine.cache import CacheError, cache_path, cached_for, read_trusted, write_trusted
from ..engine.compiled.first_use import announce_compiling
from ..engine.compiled.forward import push_layers, start_rows
from ..engine.progress import progress_on
from ..game.checks import real_number, true_or_false
from ..game.rules import Rules, get_rules
from ..engine.solutions import solution_for
from ..engine.solver import Solution

FORMAT = 1     # layout of the cached results file


# ---- the score distribution --------------------------------------------------------------------

@dataclass(frozen=True)
class ScoreDistribution:
    """P(final score = x) for x = 0, 1, ..., max under optimal play of one rule set."""

    rules_name: str
    probabilities: np.ndarray

    @property
    def scores(self) -> np.ndarray:
        return np.arange(len(self.probabilities))

    @property
    def mean(self) -> float:
        return float(self.scores @ self.probabilities)

    @property
    def variance(self) -> float:
        return float(((self.scores - self.mean) ** 2) @ self.probabilities)

    @property
    def std(self) -> float:
        return float(np.sqrt(self.variance))

    @property
    def max_score(self) -> int:
        """Highest score with a positive probability."""
        return int(np.flatnonzero(self.probabilities > 0)[-1])

    def cdf(self) -> np.ndarray:
        """P(score <= x) for every x."""
        return np.cumsum(self.probabilities)

    def quantile(self, q: float) -> int:
        """Smallest score x with P(score <= x) >= q, for q in [0, 1] (quantile(1) is the maximum)."""
        if not 0 <= q <= 1:
            raise ValueError(f"quantile must be between 0 and 1, got {q}")
        return int(min(np.searchsorted(self.cdf(), q), self.max_score))

    def p_at_least(self, x: float) -> float:
        """P(score >= x): the score is whole, so at least 5.5 is at least 6."""
        return float(self.probabilities[max(math.ceil(real_number("x", x)), 0):].sum())


@dataclass(frozen=True)
class OptimalPlay:
    """Everything the forward pass finds for one rule set (see the module docstring)."""

    rules_name: str
    box_expectations: dict[str, float]   # per box, then upper_bonus, yahtzee_bonus, total
    bonus_probabilities: dict[str, float]
    distribution: ScoreDistribution | None
    stats: dict[str, float] = field(default_factory=dict)  # seconds, peak memory, sizes
    state_probabilities: np.ndarray | None = field(default=None, repr=False)  # per state index;
    # P(a game passes through the state) under optimal play (not kept in the cache)


# ---- the forward pass --------------------------------------------------------------------------

def kind_box(rules: Rules) -> int:
    """The n-of-a-kind box (Yahtzee/Yatzy): rules.yahtzee_box, else the box that scores only on
    n of a kind; -1 if there is none (with one die every roll is "n of a kind": no such box)."""
    if rules.yahtzee_index >= 0:
        return rules.yahtzee_index
    if rules.n_dice < 2:
        return -1
    kind = np.zeros(rules.dice.n_rolls, dtype=bool)
    kind[rules.n_of_a_kind_rolls] = True
    for b in range(rules.n_boxes):
        scores = rules.score_table[:, b] > 0
        if scores.any() and (scores == kind).all():
            return b
    return -1


def forward(solution: Solution, distribution: bool = True, progress: bool = False) -> OptimalPlay:
    """Push the probability of every turn state (and its points-so-far distribution) forwards
    from the empty card (`forward.push_layers`, compiled)."""
    rules, space = solution.rules, solution.space
    start = time.perf_counter()
    rows = start_rows([space.index(0, 0, 0)], [0], [1.0])
    if progress_on(progress):    # the first layer's bar would sit at 0 while the kernels compile
        announce_compiling("forward._outcome_chunk", "the whole-game pass's kernels", 90)
    with tqdm(total=rules.n_boxes, desc=f"forward {rules.name}", unit="turn", disable=not progress_on(progress),
              leave=False) as bar:
        final, totals, prob = push_layers(solution, rows, kind_box(rules), distribution,
                                          lambda _: bar.update(1))
    play = _results(rules, final, totals, prob, distribution)
    play.stats["seconds"] = time.perf_counter() - start
    play.stats["peak_rss_mb"] = peak_rss_mb()
    return play


def _results(rules: Rules, final, totals, prob, distribution: bool) -> OptimalPlay:
    """OptimalPlay from what `push_layers` returns."""
    expectations = {name: float(v) for name, v in zip(rules.box_names, totals.box_sum)}
    expectations["upper_bonus"] = float(totals.sums[0])
    expectations["yahtzee_bonus"] = float(totals.sums[1])
    expectations["total"] = float(totals.box_sum.sum() + totals.sums[0] + totals.sums[1])
    bonuses = {"upper_bonus": float(totals.sums[2]) if rules.tracks_upper else 0.0,
               "n_of_a_kind": float(totals.sums[3])}
    scores = None
    if distribution:
        scores = ScoreDistribution(rules.name, final_scores(final))
    stats = {"states_visited": totals.states_visited, "largest_layer": totals.largest_layer,
             "widest_row": totals.widest_row, "peak_dist_mb": totals.peak_rows_mb}
    return OptimalPlay(rules.name, expectations, bonuses, scores, stats, prob)


def final_scores(rows) -> np.ndarray:
    """P(final score = x), x = 0 .. the highest, from the rows of the full card's states."""
    out = np.zeros(int(rows.hi.max()) + 1)
    for a, b, c in zip(rows.lo, rows.start[:-1], rows.start[1:]):
        out[a:a + c - b] += rows.data[b:c]
    return out


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def ks_test(probabilities: np.ndarray, samples: np.ndarray) -> tuple[float, float]:
    """Kolmogorov-Smirnov distance between an exact distribution over 0..n and integer samples,
    and its asymptotic p-value (conservative for a discrete distribution)."""
    samples = np.asarray(samples)
    if samples.min() < 0 or samples.max() >= len(probabilities):
        raise ValueError(f"samples must lie in 0..{len(probabilities) - 1}")
    empirical = np.cumsum(np.bincount(samples, minlength=len(probabilities))) / len(samples)
    distance = float(np.abs(empirical - np.cumsum(probabilities)).max())
    t = distance * math.sqrt(len(samples))
    if t < 0.2:
        return distance, 1.0
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * t * t) for k in range(1, 101))
    return distance, float(min(max(p, 0.0), 1.0))


# ---- the public functions and their cache ------------------------------------------------------

def optimal_play(rules: str | Rules, use_cache: bool = True, progress: bool = False,
                 solution: Solution | None = None) -> OptimalPlay:
    """Box expectations, bonus probabilities and the score distribution of optimal play:
    from the per-user cache when a trustworthy file is there, else computed (and cached)."""
    rules = get_rules(rules)
    solution = None if solution is None else solution_for(rules, solution)   # checked, even when cached
    true_or_false("use_cache", use_cache)

    def compute() -> OptimalPlay:
        return forward(solution_for(rules, solution, use_cache=use_cache, progress=progress),
                       distribution=True, progress=progress)
    return cached_for(rules, "play", lambda p: load_play(p, rules), compute,
                      lambda play, p: save_play(play, p, rules), use_cache)


def score_distribution(rules: str | Rules, **options) -> ScoreDistribution:
    """The exact distribution of the final score under optimal play (see `optimal_play`)."""
    return optimal_play(rules, **options).distribution


def box_expectations(rules: str | Rules, **options) -> dict[str, float]:
    """Expected points of every box under optimal play, then upper_bonus, yahtzee_bonus, total."""
    return dict(optimal_play(rules, **options).box_expectations)


def bonus_probabilities(rules: str | Rules, **options) -> dict[str, float]:
    """Under optimal play: "upper_bonus", P(the upper bonus), and "n_of_a_kind", P(the
    n-of-a-kind box, Yahtzee or Yatzy, is scored with its 50 rather than scratched)."""
    return dict(optimal_play(rules, **options).bonus_probabilities)


def play_path(rules: Rules) -> Path:
    return cache_path(rules, "play")


def _numbers(play: OptimalPlay) -> np.ndarray:
    """Everything numeric a results file holds, in one array: what the checksum covers."""
    return np.concatenate([list(play.box_expectations.values()),
                           list(play.bonus_probabilities.values()), play.distribution.probabilities])


def save_play(play: OptimalPlay, path: str | Path, rules: Rules | None = None) -> Path:
    """Write the results with the rules (default: the built-in of their name), the package
    version and a checksum."""
    return write_trusted(path, rules or get_rules(play.rules_name), _numbers(play), FORMAT,
                         keys=list(play.box_expectations), bonus_keys=list(play.bonus_probabilities),
                         stat_keys=list(play.stats), stats=list(play.stats.values()))


def load_play(path: str | Path, rules: Rules) -> OptimalPlay:
    """Read saved results; CacheError if damaged or written for other rules or versions."""
    f = read_trusted(path, rules, FORMAT)
    numbers, keys, bonus_keys = f["numbers"], [str(k) for k in f["keys"]], [str(k) for k in f["bonus_keys"]]
    stats = dict(zip((str(k) for k in f["stat_keys"]), (float(v) for v in f["stats"])))
    if keys != list(rules.box_names) + ["upper_bonus", "yahtzee_bonus", "total"]:
        raise CacheError(f"{path} is damaged (its boxes are not the rules' boxes)")
    n, m = len(keys), len(bonus_keys)
    return OptimalPlay(rules.name, dict(zip(keys, numbers[:n].tolist())),
                       dict(zip(bonus_keys, numbers[n:n + m].tolist())),
                       ScoreDistribution(rules.name, numbers[n + m:]), stats)
