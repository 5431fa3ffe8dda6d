"""The compiled (numba) kernels, in one place: the mean solve, target and risk lanes, turn outcomes
and the forward pass. Their underscore names are private to this folder."""
