"""Two players, compiled: one decision layer's turns for every lead at once on the target kernel.

The target kernel (`engine.compiled.target_kernel.solve_states`) works a turn for a band of lanes
n where scoring g points reads the next state's lane n - g, lanes n <= 0 worth 1 and lanes above
the band worth 0. A lead lane is that read reversed: with n = reach + 1 - e, scoring g moves the
lead e to e + g and the lane to n - g. So the next layer's values, seen from the mover
(`two_player._after_turn`), are the kernel's data with the lanes reversed, and a lead above
+reach (below -reach) reads 1 (0): a lead beyond the most points a game can score decides it.
The numpy path (`two_player._turn`) stays the reference; tests/test_versus_compiled.py compares.
The chance of a tie, which follows W's choices rather than maximising, is `layer_ties`'s (the
compiled policy lanes with T carried beside W: `engine.compiled.versus_ties`).

Only the undecided leads are worked (`decided_lanes`): a mover who can still gain at most G
(`targets.most_gain`) has lost at a lead below -G, and one whose waiter can still gain at most H
has won at a lead above H. The kernel's lanes start past the won leads (its lanes n <= 0 are
worth 1) and end before the lost ones (above its band: 0); those leads are written as 1 and 0.
Late in a game most leads are decided.
"""
from __future__ import annotations

import time

import numpy as np

from ..engine.chunked import for_each_chunk
from ..engine.compiled.layout import tables, vectorizing
from ..engine.compiled.target_kernel import solve_states
from ..engine.compiled.versus_ties import tie_turns
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace
from .targets import max_total, most_gain, pad_points
from .two_player import LeadLanes, VersusSolution, _distinct, _levels, later_values

__all__ = ["decided_lanes", "layer_turns", "layer_ties", "versus_layers", "versus_value", "versus_split"]


def decided_lanes(lanes: LeadLanes, mover_gain, waiter_gain: int | None) -> tuple[int, np.ndarray]:
    """(won, last): kernel lanes n <= won are leads the mover has won (above the waiter's most
    gain), lanes above last[i] leads mover i has lost (below minus its most gain); lane n is the
    lead reach + 1 - n. Without a waiter's gain no lead counts as won.

    >>> won, last = decided_lanes(LeadLanes(10), [3, 30], 4)   # leads 5..10 won; below -3 lost
    >>> won, last.tolist()
    (6, [14, 21])
    """
    won = 0 if waiter_gain is None else max(lanes.reach - int(waiter_gain), 0)
    return won, np.minimum(lanes.reach + 1 + np.asarray(mover_gain, dtype=np.int64), lanes.width)


def layer_turns(space: StateSpace, settings, movers: np.ndarray, ends: np.ndarray,
                later: np.ndarray, lanes: LeadLanes, waiter_gain: int | None = None) -> np.ndarray:
    """(len(movers), width) W of each mover's turn for every lead, from `later` (len(ends),
    width): the value to the mover of ending the turn in each card of `ends` (every state of
    the next layer) with each lead. `waiter_gain`: the most the waiter can still gain, when
    known (the leads above it are won, not worked)."""
    s, t = settings
    width = lanes.width
    won, last = decided_lanes(lanes, most_gain(space, movers), waiter_gain)
    data = np.empty((len(ends) + len(movers), width))
    data[:len(ends)] = later[:, ::-1]
    offset = np.zeros(space.size, dtype=np.int64)     # lane n of a state at offset + n - 1
    offset[ends] = np.arange(len(ends)) * width + won
    offset[movers] = (len(ends) + np.arange(len(movers))) * width + won
    band = np.full(space.size, width - won, dtype=np.int64)
    band[movers] = last - won
    flat, pad, weight = data.reshape(-1), pad_points(s, t), np.ones((1, 1))
    with vectorizing():     # a chunk at a time: Ctrl-C stops the layer between chunks
        for_each_chunk(movers.astype(np.int64),
                       lambda part: solve_states(part, flat, offset, band, s, t, pad, False, weight))
    out = data[len(ends):]
    out[:, :won] = 1.0
    out[np.arange(width) >= last[:, None]] = 0.0
    return out[:, ::-1]


def layer_ties(space: StateSpace, settings, movers: np.ndarray, ends: np.ndarray, later_w: np.ndarray,
               later_t: np.ndarray, lanes: LeadLanes, waiter_gain: int | None = None) -> np.ndarray:
    """(len(movers), width) each mover's chance of a tie for every lead along the choices of W
    under the package's tie rule, from `later_w` and `later_t` (len(ends), width): the value and
    the chance of a tie of ending the turn in each card of `ends` with each lead. Only the
    undecided leads are worked (`decided_lanes`); a decided lead is no tie."""
    s, t = settings
    row_of = np.full(space.size, -1, dtype=np.int64)
    row_of[ends] = np.arange(len(ends))
    gain = most_gain(space, movers).astype(np.int64)
    lo = np.maximum(lanes.reach - gain, 0)
    hi = np.full(len(movers), lanes.width - 1 if waiter_gain is None else min(lanes.reach + int(waiter_gain),
                                                                              lanes.width - 1))
    return tie_turns(movers, later_w, later_t, row_of, lo, hi, s, t)[1]


def versus_layers(rules: str | Rules):
    """((mover's boxes used, waiter's), W) of every decision layer, last turns first, compiled:
    W[i, j, lane] for the i-th distinct card of the mover, the j-th of the waiter, lead lane."""
    rules = get_rules(rules)
    space, settings, n = StateSpace(rules), tables(rules), rules.n_boxes
    lanes = LeadLanes(max_total(rules))
    leads = np.arange(lanes.width) - lanes.reach
    distinct = {k: _distinct(space, k) for k in range(n + 1)}
    win = {}
    for ka, kb in _levels(n):
        W = np.empty((len(distinct[ka]), len(distinct[kb]), lanes.width))
        nxt = win.get((kb, ka + 1))
        for j in range(len(distinct[kb])):
            row = leads if nxt is None else nxt[j]
            later = later_values(space, distinct, ka, kb, row)
            W[:, j] = layer_turns(space, settings, distinct[ka], space.layer(ka + 1), later, lanes,
                                  int(most_gain(space, distinct[kb][j:j + 1])[0]))
        win[ka, kb] = W
        win.pop((kb, ka + 1), None)
        yield (ka, kb), W


def versus_value(rules: str | Rules) -> float:
    """The first player's value P(win) + 1/2 P(tie) under optimal play by both, compiled.

    >>> from yatzy_core.game.ruleset import Rules
    >>> from yatzy_core.game.scoring import Box, total
    >>> one_die = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=2)
    >>> round(versus_value(one_die) * 216, 9)     # 103/216: the second player rerolls knowing the score
    103.0
    """
    for _, W in versus_layers(rules):
        pass
    return float(W[0, 0, W.shape[2] // 2])


def versus_split(rules: str | Rules) -> VersusSolution:
    """`two_player.solve_versus` compiled: the first player's value and its split into wins and
    ties under the package's tie rule (W by `layer_turns`, the tie chance by `layer_ties`; equal
    to the numpy path's to 1e-12).

    >>> from yatzy_core.game.ruleset import Rules
    >>> from yatzy_core.game.scoring import Box, total
    >>> one_die = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=1)
    >>> v = versus_split(one_die)
    >>> round(v.first * 12, 9), round(v.tie * 6, 9)              # one die each: even, a tie in six
    (6.0, 1.0)
    """
    rules = get_rules(rules)
    start = time.perf_counter()
    space, settings, n = StateSpace(rules), tables(rules), rules.n_boxes
    lanes = LeadLanes(max_total(rules))
    leads = np.arange(lanes.width) - lanes.reach
    distinct = {k: _distinct(space, k) for k in range(n + 1)}
    win, count = {}, 0
    for ka, kb in _levels(n):
        W = np.empty((len(distinct[ka]), len(distinct[kb]), lanes.width))
        T = np.empty_like(W)
        nxt = win.pop((kb, ka + 1), None)      # read by this layer alone
        ends = space.layer(ka + 1)
        for j in range(len(distinct[kb])):
            later_w = later_values(space, distinct, ka, kb, leads if nxt is None else nxt[0][j])
            later_t = later_values(space, distinct, ka, kb, leads if nxt is None else nxt[1][j], tie=True)
            gain = int(most_gain(space, distinct[kb][j:j + 1])[0])
            W[:, j] = layer_turns(space, settings, distinct[ka], ends, later_w, lanes, gain)
            T[:, j] = layer_ties(space, settings, distinct[ka], ends, later_w, later_t, lanes, gain)
        win[ka, kb] = W, T
        count += W.size
    first, tie = float(W[0, 0, lanes.reach]), float(T[0, 0, lanes.reach])
    wins = first - tie / 2
    return VersusSolution(rules, first, wins, tie, 1.0 - wins - tie, count, time.perf_counter() - start)
