"""Players: the optimal strategy and the simple ones people use, each for every rule set.

Every player follows `batch.Strategy`: `keep(states, rolls, rerolls, rng)` and
`box(states, rolls, rng)` over a batch of games. All but `planners.MCPlanner` are table driven (a
decision is an array lookup), so thousands of games move together; `optimal` and the turn planners in `planners.py`
build their tables per turn for the distinct states in the batch. `registry.py` finds a player
by its name.

>>> greedy = Greedy("yahtzee")
>>> def keeps(dice):  # what greedy keeps from these dice at the start of a game
...     roll = greedy.rules.dice.roll_index[counts_of(dice)]
...     return dice_of(greedy.rules.dice.keepers[greedy.keep([0], [roll], 2, None)[0]])
>>> keeps([2, 3, 4, 6, 6]), keeps([3, 3, 3, 4, 5]), keeps([1, 2, 4, 5, 6])
((2, 3, 4), (3, 3, 3), (4, 5, 6))
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..game.dice import counts_of, dice_of  # noqa: F401 (used by the doctest)
from .batch import Boxes, Keepers, Rolls, States, box_scores, now_points, position_keepers
from ..game.rules import Rules, get_rules
from ..engine.compiled.outcomes import turn_choices
from ..engine.solutions import solution_for
from ..game.states import StateSpace
from ..engine.turn import NEG, best_subkeeper, box_values, evaluate, preferred_keeper

__all__ = ["Player", "Random", "Greedy", "Strategic",
           "TurnPlanner", "Optimal"]

BLOCK = 512  # states per block of turn tables: bounds the (n_boxes, n_rolls, BLOCK) array


class Player:
    """Shared plumbing: the rule set and its state space; subclasses decide."""

    name = "player"

    def __init__(self, rules: str | Rules):
        self.rules = get_rules(rules)
        self.space = StateSpace(self.rules)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.rules.name!r})"

    def keep(self, states: States, rolls: Rolls, rerolls: int, rng: np.random.Generator) -> Keepers:
        raise NotImplementedError

    def box(self, states: States, rolls: Rolls, rng: np.random.Generator) -> Boxes:
        raise NotImplementedError


# ---- random -----------------------------------------------------------------------------------

class Random(Player):
    """A uniformly random legal action: each die is kept with probability 1/2 (every subset of
    the dice positions is equally likely, keeping all ends the rolling early), and the box is
    drawn uniformly from the allowed ones.

    Reading: "uniformly random" is taken over the 2**5 keep-or-reroll choices a player sees,
    not over distinct multisets. Ours averages 45.9 in Yahtzee (sd 18.3, 25000 games) against
    the published "about 40": the random box decides the score, not the dice (never
    rerolling, always rerolling everything and uniform multisets all give 46 too), and a
    20-game sample, the size some published agents were measured on, has a standard error of 4.
    """

    name = "random"

    def keep(self, states, rolls, rerolls, rng):
        by_position = position_keepers(self.rules)
        pick = rng.integers(0, by_position.shape[1], size=len(rolls))
        return by_position[rolls, pick]

    def box(self, states, rolls, rng):
        scores = box_scores(self.space, states, rolls)
        priority = np.where(np.isfinite(scores), rng.random(scores.shape), -1.0)
        return np.argmax(priority, axis=-1)


# ---- greedy and strategic ---------------------------------------------------------------------

def _straight_boxes(rules: Rules) -> list[int]:
    return [b for b, name in enumerate(rules.box_names) if "straight" in name]


def _keep_rule(rules: Rules, counts: np.ndarray, straights_open: list[int]) -> tuple[int, ...]:
    """Greedy keeping for one roll: the most common face (the higher face on ties), or the
    longest run of 3+ consecutive faces that fits an open straight, when it is longer."""
    faces = len(counts)
    best_face = max(range(faces), key=lambda f: (counts[f], f))
    keep = [0] * faces
    keep[best_face] = int(counts[best_face])
    targets = [rules.dice.rolls[rules.score_table[:, b] > 0] for b in straights_open]
    best_run: tuple[int, int] | None = None
    for start in range(faces):
        for end in range(start + 3, faces + 1):
            run = np.zeros(faces, dtype=np.int64)
            run[start:end] = 1
            if (run <= counts).all() and any((run <= t).all(axis=1).any() for t in targets):
                if best_run is None or end - start >= best_run[1] - best_run[0]:
                    best_run = (start, end)
    if best_run and best_run[1] - best_run[0] > counts[best_face]:
        keep = [1 if best_run[0] <= f < best_run[1] else 0 for f in range(faces)]
    return tuple(keep)


class Greedy(Player):
    """Keeps the most common face, or a run of 3-4 toward a straight when a straight box is
    open; scores the box with the highest immediate score.

    Readings: a run is kept only when it is longer than the most common face's count (so
    3-3-3-4-5 keeps the threes, 3-3-4-5-x keeps 3-4-5), and a finished straight is kept whole;
    ties go to the higher face. "Immediate score" is the points written now: box score plus an
    upper bonus that this box completes (the Yahtzee bonus is the same for every box). Ties,
    e.g. a roll that scores nothing, go to the first open box in card order. In Yatzy the
    straights are the 1-5 and 2-6 boxes.

    Ours averages 203.6 in Yahtzee (sd 61.6, 25000 games), far above the published "about 122",
    which we cannot reproduce from the description (chapter 6 asks what players that reroll
    less would score). The study reports our number.
    """

    name = "greedy"

    def __init__(self, rules):
        super().__init__(rules)
        straights = _straight_boxes(self.rules)
        self._straights = np.array(straights, dtype=np.int64)
        dice = self.rules.dice
        n_patterns = 1 << len(straights)
        table = np.zeros((dice.n_rolls, n_patterns), dtype=np.int64)
        for pattern in range(n_patterns):
            open_ = [b for i, b in enumerate(straights) if (pattern >> i) & 1]
            for r, counts in enumerate(dice.rolls):
                table[r, pattern] = dice.keeper_index[_keep_rule(self.rules, counts, open_)]
        self._keep_table = table

    def keep(self, states, rolls, rerolls, rng):
        mask, _, _ = self.space.decode(states)
        pattern = np.zeros(len(rolls), dtype=np.int64)
        for i, b in enumerate(self._straights):
            pattern |= (((mask >> b) & 1) == 0).astype(np.int64) << i
        return self._keep_table[rolls, pattern]

    def pick(self, states: States, rolls: Rolls) -> Boxes:
        """The box this rule picks for each game's roll: the most points now, the first on ties."""
        return np.argmax(now_points(self.space, states, rolls), axis=-1)

    def box(self, states, rolls, rng):
        return self.pick(states, rolls)


class Strategic(Greedy):
    """Keeps like `Greedy`; scores the box with the best ratio of its score to the most that
    box can ever score (`Box.max_score`), so a 25 in chance (25/30) loses to a 30 small straight
    (30/30) and a 12 in fours (12/20) beats a 12 in three of a kind (12/30).

    Reading: equal ratios are broken by the higher score, then card order; otherwise five
    twos (10/10 in twos, 50/50 in the Yahtzee box) would go to twos. Ours averages 211.0 in
    Yahtzee (sd 63.4, 25000 games) against the published "about 126"; see `Greedy` for why.
    """

    name = "strategic"

    def pick(self, states, rolls):
        scores = box_scores(self.space, states, rolls)
        top = np.array([max(b.max_score, 1) for b in self.rules.boxes], dtype=float)
        ratio = scores / top            # equal fractions of small integers are equal floats
        best = ratio == ratio.max(axis=-1, keepdims=True)
        return np.argmax(np.where(best, scores, NEG), axis=-1)


# ---- players that plan a whole turn from a table of final-roll values -----------------------

class TurnPlanner(Player):
    """Plays each turn exactly for its own end-of-turn values with the turn engine
    (`turn.evaluate`): a roll is worth its best box, a keeper the mean of its rolls, a roll with
    rerolls left its best keeper. Subclasses say which states share tables (`key`) and what
    each box is worth after the last roll (`final_values`).

    A batch's tables, for its S distinct keys, are the box chosen for each final roll and the
    keeper chosen in each roll with 1, 2, ... rerolls left, both under the engine's tie rule.
    """

    threads = 1

    def key(self, states: States) -> States:
        return np.asarray(states)

    def final_values(self, keys: States) -> np.ndarray:
        """(n_boxes, n_rolls, S) value of ending the turn in each box; -inf where not allowed."""
        raise NotImplementedError

    def _turn_block(self, keys: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """(n_rolls, B) box of each final roll; [(n_rolls, B) keeper of each roll, 1 reroll
        left, then 2, ...]."""
        turn = evaluate(self.space, self.final_values(keys))
        return turn.box, turn.keep

    def _compute(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(S, n_rolls) box choices and (rerolls, S, n_rolls) keeper choices: a game's choices
        lie together in memory."""
        dice, S = self.rules.dice, len(keys)
        boxes = np.empty((S, dice.n_rolls), np.int16)
        keeps = np.empty((self.rules.rolls_per_turn - 1, S, dice.n_rolls), np.int16)

        def work(start: int) -> None:
            b, k = self._turn_block(keys[start:start + BLOCK])
            boxes[start:start + BLOCK] = b.T
            for j, table in enumerate(k):
                keeps[j, start:start + BLOCK] = table.T

        starts = range(0, S, BLOCK)
        if self.threads > 1 and len(starts) > 1:
            with ThreadPoolExecutor(self.threads) as pool:
                list(pool.map(work, starts))
        else:
            for start in starts:
                work(start)
        return boxes, keeps

    def tables(self, states: States):
        """Each game's row in the tables of the batch's distinct keys, and the tables. The
        last batch's are kept: a simulator asks about the same states three times a turn."""
        states = np.asarray(states)
        last = getattr(self, "_last", None)
        if last is not None and np.array_equal(last[0], states):
            return last[1], last[2]
        self._last = None                                            # free the old tables first
        keys, row = np.unique(self.key(states), return_inverse=True)
        self._last = (states.copy(), row, self._compute(keys))
        return row, self._last[2]

    def keep(self, states, rolls, rerolls, rng):
        row, (_, keeps) = self.tables(states)
        return keeps[rerolls - 1, row, np.asarray(rolls)].astype(np.int64)

    def box(self, states, rolls, rng):
        row, (boxes, _) = self.tables(states)
        return boxes[row, np.asarray(rolls)].astype(np.int64)


def preferred_keepers(space: StateSpace, keeps: list[np.ndarray]) -> list[np.ndarray]:
    """The keeper chosen in each roll from tables of keeper values, under the engine's tie rule."""
    return [preferred_keeper(space, keep, best_subkeeper(space, keep)) for keep in keeps]


class Optimal(TurnPlanner):
    """The solver's policy: keep the dice with the highest expected final score, score the box
    with the highest points-now-plus-value-of-the-next-state.

    Its turn tables are the turn engine's choices for the distinct states among the games, so
    a batch costs one solver turn per distinct state, not per game; they come from the
    engine's compiled fast path (`outcomes.turn_choices`, tested equal to `turn.evaluate`),
    whose exact distribution `engine/turn_forward.py` computes.
    """

    name = "optimal"
    batch = 100_000  # games at a time: bounds the tables (1.5 KB per distinct state)

    def __init__(self, rules, solution=None, threads: int | None = None):
        super().__init__(rules)
        self.values = solution_for(self.rules, solution).values
        self.threads = threads or min(4, os.cpu_count() or 1)

    def final_values(self, keys):
        return box_values(self.space, self.values, keys)

    def _compute(self, keys):
        return turn_choices(self.space, self.values, keys)
