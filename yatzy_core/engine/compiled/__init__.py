"""The compiled (numba) kernels, in one place: the mean solve, target and risk lanes, turn outcomes
and the forward pass. Their underscore names are private to this folder. numba's disk cache is
put under a lock first (`cache_lock`: two processes compiling at once)."""
from .cache_lock import lock_numba_cache

lock_numba_cache()
