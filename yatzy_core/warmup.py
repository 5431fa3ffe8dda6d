"""`python -m yatzy_core.warmup`: compile the solver kernel once, ahead of the first real solve.

Its own module, not imported by the package: running the solver module with -m ran a module that
`import yatzy_core` had already imported, and runpy warned about it on every install.
"""
from .engine.solver import compile_kernel


def main() -> None:
    print(f"solver kernel compiled (or loaded from numba's cache) in {compile_kernel():.1f} s")


if __name__ == "__main__":
    main()
