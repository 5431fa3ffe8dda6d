"""Endgame tables: the exact two-player values of every position where both players have at most
k boxes open (k = 2 by default), stored for advice against the opponent's real card.

A decision layer is named by its open counts (mover, waiter): in alternate play the mover has as
many boxes open as the waiter or one more, so the last layers are (1, 0), (1, 1), (2, 1), (2, 2),
(3, 2), ... and layer (m, w) reads layer (w, m - 1) (`two_player`: the game goes on from the other
side). Only the leads still undecided are stored: with g_a and g_b the most points the mover's and
the waiter's cards can still gain (`targets.most_gain`), the mover has surely won when the lead
d > g_b (W = 1) and surely lost when d < -g_a (W = 0), so each card pair keeps the g_a + g_b + 1
leads g_b, g_b - 1, ..., -g_a; cards are the distinct ones (`StateSpace.representatives`: upper
totals that can no longer reach the bonus merged, which is exact here since past points live in d).

The turns are the target kernel's (`engine.compiled.target_kernel.solve_states`), one waiter at a
time: with lane n = g_b + 1 - d, scoring p points moves lane n to n - p, a lane n <= 0 is a sure
win (the kernel's 1) and a lane past the next card's band a sure loss (its 0): so each pair's band
is exactly its undecided leads. The layers (m, w) of m <= k, w = m - 1 (and those they read) are
stored in the cache; a position of layer (k, k) is worked on demand from layer (k, k - 1)
(`turn_values`). Tests compare every stored value with `two_player.solve_versus` on small games.

>>> from yatzy_core.game.ruleset import Rules
>>> from yatzy_core.game.scoring import Box, total
>>> one_die = Rules("one-die", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=2)
>>> last = endgame_layer(one_die, 1, 0, use_cache=False)
>>> round(last.value(0, 0, -3) * 24, 9)   # 3 behind: a 4+ wins, a 3 ties (rerolled: 7/12 > 1/2)
19.0
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
import numpy as np

from ..engine.cache import (CacheError, cache_dir, cache_path, cached_for, layout_digest, read_header,
                            read_trusted, write_trusted)
from ..engine.chunked import for_each_chunk
from ..engine.compiled.layout import tables, vectorizing
from ..engine.compiled.target_kernel import solve_states
from ..engine.progress import bar as bar_of
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace
from .targets import most_gain, pad_points
from .two_player import LeadLanes, _distinct

__all__ = ["DEFAULT_OPEN", "EndgameLayer", "layers_for", "endgame_layer", "layer_values", "turn_values",
           "build_endgame", "RATE_SECONDS", "layer_kind", "decided_lead",
           "EndRows", "layer_fault"]

DEFAULT_OPEN = 2     # both players with at most this many boxes open: yahtzee's three stored layers hold 2.07e8 values
FORMAT = 1
RATE_SECONDS = 0.35e-6  # wall seconds a stored value on a quiet 2-core machine: 0.66 CPU-us measured (yahtzee,
                        # 137 CPU-s for 2.07e8 values, results/endgame.json), the kernel on both cores


def layers_for(open_boxes: int) -> list[tuple[int, int]]:
    """The stored layers (mover's open boxes, waiter's), in the order they are built, for advice
    at every position where both have at most `open_boxes` open ((k, k) is worked on demand).

    >>> layers_for(2)
    [(1, 0), (1, 1), (2, 1)]
    """
    out = []
    for m in range(1, open_boxes + 1):
        out.append((m, m - 1))
        if m < open_boxes:
            out.append((m, m))
    return out


def layer_values(rules: Rules, open_mover: int, open_waiter: int) -> int:
    """How many values layer (open_mover, open_waiter) stores (its undecided leads)."""
    space = StateSpace(rules)
    gm, gw = (most_gain(space, _distinct(space, rules.n_boxes - k)) for k in (open_mover, open_waiter))
    return int(len(gm) * (gw.sum() + len(gw)) + gm.sum() * len(gw))


def _starts(gm: np.ndarray, gw: np.ndarray) -> tuple[np.ndarray, int]:
    """Where each pair's window starts in the flat values (mover-major), and their total length."""
    lengths = (gm[:, None] + gw[None, :] + 1).astype(np.int64)
    flat = np.cumsum(lengths.ravel()) - lengths.ravel()
    return flat.reshape(lengths.shape), int(lengths.sum())


@dataclass(frozen=True)
class EndgameLayer:
    """W of one decision layer: `values[start[i, j] + gain_waiter[j] - d]` is the value to the mover
    (P(win) + 1/2 P(tie)) of distinct mover card i against distinct waiter card j with lead d, for
    -gain_mover[i] <= d <= gain_waiter[j]; beyond, 1 above and 0 below."""

    open_mover: int
    open_waiter: int
    movers: np.ndarray         # distinct states (StateSpace indices) of the mover's cards
    waiters: np.ndarray
    gain_mover: np.ndarray     # most_gain of each
    gain_waiter: np.ndarray
    start: np.ndarray          # (len(movers), len(waiters)) window starts
    values: np.ndarray         # float64, flat
    seconds: float = 0.0       # the build's (read from the file with the values)
    from_file: bool = False    # read from the cache (kept, or another process's build waited for), not built here
    saved: bool = False        # its values are in the cache file: read from it, or written there by its build

    def value(self, i: int, j: int, lead: int) -> float:
        """W of mover card i, waiter card j (indices into movers, waiters), lead `lead`."""
        if lead > self.gain_waiter[j]:
            return 1.0
        if lead < -self.gain_mover[i]:
            return 0.0
        return float(self.values[self.start[i, j] + self.gain_waiter[j] - lead])

    def window(self, i: int, j: int) -> np.ndarray:
        """The stored leads of one pair, from +gain_waiter[j] down to -gain_mover[i]."""
        return self.values[self.start[i, j]:self.start[i, j] + self.gain_mover[i] + self.gain_waiter[j] + 1]


def _frame(space: StateSpace, open_mover: int, open_waiter: int):
    n = space.n_boxes
    movers, waiters = _distinct(space, n - open_mover), _distinct(space, n - open_waiter)
    gm, gw = most_gain(space, movers), most_gain(space, waiters)
    start, size = _starts(gm, gw)
    return movers, waiters, gm, gw, start, size


def _ragged(starts: np.ndarray, lengths: np.ndarray, reverse: bool) -> np.ndarray:
    """Indices of the windows (starts, lengths) one after another, each reversed if asked."""
    owner = np.repeat(np.arange(len(lengths)), lengths)
    within = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return starts[owner] + (lengths[owner] - 1 - within if reverse else within)


def _build(space: StateSpace, open_mover: int, open_waiter: int, nxt: EndgameLayer | None,
           progress: bool) -> EndgameLayer:
    """Layer (open_mover, open_waiter) from the layer it reads (None: the finished game)."""
    began = time.perf_counter()
    s, t = tables(space.rules)
    pad = pad_points(s, t)
    movers, waiters, gm, gw, start, size = _frame(space, open_mover, open_waiter)
    values = np.empty(size)
    ends = space.layer(space.n_boxes - open_mover + 1)
    gain_end = most_gain(space, ends).astype(np.int64)
    if nxt is not None:
        rep = _row_of(nxt.waiters, space.representatives(ends), "mover's next")
    offset = np.zeros(space.size, dtype=np.int64)
    band = np.zeros(space.size, dtype=np.int64)
    desc = f"{space.rules.name}: endgame layer ({open_mover},{open_waiter})"
    with bar_of(len(waiters), desc, progress, unit="card") as bar:
        for j in range(len(waiters)):
            end_len = gain_end + int(gw[j]) + 1
            mover_len = (gm + gw[j] + 1).astype(np.int64)
            data = np.empty(int(end_len.sum() + mover_len.sum()))
            used = int(end_len.sum())
            if nxt is None:       # both cards full after this turn: lead 0 ties, the kernel's 1 and 0 the rest
                data[:used] = 0.5
            else:                 # 1 - W of the waiter (as mover) against each end card, leads reversed
                data[:used] = 1.0 - nxt.values[_ragged(nxt.start[j, rep], end_len, reverse=True)]
            offset[ends] = np.cumsum(end_len) - end_len
            band[ends] = end_len
            offset[movers] = used + np.cumsum(mover_len) - mover_len
            band[movers] = mover_len

            def kernel(part):
                with vectorizing():
                    solve_states(part, data, offset, band, s, t, pad, False, np.ones((1, 1)))

            for_each_chunk(movers.astype(np.int64), kernel)
            values[_ragged(start[:, j], mover_len, reverse=False)] = data[used:]
            bar.update(1)
    return EndgameLayer(open_mover, open_waiter, movers, waiters, gm, gw, start, values,
                        time.perf_counter() - began)


def layer_kind(open_mover: int, open_waiter: int) -> str:
    """The cache's kind of a layer's file (`engine.cache.cache_path`)."""
    return f"endgame-{open_mover}-{open_waiter}"


def _read(space: StateSpace, open_mover: int, open_waiter: int):
    def read(path):
        fields = read_trusted(path, space.rules, FORMAT, layout_digest(space))
        stored = tuple(int(k) for k in np.asarray(fields.get("layer", ())).ravel())
        if stored != (open_mover, open_waiter):      # another layer's file under this name
            raise CacheError(f"{path} holds layer {stored or 'unnamed'}, not ({open_mover}, {open_waiter})")
        movers, waiters, gm, gw, start, size = _frame(space, open_mover, open_waiter)
        if fields["numbers"].shape != (size,):
            raise CacheError(f"{path} is damaged (holds {fields['numbers'].shape} numbers, not {size})")
        return EndgameLayer(open_mover, open_waiter, movers, waiters, gm, gw, start, fields["numbers"],
                            float(fields["seconds"]), from_file=True, saved=True)
    return read


def _write(space: StateSpace):
    def write(layer: EndgameLayer, path):
        return write_trusted(path, space.rules, layer.values, FORMAT, seconds=layer.seconds,
                             layout=layout_digest(space), layer=np.array([layer.open_mover, layer.open_waiter]))
    return write


def _check_layer(rules: Rules, open_mover: int, open_waiter: int) -> None:
    if rules.saved_rolls:
        raise ValueError(f"rules {rules.name!r} save rolls: the two-player tables do not play them")
    if not (open_waiter <= open_mover <= open_waiter + 1 and 1 <= open_mover <= rules.n_boxes):
        raise ValueError(f"no layer of alternate play has the mover with {open_mover} boxes open and the "
                         f"waiting player with {open_waiter} (the mover has as many or one more)")


_KEPT: dict = {}     # (rules, open_mover, open_waiter, cache folder or None) -> layer: the last few used
KEEP = 6


def _layer(rules: Rules, open_mover: int, open_waiter: int, use_cache: bool, progress: bool,
           build: bool = True) -> EndgameLayer:
    key = (rules, open_mover, open_waiter, str(cache_dir()) if use_cache else None)
    if key in _KEPT:
        return _KEPT[key]
    space = StateSpace(rules)
    last = open_mover == 1 and open_waiter == 0

    def make():
        nxt = None if last else _layer(rules, open_waiter, open_mover - 1, use_cache, progress)
        return _build(space, open_mover, open_waiter, nxt, progress)
    if build:
        written = []           # what happened, not the file's look: a failed write leaves an old file there

        def write(layer, path):
            _write(space)(layer, path)
            written.append(path)
        layer = cached_for(rules, layer_kind(open_mover, open_waiter), _read(space, open_mover, open_waiter), make,
                           write, use_cache, lock=True)   # two processes building it: one builds
        if written:
            layer = replace(layer, saved=True)
    else:
        layer = _stored_only(rules, space, open_mover, open_waiter)
    while len(_KEPT) >= KEEP:
        _KEPT.pop(next(iter(_KEPT)))
    _KEPT[key] = layer
    return layer


def layer_fault(rules: Rules, open_mover: int, open_waiter: int) -> str:
    """'' when layer (open_mover, open_waiter) is kept in memory or its cache file looks whole
    (`engine.cache.read_header`: its fields, stored layer and count of numbers, not the numbers:
    milliseconds, where reading yahtzee's (2,1) takes seconds); else why not, as "is not in the
    cache" or "cannot be read from the cache (why)". The checksum is checked when it is read."""
    if any(key[:3] == (rules, open_mover, open_waiter) and key[3] == str(cache_dir()) for key in _KEPT):
        return ""
    space = StateSpace(rules)
    path = cache_path(rules, layer_kind(open_mover, open_waiter))
    try:
        fields = read_header(path, rules, FORMAT, layout_digest(space))
        stored = tuple(int(k) for k in np.asarray(fields.get("layer", ())).ravel())
        if stored != (open_mover, open_waiter):
            raise CacheError(f"it holds layer {stored or 'unnamed'}")
        if fields["shape"] != (layer_values(rules, open_mover, open_waiter),):
            raise CacheError(f"it holds {fields['shape']} numbers, not {layer_values(rules, open_mover, open_waiter)}")
    except FileNotFoundError:
        return "is not in the cache"
    except Exception as err:      # as `engine.cache.cached`: whatever does not read is damage
        return f"cannot be read from the cache ({str(err).replace(str(path), 'its file')[:120]})"
    return ""


def _stored_only(rules: Rules, space: StateSpace, open_mover: int, open_waiter: int) -> EndgameLayer:
    """A layer read from the cache, never built: ValueError saying why it cannot be, and how to build it."""
    path = cache_path(rules, layer_kind(open_mover, open_waiter))
    try:
        return _read(space, open_mover, open_waiter)(path)
    except FileNotFoundError:
        why = "is not in the cache"
    except Exception as err:      # as `engine.cache.cached`: whatever does not read is damage
        why = f"cannot be read from the cache ({str(err).replace(str(path), 'its file')[:120]})"
    raise ValueError(f"endgame: the table ({open_mover},{open_waiter}) of {rules.name} {why}; it is built only when "
                     f"asked: run `yatzy versus endgame --open {open_waiter + 1}` for these rules again, or fill more "
                     "boxes")


def endgame_layer(rules: str | Rules, open_mover: int, open_waiter: int, use_cache: bool = True,
                  progress: bool = False, build: bool | None = None) -> EndgameLayer:
    """Layer (open_mover, open_waiter): read from the cache, or built (with the layers it reads)
    and cached; kept in memory for the next call. A layer beyond the default ones (`layers_for`
    of DEFAULT_OPEN: yatzy's (2, 2) is 3.8 GB, yahtzee's 20 GB) is built only when `build` asks
    (`build_endgame`, `yatzy versus endgame --open 3`): advice that finds its file damaged gets
    a ValueError saying so, never an unasked build of minutes and gigabytes."""
    rules = get_rules(rules)
    _check_layer(rules, open_mover, open_waiter)
    if build is None:
        build = not use_cache or (open_mover, open_waiter) in layers_for(DEFAULT_OPEN)
    return _layer(rules, open_mover, open_waiter, use_cache, progress, build)


class EndRows:
    """A value table with rows for the cards a turn can end in (`ends`) only, read by state as the
    whole table would be (`engine.turn.box_values` reads `values[next_state]`): any other state
    reads a row of zeros (a box the rules do not allow, masked there). Keeps a turn's table at
    len(ends) rows, not the whole state space's (yahtzee: 1,048,576).

    >>> rows = EndRows(np.array([2, 5]), np.array([[0.25, 0.5], [1.0, 1.0]]), size=8)
    >>> rows[np.array([5, 3, 2])].tolist()
    [[1.0, 1.0], [0.0, 0.0], [0.25, 0.5]]
    """

    def __init__(self, ends: np.ndarray, rows: np.ndarray, size: int):
        self.rows = np.concatenate([rows, np.zeros((1,) + rows.shape[1:])])
        self.where = np.full(size, len(ends), dtype=np.int32)
        self.where[np.asarray(ends)] = np.arange(len(ends), dtype=np.int32)

    def __getitem__(self, states):
        return self.rows[self.where[states]]


def decided_lead(space: StateSpace, mover: int, waiter: int, lead: int) -> int:
    """`lead` clamped to the undecided band and one past it: above the waiter's most gain the mover
    has surely won (W = 1), below minus the mover's most gain surely lost (W = 0), so the values
    are those of the clamped lead and no table need be as wide as a lead of thousands."""
    ga, gb = (int(most_gain(space, [c])[0]) for c in (mover, waiter))
    return max(-ga - 1, min(int(lead), gb + 1))


def turn_values(space: StateSpace, mover: int, waiter: int, lead: int, use_cache: bool = True,
                progress: bool = False) -> tuple[EndRows, LeadLanes, int]:
    """(later, lanes, lane) for the turn engine (`engine.turn.box_values`): the value to the mover,
    card state `mover`, against card state `waiter` of ending the turn in each card of the next
    layer with each lead of `lanes`, read from the endgame layer after it; `lane` is the lead's
    (`decided_lead`: a lead beyond the decided bounds is clamped first, its values identical)."""
    n = space.n_boxes
    open_mover = n - int(space.boxes_used[space.decode(mover)[0]])
    open_waiter = n - int(space.boxes_used[space.decode(waiter)[0]])
    _check_layer(space.rules, open_mover, open_waiter)
    ga, gb = (int(most_gain(space, [c])[0]) for c in (mover, waiter))
    lead = decided_lead(space, mover, waiter, lead)
    lanes = LeadLanes(max(ga, gb, abs(lead)))
    leads = np.arange(lanes.width) - lanes.reach
    ends = space.layer(n - open_mover + 1)
    if open_mover == 1 and open_waiter == 0:
        last = np.where(leads > 0, 1.0, np.where(leads == 0, 0.5, 0.0))
        return EndRows(ends, np.broadcast_to(last, (len(ends), lanes.width)), space.size), lanes, lanes.reach + lead
    nxt = endgame_layer(space.rules, open_waiter, open_mover - 1, use_cache, progress)
    j = _row_of(nxt.movers, space.representatives(np.array([waiter]))[0], "waiting player's")
    gb = int(nxt.gain_mover[j])
    rep = _row_of(nxt.waiters, space.representatives(ends), "mover's next")
    gain_end = nxt.gain_waiter[rep]
    x = -leads[None, :]                          # the waiter's lead as the next mover
    inside = (x >= -gb) & (x <= gain_end[:, None])
    at = nxt.start[j, rep][:, None] + gain_end[:, None] - np.clip(x, -gb, gain_end[:, None])
    w = np.where(inside, nxt.values[at], np.where(x > gain_end[:, None], 1.0, 0.0))
    return EndRows(ends, 1.0 - w, space.size), lanes, lanes.reach + lead


def _row_of(cards: np.ndarray, wanted, whose: str):
    """Where each `wanted` card is in a layer's sorted `cards`; ValueError when one is not among
    them (searchsorted alone would read a neighbour's window)."""
    found = np.searchsorted(cards, wanted)
    inside = np.clip(found, 0, len(cards) - 1)
    if np.any(found >= len(cards)) or np.any(cards[inside] != wanted):
        raise ValueError(f"endgame: a {whose} card is not among the layer's cards (not a card of this layer)")
    return found


def build_endgame(rules: str | Rules, open_boxes: int = DEFAULT_OPEN, progress: bool = True) -> list[EndgameLayer]:
    """Every stored layer for `open_boxes` (`layers_for`), built or read from the cache, in order."""
    rules = get_rules(rules)
    return [endgame_layer(rules, m, w, True, progress, build=True) for m, w in layers_for(open_boxes)]
