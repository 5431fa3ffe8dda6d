"""`python -m yatzy_core.warmup [--all]`: compile kernels once, ahead of their first real use.

numba compiles a kernel at its first call and caches it on disk. By default the solver kernel
(`scripts/start.sh`: about 11 s); `--all` compiles every objective's kernels too, on a three-box
game, in two processes side by side: the target and risk tables and policies, the beat policy's
ties, the score distributions, saved rolls and the players (about 4 minutes of compiling on one
core, measured). The test command runs it before its workers start, each of which would
otherwise compile the same kernels.

Its own module, not imported by the package: running the solver module with -m ran a module that
`import yatzy_core` had already imported, and runpy warned about it on every install.
"""
from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from .engine.solver import compile_kernel


def _tiny():
    """Yahtzee on three boxes (an upper box, the Yahtzee box: jokers, chance) and its solution."""
    from .engine.solver import solve
    from .game.rules import get_rules
    rules = get_rules("yahtzee")
    rules = rules.with_(name="warmup", boxes=tuple(b for b in rules.boxes if b.name in ("ones", "yahtzee", "chance")))
    return rules, solve(rules, progress=False, moments=True)


def _mean_kernels() -> float:
    """The max-mean side: distributions (whole game and from a position), advice, the players."""
    from .advice.advisor import advise
    from .engine.position import Position
    from .objectives.distribution import forward
    from .objectives.midgame import position_distribution
    from .objectives.policy_play import target_play
    from .objectives.targets import solve_targets
    from .players.simulation import simulate
    start = time.perf_counter()
    rules, solution = _tiny()
    forward(solution)
    position = Position.make(rules, used=["ones"], dice="66612")
    advise(position, solution)
    position_distribution(position, solution)
    simulate(rules, "optimal", games=10, progress=False, solution=solution)
    target_play(solve_targets(rules, 60), 30)
    return time.perf_counter() - start


def _objective_kernels() -> float:
    """The other objectives: target table, the beat policy's ties, risk table and policy, saved rolls."""
    from .engine.saved import solve_saved
    from .game.rules import get_rules
    from .objectives.policy_play import risk_play, tie_table
    from .objectives.targets import solve_risk, solve_targets
    from .players.saved_play import play_saved
    start = time.perf_counter()
    rules, _ = _tiny()
    tie_table(solve_targets(rules, 60))
    risk_play(rules, 0.05, solve_risk(rules, [0.05])[:, 0])
    maxi = get_rules("maxi-yatzy")
    play_saved(solve_saved(maxi.with_(name="warmup-saved", boxes=maxi.boxes[:2]), progress=False), games=10, seed=0)
    return time.perf_counter() - start


def compile_all() -> list[float]:
    """Every kernel compiled (or loaded from numba's cache), the two groups in two processes;
    returns each group's seconds."""
    with ProcessPoolExecutor(2, mp_context=get_context("spawn")) as pool:
        jobs = [pool.submit(_mean_kernels), pool.submit(_objective_kernels)]
        return [job.result() for job in jobs]


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv not in ([], ["--all"]):
        print(f"usage: python -m yatzy_core.warmup [--all] (got {' '.join(argv)!r})", file=sys.stderr)
        raise SystemExit(2)
    print(f"solver kernel compiled (or loaded from numba's cache) in {compile_kernel():.1f} s")
    if argv:
        mean, other = compile_all()
        print(f"every other kernel compiled (or loaded) in {mean:.1f} s and {other:.1f} s, side by side")


if __name__ == "__main__":
    main()
