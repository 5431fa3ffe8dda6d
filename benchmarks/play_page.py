"""The "Play and ask" page's budget (issue 37): the bytes it adds to the site (gzip-compressed, as
sent), the time from opening the page on a local server to the first advice shown, and the
median time of one position's options in Chromium (1,000 positions), with the package's `advise`
on the same positions in this process as the baseline.

The page is laid out as the built site holds it (site/play/ and the tables `yatzy export --what
values` writes) in a temporary folder and served by Python's http.server; Chromium is
/usr/bin/chromium driven by playwright (the dev extra). performance.now() is coarsened to
0.1 ms in a page, so each position is valued REPEAT times and timed as a batch.

    .venv/bin/python benchmarks/play_page.py [--positions 1000] [--rules yahtzee yatzy]
"""
from __future__ import annotations

import argparse
import functools
import gzip
import random
import shutil
import statistics
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from yatzy_core.advice.advisor import advise
from yatzy_core.engine.cache import get_solution
from yatzy_core.engine.position import Position, upper_totals
from yatzy_core.engine.value_tables import gzipped, value_table
from yatzy_core.game.states import StateSpace

ROOT = Path(__file__).resolve().parent.parent
RULES = ("yahtzee", "yahtzee-no-bonus", "yatzy")
REPEAT = 20
BUDGET = {"bytes": 8_000_000, "first_advice_s": 2.0, "position_ms": 1.0}

TIME_POSITIONS = """async ([rules, positions, repeat]) => {
  const table = await window.yatzyPlay.table(rules);
  for (const p of positions.slice(0, 50)) table.advise(p);          // warm the JIT
  return positions.map((p) => {
    const start = performance.now();
    for (let i = 0; i < repeat; i++) table.advise(p);
    return (performance.now() - start) / repeat;
  });
}"""


def page_folder(target: Path) -> Path:
    """site/play/ and the three tables, as the built site holds them."""
    shutil.copytree(ROOT / "site" / "play", target / "play", ignore=shutil.ignore_patterns(".*", "tables"))
    (target / "play" / "tables").mkdir()
    for name in RULES:
        (target / "play" / "tables" / f"{name}.values.gz").write_bytes(gzipped(value_table(get_solution(name, progress=False))))
    return target / "play"


def sent_bytes(folder: Path) -> dict[str, int]:
    """Each file's bytes as a server sends it gzip-compressed (a table is compressed already)."""
    return {str(p.relative_to(folder)): p.stat().st_size if p.suffix == ".gz" else len(gzip.compress(p.read_bytes(), 9))
            for p in sorted(folder.rglob("*")) if p.is_file()}


def random_positions(rules, n: int, seed: int = 1) -> list[Position]:
    """`n` positions of random reachable turn states (any card), random dice and rerolls left."""
    space, rng = StateSpace(rules), random.Random(seed)
    layers = [space.layer(k) for k in range(rules.n_boxes)]
    out = []
    for i in range(n):
        mask, upper, flag = (int(x) for x in space.decode(int(rng.choice(layers[i % len(layers)]))))
        used = {rules.box_names[b] for b in range(rules.n_boxes) if mask >> b & 1}
        total = min(t for t in upper_totals(rules, used) if min(t, rules.upper_cap) == upper)
        out.append(Position.make(rules, used=used, upper_total=total, yahtzee_bonus=bool(flag),
                                 dice=[rng.randint(1, 6) for _ in range(5)], rolls_left=rng.randint(0, 2)))
    return out


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--rules", nargs="+", default=list(RULES), choices=RULES)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp:
        folder = page_folder(Path(tmp))
        sizes = sent_bytes(folder)
        total = sum(sizes.values())
        for name, size in sizes.items():
            print(f"  {name:<36} {size:>10,} bytes sent")
        print(f"page's added files: {total:,} bytes sent (budget {BUDGET['bytes']:,}): "
              f"{'within' if total <= BUDGET['bytes'] else 'OVER'}")
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=tmp))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/play/index.html"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox", "--disable-gpu"])
                for rules in args.rules:
                    measure(browser, url, rules, args.positions)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()


def measure(browser, url: str, rules: str, n: int) -> None:
    """First advice from a fresh context (nothing cached), then the per-position times."""
    context = browser.new_context()
    page = context.new_page()
    start = time.perf_counter()
    page.goto(f"{url}#mode=ask&rules={rules}&dice=11256&rolls=2")
    page.wait_for_selector("#options tbody tr", timeout=60_000)
    wall = time.perf_counter() - start
    first = page.evaluate("window.yatzyPlay.view.firstAdviceMs") / 1000
    solution = get_solution(rules, progress=False)
    positions = random_positions(solution.rules, n)
    as_js = [{"dice": list(q.dice), "used": sorted(q.used), "upperTotal": q.upper_total,
              "yahtzeeBonus": q.yahtzee_bonus, "rollsLeft": q.rolls_left} for q in positions]
    times = page.evaluate(TIME_POSITIONS, [rules, as_js, REPEAT])
    median = statistics.median(times)
    python = []
    for q in positions[:200]:
        t = time.perf_counter()
        advise(q, solution)
        python.append((time.perf_counter() - t) * 1000)
    baseline = statistics.median(python)
    print(f"{rules}: first advice {first:.2f} s after navigation ({wall:.2f} s wall; budget "
          f"{BUDGET['first_advice_s']} s); one position's options: median {median:.3f} ms over {n:,} "
          f"(p90 {sorted(times)[int(0.9 * n)]:.3f} ms; budget {BUDGET['position_ms']} ms); the package's "
          f"advise {baseline:.2f} ms median over 200 in this process ({baseline / median:.1f}x the page's time)",
          flush=True)
    context.close()


if __name__ == "__main__":
    main()
