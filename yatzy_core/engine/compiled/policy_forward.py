"""The forward pass of any policy, compiled: points-so-far rows pushed through its choices.

`forward.py` pushes max-mean play, whose choices depend on the state only. A target policy's
choices depend on the points still needed too: every points-so-far value x of a state's row
is played with need max(goal - x, 0), one lane each (`policy_turn.lane_outcomes`, lanes worked
in parallel), and each x is pushed along its own lane's outcomes; a lane whose x hold no
probability (a row has gaps: a box's few scores) is not worked. A risk or mean policy has
one lane: the whole row is shifted along it. Next rows are allocated up to the most points
the used boxes can have given and trimmed to their support once the layer is pushed
(`forward.Rows`), states that cannot differ merged into their representative. A chunk of
states is worked in parallel into buffers reused chunk after chunk, then pushed in parallel:
each lane's run of a row is added at once, the next states split among parts so that no row
has two writers.
"""
from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange
from tqdm.auto import tqdm

from .forward import Rows, _rep, _trim
from .layout import LANES, tables, vectorizing
from .policy_turn import PolicyTables, has_jokers, lane_outcomes, n_slots_most, state_outcomes
from ...game.states import StateSpace
from ..chunked import check_stop
from ..progress import progress_on

__all__ = ["push_policy"]


def _most_so_far(space: StateSpace, states) -> np.ndarray:
    """An upper bound on the points scored so far in each state: its used boxes' maxima and
    every bonus they could have brought."""
    rules = space.rules
    mask = space.decode(np.asarray(states, dtype=np.int64))[0]
    box_max = np.maximum(rules.score_table, rules.joker_table).max(axis=0).astype(np.int64)
    used = (mask[:, None] >> np.arange(rules.n_boxes)) & 1
    most = used @ box_max
    if rules.tracks_upper:
        most += rules.upper_bonus
    if rules.tracks_yahtzee_bonus:
        most += rules.yahtzee_bonus * np.maximum(used.sum(axis=1) - 1, 0)
    return most


def push_policy(space: StateSpace, rows: Rows, pt: PolicyTables, goal: int,
                kind_box: int, progress: bool = False) -> tuple[Rows, np.ndarray]:
    """Push `rows` (one layer) to the full card under the policy of `pt` (a target policy plays
    for `goal` points in all). Returns the final rows and (n_boxes + 4) sums: each box's
    expected points, then the upper bonus, the Yahtzee bonus, P(upper bonus) and P(kind box
    scored with points). progress: a tqdm bar of the turns played (a pass can take minutes)."""
    s, t = tables(space.rules)
    room = space.upper_room
    parts = 2 * get_num_threads()   # next states split among parts: no row has two writers
    acc = np.zeros((parts, space.n_boxes + 4))
    where = np.full(space.size, -1, dtype=np.int64)
    pool = [np.empty(CHUNK_BYTES // 8, np.int64), np.empty(CHUNK_BYTES // 8)]
    first = int(space.boxes_used[space.decode(rows.states[0])[0]]) if len(rows.states) else space.n_boxes
    for k in tqdm(range(first, space.n_boxes), desc=f"playing {space.rules.name} forward", unit="turn",
                  disable=not progress_on(progress), leave=False):
        layer = space.layer(k + 1)
        reps = np.unique(space.representatives(layer))
        width = _most_so_far(space, reps) + 1
        nxt = Rows(reps, np.zeros(len(reps), np.int64), np.r_[0, np.cumsum(width)],
                   np.zeros(int(width.sum())))
        where[reps] = np.arange(len(reps))
        _push_layer(rows, where, nxt, goal, (s, t, pt, room), acc, kind_box, pool)
        rows = _trim(nxt)
        del nxt
    return rows, acc.sum(axis=0)


CHUNK_BYTES = 64 * 2**20   # outcome buffers of the states worked at once (each of two pools)
FAULTS = {1: "a next state has no row", 2: "a next state's row is too short"}   # `_push_part`'s codes


@njit(cache=True)
def _need(goal, x, top):
    """The lane of x points so far: the need, 0 once met, `top` (band + 1) once out of reach
    (every choice then equally hopeless: the same choices, by the mean)."""
    return min(max(goal - x, 0), top)


@njit(cache=True)
def _lanes(goal, x0, width, target, top):
    """(first need, how many needs) of a row of `width` points from x0."""
    if not target:
        return 0, 1
    cmin = _need(goal, x0 + width - 1, top)
    return cmin, _need(goal, x0, top) - cmin + 1


@njit(cache=True)
def _span(goal, x0, width, target, top, need):
    """The points-so-far positions [a, b) of a row (from x0, `width` long) played with `need`:
    need is decreasing in x, so each need holds one run of the row."""
    if not target:
        return 0, width
    if need == 0:
        return max(goal - x0, 0), width
    if need == top:
        return 0, min(goal - x0 - top + 1, width)
    return goal - x0 - need, goal - x0 - need + 1


def _views(pool: list, n_states: int, n_lanes: int, n_rolls: int, n_boxes: int, n_slots: int) -> tuple:
    """Where `lane_outcomes` writes, for n_states states of up to n_lanes lanes: (n, roll,
    weight) of each lane's merged final rolls, the box of every final roll and lane, the slot of
    each (roll, box), each slot's points, next state and (box points, upper bonus, Yahtzee
    bonus), how many slots; then each slot's next row and part (`_destinations`). Views of the
    pools [int64, float64], which the pass reuses chunk after chunk (grown if too short)."""
    shapes = [(n_states, n_lanes), (n_states, n_lanes, n_rolls), (n_states, n_rolls, n_lanes),
              (n_states, n_rolls, n_boxes), (n_states, n_slots), (n_states, n_slots),
              (n_states, n_slots, 3), (n_states,), (n_states, n_slots), (n_states, n_slots)]
    sizes = [int(np.prod(shape)) for shape in shapes]
    if sum(sizes) > len(pool[0]):
        pool[0] = np.empty(sum(sizes), np.int64)
    if n_states * n_lanes * n_rolls > len(pool[1]):
        pool[1] = np.empty(n_states * n_lanes * n_rolls)
    ints = np.split(pool[0][:sum(sizes)], np.cumsum(sizes)[:-1])
    views = [part.reshape(shape) for part, shape in zip(ints, shapes)]
    out_w = pool[1][:n_states * n_lanes * n_rolls].reshape(n_states, n_lanes, n_rolls)
    return (views[0], views[1], out_w, *views[2:])


def _chunks(lanes: np.ndarray, n_rolls: int, n_boxes: int, n_slots: int):
    """(first, last + 1, most lanes) of runs of states whose buffers fit the pools."""
    per_lane, per_state = n_rolls * 2, n_rolls * n_boxes + n_slots * 7 + 2   # int64 words
    i = 0
    while i < len(lanes):
        j, most = i + 1, int(lanes[i])
        while j < len(lanes) and (j + 1 - i) * (max(most, int(lanes[j])) * per_lane + per_state) * 8 < CHUNK_BYTES:
            most = max(most, int(lanes[j]))
            j += 1
        yield i, j, most
        i = j


def _push_layer(rows: Rows, where, nxt: Rows, goal, rules, acc, kind_box, pool):
    """Every live state's row pushed along its lanes' outcomes into the next rows (which all
    start at 0 points): chunks of states worked in parallel, then pushed in parallel (next
    states split among acc's parts, so no row has two writers)."""
    s, t, pt, room = rules
    live = rows.states
    target = bool(pt.by_need[0])
    n_rolls, n_boxes = t.score.shape
    widths = np.diff(rows.start)
    top = pt.band[live] + 1 if target else None
    lanes = (np.minimum(np.maximum(goal - rows.lo, 0), top)
             - np.minimum(np.maximum(goal - (rows.lo + widths - 1), 0), top) + 1
             if target else np.ones(len(live), np.int64))
    n_slots = n_slots_most(pt, t)
    for i, j, most in _chunks(lanes, n_rolls, n_boxes, n_slots):
        check_stop()          # Ctrl-C acts between chunks
        out = _views(pool, j - i, most, n_rolls, n_boxes, n_slots)
        _work(live[i:j], rows.lo[i:j], widths[i:j], (rows.start[i:j + 1], rows.data), goal, target, s, t, pt, out)
        _destinations(out[6], out[8], where, s, room, acc.shape[0], out[9], out[10])
        fault = np.zeros(acc.shape[0], np.int64)
        _push((rows.lo, rows.start, rows.data), (nxt.start, nxt.data), s,
              (pt.band, live, pt.cls), (i, j, goal, int(target), kind_box), out, acc, fault)
        if fault.any():        # raised here: an exception in a worker thread of a prange is lost
            raise ValueError(FAULTS[int(fault.max())])


def _work(states, lo, widths, source, goal, target, s, t, pt, out):
    """Each state's lanes' outcomes into its row of `out`: a target policy's needs LANES at a
    time within a state, a risk or mean policy's states LANES at a time. `source` is (start,
    data) of the states' rows, one argument (at most ten)."""
    with vectorizing():
        if target:
            start, data = source
            _work_needs(states, lo, widths, start, data, goal, s, t, pt, out)
        else:
            _work_states(states, s, t, pt, out)


@njit(parallel=True, cache=True)
def _work_needs(states, lo, widths, start, data, goal, s, t, pt, out):
    """A target policy's lanes of each state, those whose run of the row holds probability:
    the others (a fifth of all in whole games: a box's few scores leave gaps in a row) push
    nothing, and get no outcomes (out_n 0)."""
    for c in prange(len(states)):
        top = pt.band[states[c]] + 1
        cmin, n = _lanes(goal, lo[c], widths[c], True, top)
        out[0][c, :n] = 0
        lanes = _live_lanes(data[start[c]:start[c + 1]], goal, lo[c], top, cmin, n)
        lane_outcomes(states[c], cmin, lanes, s, t, pt, out, np.int64(c))   # (see _push)


@njit(cache=True)
def _live_lanes(row, goal, x0, top, cmin, n):
    """The lanes (need cmin + lane, lane < n) of a row from x0 whose run (`_span`) holds probability."""
    lanes = np.empty(n, np.int64)
    k = 0
    for lane in range(n):
        a, b = _span(goal, x0, len(row), True, top, cmin + lane)
        x = a
        while x < b and row[x] == 0.0:       # (no temporary array: ten million lanes a pass)
            x += 1
        if x < b:
            lanes[k] = lane
            k += 1
    return lanes[:k]


@njit(parallel=True, cache=True)
def _work_states(states, s, t, pt, out):
    for g in prange((len(states) + LANES - 1) // LANES):
        c0 = g * LANES
        state_outcomes(states[c0:min(c0 + LANES, len(states))], s, t, pt, out, c0)


@njit(parallel=True, cache=True)
def _destinations(nxt, n_slots, where, s, room, parts, next_row, next_part):
    """The next row of state c's slot q (its next state's representative's) and the part that
    row is pushed by, found once per slot (integer divisions): the push reads them for every
    lane and outcome."""
    for c in prange(len(n_slots)):
        for q in range(n_slots[c]):
            d = where[_rep(nxt[c, q], s, room)]      # -1 for none (a closed box's class: never reached)
            next_row[c, q], next_part[c, q] = d, max(d, 0) % parts


@njit(parallel=True, cache=True)
def _push(source, dest, s, states, how, out, acc, fault):
    """Rows i0..i1 of `source` (lo, start, data) pushed along their lanes' outcomes `out` into
    `dest` (start, data), next states split among acc's parts (one row of sums each) so that no
    row has two writers. `states` is (band, live states, score classes), `how` (i0,
    i1, goal, target, kind box): flat tuples, since a tuple holding a tuple cannot enter prange.
    A state without jokers reads its slots from the classes (`policy_turn.has_jokers`). A part
    that finds a next row missing or too short stops and says so in fault[part] (`FAULTS`).
    (The loop index is int64 as numba first types the loop, uint64 in the parallel loop it
    makes: passed as is, the callee would be compiled twice, once for each.)"""
    for part in prange(acc.shape[0]):
        fault[part] = _push_part(np.int64(part), source, dest, s, states, how, out, acc)


@njit(cache=True)
def _push_part(part, source, dest, s, states, how, out, acc):
    """`_push` into the next states of one part: each lane's run of a row added at once; the
    points each box, bonus and n of a kind adds summed into acc[part]. Returns 0, or a fault's
    code (`FAULTS`). (Its own function: the same loops written inside the parallel loop ran ten
    times slower.)"""
    lo, start, data = source
    nstart, ndata = dest
    band, live, cls = states
    i0, i1, goal, target, kind_box = how
    out_n, out_i, out_w, box, slot_of, pts, _, split, _, next_row, next_part = out
    n_boxes = slot_of.shape[2]
    for i in range(i0, i1):
        c = i - i0
        row = data[start[i]:start[i + 1]]
        x0 = lo[i]
        top = band[live[i]] + 1 if target else 0
        slots = slot_of[c] if has_jokers(live[i], s) else cls
        cmin, n_lanes = _lanes(goal, x0, len(row), target, top)
        for lane in range(n_lanes):
            a, b_ = _span(goal, x0, len(row), target, top, cmin + lane)
            mass = -1.0
            for m in range(out_n[c, lane]):
                r = out_i[c, lane, m]
                b = box[c, r, lane]
                q = slots[r, b]
                if next_part[c, q] != part:
                    continue
                d = next_row[c, q]
                if d < 0:
                    return 1
                at = nstart[d] + x0 + pts[c, q]
                if at + b_ > nstart[d + 1]:
                    return 2
                w = out_w[c, lane, m]
                for x in range(a, b_):
                    ndata[at + x] += w * row[x]
                if mass < 0.0:
                    mass = row[a:b_].sum()
                w *= mass
                acc[part, b] += w * split[c, q, 0]
                acc[part, n_boxes] += w * split[c, q, 1]
                acc[part, n_boxes + 1] += w * split[c, q, 2]
                if split[c, q, 1] > 0:
                    acc[part, n_boxes + 2] += w
                if b == kind_box and split[c, q, 0] > 0:
                    acc[part, n_boxes + 3] += w
    return 0
