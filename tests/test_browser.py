"""End to end: notebook 07 served by Voilà, driven in headless Chromium with Playwright.

Every expected answer is computed here with the package (advise, coach.Game), then read off
the page. Needs /usr/bin/chromium (scripts/install_browser.sh) and the voila and playwright
packages (the dev extra); skips with the reason when one is genuinely missing.
"""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from yatzy_core.advisor import Position, advise
from yatzy_core.coach import Game

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "07_what_should_i_keep.ipynb"
CHROMIUM = os.environ.get("YATZY_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
START_S = 120       # Voilà start and notebook execution, at most
WAIT_MS = 30_000    # one kernel round trip, at most
SEED = 31           # the coached game

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (dev extra)")
pytest.importorskip("voila", reason="voila is not installed (notebooks/dev extra)")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no Chromium at {CHROMIUM}: run scripts/install_browser.sh", allow_module_level=True)
expect = sync_api.expect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def voila(tmp_path_factory, solutions):
    """The URL of a Voilà server showing notebook 07; always stopped afterwards."""
    solutions("yatzy"), solutions("yahtzee")          # solved and cached before the page needs them
    port = free_port()
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    url = f"http://127.0.0.1:{port}/"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "voila", str(NOTEBOOK), "--no-browser", f"--port={port}",
             "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + START_S
            while True:
                if server.poll() is not None:
                    pytest.fail(f"voila exited with {server.returncode}:\n{log.read_text()}")
                try:
                    urllib.request.urlopen(url + "api", timeout=2).close()
                    break
                except urllib.error.HTTPError:
                    break                                   # an answer (403), without starting a kernel
                except OSError:
                    if time.monotonic() > deadline:
                        pytest.fail(f"voila did not answer on {url} in {START_S} s:\n{log.read_text()}")
                    time.sleep(0.25)
            yield url
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


@pytest.fixture(scope="module")
def page(voila):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(WAIT_MS)
            page.goto(voila, timeout=START_S * 1000)
            page.locator(".yc-coach-status").wait_for(timeout=START_S * 1000)   # last widget shown
            yield page
        finally:
            browser.close()


def best_for(dice: str, solutions) -> str:
    return advise(Position.make("yatzy", dice=dice, rolls_left=2), solutions("yatzy"))[0].label


def test_explorer_shows_the_packages_advice(page, solutions, tmp_path):
    page.locator(".yc-rules select").select_option("yatzy")
    page.locator(".yc-rolls-left button", has_text=re.compile(r"^\s*2\s*$")).click()
    for box in page.locator(".yc-used.mod-active").all():      # nothing used
        box.click()
    page.locator(".yc-upper input").fill("0")
    page.locator(".yc-upper input").press("Enter")
    dice = page.locator(".yc-dice-text input")
    dice.fill("11112")
    dice.press("Enter")
    expected = best_for("11112", solutions)
    expect(page.locator(".yc-best")).to_contain_text(f"Best: {expected}")
    expect(page.locator(".yc-advice tr.yc-best-row").first).to_contain_text(expected)
    expect(page.locator(".yc-message")).to_have_text("")
    assert [page.locator(f".yc-die-{i}").inner_text().strip() for i in range(5)] == list("11112")

    after = best_for("21112", solutions)
    assert after != expected                                    # the click must change the advice
    page.locator(".yc-die-0").click()                           # the first 1 becomes a 2
    expect(page.locator(".yc-die-0")).to_have_text("2")
    expect(page.locator(".yc-best")).to_contain_text(f"Best: {after}")
    expect(page.locator(".yc-advice tr.yc-best-row").first).to_contain_text(after)
    chart = page.locator(".yc-explorer .js-plotly-plot")                # the FigureWidget drew
    expect(chart.locator(".gtitle")).to_contain_text("Top 10 keepers: expected points still to come")
    expect(chart.locator(".ytick").last).to_contain_text(after)        # best bar on top
    page.locator(".yc-explorer").screenshot(path=str(tmp_path / "explorer.png"))
    assert (tmp_path / "explorer.png").stat().st_size > 10_000


def hold_for(dice, keep) -> list[int]:
    """Die positions that hold the multiset `keep` (first matching dice)."""
    held: list[int] = []
    for face in keep:
        held.append(next(i for i, d in enumerate(dice) if d == face and i not in held))
    return held


def test_coach_plays_a_seeded_game(page, solutions, tmp_path):
    game = Game("yatzy", seed=SEED, solution=solutions("yatzy"))   # the same dice as the page
    page.locator(".yc-coach-rules select").select_option("yatzy")
    page.locator(".yc-coach-seed input").fill(str(SEED))
    page.locator(".yc-coach-new").click()
    status = page.locator(".yc-coach-status")
    expect(status).to_contain_text(f"yatzy · seed {SEED} · turn 1 of 15 · 2 rerolls left · move 0 · score 0")
    expect(page.locator(".yc-coach-advice")).to_have_text("")   # advice hidden unless asked
    while not game.over:
        shown = [page.locator(f".yc-coach-die-{i}").inner_text().strip() for i in range(5)]
        assert shown == [str(d) for d in game.position.dice]
        best = game.advice()[0]
        if best.action == "keep":
            held = hold_for(game.position.dice, best.keep)
            for i in held:
                page.locator(f".yc-coach-die-{i}").click()
            free = 5 - len(held)
            roll = page.locator(".yc-coach-roll")
            expect(roll).to_have_text(f"Reroll {free} dice" if free else "Reroll none (keep all)")
            roll.click()
        else:
            page.locator(f".yc-coach-box-{best.box}").click()
        game.play(best)
        expect(status).to_contain_text(f"move {len(game.decisions)} · score {game.total}")
    summary = game.summary()
    shown = page.locator(".yc-coach-summary")
    expect(shown).to_contain_text(f"Total: {summary.total} points")
    expect(shown).to_contain_text(f"Optimal moves: {summary.moves} of {summary.moves}")
    expect(shown).to_contain_text(f"Optimal play expects {summary.optimal_expected:.2f} points")
    assert "Traceback" not in page.content()
    page.locator(".yc-coach").screenshot(path=str(tmp_path / "coach.png"))
    page.screenshot(path=str(tmp_path / "page.png"), full_page=True)
    assert (tmp_path / "coach.png").stat().st_size > 10_000
