"""Many positions advised at once, as arrays: `advise_batch`, the optimum in bulk for programs
(agents, data sets, the Gymnasium environment), for the max-mean objective.

The option index (one for the batch API, the dataset export and the play page's options): a
rule set with B boxes and dice of K keepers, of which the first `roll_offset` hold fewer dice than
a roll, has B + roll_offset options,

    option b          (0 <= b < B)    score box b (`rules.box_names[b]`): after the last roll,
                                      or now, stopping with rerolls left
    option B + k      (k < roll_offset) keep keeper k (`rules.dice.keepers[k]`, dice counts by
                                      face) and reroll the other dice; k = 0 keeps nothing

Keepers are in `dice.keepers` order (by number of dice, then as `multisets` lists them);
keeping every die is no option (it is the same roll with one reroll fewer). `option_labels`
names them. In a position an option is legal when its value is finite: an allowed box, and with
rerolls left a keeper inside the dice showing.

Values are expected points still to come (the box's points now included), exactly `advise`'s
for the same position (tests/test_batch_advice.py, thousands of positions to 1e-9). The best
option follows `advise`'s tie rule (`choice.ranked`): of the options within TIE = 1e-9 of the
largest value, a box before a keeper, boxes in card order, keepers with more dice first, then
in keeper order. Regret is the best option's value less the option's (`Advice.loss`).

>>> from yatzy_core import get_rules
>>> rules = get_rules("yahtzee")
>>> b = advise_batch(rules, counts=[[4, 1, 0, 0, 0, 0], [0, 1, 1, 1, 1, 1]], used=[0, 0],
...                  upper_total=[0, 0], yahtzee_bonus=[0, 0], rolls_left=[2, 2], choice=[0, 0])
>>> [option_labels(rules)[i] for i in b.best], [round(float(v), 4) for v in b.value]
(['keep 1 1 1 1', 'score large_straight'], [270.2986, 261.5314])
>>> round(float(b.regret[0]), 4)        # scoring the four ones in ones now
22.2341
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..game.checks import instance_of, whole_number
from ..game.dice import counts_of
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace
from .position import upper_totals
from .solutions import solution_for
from .solver import Solution
from .turn import NEG, TIE, score_box

__all__ = ["BatchAdvice", "advise_batch", "option_labels", "option_count", "option_index", "option_preference",
           "position_arrays", "random_positions"]

CHUNK = 100_000   # positions whose box options are scored at once (bounds the (N, boxes) arrays)


class BatchAdvice(NamedTuple):
    """`advise_batch`'s answer for N positions; O = `option_count(rules)`."""

    values: np.ndarray          # (N, O) float64 value of every option; -inf where not legal
    best: np.ndarray            # (N,) int64 the best option under the tie rule
    value: np.ndarray           # (N,) float64 its value: the position's optimal value
    regret: np.ndarray | None   # (N,) float64 value[i] - values[i, choice[i]], when `choice` is given

    @property
    def legal(self) -> np.ndarray:
        """(N, O) bool: the options open in each position."""
        return np.isfinite(self.values)


def option_count(rules: Rules) -> int:
    """How many options the index has: boxes, then the keepers of fewer dice than a roll."""
    return rules.n_boxes + rules.dice.roll_offset


@lru_cache(maxsize=None)
def option_labels(rules: Rules) -> tuple[str, ...]:
    """Each option's name, by index: "score BOX", then "reroll all" and "keep 1 1 ...".

    >>> from yatzy_core import get_rules
    >>> labels = option_labels(get_rules("yahtzee"))
    >>> len(labels), labels[0], labels[12], labels[13], labels[14], labels[-1]
    (223, 'score ones', 'score chance', 'reroll all', 'keep 1', 'keep 6 6 6 6')
    """
    dice = rules.dice
    keep = ["reroll all" if k.sum() == 0 else "keep " + " ".join(str(f + 1) for f in np.repeat(np.arange(dice.faces), k))
            for k in dice.keepers[:dice.roll_offset]]
    return tuple([f"score {name}" for name in rules.box_names] + keep)


def option_index(rules: Rules, action: str, keep=None, box: str | None = None) -> int:
    """The index of a choice as `advise` describes it (`Advice.action`, `.keep`, `.box`).

    >>> from yatzy_core import get_rules
    >>> rules = get_rules("yahtzee")
    >>> option_index(rules, "box", box="chance"), option_index(rules, "keep", keep=(6, 6, 6, 6))
    (12, 222)
    """
    if action == "box":
        return rules.box_index(box)
    if action != "keep":
        raise ValueError(f"action must be 'box' or 'keep', got {action!r}")
    try:
        k = rules.dice.keeper_index.get(counts_of(keep, rules.faces))
    except (TypeError, ValueError):
        k = None
    if k is None or k >= rules.dice.roll_offset:
        raise ValueError(f"keep must be fewer than {rules.n_dice} dice 1..{rules.faces}, got {keep!r}")
    return rules.n_boxes + k


@lru_cache(maxsize=None)
def option_preference(rules: Rules) -> np.ndarray:
    """(O,) each option's place in the tie rule's order: boxes in card order, then keepers with
    more dice first, then in keeper order (`dice.preferred_pairs`)."""
    size = rules.dice.keeper_size[:rules.dice.roll_offset]
    keepers = np.lexsort((np.arange(len(size)), -size))
    rank = np.empty(option_count(rules), dtype=np.int64)
    rank[:rules.n_boxes] = np.arange(rules.n_boxes)
    rank[rules.n_boxes + keepers] = rules.n_boxes + np.arange(len(size))
    return rank


def position_arrays(positions) -> dict[str, np.ndarray]:
    """The arrays `advise_batch` takes, from `Position`s of one rule set (a test's or a
    notebook's convenience: `advise_batch(rules, **position_arrays(positions))`)."""
    positions = list(positions)
    return {"counts": np.array([p.counts for p in positions], dtype=np.int64).reshape(len(positions), -1),
            "used": np.array([p.mask for p in positions], dtype=np.int64),
            "upper_total": np.array([p.upper_total for p in positions], dtype=np.int64),
            "yahtzee_bonus": np.array([p.yahtzee_bonus for p in positions], dtype=bool),
            "rolls_left": np.array([p.rolls_left for p in positions], dtype=np.int64)}


def random_positions(rules: Rules, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """n positions as `advise_batch`'s arrays, drawn so: a turn state uniformly from the reachable
    ones short of a full card (its upper total as stored, capped at the threshold), the dice
    rolled (each die uniform), the rerolls left uniform in 0..rolls_per_turn - 1.

    >>> from yatzy_core import get_rules
    >>> p = random_positions(get_rules("yatzy"), 3, np.random.default_rng(1))
    >>> sorted(p), p["counts"].sum(axis=1).tolist()
    (['counts', 'rolls_left', 'upper_total', 'used', 'yahtzee_bonus'], [5, 5, 5])
    """
    whole_number("n", n)
    instance_of("rng", rng, np.random.Generator, "a numpy Generator (np.random.default_rng(seed))")
    space = StateSpace(rules)
    states = np.flatnonzero(space.reachable)
    states = states[space.decode(states)[0] != (1 << rules.n_boxes) - 1]
    used, upper, flag = space.decode(rng.choice(states, n))
    faces = rng.integers(0, rules.faces, (n, rules.n_dice))
    counts = (faces[:, :, None] == np.arange(rules.faces)).sum(axis=1)
    return {"counts": counts, "used": used, "upper_total": upper, "yahtzee_bonus": flag,
            "rolls_left": rng.integers(0, rules.rolls_per_turn, n)}


def advise_batch(rules: str | Rules, counts, used, upper_total, yahtzee_bonus, rolls_left, *,
                 choice=None, solution: Solution | None = None, use_cache: bool = True) -> BatchAdvice:
    """Every option's value, the best option and (with `choice`) the regret of a chosen option,
    for N positions given as arrays: `counts` (N, faces) dice per face, `used` (N,) the used
    boxes as a bit mask (bit b: `rules.box_names[b]`), `upper_total` (N,) the upper total (at or
    above the bonus threshold all count alike), `yahtzee_bonus` (N,) the Yahtzee box holds its
    50 (0 or 1; always 0 where the rules track no Yahtzee bonus), `rolls_left` (N,) rerolls left
    this turn. The option index: this module's docstring. ValueError naming the argument for a
    bad one; a game with saved rolls is not advised in bulk. `solution` and `use_cache` as for
    `solution_for` (the whole game's table is solved or read once)."""
    rules = get_rules(rules)        # the inputs are checked first; solution_for checks `solution`
    if rules.saved_rolls:
        raise ValueError(f"rules: {rules.name!r} save rolls; a game with saved rolls is advised one "
                         "position at a time (advise), not in bulk")
    space = StateSpace(rules)
    counts = _integers("counts", counts, None, ndim=2, width=rules.faces)
    states, rolls, rolls_left = _checked(rules, space, counts, used, upper_total, yahtzee_bonus, rolls_left)
    if choice is not None:          # every row checked before the table is solved or read
        choice = _choice(rules, space, choice, counts, states, rolls, rolls_left)
    solution = solution_for(rules, solution, use_cache=use_cache, progress=True)   # a bar when solved
    values = np.full((len(states), option_count(rules)), NEG)
    for at in range(0, len(states), CHUNK):
        part = slice(at, at + CHUNK)
        s = score_box(space, states[part, None], rolls[part, None], np.arange(rules.n_boxes)[None, :])
        values[part, :rules.n_boxes] = np.where(s.allowed, s.points + solution.values[s.next_state], NEG)
    _keepers(rules, space, solution.values, states, rolls, rolls_left, values)
    best = _best(rules, values)
    value = values[np.arange(len(best)), best]
    regret = None if choice is None else value - values[np.arange(len(best)), choice]
    return BatchAdvice(values, best, value, regret)


def _keepers(rules, space, table, states, rolls, rolls_left, values) -> None:
    """The keeper options of the positions with rerolls left (`compiled.option_kernel`)."""
    live = np.flatnonzero(rolls_left > 0)
    if not len(live):
        return
    from .compiled.first_use import announce_compiling
    from .compiled.layout import lane_groups, tables            # numba: only when keepers are asked
    from .compiled.option_kernel import SERIAL, keeper_options
    order = live[np.argsort(states[live], kind="stable")]
    unique, starts = np.unique(states[order], return_index=True)
    groups = lane_groups(space, unique)
    # the kernel that runs: a small batch's serial one never compiles the parallel one, whose
    # absence would otherwise be announced again at every call
    announce_compiling("option_kernel._groups" if len(groups) > SERIAL else "option_kernel._serial_groups",
                       "advise_batch's kernel", 25)
    s, t = tables(rules)
    keeper_options(s, t, groups, np.searchsorted(unique, groups), np.r_[starts, len(order)].astype(np.int64),
                   order.astype(np.int64), rolls, rolls_left, table, values)


def _best(rules: Rules, values: np.ndarray) -> np.ndarray:
    """(N,) the first option in the tie rule's order within TIE of each position's largest value."""
    top = values.max(axis=1, keepdims=True)
    preference = option_preference(rules)
    rank = np.where(values >= top - TIE, preference[None, :], len(preference))
    return np.argsort(preference)[rank.min(axis=1)]


def _choice(rules: Rules, space: StateSpace, choice, counts, states, rolls, rolls_left) -> np.ndarray:
    """`choice` as (N,) option indices, each legal in its position, checked before any work (a
    box allowed there; a keeper inside the dice, with a reroll left); ValueError naming the first
    bad row."""
    choice = _integers("choice", choice, len(states))
    n_options = option_count(rules)
    outside = (choice < 0) | (choice >= n_options)
    if outside.any():
        i = int(np.flatnonzero(outside)[0])
        raise ValueError(f"choice: position {i}: option {int(choice[i])} is not in 0..{n_options - 1}")
    box = choice < rules.n_boxes
    legal = np.zeros(len(choice), dtype=bool)
    legal[box] = score_box(space, states[box], rolls[box], choice[box]).allowed
    keeper = rules.dice.keepers[np.where(box, 0, choice - rules.n_boxes)]
    legal[~box] = ((keeper <= counts).all(axis=1) & (rolls_left > 0))[~box]
    if not legal.all():
        i = int(np.flatnonzero(~legal)[0])
        raise ValueError(f"choice: position {i}: option {int(choice[i])} ({option_labels(rules)[choice[i]]}) is not "
                         "legal there (a used or forbidden box, a keeper not in the dice, or a keeper with no reroll left)")
    return choice


def _integers(name: str, value, n: int | None, ndim: int = 1, width: int | None = None) -> np.ndarray:
    """`value` as an int64 array of `ndim` dimensions (n rows when n is given); a list stands for
    the array it lists (`[]`: no rows); ValueError naming it."""
    a = np.asarray(value)
    if a.shape == (0,) and not isinstance(value, np.ndarray):   # [] is float64 to numpy: no rows here
        a = np.zeros((0,) if ndim == 1 else (0, width or 0), dtype=np.int64)
    if a.dtype == bool:
        a = a.astype(np.int64)
    if a.dtype.kind not in "iu" or a.ndim != ndim or (n is not None and len(a) != n):
        want = f"{ndim}-dimensional whole numbers" + (f" for {n} positions" if n is not None else "")
        raise ValueError(f"{name} must be {want}, got {a.dtype} of shape {a.shape}")
    if a.dtype == np.uint64 and (a > np.iinfo(np.int64).max).any():
        raise ValueError(f"{name} must be whole numbers below 2**63, got {int(a.max())}")
    return a.astype(np.int64)


def _makeable(rules: Rules, used: np.ndarray, upper: np.ndarray) -> np.ndarray:
    """(N,) bool: each upper total is one its used upper boxes can hold, uncapped, by the rule
    `Position.make` uses (`position.upper_totals`): 500 with every upper box used is not. The
    stored, capped total (`rules.upper_cap`, what the tables and `random_positions` hold) counts
    as held when the boxes can reach it: sixes, fives and threes make 63 only as at least 63."""
    upper_bits = sum(1 << b for b, box in enumerate(rules.boxes) if box.is_upper)
    groups = used & upper_bits
    out = np.zeros(len(used), dtype=bool)
    for group in np.unique(groups):
        rows = groups == group
        names = [rules.box_names[b] for b in range(rules.n_boxes) if group >> b & 1]
        totals = upper_totals(rules, names)
        capped = rules.tracks_upper and max(totals) >= rules.upper_cap
        out[rows] = np.isin(upper[rows], sorted(totals)) | (capped & (upper[rows] == rules.upper_cap))
    return out


def _checked(rules: Rules, space: StateSpace, counts, used, upper_total, yahtzee_bonus, rolls_left):
    """(state, roll, rolls_left) int64 arrays of valid positions; ValueError naming the argument
    and the first bad position."""
    n = len(counts)
    dice = rules.dice

    def bad(name: str, wrong: np.ndarray, why: str):
        if wrong.any():
            i = int(np.flatnonzero(wrong)[0])
            raise ValueError(f"{name}: position {i}: {why}")

    if counts.shape[1] != rules.faces:
        raise ValueError(f"counts must have {rules.faces} columns (dice per face), got {counts.shape[1]}")
    bad("counts", ((counts < 0) | (counts > rules.n_dice)).any(axis=1) | (counts.sum(axis=1) != rules.n_dice),
        f"dice per face must be 0..{rules.n_dice} and add up to {rules.n_dice}")     # no sum that wraps
    used, upper, flag, left = (_integers(name, a, n) for name, a in
                               (("used", used), ("upper_total", upper_total), ("yahtzee_bonus", yahtzee_bonus),
                                ("rolls_left", rolls_left)))
    full = (1 << rules.n_boxes) - 1
    bad("used", (used < 0) | (used >= full), f"a bit mask of used boxes short of all of them (0..{full - 1})")
    bad("upper_total", upper < 0, "an upper total is >= 0")
    bad("yahtzee_bonus", (flag < 0) | (flag >= space.n_flags),
        "0 or 1" if space.n_flags == 2 else f"0: rules {rules.name!r} have no Yahtzee bonus to flag")
    bad("rolls_left", (left < 0) | (left >= rules.rolls_per_turn), f"rerolls left are 0..{rules.rolls_per_turn - 1}")
    if space.n_flags == 2:
        bad("yahtzee_bonus", (flag == 1) & ((used >> rules.yahtzee_index) & 1 == 0),
            f"the flag needs the {rules.yahtzee_box!r} box used")
    if rules.forced_order:
        bad("used", (used & (used + 1)) != 0, "boxes are filled in card order: the first boxes only")
    bad("upper_total", ~_makeable(rules, used, upper), "the used upper boxes cannot make this upper total")
    states = space.index(used, np.minimum(upper, rules.upper_cap), flag)
    bad("upper_total", ~space.reachable[states], "the used upper boxes cannot make this upper total")
    weights = (rules.n_dice + 1) ** np.arange(rules.faces, dtype=np.int64)
    codes = dice.rolls @ weights
    order = np.argsort(codes)
    rolls = order[np.searchsorted(codes[order], counts @ weights)]
    return states.astype(np.int64), rolls.astype(np.int64), left
