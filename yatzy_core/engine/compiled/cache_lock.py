"""numba's disk cache, safe when two processes compile one kernel at once.

numba (0.68, `IndexDataCacheFile.save`) keeps a function's compiled types in an index file that
each process reads, adds to and writes back whole, then writes the machine code to the first
free numbered data file. Two processes that compile two types of one function at the same time
can both take number 1: the index of one may end beside the data of the other, and the next
process to load that type would run the wrong machine code. (Two notebooks, or two test
workers, sharing one cache folder.) Here a save (read, add, write both files) holds an
exclusive lock on a file in the cache folder, and a load a shared one, so neither sees the other
half done. Where the platform has no `fcntl` (Windows) numba's own behaviour stays.
"""
from __future__ import annotations

import contextlib
import functools
import os

try:
    import fcntl
except ImportError:          # Windows: no advisory locks of this kind
    fcntl = None

LOCK_FILE = "yatzy-core-cache.lock"


@contextlib.contextmanager
def cache_folder_lock(folder: str, exclusive: bool):
    """Hold a lock on `folder`'s lock file (exclusive to save, shared to load). A folder where the
    lock file cannot be made (read only) is not written by numba either: no lock needed."""
    try:
        fd = os.open(os.path.join(folder, LOCK_FILE), os.O_RDWR | os.O_CREAT, 0o666)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)         # closing the file releases the lock


def _locked(method, exclusive: bool):
    @functools.wraps(method)
    def under_lock(self, *args, **kwargs):
        folder = getattr(self, "_cache_path", None)
        if folder is None:   # another numba's layout: its own behaviour
            return method(self, *args, **kwargs)
        with cache_folder_lock(folder, exclusive):
            return method(self, *args, **kwargs)
    under_lock.locked = True
    return under_lock


def lock_numba_cache() -> bool:
    """Put numba's cache saves and loads under the folder lock, once per process. Returns
    whether they are (False without `fcntl`, or where numba's cache file class has changed)."""
    if fcntl is None:
        return False
    from numba.core.caching import IndexDataCacheFile as cache_file
    if getattr(cache_file.save, "locked", False):
        return True
    if not (callable(getattr(cache_file, "save", None)) and callable(getattr(cache_file, "load", None))):
        return False
    cache_file.save = _locked(cache_file.save, exclusive=True)
    cache_file.load = _locked(cache_file.load, exclusive=False)
    return True
