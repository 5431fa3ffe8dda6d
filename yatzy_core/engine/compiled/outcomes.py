"""How the optimal policy ends a turn, compiled: `turn_forward.turn_outcomes` for lane groups of
states.

For each state the turn is run backwards once (box values of the last roll, then keeper values
stage by stage, remembering each roll's preferred keeper under the tie rule of `turn_forward`) and
then forwards (the first roll's probabilities moved to the chosen keepers and spread over the
rolls they lead to). The result is, for every final roll, its probability, the box it is scored
in, the points that earns now and the next state: exactly what `turn_forward.turn_outcomes` returns
(tests/test_outcomes.py checks them equal), about 50 times faster.

States are taken LANES at a time from one box set (`layout.lane_groups`), so the open boxes and
the keeper recursion are shared and the innermost loops run across the lanes. The arithmetic of
every value is `turn.box_values`'s, term for term, so ties fall the same way.

>>> from yatzy_core.engine.cache import get_solution
>>> solution = get_solution("yahtzee-no-bonus", progress=False)
>>> full = (1 << 13) - 1
>>> o = compiled_turn_outcomes(solution.space, solution.values, [solution.space.index(full - (1 << 12), 0)])
>>> round(float(o.prob[:, 0] @ o.points[:, 0]), 9)   # only chance left: 70/3 points
23.333333333
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from .layout import LANES, lane_groups, tables, vectorizing
from .kernel import _average as kernel_average, _best_child as kernel_best_child
from .kernel import _box_rows, _last_roll as kernel_last_roll
from .layout import _idx, _upper_step, allowed_boxes
from ..basics import TIE, TurnOutcomes
from ...game.states import StateSpace

__all__ = ["compiled_turn_outcomes", "turn_choices", "group_outcomes", "last_roll_outcomes",
           "scratch"]


def compiled_turn_outcomes(space: StateSpace, values: np.ndarray, states) -> TurnOutcomes:
    """`turn_forward.turn_outcomes`, compiled: (n_rolls, S) probability, box, points and next state of
    every final roll from each state (states of any box sets, in any order)."""
    states = np.asarray(states, dtype=np.int64)
    s, t = tables(space.rules)
    order = np.argsort(states, kind="stable")
    unique, inverse = np.unique(states[order], return_inverse=True)
    groups = lane_groups(space, unique)
    out = np.zeros((6, len(groups), t.score.shape[0], LANES))
    with vectorizing():
        _groups(groups, values, s, t, out)
    # each unique state sits in one lane of one group: find it
    flat = groups.ravel()
    where = np.searchsorted(flat, unique)   # the first lane holding it (groups are ascending)
    g, v = where // LANES, where % LANES
    cols = out[:, g, :, v]                  # (S_unique, 6, R)
    cols = np.transpose(cols, (1, 2, 0))[:, :, inverse]
    result = np.empty_like(cols)
    result[:, :, order] = cols
    box, points, upper_bonus, yahtzee_bonus, next_state = (result[i].astype(np.int64) for i in range(1, 6))
    return TurnOutcomes(result[0], box, points, upper_bonus, yahtzee_bonus, next_state)


def turn_choices(space: StateSpace, values: np.ndarray, states) -> tuple[np.ndarray, np.ndarray]:
    """The policy's choices, compiled (what `turn.evaluate` chooses): (S, n_rolls) box of each
    final roll and (rerolls, S, n_rolls) keeper chosen in each roll with 1, 2, ... rerolls left,
    as int16, for distinct states (any order). The optimal player looks its games' moves up here."""
    states = np.asarray(states, dtype=np.int64)
    s, t = tables(space.rules)
    order = np.argsort(states)
    ordered = states[order]
    groups = lane_groups(space, ordered)
    target = order[np.searchsorted(ordered, groups)]   # the output row of every lane
    n_rolls, stages = t.score.shape[0], max(s.rolls_per_turn - 1, 1)
    box = np.empty((len(states), n_rolls), np.int16)
    keep = np.empty((stages, len(states), n_rolls), np.int16)
    with vectorizing():
        _choices(groups, target, values, s, t, box, keep)
    return box, keep


@njit(parallel=True, cache=True)
def _choices(groups, target, values, s, t, box_out, keep_out):
    n_groups = len(groups)
    n_chunks = min(n_groups, 64)
    n_rolls = t.score.shape[0]
    for c in prange(n_chunks):
        w = scratch(s, t)
        box = np.empty((n_rolls, LANES), np.int64)
        pts = np.empty((n_rolls, LANES), np.int64)
        ubo = np.empty((n_rolls, LANES), np.int64)
        ybo = np.empty((n_rolls, LANES), np.int64)
        nxo = np.empty((n_rolls, LANES), np.int64)
        choice = np.empty((max(s.rolls_per_turn - 1, 1), n_rolls, LANES), np.int64)
        for g in range(c * n_groups // n_chunks, (c + 1) * n_groups // n_chunks):
            last_roll_outcomes(groups[g], values, s, t, w, (box, pts, ubo, ybo, nxo))
            for stage in range(s.rolls_per_turn - 1):
                _keeper_stage(w[3], w[4], choice[stage], w[6], s, t)
            for v in range(LANES):
                row = target[g, v]
                for r in range(n_rolls):
                    box_out[row, r] = box[r, v]
                    for stage in range(s.rolls_per_turn - 1):
                        keep_out[stage, row, r] = choice[stage, r, v]


@njit(parallel=True, cache=True)
def _groups(groups, values, s, t, out):
    """out[:, g] = group_outcomes of lane group g, as floats (probability, box, points, upper
    bonus, Yahtzee bonus, next state)."""
    n_groups = len(groups)
    n_chunks = min(n_groups, 64)
    for c in prange(n_chunks):
        w = scratch(s, t)
        prob, box, pts, ubo, ybo, nxo = (np.empty((t.score.shape[0], LANES)),
                                         np.empty((t.score.shape[0], LANES), np.int64),
                                         np.empty((t.score.shape[0], LANES), np.int64),
                                         np.empty((t.score.shape[0], LANES), np.int64),
                                         np.empty((t.score.shape[0], LANES), np.int64),
                                         np.empty((t.score.shape[0], LANES), np.int64))
        for g in range(c * n_groups // n_chunks, (c + 1) * n_groups // n_chunks):
            group_outcomes(groups[g], values, s, t, w, prob, (box, pts, ubo, ybo, nxo))
            out[0, g] = prob
            out[1, g] = box
            out[2, g] = pts
            out[3, g] = ubo
            out[4, g] = ybo
            out[5, g] = nxo


@njit(cache=True)
def scratch(s, t):
    """Working arrays of one thread (a few tens of KiB), for `group_outcomes`."""
    n_rolls, n_boxes = t.score.shape
    n_keepers = t.add_die.shape[0]
    return (np.zeros((n_boxes, s.n_dice + 1, LANES)),                # rows
            np.zeros((n_boxes, s.n_dice + 1, LANES), np.int64),      # nxt
            np.zeros((n_boxes, s.n_dice + 1, LANES), np.int64),      # ub
            np.zeros((n_keepers, LANES)), np.zeros((n_keepers, LANES)),   # keep, own
            np.zeros((max(s.rolls_per_turn - 1, 1), n_rolls, LANES), np.int64),  # choice
            np.zeros((n_rolls, LANES)), np.zeros((n_rolls, LANES)),   # e, mass
            np.zeros(n_boxes, np.int64),                             # boxes
            np.zeros((n_boxes, s.n_dice + 1, LANES)))                # rows2 (unused here)


@njit(cache=True)
def group_outcomes(lanes, values, s, t, w, prob, ends):
    """The turn of LANES states of one box set: (n_rolls, LANES) final-roll probability, box,
    points (box + upper bonus + Yahtzee bonus), upper bonus, Yahtzee bonus and next state.
    `w` is `scratch`; `values` holds every later state's value."""
    last_roll_outcomes(lanes, values, s, t, w, ends)
    keep, own, choice, e, mass = w[3], w[4], w[5], w[6], w[7]
    stages = s.rolls_per_turn - 1
    for stage in range(stages):
        _keeper_stage(keep, own, choice[stage], e, s, t)
    _forward(prob, keep, mass, choice, stages, s, t)


@njit(cache=True)
def last_roll_outcomes(lanes, values, s, t, w, ends):
    """The box, points and next state of every last roll (the first part of `group_outcomes`;
    its values are left in w[6]), written to `ends` = (box, points, upper bonus, Yahtzee bonus,
    next state), each (n_rolls, LANES)."""
    rows, nxt, ub, e, boxes = w[0], w[1], w[2], w[6], w[8]
    mask = lanes[0] // s.n_flags // s.n_upper
    allowed = allowed_boxes(mask, s)
    n_open = _box_rows(rows, w[9], nxt, ub, boxes, lanes, values, values, s, t)
    _last_roll(e, ends, rows, nxt, ub, boxes[:n_open], allowed, t)
    if s.tracks_flag == 1 and (mask >> s.yahtzee_index) & 1:
        for v in range(LANES):
            _joker_rolls(e, ends, v, lanes[v], values, s, t)


@njit(cache=True)
def _last_roll(e, ends, rows, nxt, ub, boxes, allowed, t):
    """Each last roll's best box value (kernel._last_roll) and the first box in card order
    within TIE of it (boxes walked backwards, the last good one kept; lanes in registers)."""
    box, pts, ubo, ybo, nxo = ends
    kernel_last_roll(e, boxes, allowed, rows, t)
    for r in range(e.shape[0]):
        t0, t1, t2, t3 = e[r, 0] - TIE, e[r, 1] - TIE, e[r, 2] - TIE, e[r, 3] - TIE
        t4, t5, t6, t7 = e[r, 4] - TIE, e[r, 5] - TIE, e[r, 6] - TIE, e[r, 7] - TIE
        c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = -1
        for i in range(len(boxes) - 1, -1, -1):
            b = boxes[i]
            p, q = t.points[r, b], t.row_of[r, b]
            c0 = b if p + rows[b, q, 0] >= t0 else c0
            c1 = b if p + rows[b, q, 1] >= t1 else c1
            c2 = b if p + rows[b, q, 2] >= t2 else c2
            c3 = b if p + rows[b, q, 3] >= t3 else c3
            c4 = b if p + rows[b, q, 4] >= t4 else c4
            c5 = b if p + rows[b, q, 5] >= t5 else c5
            c6 = b if p + rows[b, q, 6] >= t6 else c6
            c7 = b if p + rows[b, q, 7] >= t7 else c7
        box[r, 0], box[r, 1], box[r, 2], box[r, 3] = c0, c1, c2, c3
        box[r, 4], box[r, 5], box[r, 6], box[r, 7] = c4, c5, c6, c7
        for v in range(LANES):
            chosen = box[r, v]
            q = t.row_of[r, chosen]
            ubo[r, v] = ub[chosen, q, v]
            ybo[r, v] = 0
            pts[r, v] = int(t.score[r, chosen]) + ub[chosen, q, v]
            nxo[r, v] = nxt[chosen, q, v]


@njit(cache=True)
def _joker_rolls(e, ends, v, state, values, s, t):
    """n of a kind with the Yahtzee box filled, in lane v: the Yahtzee bonus and the joker rule
    (turn._apply_joker, term for term)."""
    box, pts, ubo, ybo, nxo = ends
    mask = state // s.n_flags // s.n_upper
    allowed = allowed_boxes(mask, s)
    yi = s.yahtzee_index
    n_rolls, n_boxes = t.score.shape
    y = state % s.n_flags
    u = (state // s.n_flags) % s.n_upper
    bonus = s.yahtzee_bonus if y == 1 else 0
    for r in range(n_rolls):
        f = t.kind_face[r]
        if f == 0:
            continue
        matching = -1
        lower_open = False
        for b in range(n_boxes):
            if t.face_of_box[b] == f and matching < 0:
                matching = b
            if t.face_of_box[b] == 0 and b != yi and (allowed >> b) & 1:
                lower_open = True
        matching_open = matching >= 0 and (allowed >> matching) & 1 == 1
        matching_used = matching >= 0 and (mask >> matching) & 1 == 1
        best = -np.inf
        for p in range(2):
            for bb in range(n_boxes):
                b = bb if p == 0 else n_boxes - 1 - bb   # pass 1: the first box within TIE wins
                if b == yi or not (allowed >> b) & 1:
                    continue
                upper = t.face_of_box[b] > 0
                if s.joker_mode == 1:   # forced: the matching upper box, else a lower box
                    if matching_open and b != matching:
                        continue
                    if not matching_open and lower_open and upper:
                        continue
                nm = mask | (1 << b)
                sc = int(t.score[r, b])
                if upper:
                    g, nu = _upper_step(u, sc, s)
                    j = _idx(nm, nu, y, s)
                else:
                    g = sc
                    if s.joker_mode == 1 or (s.joker_mode == 2 and (matching < 0 or matching_used)):
                        g = int(t.joker[r, b])
                    j = _idx(nm, u, y, s)
                x = (g + values[j]) + bonus
                if p == 0:
                    best = max(best, x)
                elif x >= best - TIE:
                    box[r, v] = b
                    ubo[r, v] = g - sc if upper else 0
                    ybo[r, v] = bonus
                    pts[r, v] = g + bonus
                    nxo[r, v] = j
        e[r, v] = best


@njit(cache=True)
def _keeper_stage(keep, own, choice, e, s, t):
    """One reroll stage backwards: keeper values from the roll values `e` (turn.keeper_values),
    the new roll values (turn.best_subkeeper) written back to `e`, and each roll's preferred
    keeper within TIE of its value (policy.preferred_keeper) in `choice`."""
    off = s.roll_offset
    inv = 1.0 / s.faces
    keep[off:] = e
    for k in range(off - 1, -1, -1):
        kernel_average(keep, k, t.add_die, s.faces, inv)
    own[:] = keep
    for k in range(1, keep.shape[0]):
        kernel_best_child(keep, k, t.sub, t.n_sub[k])
    e[:] = keep[off:]
    for r in range(e.shape[0]):
        _preferred(own, e, choice, r, t.pref_keeper, t.pref_start)


@njit(cache=True)
def _preferred(own, e, choice, r, pref_keeper, pref_start):
    """choice[r] = the most preferred sub-keeper of roll r within TIE of its value: walked from
    least to most preferred, the last good one kept (lanes in registers)."""
    t0, t1, t2, t3 = e[r, 0] - TIE, e[r, 1] - TIE, e[r, 2] - TIE, e[r, 3] - TIE
    t4, t5, t6, t7 = e[r, 4] - TIE, e[r, 5] - TIE, e[r, 6] - TIE, e[r, 7] - TIE
    c0 = c1 = c2 = c3 = c4 = c5 = c6 = c7 = -1
    for i in range(pref_start[r + 1] - 1, pref_start[r] - 1, -1):
        k = pref_keeper[i]
        c0 = k if own[k, 0] >= t0 else c0
        c1 = k if own[k, 1] >= t1 else c1
        c2 = k if own[k, 2] >= t2 else c2
        c3 = k if own[k, 3] >= t3 else c3
        c4 = k if own[k, 4] >= t4 else c4
        c5 = k if own[k, 5] >= t5 else c5
        c6 = k if own[k, 6] >= t6 else c6
        c7 = k if own[k, 7] >= t7 else c7
    choice[r, 0], choice[r, 1], choice[r, 2], choice[r, 3] = c0, c1, c2, c3
    choice[r, 4], choice[r, 5], choice[r, 6], choice[r, 7] = c4, c5, c6, c7


@njit(cache=True)
def _forward(prob, m, mass, choice, stages, s, t):
    """P(final roll): the first roll's probabilities moved to each roll's chosen keeper and
    spread die by die over the rolls it leads to (`turn_forward.final_roll_probabilities`)."""
    off = s.roll_offset
    inv = 1.0 / s.faces
    for r in range(mass.shape[0]):
        for v in range(LANES):
            mass[r, v] = t.first_roll[r]
    for stage in range(stages - 1, -1, -1):
        m[:] = 0.0
        for r in range(mass.shape[0]):
            for v in range(LANES):
                m[np.uint64(choice[stage, r, v]), v] += mass[r, v]   # a keeper index: never negative
        for level in range(s.n_dice):
            for f in range(s.faces):
                for k in range(np.uint64(t.level_start[level]), np.uint64(t.level_start[level + 1])):
                    _spread(m, k, np.uint64(t.add_die[k, f]), inv)
        mass[:] = m[off:]
    prob[:] = mass


@njit(cache=True)
def _spread(m, k, c, inv):
    """m[c] += m[k] / faces, lanes in registers."""
    m[c, 0], m[c, 1], m[c, 2], m[c, 3] = m[c, 0] + m[k, 0] * inv, m[c, 1] + m[k, 1] * inv, m[c, 2] + m[k, 2] * inv, m[c, 3] + m[k, 3] * inv
    m[c, 4], m[c, 5], m[c, 6], m[c, 7] = m[c, 4] + m[k, 4] * inv, m[c, 5] + m[k, 5] * inv, m[c, 6] + m[k, 6] * inv, m[c, 7] + m[k, 7] * inv
