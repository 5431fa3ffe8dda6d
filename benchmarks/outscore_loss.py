"""Benchmark of issue 47, item 5 (not a test): what the outscore approximation loses against exact
two-player play, on every game solved exactly in numpy here: the tiny games of the tests and the
5-box games of benchmarks/versus.py without the upper bonus (the bonus game's numpy pass is too
long for this machine). Each seat plays the approximation at every turn against an exact best
reply (`objectives.outscore_loss`), its ties broken as the advice breaks them (the best average
first: the stated loss is the advice's own policy's) and, apart, by the engine's rule alone (most
dice kept, the first box: `engine_ties`), to show whether the two differ; writes
results/outscore_loss.json (command, time, machine).

    NUMBA_NUM_THREADS=1 PYTHONPATH=.:tests python benchmarks/outscore_loss.py [--bonus]

About a minute and a half; --bonus adds the 5-box game with the upper bonus (its numpy passes: some
15 minutes) to the readings already in the file.
"""
import datetime
import json
import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_two_player import GAMES as TINY              # noqa: E402 (the tests' tiny games)
from versus import GAMES as SMALL                      # noqa: E402 (this folder's 5-box games)
from results_file import write_result                  # noqa: E402

from yatzy_core.objectives.outscore_loss import SEATS, outscore_loss   # noqa: E402 (ties: "advice" by default)
from yatzy_core.version import __version__             # noqa: E402

RESULT = Path(__file__).resolve().parents[1] / "results" / "outscore_loss.json"


def main(argv):
    bonus = "--bonus" in argv
    games = [SMALL[2]] if bonus else list(TINY.values()) + SMALL[:2]
    readings = json.loads(RESULT.read_text())["readings"]    # a game not measured again keeps its reading
    readings.pop("largest loss", None), readings.pop("note", None), readings.pop("largest tie-rule difference", None)
    for rules in games:
        for seat in SEATS:
            measured = outscore_loss(rules, seat).as_dict()
            engine = outscore_loss(rules, seat, ties="engine")
            measured["engine_ties"] = {"approximate": engine.approximate, "loss": engine.loss,
                                       "seconds": round(engine.seconds, 2)}
            measured["ties_differ_by"] = abs(engine.approximate - measured["approximate"])
            readings[f"{rules.name} ({rules.n_boxes} boxes), {seat}"] = measured
            print(f"approximation: on {rules.name} ({rules.n_boxes} boxes) as the {seat} player it loses "
                  f"{measured['loss']:.6f} of P(win) + 1/2 P(tie) against exact play "
                  f"({measured['approximate']:.6f} against {measured['exact']:.6f}; {measured['seconds']} s); "
                  f"ties by the engine's rule alone: {engine.approximate:.6f}", flush=True)
    readings["largest loss"] = max(r["loss"] for r in readings.values() if isinstance(r, dict))
    readings["largest tie-rule difference"] = max(r.get("ties_differ_by", 0.0) for r in readings.values()
                                                  if isinstance(r, dict))
    readings["note"] = ("readings without 'ties' are an earlier run's, ties by the engine's rule alone; "
                        + ("--bonus run: the bonus game's readings added to the earlier ones" if bonus else
                           "the bonus game's (--bonus) are kept from its last run"))
    record = {"command": "NUMBA_NUM_THREADS=%s python benchmarks/outscore_loss.py %s" % (
                  os.environ.get("NUMBA_NUM_THREADS", ""), " ".join(argv)),
              "version": __version__, "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores".strip(),
              "load": round(os.getloadavg()[0], 1), "readings": readings}
    write_result(RESULT, record)


if __name__ == "__main__":
    main(sys.argv[1:])
