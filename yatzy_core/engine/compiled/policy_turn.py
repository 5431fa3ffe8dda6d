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
final rolls are merged by (box, points): `Outcomes` of each lane. A state's distinct (box,
points, next state) are valued once per lane, not once per roll (a risk value costs an exp and
a log); a roll's best keeper comes from the sub-keeper recursion, and one walk of its
preference list gathers the keepers within TIE of it.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .layout import _upper_step
from ..turn import TIE

__all__ = ["MEAN_MODE", "TARGET_MODE", "RISK_MODE", "PolicyTables", "lane_outcomes"]

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
def _primary(pt, nxt, pts, need):
    """The policy's value of earning `pts` now and going on from `nxt` (need: the lane's n)."""
    mode = pt.mode[0]
    if mode == 1:
        m = need - pts
        if m <= 0:
            return 1.0
        if m > pt.band[nxt]:
            return 0.0
        return float(pt.data[pt.offset[nxt] + m - 1])
    if mode == 2:
        return np.exp(pt.theta[0] * pts) * pt.utility[nxt]
    return pts + pt.values[nxt]


@njit(cache=True, inline="always")   # a call would copy the tables' tuples each time
def _cmp(pt, x):
    """The scale the tie rule compares primary values on (certainty equivalent for risk)."""
    if pt.mode[0] == 2:
        th = pt.theta[0]
        if x * np.sign(th) <= 0.0:
            return -np.inf
        return np.log(np.sign(th) * x) / th
    return x


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
def _value_slots(n, need, slot_pts, slot_nxt, pt, p1, c1, m1):
    """Each slot's primary value for the lane of `need`, on the tie scale, and its mean."""
    for q in range(n):
        p1[q] = _primary(pt, slot_nxt[q], slot_pts[q], need)
        c1[q] = _cmp(pt, p1[q])
        m1[q] = slot_pts[q] + pt.values[slot_nxt[q]]


@njit(cache=True)
def _last_roll(l, alw, slot_of, p1, c1, m1, e1, e2, box):
    """Each last roll's box for lane l: best primary, then best mean within TIE, then first."""
    n_rolls, n_boxes = alw.shape
    for r in range(n_rolls):
        best1 = -np.inf
        for b in range(n_boxes):
            if alw[r, b]:
                best1 = max(best1, c1[slot_of[r, b]])
        best2 = -np.inf
        for b in range(n_boxes):
            if alw[r, b] and c1[slot_of[r, b]] >= best1 - TIE:
                best2 = max(best2, m1[slot_of[r, b]])
        for b in range(n_boxes):
            q = slot_of[r, b]
            if alw[r, b] and c1[q] >= best1 - TIE and m1[q] >= best2 - TIE:
                box[r, l], e1[r], e2[r] = b, p1[q], m1[q]
                break


@njit(cache=True)
def _reroll_stage(w, e1, e2, choice, l, pt, s, t):
    """One reroll stage backwards for lane l: keeper values (both numbers averaged), then each
    roll's keeper: best primary, then best mean within TIE, then the preference order. A
    roll's best primary is the maximum over its sub-keepers, taken by the sub-keeper recursion
    (`top`); one walk of its preference list then gathers the keepers within TIE (`ties`).
    `w` is the lane's working arrays (k1, k2, ck, top, ties)."""
    k1, k2, ck, top, ties = w
    off = s.roll_offset
    inv = 1.0 / s.faces
    k1[off:] = e1
    k2[off:] = e2
    for k in range(off - 1, -1, -1):
        a1 = a2 = 0.0
        for f in range(s.faces):
            c = t.add_die[k, f]
            a1 += k1[c]
            a2 += k2[c]
        k1[k], k2[k] = a1 * inv, a2 * inv
    for k in range(len(k1)):
        ck[k] = _cmp(pt, k1[k])
        top[k] = ck[k]
    for k in range(1, len(k1)):
        for i in range(t.n_sub[k]):
            top[k] = max(top[k], top[t.sub[k, i]])
    for r in range(len(e1)):
        best1 = top[off + r]
        n = 0
        best2 = -np.inf
        for i in range(t.pref_start[r], t.pref_start[r + 1]):
            k = t.pref_keeper[i]
            if ck[k] >= best1 - TIE:
                ties[n] = k
                n += 1
                best2 = max(best2, k2[k])
        for i in range(n):
            if k2[ties[i]] >= best2 - TIE:
                choice[r, l] = ties[i]
                break
    for r in range(len(e1)):
        e1[r], e2[r] = k1[choice[r, l]], k2[choice[r, l]]


@njit(cache=True)
def _final_probabilities(prob, choice, l, m, s, t):
    """P(final roll) of lane l: the first roll moved to the chosen keepers and spread die by die."""
    off = s.roll_offset
    inv = 1.0 / s.faces
    mass = t.first_roll.copy()
    for stage in range(s.rolls_per_turn - 2, -1, -1):
        m[:] = 0.0
        for r in range(len(mass)):
            m[choice[stage, r, l]] += mass[r]
        for level in range(s.n_dice):
            for f in range(s.faces):
                for k in range(t.level_start[level], t.level_start[level + 1]):
                    m[t.add_die[k, f]] += m[k] * inv
        mass[:] = m[off:]
    prob[:, l] = mass


@njit(cache=True)
def _merge(l, prob, box, slot_of, key, out_n, out_i, out_w):
    """Lane l's final rolls merged by (box, points, next state), in order of first appearance:
    out_i[l, m] is a roll standing for them. `key` (one entry per slot) is -1 on entry and exit."""
    n = 0
    for r in range(prob.shape[0]):
        q = prob[r, l]
        if q == 0.0:
            continue
        k = slot_of[r, box[r, l]]
        if key[k] < 0:
            key[k] = n
            out_i[l, n], out_w[l, n] = r, q
            n += 1
        else:
            out_w[l, key[k]] += q
    for m in range(n):
        key[slot_of[out_i[l, m], box[out_i[l, m], l]]] = -1
    out_n[l] = n


@njit(cache=True)
def lane_outcomes(state, needs, s, t, pt, out, c):
    """For each lane l (need n = needs[l]) of `state`: its choices worked backwards, its final
    rolls' probabilities forwards, merged by (box, points), into row c of `out` (`policy_forward._views`)."""
    out_n, out_i, out_w, box, pts, nxt, split = (out[0][c], out[1][c], out[2][c], out[3][c],
                                                 out[4][c], out[5][c], out[6][c])
    n_rolls, n_boxes = t.score.shape
    alw = np.zeros((n_rolls, n_boxes), np.bool_)
    _score_all(state, s, t, alw, pts, nxt, split)
    span = int(max(t.score.max(), t.joker.max())) + s.upper_bonus + s.yahtzee_bonus + 1
    slot_of = np.zeros((n_rolls, n_boxes), np.int64)
    slot_pts, slot_nxt = np.empty(n_rolls * n_boxes, np.int64), np.empty(n_rolls * n_boxes, np.int64)
    n_slots = _slots(alw, pts, nxt, span, slot_of, slot_pts, slot_nxt)
    p1, c1, m1 = np.empty(n_slots), np.empty(n_slots), np.empty(n_slots)
    key = np.full(n_slots, -1, np.int64)
    L = len(needs)
    choice = np.zeros((max(s.rolls_per_turn - 1, 1), n_rolls, L), np.int64)
    prob = np.zeros((n_rolls, L))
    n_keepers = t.add_die.shape[0]
    e1, e2 = np.empty(n_rolls), np.empty(n_rolls)
    k1 = np.empty(n_keepers)
    w = (k1, np.empty(n_keepers), np.empty(n_keepers), np.empty(n_keepers),
         np.empty(np.diff(t.pref_start).max(), np.int64))
    for l in range(L):
        _value_slots(n_slots, needs[l], slot_pts, slot_nxt, pt, p1, c1, m1)
        _last_roll(l, alw, slot_of, p1, c1, m1, e1, e2, box)
        for stage in range(s.rolls_per_turn - 1):
            _reroll_stage(w, e1, e2, choice[stage], l, pt, s, t)
        _final_probabilities(prob, choice, l, k1, s, t)
        _merge(l, prob, box, slot_of, key, out_n, out_i, out_w)
