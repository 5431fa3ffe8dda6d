"""Playing with a risk appetite: the best E[sign(theta) exp(theta * points still to come)].

Exponential utility needs no augmentation of the state (exp(theta (a + b)) = exp(theta a)
exp(theta b)): `solve_risk` is a values-like backward pass, one lane per theta, and its values
are read as a certainty equivalent in points (log(sign(theta) U) / theta). `RiskTable` is one
theta's table with the result protocol of every solved table (`engine.solved`).

>>> t = risk_table(get_rules("yahtzee-no-bonus").with_(name="chance-only", boxes=get_rules("yahtzee-no-bonus").boxes[-1:],
...                upper_bonus=0, yahtzee_box=None), -0.5, use_cache=False)
>>> round(t.start_value, 4), t.theta                 # cautious: below the mean of 23.3333
(20.7081, -0.5)
"""
from __future__ import annotations

import contextlib
import math
import os
import re
import struct
import time
from dataclasses import dataclass

import numpy as np

from ..engine.cache import (CacheError, cache_path, cacheable, cached_for, layout_digest, read_trusted, remove_oldest,
                            write_trusted)
from ..engine.compiled.layout import tables
from ..engine.solved import StateTable
from ..engine.compiled.target_kernel import CHUNK
from ..engine.table_solver import Operator, solve_table
from ..engine.turn import ExpUtility
from ..game.checks import real_number
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace
from .targets import FORMAT, max_total, pad_points, within_mask

__all__ = ["RiskTable", "solve_risk", "risk_table", "theta_range", "check_theta", "certainty_equivalent",
           "cached_theta", "RISK_TABLES", "risk_operator"]

THETA_MIN = 1e-7     # CE error ~ (relative error of U, ~1e-15 measured on yahtzee) / |theta|: 1e-8 here
EXP_LIMIT = 700.0    # |theta| * max_total at most this: exp(theta * points) stays finite and normal
RISK_TABLES = 8      # risk tables kept per rule set (one number per state each): the least recently used go


def theta_range(rules: Rules) -> tuple[float, float]:
    """(least, most) |theta| whose certainty equivalents these rules' points let float64
    compute to about 1e-6 points: not lost in rounding, exp(theta * max_total) representable."""
    return THETA_MIN, EXP_LIMIT / max(max_total(rules), 1)


def check_theta(theta, rules: Rules) -> float:
    """theta as a float; ValueError naming it and the range allowed for `rules` unless it is a
    finite number within `theta_range` either side of 0."""
    lo, hi = theta_range(rules)
    try:
        x = real_number("theta", theta)
    except ValueError:
        x = math.nan
    if not lo <= abs(x) <= hi:
        raise ValueError(f"theta must be a number with {lo:g} <= |theta| <= {hi:.4g} for these rules "
                         f"(at most {max_total(rules):,} points; 0 is the mean), got {theta!r}")
    return x


@dataclass
class RiskTable(StateTable):
    """One theta's utilities U(s) = best E[sign(theta) exp(theta * points still to come)] of every
    turn state (`within`: only the states whose used boxes include it are solved), with the
    protocol of every solved table: `rules`, `space`, `value(mask, upper, flag)` (here the
    certainty equivalent, in points), `start_value`, `seconds`. Made by `solve_risk`/`risk_table`;
    one finite number per state, sign(theta) on the full card (checked here, once)."""

    theta: float
    utilities: np.ndarray
    seconds: float = 0.0
    within: int = 0

    def __post_init__(self):
        super().__post_init__()
        self.theta = check_theta(self.theta, self.rules)
        u = np.asarray(self.utilities)
        if u.dtype != np.float64 or u.shape != (self.space.size,) or not np.isfinite(u).all():
            raise ValueError(f"utilities must be one finite float64 per state of {self.rules.name!r} "
                             f"({self.space.size}), got {u.dtype} of shape {u.shape}")
        full = u[self.space.layer(self.space.n_boxes)]
        if (full != np.sign(self.theta)).any():
            raise ValueError(f"utilities are not a table for theta={self.theta:g}: the full card must hold "
                             f"{np.sign(self.theta):+g}")
        self.utilities = np.ascontiguousarray(u)   # the compiled policy's layout

    def value(self, mask: int, upper: int = 0, flag: int = 0) -> float:
        """The certainty equivalent of the points still to come from this turn state."""
        state = self.space.index(mask, min(upper, self.rules.upper_cap), flag)
        return float(certainty_equivalent(self.utilities[state], self.theta))


def solve_risk(rules: str | Rules, thetas, within: int = 0, progress: bool = False) -> np.ndarray:
    """(space.size, len(thetas)) best E[sign(theta) exp(theta * points still to come)] of every
    state (whose used boxes include `within`), one lane per theta (no augmentation: utility is
    multiplicative). Each theta within `theta_range`: the values are then finite, normal
    numbers. Plain maxima: only the value is kept, so ties need no rule here. progress: a
    tqdm bar of the states solved. One theta as a `RiskTable`: `risk_table`."""
    rules = get_rules(rules)   # a public entry (chapter 8): a name is resolved here
    thetas = np.array([check_theta(t, rules) for t in np.atleast_1d(thetas).tolist()], dtype=np.float64)
    if not len(thetas):
        raise ValueError("thetas must hold at least one theta")
    space = StateSpace(rules)
    solved = solve_table(space, risk_operator(rules, thetas), within_mask(within, rules), np.float64, progress,
                         f"risk table {rules.name}")
    return solved.data.reshape(space.size, -1)[:, :len(thetas)]


def risk_operator(rules: Rules, thetas: np.ndarray) -> Operator:
    """The risk table's backward operator (`table_solver`): one lane per theta (padded to whole
    chunks of lanes), every state stored, the utility times exp(theta * points) per point scored
    (`ExpUtility` in the turn engine), sign(theta) on the full card."""
    lanes = np.r_[thetas, np.repeat(thetas[-1], -len(thetas) % CHUNK)]   # whole chunks of lanes
    s, t = tables(rules)
    most = int(pad_points(s, t) + s.upper_bonus + t.score.max() + 1)
    points = np.minimum(np.arange(most + 1), max_total(rules))   # rows past any game's total: unused
    return Operator(ExpUtility(lanes), widths=lambda space, states: np.full(len(states), len(lanes), np.int64),
                    multiply=True, weight=np.exp(points[:, None] * lanes[None, :]), dense=True,
                    terminal=np.sign(lanes))


def _solved(rules: Rules, theta: float, within: int = 0, progress: bool = False) -> RiskTable:
    start = time.perf_counter()
    column = np.ascontiguousarray(solve_risk(rules, [theta], within, progress)[:, 0])
    return RiskTable(rules, theta, column, time.perf_counter() - start, within)


def _risk_kind(theta: float) -> str:
    """The cache-file kind of one theta: its float64's bits (sign included) in hex, so that
    thetas equal to 12 digits or any other rounding still get files of their own."""
    return "risk-" + struct.pack(">d", theta).hex()


def risk_table(rules: str | Rules, theta: float, use_cache: bool = True, progress: bool = False,
               within: int = 0) -> RiskTable:
    """One theta's `RiskTable` (`solve_risk`), from the cache when a trustworthy file is there: a
    whole game costs seconds per theta, a cached table a read. At most RISK_TABLES thetas of a
    rule set stay cached (any theta is a new file). `within` (a mask of used boxes): only the
    subgame of the open boxes, solved afresh (a fraction of a second late in a game), never cached.

    >>> _risk_kind(-0.05), _risk_kind(0.05)
    ('risk-bfa999999999999a', 'risk-3fa999999999999a')
    """
    rules = get_rules(rules)   # a public entry (chapter 8): a name is resolved here
    theta = check_theta(theta, rules)
    if within_mask(within, rules):
        return _solved(rules, theta, within)
    space = StateSpace(rules)

    def load(path):
        fields = read_trusted(path, rules, FORMAT, layout_digest(space))
        if float(fields["theta"]) != theta or fields["numbers"].shape != (space.size,):
            raise CacheError(f"{path} holds another theta or size")
        with contextlib.suppress(OSError):
            os.utime(path)            # read now: the last of the RISK_TABLES to be pruned
        return RiskTable(rules, theta, fields["numbers"].astype(np.float64), float(fields.get("seconds", 0.0)))

    def save(table, path):
        write_trusted(path, rules, table.utilities, FORMAT, theta=theta, seconds=table.seconds,
                      layout=layout_digest(space))
        family = re.compile(re.escape(path.name[:-len(_risk_kind(theta)) - 4]) + r"risk-[0-9a-f]{16}\.npz")
        remove_oldest(path, family, RISK_TABLES)
    return cached_for(rules, _risk_kind(theta), load, lambda: _solved(rules, theta, progress=progress), save,
                      use_cache)


def cached_theta(rules: Rules, theta: float) -> bool:
    """Whether a file of this theta's table is in the cache (trusted only when read)."""
    with contextlib.suppress(OSError):
        return cacheable(rules) and cache_path(rules, _risk_kind(theta)).exists()
    return False


def certainty_equivalent(utility, theta) -> np.ndarray:
    """Points a sure gain would need to be worth the same: log(sign(theta) * U) / theta
    (-inf for a choice not allowed, U = -inf).

    >>> float(certainty_equivalent(-np.exp(-0.5 * 10.0), -0.5))
    10.0
    """
    return ExpUtility(np.asarray(theta, dtype=np.float64)).certainty(utility)
