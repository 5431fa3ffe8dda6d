"""Two players, compiled: whole games with every lead worked (versus_compiled.py at an earlier
commit) against only the undecided leads (now), side by side in one process: CPU seconds of
interleaved runs, medians, the ratio new/old, the load average, the first player's values equal.

    NUMBA_NUM_THREADS=1 PYTHONPATH=. python benchmarks/versus_decided.py [--repeats 3] [--games 0 1 2] [--old 8adc10a]

The games are benchmarks/versus.py's (by default its first three: five of Yahtzee's boxes, the
third with an upper bonus; 3 has seven boxes). The old module is read with `git show` into a module of its own (the package keeps
one copy of its code); both run on the same target kernel.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from yatzy_core.objectives import versus_compiled as new_versus
from versus import GAMES   # this folder's games (run as a script)

ROOT = Path(__file__).resolve().parents[1]
PATH = "yatzy_core/objectives/versus_compiled.py"


def old_versus(commit: str):
    """versus_compiled.py at `commit`, imported as yatzy_core.objectives._versus_compiled_old."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{PATH}"], check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp(prefix="versus-old-")) / "versus_old.py"
    path.write_text(text)
    name = "yatzy_core.objectives._versus_compiled_old"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, nargs="*", default=[0, 1, 2], help="which of versus.py's games")
    parser.add_argument("--old", default="8adc10a", help="the commit whose versus_compiled.py is the baseline")
    args = parser.parse_args(argv)
    passes = {"old": old_versus(args.old), "new": new_versus}
    for rules in (GAMES[i] for i in args.games):
        values = {k: m.versus_value(rules) for k, m in passes.items()}    # compiles; checks
        assert abs(values["old"] - values["new"]) < 1e-12, values
        cpu = {k: [] for k in passes}
        load = os.getloadavg()[0]
        for _ in range(args.repeats):
            for key, module in passes.items():
                start = time.process_time()
                module.versus_value(rules)
                cpu[key].append(time.process_time() - start)
        load = (load + os.getloadavg()[0]) / 2
        o, n = np.median(cpu["old"]), np.median(cpu["new"])
        print(f"{rules.name}: first player {values['new']:.12f} (old - new {values['old'] - values['new']:.1e}); "
              f"CPU s old {' '.join(f'{x:.2f}' for x in cpu['old'])}, new {' '.join(f'{x:.2f}' for x in cpu['new'])};"
              f" new/old {n / o:.3f} (medians of {args.repeats}, load about {load:.1f} on {os.cpu_count()} cores)",
              flush=True)


if __name__ == "__main__":
    main()
