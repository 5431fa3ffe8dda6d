"""The forward pass, compiled: points-so-far rows pushed through the optimal policy layer by layer.

Each live turn state carries a row: P(reach the state with x points scored so far), stored over
its support only (`Rows`). A layer's states are taken in lane groups (`outcomes.group_outcomes`
gives each final roll's probability, points and next state); the outcomes of a state are merged
by (box, points) and each adds its source row, shifted by the points and times its probability,
to the next state's row. Next states are merged into their representatives
(`StateSpace.representatives`): states whose upper total cannot matter any more have the same
future, so their rows can be added. The next layer's states and row bounds come first from
the policy's box for every last roll (cheap, a slight over-estimate: a roll may never be the
last), and the rows are trimmed to their support once the layer is pushed.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import get_num_threads, njit, prange

from .layout import LANES, lane_groups, tables, vectorizing
from .outcomes import _idx, group_outcomes, last_roll_outcomes, scratch
from ..basics import StateValues
from ..chunked import check_stop

__all__ = ["Rows", "push_layers", "start_rows"]

CHUNK = 256   # lane groups whose outcomes are held at once (about 12 MiB)


@dataclass
class Rows:
    """Points-so-far rows of one layer's live states: row i covers points lo[i], lo[i] + 1, ...
    and is data[start[i]:start[i + 1]]."""

    states: np.ndarray   # ascending state indices (representatives)
    lo: np.ndarray
    start: np.ndarray
    data: np.ndarray

    @property
    def prob(self) -> np.ndarray:
        """P(a game reaches each state)."""
        return np.add.reduceat(self.data, self.start[:-1]) if len(self.data) else np.zeros(0)

    @property
    def hi(self) -> np.ndarray:
        return self.lo + np.diff(self.start) - 1


def start_rows(states, points, probs) -> Rows:
    """Rows of single points: state i reached with probability probs[i] after points[i]."""
    order = np.argsort(states)
    n = len(order)
    return Rows(np.asarray(states, np.int64)[order], np.asarray(points, np.int64)[order],
                np.arange(n + 1, dtype=np.int64), np.asarray(probs, np.float64)[order])


@dataclass
class Totals:
    """What the pass adds up besides the rows."""

    box_sum: np.ndarray        # expected points of each box
    sums: np.ndarray           # upper bonus, Yahtzee bonus, P(upper bonus), P(n-of-a-kind box scored)
    states_visited: int = 0
    largest_layer: int = 0
    widest_row: int = 1
    peak_rows_mb: float = 0.0
    peak_moves_mb: float = 0.0   # a layer's moves, held until its next rows exist


def push_layers(solution: StateValues, rows: Rows, kind_box: int, with_points: bool = True,
                on_layer=None) -> tuple[Rows, Totals, np.ndarray]:
    """Push `rows` (all in one layer) to the full card. Returns the final rows, the totals and
    the probability of every state (its representative's, as pushed)."""
    space = solution.space
    n_boxes = space.n_boxes
    totals = Totals(np.zeros(n_boxes), np.zeros(4))
    reached = [(rows.states, rows.prob)]
    where = np.full(space.size, -1, dtype=np.int32)   # a state's row in its layer's Rows
    first = int(space.boxes_used[space.decode(rows.states[0])[0]]) if len(rows.states) else n_boxes
    for k in range(first, n_boxes):
        live = rows.states
        where[live] = np.arange(len(live))
        layer = space.layer(k + 1)
        where[layer] = np.arange(len(layer))          # the place in the next layer
        moves, acc, (blo, bhi) = _layer_moves(solution, rows, where, len(layer), kind_box, with_points)
        found = bhi >= 0
        nxt_lo = blo[found].astype(np.int64)
        widths = bhi[found].astype(np.int64) - nxt_lo + 1
        nxt = Rows(layer[found], nxt_lo, np.r_[0, np.cumsum(widths)], np.zeros(int(widths.sum())))
        place = np.cumsum(found, dtype=np.int32) - 1  # a place in the layer -> its row in nxt
        del blo, bhi, found, layer
        moves_mb = sum(m.nbytes for move in moves for m in move) / 2**20
        totals.peak_rows_mb = max(totals.peak_rows_mb, (rows.data.nbytes + nxt.data.nbytes) / 2**20)
        totals.peak_moves_mb = max(totals.peak_moves_mb, moves_mb)
        with vectorizing():
            for move in moves:
                check_stop()
                _push_moves(move, place, (rows.lo, rows.start, rows.data), (nxt.lo, nxt.start, nxt.data))
        del moves, place
        totals.box_sum += acc[:, :n_boxes].sum(axis=0)
        totals.sums += acc[:, n_boxes:].sum(axis=0)
        totals.states_visited += len(live)
        totals.largest_layer = max(totals.largest_layer, len(live))
        del rows
        rows = _trim(nxt)
        del nxt
        reached.append((rows.states, rows.prob))
        totals.widest_row = max(totals.widest_row, int(np.diff(rows.start).max(initial=1)))
        if on_layer is not None:
            on_layer(len(live))
    del where
    prob = np.zeros(space.size)
    for states, p in reached:
        prob[states] = p
    return rows, totals, prob


def _layer_moves(solution, rows, where, n_next, kind_box, with_points):
    """Every live state's turn of one layer, worked once: its final rolls merged by (box, points)
    into moves (`_outcome_chunk`), CHUNK lane groups at a time; the totals of each lane group
    (`acc`) and the points-so-far range (lo, hi) each next state (its place in the next layer)
    receives. A move is pushed only once every range is known, when the next rows exist."""
    space, values = solution.space, solution.values
    s, t = tables(space.rules)
    groups = lane_groups(space, rows.states)
    n_boxes, room = space.n_boxes, space.upper_room
    acc = np.zeros((len(groups), n_boxes + 4))
    blo = np.full(n_next, np.iinfo(np.int32).max, dtype=np.int32)
    bhi = np.full(n_next, -1, dtype=np.int32)
    moves, n_rolls = [], t.score.shape[0]
    trips = (np.empty((CHUNK, LANES, n_rolls), np.int32), np.empty((CHUNK, LANES, n_rolls), np.int64),
             np.empty((CHUNK, LANES, n_rolls)))      # a chunk's moves before packing, reused
    parts = 4 * get_num_threads()
    with vectorizing():
        for c in range(0, len(groups), CHUNK):
            check_stop()      # Ctrl-C acts between chunks (a layer can take a minute)
            move = _outcome_chunk(groups[c:c + CHUNK], acc[c:c + CHUNK], values, s, t, room,
                                  where, (rows.start, rows.data), (kind_box, with_points, parts), trips)
            _widen(move, rows.lo, rows.hi, blo, bhi)
            moves.append(move)
    return moves, acc, (blo, bhi)


@njit(cache=True)
def _rep(j, s, room):
    """The representative of state j (StateSpace.representatives)."""
    if s.n_upper == 1:
        return j
    y = j % s.n_flags
    rest = j // s.n_flags
    u, mask = rest % s.n_upper, rest // s.n_upper
    if u < s.cap and u + room[mask] < s.threshold:
        return _idx(mask, 0, y, s)
    return j


@njit(parallel=True, cache=True)
def _outcome_chunk(groups, acc, values, s, t, room, where, source, how, trips):
    """The turns of a chunk of lane groups (`group_outcomes`), each lane's final rolls merged by
    (box, points) into moves (`_packed`). Adds the expected points of each box and the bonuses
    to `acc` (one row per lane group); `source` is the rows' (start, data), `how` is (kind_box,
    with_points, parts), `trips` working arrays of CHUNK x LANES x rolls (kept between calls:
    fresh ones cost their page faults each chunk)."""
    start, data = source
    kind_box, with_points, parts = how
    n_groups = len(groups)
    n_rolls, n_boxes = t.score.shape
    trip_dst, trip_pts, trip_w = trips
    n_trip = np.zeros((n_groups, LANES), np.int64)
    n_chunks = min(n_groups, 64)
    span = int(max(t.score.max(), t.joker.max())) + s.upper_bonus + s.yahtzee_bonus + 1
    for ch in prange(n_chunks):
        w = scratch(s, t)
        prob = np.empty((n_rolls, LANES))
        box, pts, ubo, ybo, nxo = (np.empty((n_rolls, LANES), np.int64), np.empty((n_rolls, LANES), np.int64),
                                   np.empty((n_rolls, LANES), np.int64), np.empty((n_rolls, LANES), np.int64),
                                   np.empty((n_rolls, LANES), np.int64))
        key_w = np.zeros(n_boxes * span)
        key_dst = np.zeros(n_boxes * span, np.int64)
        for g in range(ch * n_groups // n_chunks, (ch + 1) * n_groups // n_chunks):
            lanes = groups[g]
            group_outcomes(lanes, values, s, t, w, prob, (box, pts, ubo, ybo, nxo))
            for v in range(LANES):
                if v > 0 and lanes[v] == lanes[v - 1]:
                    continue
                i = where[lanes[v]]
                p_state = data[start[i]:start[i + 1]].sum()
                n = 0
                for r in range(n_rolls):
                    q = prob[r, v]
                    if q == 0.0:
                        continue
                    b = box[r, v]
                    x = q * p_state
                    acc[g, b] += x * (pts[r, v] - ubo[r, v] - ybo[r, v])
                    acc[g, n_boxes] += x * ubo[r, v]
                    acc[g, n_boxes + 1] += x * ybo[r, v]
                    if ubo[r, v] > 0:
                        acc[g, n_boxes + 2] += x
                    if b == kind_box and pts[r, v] - ubo[r, v] - ybo[r, v] > 0:
                        acc[g, n_boxes + 3] += x
                    key = b * span + (pts[r, v] if with_points else 0)
                    if key_w[key] == 0.0:
                        trip_pts[g, v, n] = key
                        n += 1
                        key_dst[key] = where[_rep(nxo[r, v], s, room)]
                    key_w[key] += q
                for m in range(n):
                    key = trip_pts[g, v, m]
                    trip_dst[g, v, m] = key_dst[key]
                    trip_w[g, v, m] = key_w[key]
                    trip_pts[g, v, m] = key % span
                    key_w[key] = 0.0
                n_trip[g, v] = n
    return _packed(groups, where, n_trip, trips, parts)


@njit(cache=True)
def _packed(groups, where, n_trip, trips, parts):
    """The moves of a chunk as (source row, next state (its place in the next layer), points,
    probability) each, and where each of `parts` parts starts: a part holds the moves to the next
    states of place = part (mod parts), in lane order (a lane repeating its neighbour has none),
    so that parts push in parallel and every next row receives its moves in lane order."""
    trip_dst, trip_pts, trip_w = trips
    n_groups = len(groups)
    first = np.zeros(parts + 1, np.int64)
    for g in range(n_groups):
        for v in range(LANES):
            for m in range(n_trip[g, v]):
                first[trip_dst[g, v, m] % parts + 1] += 1
    for p in range(parts):
        first[p + 1] += first[p]
    at = first[:-1].copy()
    src = np.empty(first[-1], np.int32)
    dst = np.empty(first[-1], np.int32)
    pts = np.empty(first[-1], np.int32)
    wt = np.empty(first[-1])
    for g in range(n_groups):
        for v in range(LANES):
            i = where[groups[g, v]]
            for m in range(n_trip[g, v]):
                d = trip_dst[g, v, m]
                k = at[d % parts]
                at[d % parts] += 1
                src[k], dst[k], pts[k], wt[k] = i, d, trip_pts[g, v, m], trip_w[g, v, m]
    return first, src, dst, pts, wt


@njit(cache=True)
def _widen(move, lo, hi, blo, bhi):
    """Widen each next state's points-so-far range (blo, bhi) by what these moves bring to it."""
    _, src, dst, pts, _ = move
    for m in range(len(src)):
        i, d = src[m], dst[m]
        blo[d] = min(blo[d], lo[i] + pts[m])
        bhi[d] = max(bhi[d], hi[i] + pts[m])


@njit(parallel=True, cache=True)
def _push_moves(move, place, source, dest):
    """Every source row pushed along its moves into the next rows, shifted by the points and
    times the probability, the parts of `_packed` in parallel. `place` maps a place in the next
    layer to its row."""
    first, src, dst, pts, wt = move
    lo, start, data = source
    nlo, nstart, ndata = dest
    for part in prange(len(first) - 1):
        for m in range(first[part], first[part + 1]):
            i, d = src[m], place[dst[m]]
            shift = lo[i] + pts[m] - nlo[d]
            w = wt[m]
            row = data[start[i]:start[i + 1]]
            out = ndata[nstart[d] + shift:nstart[d] + shift + len(row)]
            for x in range(len(row)):
                out[x] += w * row[x]


def _trim(rows: Rows) -> Rows:
    """The rows cut to their support (first to last positive point); rows all zero dropped."""
    first, last = _support(rows.start, rows.data)
    keep = last >= first
    widths = np.where(keep, last - first + 1, 0)[keep]
    out = Rows(rows.states[keep], rows.lo[keep] + first[keep], np.r_[0, np.cumsum(widths)],
               np.empty(int(widths.sum())))
    _copy_rows(rows.start[:-1][keep] + first[keep], out.start, rows.data, out.data)
    return out


@njit(cache=True)
def _support(start, data):
    n = len(start) - 1
    first = np.zeros(n, np.int64)
    last = np.full(n, -1, np.int64)
    for i in range(n):
        row = data[start[i]:start[i + 1]]
        for x in range(len(row)):
            if row[x] != 0.0:
                first[i] = x
                break
        for x in range(len(row) - 1, -1, -1):
            if row[x] != 0.0:
                last[i] = x
                break
    return first, last


@njit(cache=True)
def _copy_rows(src_start, start, data, out):
    for i in range(len(start) - 1):
        out[start[i]:start[i + 1]] = data[src_start[i]:src_start[i] + start[i + 1] - start[i]]
