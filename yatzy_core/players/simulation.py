"""Play many seeded games with any player and keep every game's score card.

All games of a batch advance turn by turn together: roll the dice not kept, ask the player,
repeat, then fill a box. Dice come from one numpy Generator per simulation, so the same seed
gives the same games.

>>> frame = simulate("yahtzee", "greedy", games=3, seed=1, progress=False)
>>> list(frame.columns[-3:]), len(frame)
(['upper_bonus', 'yahtzee_bonus', 'total'], 3)
>>> bool((frame.iloc[:, :-1].sum(axis=1) == frame["total"]).all())
True
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from .batch import MAX_GAMES, Strategy, contains, fill, reroll
from ..game.checks import instance_of, whole_number
from ..game.rules import Rules, get_rules
from .registry import make_player

__all__ = ["simulate", "summary", "play_batch"]

BONUS_COLUMNS = ("upper_bonus", "yahtzee_bonus", "total")


def _check_count(games, name: str = "games") -> int:
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number, got {type(games).__name__}")
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"{name} must be a whole number 1..{MAX_GAMES:,} (each game's card is kept in memory), "
                         f"got {games}")
    return int(games)


def play_batch(player: Strategy, games: int, rng: np.random.Generator, bar=None) -> np.ndarray:
    """(games, n_boxes + 2) points of `games` games: every box, then upper and Yahtzee bonus."""
    rules = player.rules
    space = getattr(player, "space", None)
    if space is None:
        from ..game.states import StateSpace
        space = StateSpace(rules)
    card = np.zeros((games, rules.n_boxes + 2))
    states = np.zeros(games, dtype=np.int64)          # index(0, 0, 0): the empty card
    games_ = np.arange(games)
    for _ in range(rules.n_boxes):
        keepers = np.zeros(games, dtype=np.int64)      # keeper 0 keeps nothing
        for rerolls in range(rules.rolls_per_turn - 1, -1, -1):
            rolls = reroll(rules, keepers, rng)
            if rerolls:
                keepers = np.asarray(player.keep(states, rolls, rerolls, rng), dtype=np.int64)
                if not contains(rules, keepers, rolls).all():
                    raise ValueError(f"{player!r} kept dice that were not rolled")
        boxes = np.asarray(player.box(states, rolls, rng), dtype=np.int64)
        scored = fill(space, states, rolls, boxes)
        card[games_, boxes] = scored.box_points
        card[:, -2] += scored.upper_bonus
        card[:, -1] += scored.yahtzee_bonus
        states = scored.next_state
        if bar is not None:
            bar.update(games)
    return card


def simulate(rules: str | Rules, strategy="optimal", games: int = 10_000, seed: int | None = 0,
             progress: bool = True, batch: int | None = None, **options) -> pd.DataFrame:
    """One row per game: the points in every box, upper bonus, Yahtzee bonus and total.

    `strategy` is a name (see `registry.strategy_names`), a player class or a player;
    `options` go to the player class. Games are played `batch` at a time (default: the
    player's own `batch`, else all at once); the frame's `attrs` record rules, strategy, seed
    and seconds.
    """
    rules = get_rules(rules)
    if rules.saved_rolls:
        raise ValueError(f"rules {rules.name!r} save rolls, which these players do not play; "
                         f"use players.saved_play.play_saved")
    games = _check_count(games)
    if seed is not None:
        whole_number("seed", seed)      # (else numpy's own TypeError, from inside default_rng)
    player = make_player(strategy, rules, **options)
    batch = _check_count(batch or getattr(player, "batch", games), "batch")
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    parts = []
    with tqdm(total=games * rules.n_boxes, desc=f"{player.name} on {rules.name}", unit="turn",
              unit_scale=True, disable=not progress, leave=False) as bar:
        for first in range(0, games, batch):
            parts.append(play_batch(player, min(batch, games - first), rng, bar))
    card = np.concatenate(parts).round().astype(np.int64)
    frame = pd.DataFrame(card, columns=list(rules.box_names) + list(BONUS_COLUMNS[:2]))
    frame["total"] = frame.sum(axis=1)
    frame.index.name = "game"
    frame.attrs.update(rules=rules.name, strategy=player.name, seed=seed,
                       seconds=time.perf_counter() - start)
    return frame


def summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation, standard error of the mean, min and max of every column."""
    instance_of("frame", frame, pd.DataFrame, "a DataFrame of games (simulate)")
    n = len(frame)
    table = pd.DataFrame({
        "mean": frame.mean(), "std": frame.std(ddof=1) if n > 1 else 0.0,
        "min": frame.min(), "max": frame.max()})
    table.insert(2, "sem", table["std"] / np.sqrt(n))
    return table
