"""The page's JavaScript advisor (site/play/advisor.js) under Node: its own exact cases
(tests/js/advisor.test.mjs) and a table exported by the package, whose options it must value as
`advise` does (to 1e-4: the table is float32). A small Yahtzee (forced joker, Yahtzee bonus,
upper bonus), the same with the free joker and Forced Yatzy (boxes in card order) keep it
quick; the site's three tables are checked in Chromium (test_play_page)."""
import json
import random
import shutil
import subprocess

import pytest

from yatzy_core.advice.advisor import advise
from yatzy_core.engine.batch_advice import option_index
from yatzy_core.engine.position import Position, upper_totals
from yatzy_core.engine.solver import solve
from yatzy_core.engine.value_tables import gzipped, value_table
from yatzy_core.game.rules import get_rules
from yatzy_core.game.states import StateSpace

from test_value_tables import ROOT_JS, SMALL

NODE = shutil.which("node")


def node_major() -> int:
    out = subprocess.run([NODE, "--version"], capture_output=True, text=True).stdout
    return int(out.strip().lstrip("v").split(".")[0])


def random_positions(rules, n: int, seed: int) -> list[Position]:
    """`n` positions of reachable turn states (not a full card), random dice and rerolls left."""
    space, rng = StateSpace(rules), random.Random(seed)
    full = (1 << rules.n_boxes) - 1
    states = [int(s) for s in range(space.size) if space.reachable[s] and space.decode(s)[0] != full]
    out = []
    for state in rng.sample(states, n):
        mask, upper, flag = (int(x) for x in space.decode(state))
        used = {rules.box_names[b] for b in range(rules.n_boxes) if mask >> b & 1}
        total = rng.choice(sorted(t for t in upper_totals(rules, used) if min(t, rules.upper_cap) == upper))
        out.append(Position.make(rules, used=used, upper_total=total, yahtzee_bonus=bool(flag),
                                 dice=[rng.randint(1, 6) for _ in range(5)], rolls_left=rng.randint(0, 2)))
    return out


# The rules the exported tables are made for: the forced joker with the Yahtzee bonus (SMALL),
# the free joker (Verhoeff's reading) and boxes filled in card order (forced-yatzy, whole).
FIXTURES = {"small-forced": SMALL, "small-free": SMALL.with_(name="small-free", joker="free"),
            "forced-yatzy": get_rules("forced-yatzy")}


@pytest.mark.skipif(NODE is None, reason="no node on PATH (Node 20 or newer runs tests/js)")
def test_the_javascript_advisor_agrees_with_the_package(tmp_path):
    if node_major() < 20:
        pytest.skip("Node 20 or newer runs tests/js (DecompressionStream, Web Crypto)")
    fixtures = []
    for name, rules in FIXTURES.items():
        solution = solve(rules, progress=False)
        (tmp_path / f"{name}.values.gz").write_bytes(gzipped(value_table(solution)))
        cases = [{"position": {"dice": list(p.dice), "used": sorted(p.used), "upperTotal": p.upper_total,
                               "yahtzeeBonus": p.yahtzee_bonus, "rollsLeft": p.rolls_left},
                  "advice": [[a.label, a.value, option_index(rules, a.action, a.keep, a.box)]
                             for a in advise(p, solution)]}
                 for p in random_positions(rules, 40, seed=3)]
        fixtures.append({"table": f"{name}.values.gz", "cases": cases})
    (tmp_path / "advice.json").write_text(json.dumps(fixtures))
    run = subprocess.run([NODE, "--test", str(ROOT_JS)], capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "YATZY_JS_FIXTURE": str(tmp_path)}, timeout=300)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout and "# skipped 0" in run.stdout     # the package's tables too
