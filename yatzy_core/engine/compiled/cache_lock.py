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

The cache folder may be shared with other users, so the lock file is never a followed link nor
a FIFO (opened without following or waiting; anything but a plain file is not used, warned
once), a lock another process keeps (a stopped one) is waited for LOCK_WAIT_SECONDS at most, said
on stderr after NOTICE_SECONDS (which file, which process holds it, Ctrl-C to stop), then
warned once, and numba goes on without it, and a save that fails (a full disk) is warned
and dropped: the kernel runs, and is compiled again next time. The same lock, waited for as long
as its holder lives, keeps two processes from building one cached table at once (`build_lock`,
used by `engine.cache.cached`).
"""
from __future__ import annotations

import contextlib
import functools
import math
import os
import stat
import sys
import time
import warnings

from ..plain_files import SAFE_OPEN

try:
    import fcntl
except ImportError:          # Windows: no advisory locks of this kind
    fcntl = None

LOCK_FILE = "yatzy-core-cache.lock"
LOCK_WAIT_SECONDS = 30.0     # a save takes well under a second; a lock held longer is stuck
POLL_SECONDS = 0.05
NOTICE_SECONDS = 1.0         # a wait longer than this is said at once (a save's own wait is shorter)
_warned: set[str] = set()    # lock files (not waited for again) and folders warned about, once each


def _warn(message: str) -> None:
    warnings.warn(f"numba's cache: {message}", stacklevel=2)


@contextlib.contextmanager
def cache_folder_lock(folder: str, exclusive: bool):
    """Hold a lock on `folder`'s lock file (exclusive to save, shared to load). Where the file
    cannot be opened (a read-only folder, which numba does not write either), is not a plain
    file, is held by another process past LOCK_WAIT_SECONDS, or the file system refuses locks
    (some NFS or FUSE mounts), numba's own behaviour stays."""
    path = os.path.join(folder, LOCK_FILE)
    fd = _open_lock_file(path)
    if fd is None:
        yield
        return
    try:
        _take_lock(fd, path, exclusive)
        yield
    finally:
        os.close(fd)         # closing the file releases the lock


def _open_lock_file(path: str):
    """The lock file's descriptor: made if missing, else opened read-only if it is another
    user's (on a local disk flock needs no write access; on NFS a read-only descriptor gets no
    exclusive lock, and numba's own behaviour stays); None where neither works, or where `path`
    is a link, FIFO, socket or device (warned once)."""
    for flags in (os.O_RDWR | os.O_CREAT, os.O_RDONLY):
        try:
            fd = os.open(path, flags | SAFE_OPEN, 0o666)
        except OSError:
            continue
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return fd
        os.close(fd)
        break
    with contextlib.suppress(OSError):
        if not stat.S_ISREG(os.lstat(path).st_mode) and path not in _warned:
            _warned.add(path)
            _warn(f"{path} is not a plain file (a link, FIFO or device): used without its lock")
    return None


@contextlib.contextmanager
def build_lock(path: str, line):
    """Hold an exclusive lock on the file `path` (made if missing) while a result is built, so a
    second process building the same one waits, then reads the first's file. It waits as long as
    the holder lives (the lock goes with its process, however that ends); `line(fd, path)` is said
    on stderr once the wait passes NOTICE_SECONDS. Where the lock cannot be had (no `fcntl`, a
    read-only folder, a file system without locks), the build goes on without it."""
    fd = _open_lock_file(path) if fcntl is not None else None
    if fd is None:
        yield
        return
    try:
        _take_lock(fd, path, True, math.inf, line)
        yield
    finally:
        os.close(fd)


def _take_lock(fd: int, path: str, exclusive: bool, wait: float | None = None, line=None) -> bool:
    """Whether the lock was had: asked without blocking, again every POLL_SECONDS up to `wait`
    seconds (LOCK_WAIT_SECONDS; once warned about, `path` is not waited for again). A wait longer
    than NOTICE_SECONDS is said at once on stderr: `line(fd, path)`, by default which file, who
    holds it, how long it waits."""
    how = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
    wait = LOCK_WAIT_SECONDS if wait is None else wait
    began = time.monotonic()
    deadline = began + (0 if path in _warned else wait)
    told = False
    while True:
        try:
            fcntl.flock(fd, how)
            return True
        except BlockingIOError:
            now = time.monotonic()
            if now >= deadline:
                break
            if not told and now - began >= NOTICE_SECONDS:
                told = True
                sys.stderr.write((line or waiting_line)(fd, path) + "\n")
                sys.stderr.flush()
            time.sleep(POLL_SECONDS)
        except OSError:      # the file system refuses locks
            return False
    if path not in _warned:
        _warned.add(path)
        _warn(f"{path} is held by another process for over {wait:g} s "
              "(a stopped one?): going on without the lock")
    return False


def waiting_line(fd: int, path: str) -> str:
    """The line said while waiting for the lock: the file, its holder where /proc/locks names
    one, and what happens next."""
    holder = lock_holder(fd)
    who = f"process {holder}" if holder else "another process"
    return (f"yatzy: waiting for numba's cache lock {path}, held by {who} (compiling or loading "
            f"kernels; a stopped one?): going on without it after {LOCK_WAIT_SECONDS:g} s; "
            "Ctrl-C to stop")


def lock_holder(fd: int, locks: str = "/proc/locks") -> str:
    """'PID (NAME)' of a process holding a lock on `fd`'s file (Linux's /proc/locks), or ''."""
    st = os.fstat(fd)
    inode = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        with open(locks) as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    for line in lines:
        fields = line.split()
        if "->" in fields:          # a waiter, not a holder
            continue
        if len(fields) >= 6 and fields[5] == inode and fields[4].isdigit():
            pid = fields[4]
            try:
                with open(f"/proc/{pid}/comm") as f:
                    return f"{pid} ({f.read().strip()})"
            except OSError:
                return pid
    return ""


def _save_or_warn(self, save, *args, **kwargs):
    """numba's save; a failure to write (a full disk, a read-only folder) is one warning, and
    the data file the index may already name is removed, so a later load finds nothing there
    rather than the machine code of an older version of the function. Said once a folder (numba
    compiles under warnings.catch_warnings, which would show the same warning again each time)."""
    try:
        return save(self, *args, **kwargs)
    except OSError as err:
        with contextlib.suppress(Exception):
            name = self._load_index().get(args[0])
            if name is not None:
                os.unlink(self._data_path(name))
        if self._cache_path not in _warned:
            _warned.add(self._cache_path)
            _warn(f"cannot save a kernel in {self._cache_path} ({err.strerror or err}): "
                  "it is compiled again next time")
        return None


def _locked(method, exclusive: bool):
    @functools.wraps(method)
    def under_lock(self, *args, **kwargs):
        folder = getattr(self, "_cache_path", None)
        if folder is None:   # another numba's layout: its own behaviour
            return method(self, *args, **kwargs)
        with cache_folder_lock(folder, exclusive):
            if exclusive:
                return _save_or_warn(self, method, *args, **kwargs)
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
