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
final rolls are merged by slot: `Outcomes` of each lane. Lanes are worked LANES at a time
(`policy_lanes`): a target policy's needs of one state (its slots valued once, the
last roll's box chosen for all of them together), or a risk or mean policy's consecutive states,
one lane each (their last roll's box chosen together too when none has jokers). A slot is a
(box, points, next state) valued once per lane, not once per roll: one per score class of the
rule set (`score_classes`, the distinct (box, score) pairs), plus, with jokers, one per
n-of-a-kind roll and box (such a slot may repeat another's (box, points, next state): its
outcomes are then pushed apart, the same sum). A risk value's exp(theta points) is a table
lookup and its tie test a product (`policy_lanes.tie_floor`), no log taken.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .layout import LANES, _upper_step
from .outcomes import _forward
from .policy_lanes import LOW, last_roll, last_roll8, reroll_stage
from ..basics import TIE

__all__ = ["PolicyTables", "score_classes", "n_slots_most", "span", "exp_weights", "has_jokers", "lane_outcomes",
           "state_outcomes"]


class PolicyTables(NamedTuple):
    """What a policy reads about later states (arrays only, as `layout.Tables`): data an
    objective builds (`objectives.policy_play.policy_tables`), never a mode the kernels switch
    on. A state lane's primary value of earning p points and going on from state x is
    weight[p] * primary[x] + shift[p]; its ties are those at least x * tie[0] - tie[1] for the
    best x; its tie-break value is p + values[x]. A need lane (by_need) reads a target table."""

    values: np.ndarray     # (size,) the tie-break values of later states (max-mean, or the objective's own)
    data: np.ndarray       # target table bands (Targets.data), or a dummy
    offset: np.ndarray     # (size,) Targets.offset, or a dummy
    band: np.ndarray       # (size,) Targets.band, or a dummy
    primary: np.ndarray    # (size,) the policy's values of later states (a state lane's)
    weight: np.ndarray     # (span,) what primary is multiplied by per points scored (exp(theta p), or 1)
    shift: np.ndarray      # (span,) what is added per points scored (the mean: p, else 0)
    tie: np.ndarray        # [K, D]: choices at least best * K - D are ties (risk: exp(-theta TIE), 0; else 1, TIE)
    by_need: np.ndarray    # [1]: lanes are a target table's needs (`lane_outcomes`), [0]: a state each
    cls: np.ndarray        # (rolls, boxes) the score class of each (roll, box) (`score_classes`)
    cls_box: np.ndarray    # (classes,) its box
    cls_score: np.ndarray  # (classes,) its score


def score_classes(score: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Number the distinct (box, score) pairs of a rule set's score table (rolls x boxes): a
    state values each once (its points, bonus and next state follow from them), not once per
    roll. Returns (class of each (roll, box), each class's box, its score).

    >>> cls, box, pts = score_classes(np.array([[0, 5], [2, 5], [2, 0]]))
    >>> cls.tolist(), box.tolist(), pts.tolist()
    ([[0, 3], [1, 3], [1, 2]], [0, 0, 1, 1], [0, 2, 0, 5])
    """
    score = np.asarray(score).astype(np.int64)
    cls = np.empty(score.shape, np.int64)
    boxes, scores = [], []
    for b in range(score.shape[1]):
        values, inverse = np.unique(score[:, b], return_inverse=True)
        cls[:, b] = len(boxes) + inverse.ravel()
        boxes += [b] * len(values)
        scores += values.tolist()
    return cls, np.array(boxes, np.int64), np.array(scores, np.int64)


def n_slots_most(pt: PolicyTables, t) -> int:
    """The most slots a state can have: every class, and each n-of-a-kind roll in every box (a
    joker: its points depend on the card)."""
    return len(pt.cls_box) + int((t.kind_face > 0).sum()) * t.score.shape[1]


@njit(cache=True)
def _allowed(state, s):
    """The boxes a state may score in, as bits."""
    mask = state // s.n_flags // s.n_upper
    return ~mask & (mask + 1) if s.forced_order == 1 else ~mask


@njit(cache=True)
def _open_boxes(state, s, n_boxes):
    """The boxes a state may score in, in card order."""
    allowed = _allowed(state, s)
    boxes = np.empty(n_boxes, np.int64)
    n = 0
    for b in range(n_boxes):
        if (allowed >> b) & 1:
            boxes[n] = b
            n += 1
    return boxes[:n]


@njit(cache=True)
def has_jokers(state, s):
    """Whether n-of-a-kind rolls are scored one by one in `state` (its Yahtzee box used, the
    flag tracked): its slots are then its own (`_state_slots`), else the rule set's classes."""
    return s.tracks_flag == 1 and (state // s.n_flags // s.n_upper >> s.yahtzee_index) & 1 == 1


@njit(cache=True)
def _slot_table(state, s, pt, alw, slot_of, every):
    """(allowed, slot of each (roll, box)) as `_state_slots` left them for `state`: its own
    arrays with jokers, else every (roll, box) and the classes."""
    if has_jokers(state, s):
        return alw, slot_of
    return every, pt.cls


@njit(cache=True)
def _state_slots(state, s, t, pt, alw, slot_of, spts, snxt, split):
    """The slots of `state`'s allowed (roll, box) pairs, each a (box, points, next state): a
    slot per score class (`_class_slots`), and with jokers (the Yahtzee box used) one per
    n-of-a-kind roll and box (`_joker_slots`). Fills each slot's points, next state and (box
    points, upper bonus, Yahtzee bonus), and with jokers alw and slot_of (rolls x boxes); returns
    how many slots. Without jokers every open box is allowed to every roll and a (roll, box)'s
    slot is its class (`pt.cls`, read as it is: `_slot_table`)."""
    n = _class_slots(state, s, t, pt, spts, snxt, split)
    if not has_jokers(state, s):
        return n
    return _joker_slots(state, s, t, pt, alw, slot_of, spts, snxt, split, n)


@njit(cache=True)
def _class_slots(state, s, t, pt, spts, snxt, split):
    """`_state_slots`' first part: one slot per score class (`score_classes`: its points, bonuses
    and next state follow from the class), slot q for class q; returns how many. A class of a
    closed box gets harmless values (points 0, this state): no roll may choose it."""
    face_of_box = t.face_of_box
    y0 = state % s.n_flags
    u = (state // s.n_flags) % s.n_upper
    mask = state // s.n_flags // s.n_upper
    allowed = _allowed(state, s)
    yi, n_flags, n_upper = s.yahtzee_index, s.n_flags, s.n_upper
    for q in range(len(pt.cls_box)):
        b, p = pt.cls_box[q], pt.cls_score[q]
        if (allowed >> b) & 1 == 0:
            spts[q], snxt[q] = 0, state
            split[q, 0], split[q, 1], split[q, 2] = 0, 0, 0
            continue
        y = 1 if s.tracks_flag == 1 and b == yi and p > 0 else y0
        gained = p if face_of_box[b] > 0 else 0
        g, nu = _upper_step(u, gained, s)
        spts[q] = p + (g - gained)
        snxt[q] = ((mask | (1 << b)) * n_upper + nu) * n_flags + y
        split[q, 0], split[q, 1], split[q, 2] = p, g - gained, 0
    return len(pt.cls_box)


@njit(cache=True)
def _joker_slots(state, s, t, pt, alw, slot_of, spts, snxt, split, n):
    """`_state_slots`' second part, for a state with jokers: alw and slot_of start as every open
    box and the classes, then each n-of-a-kind roll gets a slot per box it may go in (from slot
    n on), scored as `turn.score_box` scores a joker; returns the slots in all."""
    joker, face_of_box, kind_face = t.joker, t.face_of_box, t.kind_face
    n_rolls, n_boxes = alw.shape
    y0 = state % s.n_flags
    u = (state // s.n_flags) % s.n_upper
    mask = state // s.n_flags // s.n_upper
    allowed = _allowed(state, s)
    yi, n_flags, n_upper = s.yahtzee_index, s.n_flags, s.n_upper
    for r in range(n_rolls):
        for b in range(n_boxes):
            alw[r, b] = (allowed >> b) & 1 == 1
            slot_of[r, b] = pt.cls[r, b]
    lower_open = False                             # jokers: n-of-a-kind rolls scored one by one
    for c in range(n_boxes):
        if face_of_box[c] == 0 and c != yi and (allowed >> c) & 1:
            lower_open = True
    for r in range(n_rolls):
        if kind_face[r] == 0:
            continue
        matching = -1
        for c in range(n_boxes):
            if face_of_box[c] == kind_face[r]:
                matching = c
                break
        for b in range(n_boxes):
            if (allowed >> b) & 1 == 0:
                continue
            upper_box = face_of_box[b] > 0
            p = int(t.score[r, b])
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
            gained = p if upper_box else 0
            g, nu = _upper_step(u, gained, s)
            spts[n] = p + (g - gained) + ybonus
            snxt[n] = ((mask | (1 << b)) * n_upper + nu) * n_flags + y0
            split[n, 0], split[n, 1], split[n, 2] = p, g - gained, ybonus
            slot_of[r, b] = n
            n += 1
    return n


@njit(cache=True, inline="always")   # a call would copy the tables' tuples each time
def _primary(pt, nxt, pts):
    """The policy's value of earning `pts` now and going on from `nxt` (a state lane's)."""
    return pt.weight[pts] * pt.primary[nxt] + pt.shift[pts]


@njit(cache=True)
def target_values(p8, n_slots, allowed, needs, spts, snxt, pt):
    """p8[q, v] = V(next state of slot q, needs[v] - its points) for the LANES lanes, as
    `_primary` values them, the next state's band read once per slot, not once per lane (at
    every lane: 100x slower, measured). A closed box's class is skipped: no roll may choose it."""
    data, offset, band, cls_box = pt.data, pt.offset, pt.band, pt.cls_box
    n_cls = len(cls_box)
    for q in range(n_slots):
        if q < n_cls and (allowed >> cls_box[q]) & 1 == 0:
            continue
        nx = snxt[q]
        hi, base = band[nx], offset[nx] - 1
        for v in range(LANES):
            m = needs[v] - spts[q]
            p8[q, v] = 1.0 if m <= 0 else (0.0 if m > hi else float(data[base + m]))


@njit(cache=True)
def _value_slots(n, slot_pts, slot_nxt, pt, p1, m1, allowed):
    """Each slot's primary value for a state lane (`_primary`), and its tie-break value (both LOW for a class of a
    box the state may not score in: `allowed` is those it may, as bits, `_allowed`)."""
    n_cls = len(pt.cls_box)
    for q in range(n):
        if q < n_cls and (allowed >> pt.cls_box[q]) & 1 == 0:
            p1[q] = m1[q] = LOW
            continue
        p1[q] = _primary(pt, slot_nxt[q], slot_pts[q])
        m1[q] = slot_pts[q] + pt.values[slot_nxt[q]]


@njit(cache=True)
def _merge(v, prob, box, slot_of, key, out_i, out_w):
    """Lane v's final rolls merged by slot (box, points, next state), in order of first appearance:
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
    p1: np.ndarray       # (slots,): one lane's primary values (a risk or mean lane; a target lane's: unread)
    m1: np.ndarray
    p8: np.ndarray       # (slots, LANES): the lanes' primary values (`policy_lanes.last_roll8`)
    m8: np.ndarray       # (slots, LANES): the lanes' means (LANES states' own, or a state's in every lane)
    choice: np.ndarray   # (reroll stages, rolls, LANES)
    prob: np.ndarray
    box: np.ndarray      # (rolls, LANES)
    key: np.ndarray


@njit(cache=True)
def _work(t, s, n_slots):
    n_rolls = t.score.shape[0]
    n_keepers = t.add_die.shape[0]
    rows = (np.empty((n_keepers, LANES)), np.empty((n_keepers, LANES)), np.empty((n_keepers, LANES)),
            np.empty((n_rolls, LANES)))
    return _Work(rows, np.empty((n_rolls, LANES)), np.empty((n_rolls, LANES)),
                 np.empty(n_slots), np.empty(n_slots), np.empty((n_slots, LANES)), np.empty((n_slots, LANES)),
                 np.zeros((max(s.rolls_per_turn - 1, 1), n_rolls, LANES), np.int64),
                 np.empty((n_rolls, LANES)), np.zeros((n_rolls, LANES), np.int64),
                 np.full(n_slots, -1, np.int64))


@njit(cache=True)
def exp_weights(theta, n):
    """(exp(theta p) for p = 0 .. n - 1, exp(-theta TIE)): a risk policy's weights and tie ratio
    (compiled, so that they are the numbers the kernels computed themselves before)."""
    return np.exp(theta * np.arange(n)), np.exp(-theta * TIE)


def span(s, t) -> int:
    """More than the most points one box can bring (its score and both bonuses): the length
    of `PolicyTables.weight` and `shift`."""
    return int(max(t.score.max(), t.joker.max())) + int(s.upper_bonus) + int(s.yahtzee_bonus) + 1


@njit(cache=True)
def _turns(w, pt, K, s, t):
    """The rerolls of the group (backwards) and its final rolls' probabilities (forwards), from
    the last roll's values in w.e1, w.e2."""
    for stage in range(s.rolls_per_turn - 1):
        reroll_stage(w.rows, w.e1, w.e2, w.choice[stage], pt, K, s, t)
    _forward(w.prob, w.rows[0], w.rows[3], w.choice, s.rolls_per_turn - 1, s, t)


@njit(cache=True)
def lane_outcomes(state, first, lanes, s, t, pt, out, c):
    """For each lane l in `lanes` (need first + l) of `state` under a target policy: its choices
    worked backwards, its final rolls' probabilities forwards, merged by slot, into row c of
    `out` (`policy_forward._views`; out[8][c]: how many slots); LANES lanes at a time (a short
    group repeats its last need)."""
    out_n, out_i, out_w, box = out[0][c], out[1][c], out[2][c], out[3][c]
    slot_of, slot_pts, slot_nxt = out[4][c], out[5][c], out[6][c]
    alw = np.zeros(slot_of.shape, np.bool_)
    n_slots = _state_slots(state, s, t, pt, alw, slot_of, slot_pts, slot_nxt, out[7][c])
    out[8][c] = n_slots
    alw, slot_of = _slot_table(state, s, pt, alw, slot_of, np.ones(slot_of.shape, np.bool_))
    w = _work(t, s, len(slot_pts))
    K = pt.tie[0]
    boxes, allowed = _open_boxes(state, s, slot_of.shape[1]), _allowed(state, s)
    _value_slots(n_slots, slot_pts, slot_nxt, pt, w.p1, w.m1, allowed)   # the means: every lane's
    for v in range(LANES):
        w.m8[:n_slots, v] = w.m1[:n_slots]
    needs = np.empty(LANES, np.int64)
    for g in range(0, len(lanes), LANES):
        n = min(LANES, len(lanes) - g)
        for v in range(LANES):
            needs[v] = first + lanes[g + min(v, n - 1)]
        target_values(w.p8, n_slots, allowed, needs, slot_pts, slot_nxt, pt)
        last_roll8(alw, slot_of, boxes, w.p8, w.m8, pt, K, w.e1, w.e2, w.box)
        _turns(w, pt, K, s, t)
        for v in range(n):
            l = lanes[g + v]
            box[:, l] = w.box[:, v]
            out_n[l] = _merge(v, w.prob, w.box, slot_of, w.key, out_i[l], out_w[l])


@njit(cache=True)
def state_outcomes(states, s, t, pt, out, c0):
    """For up to LANES states (one lane each: a risk or mean policy, need unused), rows c0, c0 + 1,
    ... of `out`: their turns worked together, LANES lanes of different states. States without
    jokers share their slots (the score classes, a closed box's valued below every other), so
    their last rolls are chosen together too; a state with jokers chooses its own alone."""
    n_rolls, n_boxes = out[4][c0].shape
    alw = np.zeros((n_rolls, n_boxes), np.bool_)
    w = _work(t, s, out[5].shape[1])
    K = pt.tie[0]
    n, n_cls = len(states), len(pt.cls_box)
    alone = np.zeros(LANES, np.bool_)
    for v in range(n):
        c = c0 + v
        n_slots = _state_slots(states[v], s, t, pt, alw, out[4][c], out[5][c], out[6][c], out[7][c])
        out[8][c] = n_slots
        _value_slots(n_slots, out[5][c], out[6][c], pt, w.p1, w.m1, _allowed(states[v], s))
        if has_jokers(states[v], s):               # its own slots
            alone[v] = True
            last_roll(alw, out[4][c], _open_boxes(states[v], s, n_boxes), w.p1[:n_slots].reshape(n_slots, 1),
                      w.m1[:n_slots].reshape(n_slots, 1), pt, K, w.e1[:, v:v + 1], w.e2[:, v:v + 1],
                      w.box[:, v:v + 1])
            continue
        w.p8[:n_cls, v], w.m8[:n_cls, v] = w.p1[:n_cls], w.m1[:n_cls]   # a closed box's: LOW
    for v in range(n, LANES):                      # a short group repeats its last state's lane
        alone[v] = alone[n - 1]
        w.p8[:n_cls, v], w.m8[:n_cls, v] = w.p8[:n_cls, n - 1], w.m8[:n_cls, n - 1]
    every, all_boxes = np.ones((n_rolls, n_boxes), np.bool_), np.arange(n_boxes)
    if not alone.any():
        last_roll8(every, pt.cls, all_boxes, w.p8, w.m8, pt, K, w.e1, w.e2, w.box)
    else:
        for v in range(n):
            if not alone[v]:
                last_roll(every, pt.cls, _open_boxes(states[v], s, n_boxes), w.p8[:n_cls, v:v + 1],
                          w.m8[:n_cls, v:v + 1], pt, K, w.e1[:, v:v + 1], w.e2[:, v:v + 1], w.box[:, v:v + 1])
        for v in range(n, LANES):
            w.e1[:, v], w.e2[:, v], w.box[:, v] = w.e1[:, n - 1], w.e2[:, n - 1], w.box[:, n - 1]
    _turns(w, pt, K, s, t)
    for v in range(n):
        out[3][c0 + v][:, 0] = w.box[:, v]
        slot_of = out[4][c0 + v] if alone[v] else pt.cls
        out[0][c0 + v][0] = _merge(v, w.prob, w.box, slot_of, w.key, out[1][c0 + v][0], out[2][c0 + v][0])
