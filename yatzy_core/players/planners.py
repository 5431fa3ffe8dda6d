"""Players that look ahead within the turn only: three published AIs, read as faithfully as
their descriptions allow (each docstring says where we had to choose).

None of them knows the value of later turns; that is what separates them from `optimal`.
`turn_expectation` and `heuristic` plan the turn exactly (`turn.py`'s keeper recursion over
their own end-of-turn values); `mc_planner` estimates by sampling.
"""
from __future__ import annotations

import numpy as np

from .batch import keepers_inside, now_points, score_rows
from .strategies import Greedy, Player, Strategic, TurnPlanner, preferred_keepers
from ..engine.turn import NEG, evaluate, preferred_box

__all__ = ["TurnExpectation", "Heuristic", "MCPlanner"]


class _MemoPlanner(TurnPlanner):
    """A TurnPlanner whose tables depend on few keys (used boxes, flags): remembered for good."""

    def _compute(self, keys):
        memo = self.__dict__.setdefault("_memo", {})
        missing = np.array([k for k in keys.tolist() if k not in memo], dtype=np.int64)
        if len(missing):
            boxes, keeps = super()._compute(missing)
            for i, k in enumerate(missing.tolist()):
                memo[k] = (boxes[i], keeps[:, i])
        rows = [memo[k] for k in keys.tolist()]
        return np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows], axis=1)

    def key(self, states):
        mask, _, flag = self.space.decode(states)
        return self.space.index(mask, 0, flag)


class TurnExpectation(_MemoPlanner):
    """The per-turn expectation maximiser (a published hobby AI): each box's score s is
    discounted by exp(-(m - s) / 100), m the most the box can score, and the turn is played
    exactly for the best discounted score at its end: keepers by expected value, then the box
    with the highest discounted score.

    Readings: "expected best box score" is the exact expectation with the rest of the turn
    played the same way (not one reroll deep); the discount is a factor on the score, so a
    zero stays zero and ties among zeros go to the first open box; bonuses are not counted.
    Ours: 214.4 in Yahtzee, 197.7 in Yatzy (25000 games each, standard error 0.3).
    """

    name = "turn_expectation"

    def final_values(self, keys):
        scores = score_rows(self.space, keys)
        top = np.array([b.max_score for b in self.rules.boxes], dtype=float)[:, None, None]
        finite = np.isfinite(scores)
        safe = np.where(finite, scores, 0.0)
        return np.where(finite, safe * np.exp(-(top - safe) / 100.0), NEG)


class Heuristic(_MemoPlanner):
    """Probability of completing each box times its score, plus simple rules (the heuristic of
    Dahlbom Norgren and Svensson's KTH thesis "Optimal Yahtzee": 211.04 with its rules, 204.75
    without, 100000 games of Hasbro Yahtzee without the Yahtzee bonus, against the optimal 245.87).

    Keeping: for every open box b, the exact expected score of b at the end of the turn if the
    rest of the turn aims at b alone (for a 25-, 30-, 40- or 50-point box: P(complete) times the
    points); keep the dice whose best box has the highest value. Box: the most points.
    We have not seen the thesis's own rule list; with `extras=True` (default) we add two:
    (1) until the upper bonus is earned an upper point counts 1 + bonus/threshold (the bonus
    spread over the points that earn it); (2) every box is measured against its par, what it
    scores on average in one turn aimed at it: keep for the largest expected gain over par
    (P(complete) times points above par for a fixed-score box) and score the box with the
    largest score minus par, so a zero goes to the box worth least. Ours on the thesis's game
    (yahtzee-no-bonus, 5000 games, standard error 0.5): 207.7 plain, 225.6 with the rules (the
    thesis: 204.75 and 211.04): our rules are not theirs and add more. Hasbro Yahtzee: 209 plain,
    229 with the rules; Yatzy: 187 and 206 (25000 games each).
    """

    name = "heuristic"

    def __init__(self, rules, extras: bool = True):
        super().__init__(rules)
        self.extras = extras
        self.par = self._par()

    def _par(self) -> np.ndarray:
        """Expected score of each box in one turn aimed at it alone (a value per box)."""
        final = self.rules.score_table.astype(float)[None]             # (1, n_rolls, n_boxes)
        return evaluate(self.space, final, choose=False).start

    def key(self, states):
        mask, upper, flag = self.space.decode(states)
        earned = upper >= self.rules.upper_cap if self.rules.tracks_upper else np.zeros_like(upper)
        return self.space.index(mask, np.where(earned, self.rules.upper_cap, 0), flag)

    def weighted(self, keys) -> np.ndarray:
        """(n_boxes, n_rolls, S) allowed scores, upper points weighted while the bonus is open."""
        rules = self.rules
        scores = score_rows(self.space, keys)
        if not (self.extras and rules.tracks_upper):
            return scores
        _, upper, _ = self.space.decode(keys)
        weight = 1 + rules.upper_bonus / rules.upper_bonus_threshold
        boost = np.where((rules.upper_faces > 0)[:, None] & (upper < rules.upper_cap)[None],
                         weight, 1.0)                                      # (n_boxes, S)
        return scores * boost[:, None, :]

    def _turn_block(self, keys):
        space, rules = self.space, self.rules
        scores = self.weighted(keys)                                      # (n_boxes, n_rolls, S)
        par = self.par[:, None, None] if self.extras else 0.0
        boxes = preferred_box(scores - par)
        mask, _, _ = space.decode(keys)
        open_ = (mask[None, :] >> np.arange(rules.n_boxes)[:, None]) & 1 == 0  # (n_boxes, S)
        # a box the joker rule forbids for some rolls is worth 0 on those; a used box: excluded
        target = np.where(open_[:, None, :], np.maximum(scores - par, 0), NEG)
        turn = evaluate(space, np.moveaxis(target, 0, 1)[None], choose=False)  # one turn per box
        keeps = [keep.max(axis=1) for keep in turn.keepers]               # aim at the best box
        return boxes, preferred_keepers(space, keeps)


class MCPlanner(Player):
    """Monte-Carlo sparse sampling over keepers (published about 194-199 with N=10).

    At a reroll, every distinct keeper inside the roll is tried `samples` times (N); a sampled
    roll is worth what the box rule would score with it if it were the last (`depth=1`), or, with
    `depth=2` and a reroll still to come, the best of its own keepers tried N times each. The box
    rule ("greedy": most points now; "strategic": best share of the box's maximum) also picks the
    box after the last roll. Readings: the depth counts rolls looked ahead from this decision;
    a sampled roll's value is the points of the box the rule picks (for "strategic" too).
    Ours, N=10, depth 2, greedy boxes: 191 +- 3 in Yahtzee (150 games), 167 +- 4 in Yatzy
    (40 games), at 4-10 games a second.
    """

    name = "mc_planner"
    batch = 100  # games decided together: memory grows as batch * 32 * N * 32 * N

    def __init__(self, rules, samples: int = 10, depth: int = 2, box_rule: str = "greedy"):
        super().__init__(rules)
        if samples < 1 or depth not in (1, 2):
            raise ValueError(f"need samples >= 1 and depth 1 or 2, got {samples}, {depth}")
        rule = {"greedy": Greedy, "strategic": Strategic}.get(box_rule)
        if rule is None:
            raise ValueError(f"box_rule must be 'greedy' or 'strategic', got {box_rule!r}")
        self.samples, self.depth, self.box_rule = samples, depth, rule(self.rules)
        self._sampler = _roll_sampler(self.rules)

    def _leaf(self, states) -> np.ndarray:
        """(G, n_rolls) points the box rule would score with each roll as the final one."""
        G, R = len(states), self.rules.dice.n_rolls
        st, rolls = np.repeat(np.asarray(states), R), np.tile(np.arange(R), G)
        boxes = self.box_rule.pick(st, rolls)
        points = now_points(self.space, st, rolls)
        return points[np.arange(G * R), boxes].reshape(G, R)

    def keep(self, states, rolls, rerolls, rng):
        states, rolls = np.asarray(states), np.asarray(rolls)
        leaf = self._leaf(states)                                          # (G, n_rolls)
        depth = min(self.depth, rerolls)
        values = self._keeper_values(leaf, rolls, depth, rng)             # (G, 32)
        return keepers_inside(self.rules)[rolls, np.argmax(values, axis=1)]

    def _keeper_values(self, leaf, rolls, depth, rng):
        """(G, 32) sampled value of each distinct keeper of each game's roll (-inf: padding)."""
        keepers = keepers_inside(self.rules)[rolls]                        # (G, 32), -1 pads
        G = len(rolls)
        sampled = self._sampler(np.maximum(keepers, 0)[..., None], rng, self.samples)  # (G,32,N)
        if depth == 1:
            worth = np.take_along_axis(leaf, sampled.reshape(G, -1), axis=1).reshape(sampled.shape)
        else:
            worth = np.empty(sampled.shape)
            for j in range(sampled.shape[1]):                              # one keeper at a time
                inner = self._keeper_values(
                    np.repeat(leaf, self.samples, axis=0), sampled[:, j].reshape(-1), 1, rng)
                worth[:, j] = inner.max(axis=1).reshape(G, self.samples)
        return np.where(keepers >= 0, worth.mean(axis=-1), NEG)

    def box(self, states, rolls, rng):
        return self.box_rule.box(states, rolls, rng)


def _roll_sampler(rules):
    """Draw rolls from keepers by inverse CDF over the (keeper, roll) pairs: keeper k's
    cumulative probabilities are stored shifted by k, so one searchsorted serves all keepers."""
    dice = rules.dice
    pairs = dice.pairs                                                    # sorted by keeper
    p = dice.transition[pairs[:, 0], pairs[:, 1]]
    cum = np.zeros(len(pairs))
    for k in range(dice.n_keepers):
        rows = np.flatnonzero(pairs[:, 0] == k)
        cum[rows] = k + np.cumsum(p[rows])
        cum[rows[-1]] = k + 1.0                                           # no rounding gaps
    roll_of = pairs[:, 1]

    def sample(keepers: np.ndarray, rng: np.random.Generator, n: int) -> np.ndarray:
        u = np.minimum(rng.random(keepers.shape[:-1] + (n,)), 1 - 1e-9)
        where = np.searchsorted(cum, keepers + u, side="right")
        return roll_of[np.minimum(where, len(cum) - 1)]
    return sample
