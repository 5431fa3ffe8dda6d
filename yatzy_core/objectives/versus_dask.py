"""Two players on Dask: the backward pass as tasks over blocks of card pairs, each decision layer
a chunked Zarr array, resumable layer by layer (needs the `cluster` extra: dask, distributed, zarr).

Layer (ka, kb) holds W[i, j, lane] (mover's distinct card i, waiter's j, lead lane), chunked by
(mover block, waiter block). The turns against waiter j read row j of the layer after, where j
is the mover: so a task for the block (movers M, waiters J) reads the next layer's row block J
and writes this layer's chunk (M, J); the regrouping from "by waiter" to "by mover" between
layers is done by the storage layout. The values are `versus_compiled.layer_turns`'s, state by
state, so any blocks and any number of workers give the same bits as `versus_layers`.

With `split` (the default) each task also works its block's chance of a tie along W's choices
under the package's tie rule (`versus_compiled.layer_ties`, compiled: equal to the numpy path's
`two_player._turn` to 1e-12), stored beside W as layer T_ka_kb: the first player's wins, ties
and losses, as `solve_versus` gives them. split=False gives the value alone.

A layer is marked complete in the store's attributes once every block is written and a digest of
each block's values is kept in the store's array digests/<layer> (in the store, so it holds on any
fsspec URL; an array, as the layer's attributes are read by every task): a run stopped (Ctrl-C,
`engine.chunked.request_stop`, a crash) and started again with the same store skips the finished
layers whose every block reads back to its digest and redoes the rest. Zarr reads a missing chunk
as the fill value, here NaN, never a number: a deleted or altered chunk makes its layer be computed
again (one CacheWarning), and the layers computed from it too unless it comes back bit for bit.
The store's attributes hold the rules' fingerprint (another rule set's store is refused) and the
value code's key (`engine.code_key`): a store of other code has every layer computed again.
"""
from __future__ import annotations

import hashlib
import math
import os
import warnings
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..engine.cache import CacheWarning, rules_fingerprint
from ..engine.code_key import code_key
from ..engine.chunked import for_each_chunk
from ..engine.compiled.layout import tables
from ..game.rules import Rules, get_rules
from ..game.states import StateSpace
from .targets import max_total, most_gain
from .two_player import LeadLanes, _distinct, _levels, later_values
from .versus_compiled import layer_ties, layer_turns, versus_split

__all__ = ["DaskRun", "solve_versus_dask", "layer_name", "dashboard_of"]

DIGEST_BYTES = 16      # blake2b's digest of a block, kept in the store's array digests/<layer>
CHUNK_BYTES = 16e6     # a chunk of W at most about this size (a task's write), float64
TASKS_PER_WORKER = 4   # a layer cut into at least this many tasks per worker where it has the waiters


@dataclass(frozen=True)
class DaskRun:
    """The first player's value from a Dask run, and what the run did."""

    rules: Rules
    first: float
    store: str
    layers_done: int          # layers computed by this run (the rest were in the store)
    layers_kept: int          # layers found complete in the store, every block read back to its digest
    dashboard: str | None     # Dask's dashboard (None: bokeh is not installed)
    first_wins: float | None = None    # the split under the package's tie rule (None: split=False)
    tie: float | None = None
    second_wins: float | None = None


def layer_name(ka: int, kb: int, what: str = "W") -> str:
    """The store's name of decision layer (mover's boxes used, waiter's): its values W, or (what
    "T") its chances of a tie.

    >>> layer_name(0, 1), layer_name(0, 1, "T")
    ('W_0_1', 'T_0_1')
    """
    return f"{what}_{ka}_{kb}"


@lru_cache(maxsize=2)
def _game(rules: Rules):
    """What every task of a rule set needs, built once per worker process."""
    space = StateSpace(rules)
    distinct = {k: _distinct(space, k) for k in range(rules.n_boxes + 1)}
    return space, tables(rules), distinct, LeadLanes(max_total(rules))


def _task(rules: Rules, store: str, ka: int, kb: int, movers: tuple[int, int], waiters: tuple[int, int],
          split: bool = False) -> dict[str, bytes]:
    """Work the block (movers M, waiters J) of layer (ka, kb): read the next layer's rows J,
    write this layer's chunk (M, J), with `split` its tie chances too. Returns the digest of each
    array's block written, by array name."""
    import zarr
    space, settings, distinct, lanes = _game(rules)
    (m0, m1), (j0, j1) = movers, waiters
    out = np.empty((m1 - m0, j1 - j0, lanes.width))
    ties = np.empty_like(out) if split else None
    if ka + 1 == rules.n_boxes and kb == rules.n_boxes:
        rows = tie_rows = np.broadcast_to(np.arange(lanes.width) - lanes.reach, (j1 - j0, lanes.width))
    else:
        rows = zarr.open_array(store, path=layer_name(kb, ka + 1), mode="r")[j0:j1]
        tie_rows = zarr.open_array(store, path=layer_name(kb, ka + 1, "T"), mode="r")[j0:j1] if split else None
        for name, read in ((layer_name(kb, ka + 1), rows), (layer_name(kb, ka + 1, "T"), tie_rows)):
            if read is not None and not np.isfinite(read).all():    # NaN: a chunk gone since it was checked
                raise ValueError(f"store {store!r}: layer {name} lost a chunk during the run; run again to redo it")
    ends, movers_here = space.layer(ka + 1), distinct[ka][m0:m1]
    for j in range(j1 - j0):
        later = np.ascontiguousarray(later_values(space, distinct, ka, kb, rows[j]))
        waiter_gain = int(most_gain(space, distinct[kb][j0 + j:j0 + j + 1])[0])   # as versus_layers
        out[:, j] = layer_turns(space, settings, movers_here, ends, later, lanes, waiter_gain)
        if split:
            later_t = later_values(space, distinct, ka, kb, tie_rows[j], tie=True)
            ties[:, j] = layer_ties(space, settings, movers_here, ends, later, later_t, lanes, waiter_gain)
    zarr.open_array(store, path=layer_name(ka, kb), mode="r+")[m0:m1, j0:j1] = out
    digests = {layer_name(ka, kb): block_digest(out)}
    if split:
        zarr.open_array(store, path=layer_name(ka, kb, "T"), mode="r+")[m0:m1, j0:j1] = ties
        digests[layer_name(ka, kb, "T")] = block_digest(ties)
    return digests


def block_digest(values: np.ndarray) -> str:
    """The digest of a block's values (float64, little-endian, C order): what a chunk must read
    back to, whatever codec wrote it. NaN (a missing chunk's fill) never matches numbers.

    >>> zeros = block_digest(np.zeros(2))
    >>> len(zeros), zeros == block_digest(np.array([0.0, 0.0])), zeros == block_digest(np.array([0.0, np.nan]))
    (16, True, False)
    """
    data = np.ascontiguousarray(values, dtype="<f8")
    return hashlib.blake2b(data.tobytes(), digest_size=DIGEST_BYTES).digest()


def _read_digest(store: str, name: str, movers: tuple[int, int], waiters: tuple[int, int]) -> bytes | None:
    """The digest of a stored block as it reads back; None when it cannot be read at all (a
    damaged chunk that its codec refuses: any error of the read counts as damage here)."""
    import zarr
    try:
        return block_digest(zarr.open_array(store, path=name, mode="r")[movers[0]:movers[1], waiters[0]:waiters[1]])
    except Exception:
        return None


def _blocks(n: int, size: int) -> list[tuple[int, int]]:
    return [(lo, min(n, lo + size)) for lo in range(0, n, size)]


def block_shape(movers: int, waiters: int, width: int, workers: int) -> tuple[int, int]:
    """(movers, waiters) of a layer's block: the waiters cut into TASKS_PER_WORKER tasks per worker
    (a task works its waiters' turns: cutting the movers instead would work each waiter's later
    values once per mover block), each chunk at most CHUNK_BYTES. One block per layer (as a fixed
    size of 91 cards gave the 5-box bonus game, whose layers have at most 83) leaves all workers
    but one idle.

    >>> block_shape(67, 83, 241, 2), block_shape(2000, 2000, 241, 2)
    ((67, 11), (91, 91))
    """
    cells = max(1, int(CHUNK_BYTES / 8 / width))             # (mover, waiter) pairs a chunk
    side = max(1, int(math.sqrt(cells)))
    size_j = max(1, min(side, -(-waiters // (TASKS_PER_WORKER * workers))))
    return max(1, min(movers, cells // size_j)), size_j


def _forget_layers(root, n_boxes: int, say: str | None) -> None:
    """Unmark every complete layer of a store written by other value code (`engine.code_key`:
    its bits may differ), so that the run computes them again instead of resuming them."""
    if say:
        print(f"store written by other code (key {say}, this is {code_key()}): every layer computed again",
              flush=True)
    for ka, kb in _levels(n_boxes):
        for what in ("W", "T"):
            name = layer_name(ka, kb, what)
            if name in root and "complete" in root[name].attrs:
                del root[name].attrs["complete"]


def _recorded(root, names: list[str], split: bool) -> dict[str, np.ndarray] | None:
    """The block digests of a layer marked complete (by array name: [mover block, waiter block,
    byte]), None if it is not (or its digests are gone, or it lacks the split `split` asks for).
    They live in arrays of their own, not in the layer's attributes: those are read by every task."""
    if names[0] not in root or not root[names[0]].attrs.get("complete"):
        return None
    if split and not root[names[0]].attrs.get("split"):
        return None
    try:
        return {name: root["digests"][name][:] for name in names}
    except Exception:                     # gone or unreadable: any error of the read counts alike
        warnings.warn(f"layer {names[0][2:].replace('_', ',')} is marked complete but its block digests are "
                      "missing: computed again", CacheWarning, stacklevel=3)
        return None


def _grid(shape, sizes) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The blocks of a layer of `shape` cut into (movers, waiters) `sizes`, and each one's index
    in the digest array, waiters' blocks outermost (the order tasks are submitted in)."""
    blocks = [(m, j) for j in _blocks(shape[1], sizes[1]) for m in _blocks(shape[0], sizes[0])]
    return blocks, [(m[0] // sizes[0], j[0] // sizes[1]) for m, j in blocks]


def _damaged_blocks(client, store: str, root, recorded: dict[str, np.ndarray], shape) -> int:
    """How many blocks of a complete layer do not read back to their digests (all of them if the
    arrays are not the layer's shape or the digests not its blocks'), read on the workers."""
    checks, expected = [], []
    for name, digests in recorded.items():
        array = root[name]
        blocks, where = _grid(shape, array.chunks[:2])
        if tuple(array.shape) != tuple(shape) or digests.shape != (*np.add(where[-1], 1), DIGEST_BYTES):
            return len(blocks)
        checks += [client.submit(_read_digest, store, name, m, j, pure=False) for m, j in blocks]
        expected += [digests[at].tobytes() for at in where]
    return sum(got != want for got, want in zip(client.gather(checks), expected))


def _compute_layer(client, rules: Rules, store: str, root, level: tuple[int, int], shape,
                   sizes: tuple[int, int], split: bool, progress: bool) -> dict[str, dict[str, str]]:
    """Every block of layer `level` (ka, kb) as a task on `client`, into new arrays (NaN where no
    task wrote: a missing chunk never reads as a value). Returns the blocks' digests by array name
    (as `_recorded`)."""
    (ka, kb), (size_m, size_j) = level, sizes
    names = [layer_name(ka, kb, what) for what in (("W", "T") if split else ("W",))]
    for name in names:
        root.create_array(name, shape=shape, chunks=(size_m, size_j, shape[2]), dtype="f8",
                          fill_value=np.nan, overwrite=True)
    blocks, where = _grid(shape, sizes)
    futures = [client.submit(_task, rules, store, ka, kb, m, j, split, pure=False) for m, j in blocks]
    bar = _bar(progress, f"layer {ka},{kb}", len(futures))
    results = []
    try:
        for_each_chunk(futures, lambda part: results.extend(f.result() for f in part), bar=bar, size=1)
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        if bar is not None:
            bar.close()
    digests = {name: np.zeros((*np.add(where[-1], 1), DIGEST_BYTES), np.uint8) for name in names}
    for at, written in zip(where, results):
        for name in names:
            digests[name][at] = np.frombuffer(written[name], np.uint8)
    return digests


def solve_versus_dask(rules: str | Rules, store: str, client=None, block: int | None = None,
                      progress: bool = False, split: bool = True) -> DaskRun:
    """The first player's value, the backward pass run on `client` (a `distributed.Client`;
    None: a LocalCluster of two worker processes, one thread and one numba thread each), every
    layer kept in the Zarr store `store` (a folder or an fsspec URL). `block`: cards a block
    (default: `block_shape`, a few tasks per worker). `split`: the wins and ties too (see the module)."""
    import zarr
    rules = get_rules(rules)
    space, _, distinct, lanes = _game(rules)
    root = zarr.open_group(store, mode="a")
    key = rules_fingerprint(rules)
    if root.attrs.get("rules", key) != key:
        raise ValueError(f"store {store!r} holds another rule set's layers ({root.attrs.get('name')!r})")
    if root.attrs.get("code") != code_key():     # layers of other value code: computed again, not resumed
        _forget_layers(root, rules.n_boxes, progress and root.attrs.get("code"))
    root.attrs.update(rules=key, name=rules.name, width=lanes.width, code=code_key())
    own = client is None
    if own:
        client = local_client(2)
    try:
        done = kept = 0
        dashboard = dashboard_of(client)
        if progress:
            print(f"{rules.name}: two players on Dask, {len(list(_levels(rules.n_boxes)))} layers, "
                  f"store {store}; " + (f"dashboard {dashboard}" if dashboard else
                                        "no dashboard (install bokeh for one)"), flush=True)
        stale = False        # a layer was computed again to other bits: those after it read it
        for ka, kb in _levels(rules.n_boxes):
            names = [layer_name(ka, kb, what) for what in (("W", "T") if split else ("W",))]
            shape = (len(distinct[ka]), len(distinct[kb]), lanes.width)
            recorded = _recorded(root, names, split)
            if recorded is not None and not stale:
                damaged = _damaged_blocks(client, store, root, recorded, shape)
                if not damaged:
                    kept += 1
                    continue
                warnings.warn(f"store {store}: layer {ka},{kb} has {damaged} missing or damaged block(s): "
                              "computed again", CacheWarning, stacklevel=2)
            size_m, size_j = (block, block) if block else block_shape(*shape, workers=_workers(client))
            digests = _compute_layer(client, rules, store, root, (ka, kb), shape, (size_m, size_j), split,
                                     progress)
            kept_digests = root.require_group("digests")
            for name in names:
                kept_digests.create_array(name, shape=digests[name].shape, dtype="u1", overwrite=True)[...] = \
                    digests[name]
            root[names[0]].attrs.update(complete=True, split=split)     # last: its digests are there
            stale = stale or recorded is None or any(not np.array_equal(recorded[n], digests[n]) for n in names)
            done += 1
        first = _start_value(store, layer_name(0, 0), lanes.reach)
        if not split:
            return DaskRun(rules, first, str(store), done, kept, dashboard)
        tie = _start_value(store, layer_name(0, 0, "T"), lanes.reach)
        wins = first - tie / 2
        return DaskRun(rules, first, str(store), done, kept, dashboard, wins, tie, 1.0 - wins - tie)
    finally:
        if own:
            close_client(client)


def _start_value(store: str, name: str, reach: int) -> float:
    """The start's entry of layer `name` (checked or written by this run), a number: NaN would
    be a chunk lost since then."""
    import zarr
    value = float(zarr.open_array(store, path=name, mode="r")[0, 0, reach])
    if math.isnan(value):
        raise ValueError(f"store {store!r}: layer {name} lost a chunk during the run; run again to redo it")
    return value


def _workers(client) -> int:
    """The threads the client's workers run tasks on (1 when none has joined yet)."""
    return max(1, sum(client.nthreads().values()))


def _bar(progress: bool, label: str, total: int):
    from ..engine.progress import bar, progress_on
    return bar(total, label, progress, unit="block") if progress_on(progress) else None


def dashboard_of(client) -> str | None:
    """The link of Dask's dashboard for `client`'s cluster (a LocalCluster's too), None without
    bokeh (the dashboard is then not served)."""
    import importlib.util
    return client.dashboard_link if importlib.util.find_spec("bokeh") else None


def local_client(workers: int):
    """A LocalCluster of `workers` processes, one thread and one numba thread each; the kernels
    (the value's and the tie chance's) compiled into numba's disk cache before they start, so no
    worker compiles."""
    from distributed import Client, LocalCluster
    from ..game.ruleset import Rules as Game
    from ..game.scoring import Box, total
    versus_split(Game("warm-up", (Box("chance", total),), upper_bonus=0, n_dice=1, rolls_per_turn=1))
    env = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    for name in ("NUMBA_CACHE_DIR", "YATZY_CACHE_DIR", "PYTHONPATH"):
        if name in os.environ:
            env[name] = os.environ[name]
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, env=env,
                           dashboard_address=":0", silence_logs=40)
    return Client(cluster)


def close_client(client) -> None:
    cluster = client.cluster
    client.close()
    if cluster is not None:
        cluster.close()
