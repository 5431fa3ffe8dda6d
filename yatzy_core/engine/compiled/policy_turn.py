"""One turn of any policy, compiled: its choices and final-roll outcomes for many lanes at once.

The max-mean kernel (`outcomes.py`) chooses by one number per choice. A goal or risk policy
chooses by another number, its primary value, and then, among choices equally good for it
(within TIE: a goal already met, or out of reach), by the mean: the expected points of the
choice, valuing later turns at the max-mean values. A lane is one need n of a target policy
(V(next, n - points) from a target table), or the whole row of a risk (sign(theta)
exp(theta points) U(next), compared on the certainty-equivalent scale) or mean policy.

For every lane the turn is worked backwards (the last roll's box, then each reroll's keeper,
the lexicographic best of (primary, mean) with the preference order of `turn` after that)
and then forwards (the first roll's probabilities moved through the chosen keepers), then the
final rolls are merged by (box, points): `Outcomes` of each lane. Lanes are worked LANES at a
time (`policy_lanes`): a target policy's consecutive needs of one state (its slots valued once,
the last roll's box chosen for all of them together), or a risk or mean policy's consecutive
states, one lane each. A state's distinct (box, points, next state) are valued once per lane,
not once per roll; a risk value's exp(theta points) is a table lookup and its tie test a
product (`policy_lanes.tie_floor`), no log taken.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .layout import LANES, _upper_step
from .outcomes import _forward
from .policy_lanes import last_roll, reroll_stage
from ..turn import TIE

__all__ = ["MEAN_MODE", "TARGET_MODE", "RISK_MODE", "PolicyTables", "lane_outcomes", "state_outcomes"]

MEAN_MODE, TARGET_MODE, RISK_MODE = 0, 1, 2


class PolicyTables(NamedTuple):
    """What a policy reads about later states (arrays only, as `layout.Tables`)."""

    values: np.ndarray     # (size,) max-mean values: the tie-breaker, and the mean policy's value
    data: np.ndarray       # target table bands (Targets.data), or a dummy
    offset: np.ndarray     # (size,) Targets.offset, or a dummy
    band: np.ndarray       # (size,) Targets.band, or a dummy
    utility: np.ndarray    # (size,) risk utilities E[sign(theta) exp(theta * points to come)], or a dummy
    mode: np.ndarray       # [MEAN_MODE | TARGET_MODE | RISK_MODE]
    theta: np.ndarray      # [theta] (risk), else [0.0]


@njit(cache=True)
def _score_all(state, s, t, alw, pts, nxt, split):
    """For every (roll r, box b): allowed, points now, next state and (box points, upper bonus,
    Yahtzee bonus) of writing r in b (`turn.score_box`, term for term)."""
    score, joker, face_of_box, kind_face = t.score, t.joker, t.face_of_box, t.kind_face
    n_rolls, n_boxes = score.shape
    y0 = state % s.n_flags
    u = (state // s.n_flags) % s.n_upper
    mask = state // s.n_flags // s.n_upper
    allowed = ~mask & (mask + 1) if s.forced_order == 1 else ~mask
    yi, n_flags, n_upper = s.yahtzee_index, s.n_flags, s.n_upper
    jokers = s.tracks_flag == 1 and (mask >> yi) & 1 == 1
    lower_open = False
    for c in range(n_boxes):
        if face_of_box[c] == 0 and c != yi and (allowed >> c) & 1:
            lower_open = True
    for b in range(n_boxes):
        ok_box = (allowed >> b) & 1 == 1
        upper_box = face_of_box[b] > 0
        for r in range(n_rolls):
            alw[r, b] = ok_box
            if not ok_box:
                continue
            p = int(score[r, b])
            ybonus, y = 0, y0
            if jokers and kind_face[r] > 0:
                matching = -1
                for c in range(n_boxes):
                    if face_of_box[c] == kind_face[r]:
                        matching = c
                        break
                if s.joker_mode == 2:
                    if matching < 0 or (mask >> matching) & 1:
                        p = int(joker[r, b])
                elif s.joker_mode == 1:
                    p = int(joker[r, b])
                    match_open = matching >= 0 and (mask >> matching) & 1 == 0
                    if (match_open and b != matching) or (not match_open and lower_open and upper_box):
                        alw[r, b] = False
                        continue
                ybonus = s.yahtzee_bonus if y0 == 1 else 0
            if s.tracks_flag == 1 and b == yi and p > 0:
                y = 1
            gained = p if upper_box else 0
            g, nu = _upper_step(u, gained, s)
            pts[r, b] = p + (g - gained) + ybonus
            nxt[r, b] = ((mask | (1 << b)) * n_upper + nu) * n_flags + y
            split[r, b, 0], split[r, b, 1], split[r, b, 2] = p, g - gained, ybonus


@njit(cache=True, inline="always")   # a call would copy the tables' tuples each time
def _primary(pt, nxt, pts, need, weight):
    """The policy's value of earning `pts` now and going on from `nxt` (need: the lane's n;
    weight[p] = exp(theta p), taken once per state group for a risk policy, not once per slot)."""
    mode = pt.mode[0]
    if mode == 1:
        m = need - pts
        if m <= 0:
            return 1.0
        if m > pt.band[nxt]:
            return 0.0
        return float(pt.data[pt.offset[nxt] + m - 1])
    if mode == 2:
        return weight[pts] * pt.utility[nxt]
    return pts + pt.values[nxt]


@njit(cache=True)
def _slots(alw, pts, nxt, span, slot_of, slot_pts, slot_nxt):
    """Number the distinct (box, points, next state) of the allowed (roll, box) pairs: each is
    valued once per lane (a risk value costs an exp and a log), not once per roll. Returns how
    many; slot_of[r, b] says which."""
    n_rolls, n_boxes = alw.shape
    key = np.full(n_boxes * span, -1, np.int64)
    n = 0
    for r in range(n_rolls):
        for b in range(n_boxes):
            if not alw[r, b]:
                continue
            k = b * span + pts[r, b]
            q = key[k]
            if q < 0 or slot_nxt[q] != nxt[r, b]:   # the same points to another state: its own
                q = n
                slot_pts[q], slot_nxt[q] = pts[r, b], nxt[r, b]
                key[k] = q
                n += 1
            slot_of[r, b] = q
    return n


@njit(cache=True)
def _value_slots(n, need, slot_pts, slot_nxt, pt, weight, p1, m1):
    """Each slot's primary value for the lane of `need`, and its mean."""
    for q in range(n):
        p1[q] = _primary(pt, slot_nxt[q], slot_pts[q], need, weight)
        m1[q] = slot_pts[q] + pt.values[slot_nxt[q]]


@njit(cache=True)
def _merge(v, prob, box, slot_of, key, out_i, out_w):
    """Lane v's final rolls merged by (box, points, next state), in order of first appearance:
    out_i[m] is a roll standing for them; returns how many. `key` (one entry per slot) is -1 on
    entry and exit."""
    n = 0
    for r in range(prob.shape[0]):
        q = prob[r, v]
        if q == 0.0:
            continue
        k = slot_of[r, box[r, v]]
        if key[k] < 0:
            key[k] = n
            out_i[n], out_w[n] = r, q
            n += 1
        else:
            out_w[key[k]] += q
    for m in range(n):
        key[slot_of[out_i[m], box[out_i[m], v]]] = -1
    return n


class _Work(NamedTuple):
    """One thread's working arrays for a group of LANES lanes."""

    rows: tuple    # (k1, k2, top, floor): keepers x LANES (`policy_lanes.reroll_stage`)
    e1: np.ndarray
    e2: np.ndarray
    p1: np.ndarray       # (slots,): one lane's primary values (a risk or mean lane)
    m1: np.ndarray
    p8: np.ndarray       # (slots, LANES): a state's lanes' primary values (`policy_lanes.last_roll`)
    choice: np.ndarray   # (reroll stages, rolls, LANES)
    prob: np.ndarray
    box: np.ndarray      # (rolls, LANES)
    key: np.ndarray


@njit(cache=True)
def _work(t, s):
    n_rolls, n_boxes = t.score.shape
    n_keepers = t.add_die.shape[0]
    rows = (np.empty((n_keepers, LANES)), np.empty((n_keepers, LANES)), np.empty((n_keepers, LANES)),
            np.empty((n_rolls, LANES)))
    return _Work(rows, np.empty((n_rolls, LANES)), np.empty((n_rolls, LANES)),
                 np.empty(n_rolls * n_boxes), np.empty(n_rolls * n_boxes),
                 np.empty((n_rolls * n_boxes, LANES)),
                 np.zeros((max(s.rolls_per_turn - 1, 1), n_rolls, LANES), np.int64),
                 np.empty((n_rolls, LANES)), np.zeros((n_rolls, LANES), np.int64),
                 np.full(n_rolls * n_boxes, -1, np.int64))


@njit(cache=True)
def _state_slots(state, s, t, out, c, alw, slot_of, slot_pts, slot_nxt):
    """Score every (roll, box) of `state` into row c of `out` and number its slots; returns how many."""
    _score_all(state, s, t, alw, out[4][c], out[5][c], out[6][c])
    return _slots(alw, out[4][c], out[5][c], _span(s, t), slot_of, slot_pts, slot_nxt)


@njit(cache=True)
def _span(s, t):
    """More than the most points one box can bring (its score and both bonuses)."""
    return int(max(t.score.max(), t.joker.max())) + s.upper_bonus + s.yahtzee_bonus + 1


@njit(cache=True)
def _turns(w, pt, K, s, t):
    """The rerolls of the group (backwards) and its final rolls' probabilities (forwards), from
    the last roll's values in w.e1, w.e2."""
    for stage in range(s.rolls_per_turn - 1):
        reroll_stage(w.rows, w.e1, w.e2, w.choice[stage], pt, K, s, t)
    _forward(w.prob, w.rows[0], w.rows[3], w.choice, s.rolls_per_turn - 1, s, t)


@njit(cache=True)
def lane_outcomes(state, needs, s, t, pt, out, c):
    """For each lane l (need n = needs[l]) of `state`: its choices worked backwards, its final
    rolls' probabilities forwards, merged by (box, points), into row c of `out`
    (`policy_forward._views`); LANES needs at a time."""
    out_n, out_i, out_w, box = out[0][c], out[1][c], out[2][c], out[3][c]
    n_rolls, n_boxes = t.score.shape
    alw = np.zeros((n_rolls, n_boxes), np.bool_)
    slot_of = np.zeros((n_rolls, n_boxes), np.int64)
    slot_pts, slot_nxt = np.empty(n_rolls * n_boxes, np.int64), np.empty(n_rolls * n_boxes, np.int64)
    n_slots = _state_slots(state, s, t, out, c, alw, slot_of, slot_pts, slot_nxt)
    w = _work(t, s)
    K = np.exp(-pt.theta[0] * TIE)
    weight = np.exp(pt.theta[0] * np.arange(_span(s, t)))          # read by a risk policy's lane
    _value_slots(n_slots, 0, slot_pts, slot_nxt, pt, weight, w.p1, w.m1)   # the means: every lane's
    for l0 in range(0, len(needs), LANES):
        n = min(LANES, len(needs) - l0)
        for q in range(n_slots):
            for v in range(LANES):                  # a short group repeats its last need
                w.p8[q, v] = _primary(pt, slot_nxt[q], slot_pts[q], needs[l0 + min(v, n - 1)], weight)
        last_roll(alw, slot_of, w.p8, w.m1, pt, K, w.e1, w.e2, w.box)
        _turns(w, pt, K, s, t)
        for v in range(n):
            box[:, l0 + v] = w.box[:, v]
            out_n[l0 + v] = _merge(v, w.prob, w.box, slot_of, w.key, out_i[l0 + v], out_w[l0 + v])


@njit(cache=True)
def state_outcomes(states, s, t, pt, out, c0):
    """For up to LANES states (one lane each: a risk or mean policy, need unused), rows c0, c0 + 1,
    ... of `out`: their turns worked together, LANES lanes of different states."""
    n_rolls, n_boxes = t.score.shape
    alw = np.zeros((LANES, n_rolls, n_boxes), np.bool_)
    slot_of = np.zeros((LANES, n_rolls, n_boxes), np.int64)
    slot_pts = np.empty((LANES, n_rolls * n_boxes), np.int64)
    slot_nxt = np.empty((LANES, n_rolls * n_boxes), np.int64)
    w = _work(t, s)
    K = np.exp(-pt.theta[0] * TIE)
    weight = np.exp(pt.theta[0] * np.arange(_span(s, t)))
    n = len(states)
    for v in range(n):
        n_slots = _state_slots(states[v], s, t, out, c0 + v, alw[v], slot_of[v], slot_pts[v], slot_nxt[v])
        _value_slots(n_slots, 0, slot_pts[v], slot_nxt[v], pt, weight, w.p1, w.m1)
        last_roll(alw[v], slot_of[v], w.p1[:n_slots].reshape(n_slots, 1), w.m1, pt, K,     # lane v alone
                  w.e1[:, v:v + 1], w.e2[:, v:v + 1], w.box[:, v:v + 1])
    for v in range(n, LANES):                      # a short group repeats its last state's lane
        w.e1[:, v], w.e2[:, v], w.box[:, v] = w.e1[:, n - 1], w.e2[:, n - 1], w.box[:, n - 1]
    _turns(w, pt, K, s, t)
    for v in range(n):
        out[3][c0 + v][:, 0] = w.box[:, v]
        out[0][c0 + v][0] = _merge(v, w.prob, w.box, slot_of[v], w.key, out[1][c0 + v][0], out[2][c0 + v][0])
