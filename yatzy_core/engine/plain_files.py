"""Opening a file at a name someone else could have planted something at (a cache, a checkpoint,
a lock): never through a link, never waiting on a FIFO, and only a plain file is read.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as folder:
...     os.mkfifo(os.path.join(folder, "fifo"))
...     open_plain(os.path.join(folder, "fifo"))   # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: ... is not a plain file (a link, FIFO, device or socket)
"""
from __future__ import annotations

import os
import stat

__all__ = ["SAFE_OPEN", "open_plain"]

SAFE_OPEN = (getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
             | getattr(os, "O_BINARY", 0))   # never a planted link's target, never wait on a FIFO


def open_plain(path):
    """`path` open for reading (binary, blocking once opened) if it is a plain file; OSError
    where it cannot be opened (a link: ELOOP), ValueError where it is not a plain file."""
    fd = os.open(path, os.O_RDONLY | SAFE_OPEN)
    f = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        f.close()
        raise ValueError(f"{path} is not a plain file (a link, FIFO, device or socket)")
    os.set_blocking(fd, True)
    return f
