"""Optimal games of a saved-roll rule set (Maxi Yatzy as played), one at a time from its solved
layers: each turn may reroll rolls_per_turn - 1 + saved times, and scoring early saves the
rerolls left. The choices are the advisor's (`engine.saved.saved_stages`); on a tie (within TIE)
scoring now wins over rerolling (it saves rolls), the first box in card order over later ones, and
the keeper with the most dice, then the first in keeper order (so the spread of these games is
the one `solve_saved(..., moments=True)` computes).

>>> from yatzy_core.engine.saved import solve_saved
>>> from yatzy_core.game.rules import Rules
>>> from yatzy_core.game.scoring import Box, total
>>> game = Rules("chance-twice", (Box("a", total), Box("b", total)), upper_bonus=0, n_dice=1,
...              rolls_per_turn=2, saved_rolls=True)
>>> played = play_saved(solve_saved(game, progress=False), games=2, seed=1)
>>> list(played.frame.columns), played.saved.shape     # saved at the start of each turn, and at the end
(['a', 'b', 'upper_bonus', 'total'], (2, 3))
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..engine.saved import SavedSolution, saved_stages
from ..engine.turn import TIE, upper_step
from ..game.checks import whole_number

__all__ = ["SavedGames", "play_saved"]


@dataclass
class SavedGames:
    """Played games: points by box, upper bonus and total (one row a game), and the rolls saved
    at the start of each turn and at the end (games x (turns + 1))."""

    frame: pd.DataFrame
    saved: np.ndarray


def play_saved(solution: SavedSolution, games: int, seed: int = 0, cached: int = 2000) -> SavedGames:
    """`games` optimal games from the empty card (the solution must keep every layer). The turns
    worked out are kept for states met again, up to `cached` of them (then forgotten: a turn of
    Maxi Yatzy with many saved rolls holds about a MB)."""
    rules = solution.rules
    whole_number("games", games)
    whole_number("seed", seed)
    if any(layer is None for layer in solution.layers):
        raise ValueError("playing needs every layer: solve_saved(..., keep=None)")
    rng = np.random.default_rng(seed)
    stages: dict = {}
    points = np.zeros((games, rules.n_boxes + 2), dtype=np.int64)
    saved = np.zeros((games, rules.n_boxes + 1), dtype=np.int64)
    for g in range(games):
        mask = upper = left = 0
        for turn in range(rules.n_boxes):
            saved[g, turn] = left
            key = (int(solution.space.index(mask, upper, 0)), rules.rolls_per_turn - 1 + left)
            if key not in stages:
                if len(stages) >= cached:
                    stages.clear()
                stages[key] = saved_stages(solution, *key)
            box, roll, left = _turn(rules, rng, stages[key], key[1])
            gained = int(rules.score_table[roll, box])
            points[g, box] = gained
            if rules.boxes[box].is_upper:
                bonus, upper = upper_step(rules, upper, gained)
                points[g, -2] += int(bonus)
            mask |= 1 << box
        saved[g, -1] = left
    points[:, -1] = points[:, :-1].sum(axis=1)
    columns = list(rules.box_names) + ["upper_bonus", "total"]
    return SavedGames(pd.DataFrame(points, columns=columns), saved)


def _turn(rules, rng, stage, rerolls: int) -> tuple[int, int, int]:
    """One optimal turn: (box, final roll, rerolls left when it scored)."""
    dice = rules.dice
    finals, keepers, _ = stage
    kept = np.zeros(rules.faces, dtype=np.int64)
    order, starts = dice.preferred_pairs
    for j in range(rerolls, -1, -1):
        counts = kept + np.bincount(rng.integers(0, rules.faces, rules.n_dice - kept.sum()),
                                    minlength=rules.faces)
        roll = dice.roll_index[tuple(int(c) for c in counts)]
        now = finals[j][:, roll, 0]
        box = int(np.flatnonzero(now >= now.max() - TIE)[0])
        if j == 0:
            return box, roll, 0
        subs = order[starts[roll]:starts[roll + 1]]
        subs = subs[dice.keeper_size[subs] < rules.n_dice]
        values = keepers[j - 1][subs, 0]
        if values.max() <= now.max() + TIE:
            return box, roll, j
        best = int(np.flatnonzero(values >= values.max() - TIE)[0])   # preferred order: the tie rule
        kept = dice.keepers[subs[best]].astype(np.int64)
    raise AssertionError("unreachable: the last stage always scores")
