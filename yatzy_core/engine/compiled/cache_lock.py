"""numba's disk cache, safe when two processes compile one kernel at once.

numba (0.68, `IndexDataCacheFile.save`) keeps a function's compiled types in an index file that
each process reads, adds to and writes back whole, then writes the machine code to the first
free numbered data file. Two processes that compile two types of one function at the same time
can both take number 1: the index of one may end beside the data of the other, and the next
process to load that type would run the wrong machine code. (Two notebooks, or two test
workers, sharing one cache folder.) Here a save (read, add, write both files) holds an
exclusive lock on a file in the cache folder, and a load a shared one, so neither sees the other
half done. Where the platform has no `fcntl` (Windows), or the file system refuses the lock,
numba's own behaviour stays.
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
    """Hold a lock on `folder`'s lock file (exclusive to save, shared to load). Where the file
    cannot be opened (a read-only folder, which numba does not write either) or the file system
    refuses locks (some NFS or FUSE mounts), numba's own behaviour stays."""
    fd = _open_lock_file(folder)
    if fd is None:
        yield
        return
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)         # closing the file releases the lock


def _open_lock_file(folder: str):
    """The lock file's descriptor: made if missing, else opened read-only if it is another
    user's (on a local disk flock needs no write access; on NFS a read-only descriptor gets no
    exclusive lock, and numba's own behaviour stays); None where neither works."""
    path = os.path.join(folder, LOCK_FILE)
    for flags in (os.O_RDWR | os.O_CREAT, os.O_RDONLY):
        try:
            return os.open(path, flags, 0o666)
        except OSError:
            pass
    return None


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
    whether they are (False without `fcntl`, or where numba's cache file class has changed).
    It patches numba's own class, so every library's cached kernels in this process take the
    lock too (and leave the small lock file in their cache folder)."""
    if fcntl is None:
        return False
    try:
        from numba.core.caching import IndexDataCacheFile as cache_file
    except ImportError:
        return False
    save, load = getattr(cache_file, "save", None), getattr(cache_file, "load", None)
    if not (callable(save) and callable(load)):
        return False
    if getattr(save, "locked", False):
        return True
    cache_file.save = _locked(save, exclusive=True)
    cache_file.load = _locked(load, exclusive=False)
    return True
