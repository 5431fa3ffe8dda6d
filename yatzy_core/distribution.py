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
>>> d.mean, d.variance, d.quantile(0.5), d.p_at_least(1)
(1.0, 0.5, 1, 0.75)
"""
from __future__ import annotations

import math
import resource
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numba import njit, prange
from tqdm.auto import tqdm

from . import __version__
from .cache import CacheError, cache_dir, get_solution, read_trusted, write_trusted
from .policy import turn_outcomes
from .rules import Rules, get_rules
from .solver import Solution

BLOCK = 1024   # states per call of turn_outcomes: (252, BLOCK) arrays stay small
THREADS = 2    # numpy releases the GIL in its big loops: blocks run side by side
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

    def p_at_least(self, x: int) -> float:
        """P(score >= x)."""
        return float(self.probabilities[max(int(x), 0):].sum())

    def figure(self, cumulative: bool = False):
        """A plotly figure of the distribution (or of P(score >= x) when cumulative)."""
        import plotly.graph_objects as go

        hi = self.quantile(1 - 1e-6)
        x = self.scores[:hi + 1]
        y = (1 - self.cdf() + self.probabilities)[:hi + 1] if cumulative else self.probabilities[:hi + 1]
        fig = go.Figure(go.Scatter(x=x, y=y, mode="lines", name="optimal play (exact)"))
        fig.update_layout(
            title=f"{self.rules_name}: exact final score distribution under optimal play "
                  f"(mean {self.mean:.2f}, sd {self.std:.2f})",
            xaxis_title="final score",
            yaxis_title="P(score ≥ x)" if cumulative else "probability")
        return fig


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
    n of a kind; -1 if there is none."""
    if rules.yahtzee_index >= 0:
        return rules.yahtzee_index
    kind = np.zeros(rules.dice.n_rolls, dtype=bool)
    kind[rules.n_of_a_kind_rolls] = True
    for b in range(rules.n_boxes):
        scores = rules.score_table[:, b] > 0
        if scores.any() and (scores == kind).all():
            return b
    return -1


def forward(solution: Solution, distribution: bool = True, progress: bool = False) -> OptimalPlay:
    """Push the probability of every turn state (and its points-so-far distribution) forwards."""
    rules, space, values = solution.rules, solution.space, solution.values
    start = time.perf_counter()
    n_boxes, nk = rules.n_boxes, kind_box(rules)
    prob = np.zeros(space.size)
    prob[space.index(0, 0, 0)] = 1.0
    box_sum = np.zeros(n_boxes)
    sums = dict(upper_bonus=0.0, yahtzee_bonus=0.0, p_upper=0.0, p_kind=0.0)
    live = np.array([space.index(0, 0, 0)])       # states of this layer with positive probability
    dist, lo, hi = np.ones((1, 1)), np.zeros(1, np.int64), np.zeros(1, np.int64)
    stats = {"states_visited": 0, "largest_layer": 0, "widest_row": 1, "peak_dist_mb": 0.0,
             "push_seconds": 0.0}
    layers = [space.layer(k) for k in range(n_boxes)]
    with tqdm(total=sum(map(len, layers)), desc=f"forward {rules.name}", unit="state",
              disable=not progress, leave=False) as bar, ThreadPoolExecutor(THREADS) as pool:
        for k in range(n_boxes):
            blocks = [(i, live[i:i + BLOCK]) for i in range(0, len(live), BLOCK)]
            parts = []

            def work(item):
                i, block = item
                return i, block, turn_outcomes(space, values, block)

            for i, block, o in pool.map(work, blocks):
                w = o.prob * prob[block]
                box_sum += np.bincount(o.box.ravel(), weights=(w * o.box_points).ravel(), minlength=n_boxes)
                sums["upper_bonus"] += float((w * o.upper_bonus).sum())
                sums["yahtzee_bonus"] += float((w * o.yahtzee_bonus).sum())
                sums["p_upper"] += float(w[o.upper_bonus > 0].sum())
                sums["p_kind"] += float(w[(o.box == nk) & (o.box_points > 0)].sum())
                np.add.at(prob, o.next_state.ravel(), w.ravel())
                if distribution:
                    parts.append(_outcome_triples(o, i))
                bar.update(len(block))
            stats["states_visited"] += len(live)
            stats["largest_layer"] = max(stats["largest_layer"], len(live))
            if distribution:
                t = time.perf_counter()
                live, dist, lo, hi = _push_layer(dist, lo, hi, parts, stats)
                stats["push_seconds"] += time.perf_counter() - t
            else:
                live = np.flatnonzero(prob * _in_layer(space, k + 1) > 0)
    expectations = {name: float(v) for name, v in zip(rules.box_names, box_sum)}
    expectations["upper_bonus"] = sums["upper_bonus"]
    expectations["yahtzee_bonus"] = sums["yahtzee_bonus"]
    expectations["total"] = float(box_sum.sum() + sums["upper_bonus"] + sums["yahtzee_bonus"])
    bonuses = {"upper_bonus": sums["p_upper"] if rules.tracks_upper else 0.0,
               "n_of_a_kind": sums["p_kind"]}
    final = None
    if distribution:
        totals = np.zeros(dist.shape[1])
        for row, a, b in zip(dist, lo, hi):
            totals[a:b + 1] += row[a:b + 1]
        final = ScoreDistribution(rules.name, totals[:int(hi.max()) + 1])
    stats["seconds"] = time.perf_counter() - start
    stats["peak_rss_mb"] = peak_rss_mb()
    return OptimalPlay(rules.name, expectations, bonuses, final, stats, prob)


def _in_layer(space, k):
    """Flat bool: states with exactly k boxes used."""
    marks = np.zeros(space.size, dtype=bool)
    marks[space.layer(k)] = True
    return marks


def _outcome_triples(o, offset):
    """(source row, next state, points, probability) with equal outcomes of a state merged.

    Within one state the box and the points fix the next state, so (column, box, points) is
    the key, counted densely by bincount rather than sorted.
    """
    S = o.prob.shape[1]
    n_boxes, span = int(o.box.max()) + 1, int(o.points.max()) + 1
    key = ((np.arange(S) * n_boxes + o.box) * span + o.points).ravel()
    weights = np.bincount(key, weights=o.prob.ravel(), minlength=S * n_boxes * span)
    found = np.flatnonzero(weights > 0)
    nxt = np.empty(len(weights), dtype=np.int64)
    nxt[key] = o.next_state.ravel()
    return found // (n_boxes * span) + offset, nxt[found], found % span, weights[found]


def _push_layer(dist, lo, hi, parts, stats):
    """The next layer's points-so-far rows from this layer's rows and turn outcomes."""
    src, nxt, points, weights = (np.concatenate(a) for a in zip(*parts))
    live, dst = np.unique(nxt, return_inverse=True)
    order = np.lexsort((src, dst))
    src, dst, points, weights = src[order], dst[order], points[order], weights[order]
    starts = np.searchsorted(dst, np.arange(len(live) + 1))
    width = int((hi[src] + points).max()) + 1
    out = np.zeros((len(live), width))
    out_lo = np.empty(len(live), np.int64)
    out_hi = np.empty(len(live), np.int64)
    _push(dist, lo, hi, starts, src, points, weights, out, out_lo, out_hi)
    stats["widest_row"] = max(stats["widest_row"], width)
    stats["peak_dist_mb"] = max(stats["peak_dist_mb"], (dist.nbytes + out.nbytes) / 2**20)
    return live, out, out_lo, out_hi


@njit(parallel=True, cache=True)
def _push(dist, lo, hi, starts, src, points, weights, out, out_lo, out_hi):
    """out[d] = sum of weight * (row of src shifted by points) over the outcomes reaching d."""
    for d in prange(len(starts) - 1):
        row = out[d]
        first, last = row.shape[0], -1
        for t in range(starts[d], starts[d + 1]):
            s, p, w = src[t], points[t], weights[t]
            a, b = lo[s], hi[s]
            source = dist[s]
            for x in range(a, b + 1):
                row[x + p] += w * source[x]
            first = min(first, a + p)
            last = max(last, b + p)
        out_lo[d] = first
        out_hi[d] = last


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
    path = play_path(rules)
    if use_cache and path.exists():
        try:
            return load_play(path, rules)
        except CacheError:
            pass  # recomputed below, never trusted
    if solution is None:
        solution = get_solution(rules, use_cache=use_cache, progress=progress)
    if solution.rules.name != rules.name:
        raise ValueError(f"solution is for {solution.rules.name!r}, not {rules.name!r}")
    play = forward(solution, distribution=True, progress=progress)
    if use_cache:
        save_play(play, path)
    return play


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
    return cache_dir() / f"{rules.name}-v{__version__}-play.npz"


def _numbers(play: OptimalPlay) -> np.ndarray:
    """Everything numeric a results file holds, in one array: what the checksum covers."""
    return np.concatenate([list(play.box_expectations.values()),
                           list(play.bonus_probabilities.values()), play.distribution.probabilities])


def save_play(play: OptimalPlay, path: str | Path) -> Path:
    """Write the results with the rules' name, the package version and a checksum."""
    return write_trusted(path, play.rules_name, _numbers(play), FORMAT,
                         keys=list(play.box_expectations), bonus_keys=list(play.bonus_probabilities),
                         stat_keys=list(play.stats), stats=list(play.stats.values()))


def load_play(path: str | Path, rules: str | Rules) -> OptimalPlay:
    """Read saved results; CacheError if damaged or written for other rules or versions."""
    rules = get_rules(rules)
    f = read_trusted(path, rules, FORMAT)
    numbers, keys, bonus_keys = f["numbers"], [str(k) for k in f["keys"]], [str(k) for k in f["bonus_keys"]]
    stats = dict(zip((str(k) for k in f["stat_keys"]), (float(v) for v in f["stats"])))
    if keys != list(rules.box_names) + ["upper_bonus", "yahtzee_bonus", "total"]:
        raise CacheError(f"{path} is damaged (its boxes are not the rules' boxes)")
    n, m = len(keys), len(bonus_keys)
    return OptimalPlay(rules.name, dict(zip(keys, numbers[:n].tolist())),
                       dict(zip(bonus_keys, numbers[n:n + m].tolist())),
                       ScoreDistribution(rules.name, numbers[n + m:]), stats)
