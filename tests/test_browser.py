"""End to end: notebooks 07 (explorer, coach) and 09 (rules editor) served by Voilà, driven in
headless Chromium with Playwright.

Every expected answer is computed here with the package (advise, coach.Game), then read off
the page. Needs /usr/bin/chromium (scripts/install_browser.sh) and the voila and playwright
packages (the dev extra); skips with the reason when one is genuinely missing. Screenshots go
to $YATZY_SCREENSHOTS (default tests/screenshots/, not committed).
"""
from __future__ import annotations

import contextlib
import http.client
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pytest

from yatzy_core.advice.advisor import advise
from yatzy_core.engine.position import Position
from yatzy_core.advice.coach import Game
from yatzy_core.objectives.midgame import position_distribution
from yatzy_core.ui.coach_outlook import chance_text
from yatzy_core.ui.score_bars import SHOWN
from yatzy_core.ui.widgets_coach import hold_for
from yatzy_core import get_rules, solve
from yatzy_core.game.variants import variant

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "07_what_should_i_keep.ipynb"
CHROMIUM = os.environ.get("YATZY_CHROMIUM", "/usr/bin/chromium")
START_S = 180       # Voilà start and notebook execution, at most (15-35 s on a loaded 2-core machine)
WAIT_MS = 30_000    # one kernel round trip, at most
SEED = 31           # the coached game
OUTLOOK_MS = 60_000   # a forward pass from the start, at most (seconds: the tests before it cached numba's code)
PHONE = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("YATZY_SCREENSHOTS", ROOT / "tests" / "screenshots"))

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (dev extra)")
pytest.importorskip("voila", reason="voila is not installed (notebooks/dev extra)")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no Chromium at {CHROMIUM}: run scripts/install_browser.sh", allow_module_level=True)
expect = sync_api.expect
expect.set_options(timeout=WAIT_MS)   # a loaded machine redraws a plotly chart in seconds, not ms


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


PORT_TAKEN = "no available port could be found"   # Voilà's words when the port went to another process
RUNNING = "is running at"                          # ... and once it has bound its own
TRIES = 3
# The notebooks' Voila template (share/jupyter/voila/templates/yatzy-core) as this checkout has it,
# ahead of any copy an earlier install left in the environment
VOILA_ENV = {**os.environ, "JUPYTER_PATH": os.pathsep.join(
    p for p in (str(ROOT / "share" / "jupyter"), os.environ.get("JUPYTER_PATH")) if p)}


@contextlib.contextmanager
def voila_server(notebook: Path, log: Path):
    """The URL of a Voilà server showing this notebook, once it answers; always stopped after.
    A free port may be taken by another process (another test worker's server) before Voilà
    binds it: then Voilà exits, and it is started again on another port (TRIES tries)."""
    for attempt in range(TRIES):
        port = free_port()
        url = f"http://127.0.0.1:{port}/"
        with open(log, "wb") as out:
            server = subprocess.Popen(
                [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
                 "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=VOILA_ENV)
            try:
                if _wait_for_voila(server, url, log, attempt):
                    yield url
                    return
            finally:
                server.terminate()
                try:
                    server.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    server.kill()
                    server.wait()


def _wait_for_voila(server, url: str, log: Path, attempt: int) -> bool:
    """Wait until this Voilà answers at url (it logged that it runs, and a tornado server
    answers): True; False if it exited because its port was taken (and tries are left); any
    other exit or START_S without an answer fails. Another server on the port (another worker's
    Voilà, or any other) does not count: this one never logged that it runs."""
    deadline = time.monotonic() + START_S
    while True:
        exited = server.poll() is not None
        said = log.read_text(errors="replace")              # read after the poll: all of it once exited
        if exited:
            if PORT_TAKEN in said and attempt < TRIES - 1:
                return False
            pytest.fail(f"voila exited with {server.returncode} (try {attempt + 1} of {TRIES}):\n{said}")
        served_by = ""
        if RUNNING in said:
            try:
                with urllib.request.urlopen(url + "api", timeout=2) as answer:
                    served_by = answer.headers.get("Server", "")
            except urllib.error.HTTPError as err:            # an answer (403), without starting a kernel
                served_by = err.headers.get("Server", "")
            except (OSError, http.client.HTTPException):     # not up yet, or not an HTTP server
                pass
        if served_by.startswith("TornadoServer"):
            return True
        if time.monotonic() > deadline:
            pytest.fail(f"voila did not answer on {url} in {START_S} s:\n{log.read_text()}")
        time.sleep(0.25)


def test_voila_starts_again_when_its_port_is_taken(tmp_path, monkeypatch):
    """The port free_port gave is taken (here by a socket that listens and never answers) before
    Voilà binds it: Voilà exits, and the server is started again on another port."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        given, real_free_port = [taken.getsockname()[1]], free_port
        monkeypatch.setitem(globals(), "free_port", lambda: given.pop(0) if given else real_free_port())
        with voila_server(NOTEBOOK, tmp_path / "voila.log") as url:
            assert given == [] and url != f"http://127.0.0.1:{taken.getsockname()[1]}/"
            with pytest.raises(urllib.error.HTTPError) as answer:      # Voilà's, not the socket's
                urllib.request.urlopen(url + "api", timeout=10)
            assert answer.value.headers["Server"].startswith("TornadoServer")


@pytest.fixture(scope="module")
def voila(tmp_path_factory, solutions):
    """The URL of a Voilà server showing notebook 07; always stopped afterwards."""
    solutions("yatzy"), solutions("yahtzee")          # solved and cached before the page needs them
    with voila_server(NOTEBOOK, tmp_path_factory.mktemp("voila") / "voila.log") as url:
        yield url


LOCAL = {"127.0.0.1", "localhost"}


def watched(page):
    """The page, with `page.elsewhere` collecting every request to another host than this
    machine (a font or script from a CDN), `page.failed` every request that failed and
    `page.console` every error the page logged (its console is empty when all is well)."""
    page.elsewhere, page.failed, page.console = [], [], []
    page.on("console", lambda m: m.type == "error" and page.console.append(m.text))
    page.on("pageerror", lambda e: page.console.append(str(e)))
    page.on("request", lambda r: urlsplit(r.url).scheme in ("http", "https")
            and urlsplit(r.url).hostname not in LOCAL and page.elsewhere.append(r.url))
    page.on("requestfailed", lambda r: page.failed.append(f"{r.url}: {r.failure}"))
    return page


def open_page(browser, url, **options):
    """A new tab showing the page (`watched`), once its last widget is drawn."""
    page = watched(browser.new_page(**options))
    page.set_default_timeout(WAIT_MS)
    page.goto(url, timeout=START_S * 1000)
    page.locator(".yc-coach-status").wait_for(timeout=START_S * 1000)   # last widget shown
    return page


@pytest.fixture(scope="module")
def page(browser, voila):
    page = open_page(browser, voila, viewport={"width": 1400, "height": 1000})
    yield page
    page.close()


def wait_for_bars(page, plot: str, dist) -> None:
    """Wait until the SVG chart `plot` draws `dist`'s bars: one per score from the first
    possible to the last, each drawn (a `rect` with a height)."""
    live = np.flatnonzero(dist.probabilities > SHOWN)
    lo, hi = int(live[0]), int(live[-1])
    svg = page.locator(f"{plot} svg")
    expect(svg).to_have_attribute("data-first", str(lo), timeout=WAIT_MS)
    expect(svg).to_have_attribute("data-last", str(hi), timeout=WAIT_MS)
    expect(svg.locator("rect")).to_have_count(hi - lo + 1)
    box = svg.locator("rect").nth(int(np.argmax(dist.probabilities[lo:hi + 1]))).bounding_box()
    assert box is not None and box["height"] > 50               # the tallest bar, drawn tall


def best_for(dice: str, solutions) -> str:
    return advise(Position.make("yatzy", dice=dice, rolls_left=2), solutions("yatzy"))[0].label


def test_explorer_shows_the_packages_advice(page, solutions):
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
    for i, face in enumerate("11112"):                         # drawn as the coach draws dice
        expect(page.locator(f".yc-die-{i} svg")).to_have_attribute("aria-label", face)
    expect(page.locator(".yc-used-three_of_a_kind")).to_have_text("Three of a kind")

    after = best_for("21112", solutions)
    assert after != expected                                    # the click must change the advice
    page.locator(".yc-die-0").click()                           # the first 1 becomes a 2
    expect(page.locator(".yc-die-0 svg")).to_have_attribute("aria-label", "2")
    expect(page.locator(".yc-best")).to_contain_text(f"Best: {after}")
    expect(page.locator(".yc-advice tr.yc-best-row").first).to_contain_text(after)
    chart = page.locator(".yc-explorer .js-plotly-plot").filter(has_text="Top 10 keepers")   # the FigureWidget drew
    expect(chart.locator(".gtitle")).to_contain_text("Top 10 keepers: expected points still to come")
    expect(chart.locator(".ytick").last).to_contain_text(after)        # best bar on top
    shot(page.locator(".yc-explorer"), "explorer.png")
    assert page.elsewhere == [] and page.failed == []    # all from this Voila, nothing failed
    assert page.console == []                            # no lab extension Voila cannot load


# Where the explorer at a phone's width is cut or squeezed: each button or label that runs past
# the screen's right edge or is cut inside its own box (its text wider than itself), each element
# of the explorer or around it that scrolls sideways (a wide formula elsewhere on the page may
# scroll in its own box), the dice's tops, and the drawn chart's box against the explorer's.
PHONE_FAULTS = """() => {
  const explorer = document.querySelector(".yc-explorer"), screen = document.documentElement.clientWidth;
  const cut = [...explorer.querySelectorAll("button, label, .widget-label, .widget-label-basic")]
    .filter(e => e.getBoundingClientRect().width > 0)                    // shown (not a hidden box)
    .filter(e => e.getBoundingClientRect().right > screen || e.scrollWidth > e.clientWidth)
    .map(e => `${e.className}: ${e.textContent.trim()}`);
  const around = [];                                                     // the page's scrollers
  for (let e = explorer.parentElement; e; e = e.parentElement) around.push(e);
  const scrolls = [document.scrollingElement, ...around, explorer, ...explorer.querySelectorAll("*")]
    .filter(e => e === document.scrollingElement || ["auto", "scroll"].includes(getComputedStyle(e).overflowX))
    .filter(e => e.scrollWidth > e.clientWidth).map(e => e.className || e.tagName);
  const dice = [...explorer.querySelectorAll(".yc-explorer-dice .yc-die")].map(d => d.getBoundingClientRect().top);
  const chart = explorer.querySelector(".js-plotly-plot .main-svg").getBoundingClientRect();
  const box = explorer.getBoundingClientRect();
  return {cut, scrolls, dice, chart: [chart.left, chart.right], explorer: [box.left, box.right], screen};
}"""


def test_the_explorer_fits_a_phone(page):
    """At 390 px the explorer's dice stay in one row, no button or label is cut, the chart is
    drawn within the width (plotly measures its box again) and nothing scrolls sideways."""
    desktop = page.viewport_size
    page.set_viewport_size(PHONE)
    try:
        dice = page.evaluate(PHONE_FAULTS)["dice"]
        assert len(dice) == 5 and len(set(dice)) == 1, dice                       # one row
        page.wait_for_function("""() => {                        // plotly drew at the new width
            const svg = document.querySelector(".yc-explorer .js-plotly-plot .main-svg");
            return svg.getBoundingClientRect().right <= document.querySelector(".yc-explorer").getBoundingClientRect().right;
        }""", timeout=WAIT_MS)
        faults = page.evaluate(PHONE_FAULTS)
        assert faults["cut"] == [], faults["cut"]
        assert faults["scrolls"] == [], faults["scrolls"]
        left, right = faults["chart"]
        assert faults["explorer"][0] <= left and right <= faults["explorer"][1] <= PHONE["width"], faults
        page.locator(".yc-explorer .js-plotly-plot").scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "explorer-phone.png"))
    finally:
        page.set_viewport_size(desktop)


def shot(locator, name: str) -> Path:
    """Save a screenshot under SHOTS and check it holds a real picture."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    locator.screenshot(path=str(path))
    assert path.stat().st_size > 10_000
    return path


def test_coach_plays_a_seeded_game(page, solutions):
    game = Game("yatzy", seed=SEED, solution=solutions("yatzy"))   # the same dice as the page
    page.locator(".yc-coach-rules select").select_option("yatzy")
    page.locator(".yc-coach-seed input").fill(str(SEED))
    page.locator(".yc-coach-new").click()
    status = page.locator(".yc-coach-status")
    expect(status).to_contain_text(f"yatzy · seed {SEED} · turn 1 of 15 · 2 rerolls left · move 0 · score 0")
    expect(page.locator(".yc-coach-advice")).to_have_text("")   # advice hidden unless asked
    card = page.locator(".yc-pad")
    expect(card.locator("tr.yc-pad-to-go")).to_have_text("63 to go for the bonus")

    outlook = chance_text(position_distribution(game.position, solutions("yatzy")), 250)
    expect(page.locator(".yc-coach-chance")).to_contain_text(outlook, timeout=OUTLOOK_MS)
    expect(page.locator(".yc-coach-chance")).to_contain_text("from here: best average")   # the policy
    expect(page.locator(".yc-coach-plot svg")).to_have_attribute("aria-label", "Final score from here (best average)")
    shot(page.locator(".yc-coach"), "coach-start.png")

    by_key = True                                   # alternate the keyboard and the mouse
    midgame_shot = False
    while not game.over:
        for i, face in enumerate(game.position.dice):          # the page's dice, once drawn
            expect(page.locator(f".yc-coach-die-{i} svg")).to_have_attribute("aria-label", re.compile(rf"^{face}\b"))
        if not midgame_shot and len(game.scores) >= 5 and game.position.rolls_left == 1:
            here = position_distribution(game.position, solutions("yatzy"), points=game.total)
            expect(page.locator(".yc-coach-chance")).to_contain_text(chance_text(here, 250), timeout=OUTLOOK_MS)
            wait_for_bars(page, ".yc-coach-plot", here)
            shot(page.locator(".yc-coach-main"), "coach-midgame.png")      # the README's picture
            midgame_shot = True
        best = game.advice()[0]
        if best.action == "keep":
            held = [i for i, h in enumerate(hold_for(game.position.dice, best.keep)) if h]
            for i in held:
                page.keyboard.press(str(i + 1)) if by_key else page.locator(f".yc-coach-die-{i}").click()
                expect(page.locator(f".yc-coach-die-{i}")).to_have_class(re.compile("yc-held"))
            free = 5 - len(held)
            roll = page.locator(".yc-coach-roll")
            expect(roll).to_have_text(f"Reroll {free} {'die' if free == 1 else 'dice'}" if free else "Reroll none (keep all)")
            page.keyboard.press("r") if by_key else roll.click()
        elif by_key:
            open_boxes = list(game.position.box_points())
            for _ in range(open_boxes.index(best.box) + 1):
                page.keyboard.press("ArrowDown")
            expect(card.locator("tr.yc-pad-selected")).to_have_attribute("data-box", best.box)
            page.keyboard.press("Enter")
        else:
            card.locator(f'tr[data-box="{best.box}"]').click()
        game.play(best)
        by_key = not by_key
        expect(status).to_contain_text(f"move {len(game.decisions)} · score {game.total}")
        if best.action == "box":
            expect(card.locator(f'tr[data-box="{best.box}"] td.yc-pad-score')).to_have_text(
                str(game.scores[best.box]))
    summary = game.summary()
    shown = page.locator(".yc-coach-summary")
    expect(shown).to_contain_text(f"Total: {summary.total} points")
    expect(shown).to_contain_text(f"Optimal moves: {summary.moves} of {summary.moves}")
    expect(shown).to_contain_text(f"Optimal play expects {summary.optimal_expected:.2f} points")
    upper = sum(game.scores[b] for b in game.rules.box_names[:6])
    expect(card.locator("tr.yc-pad-subtotal")).to_have_text(f"Upper subtotal{upper}")
    expect(card.locator("tr.yc-pad-total").last).to_have_text(f"Grand total{game.total}")
    expect(page.locator(".yc-coach-chance")).to_contain_text(f"P(final score ≥ 250) = 0.0% · mean {game.total}.0")
    assert "Traceback" not in page.content()
    shot(page.locator(".yc-coach"), "coach-over.png")


def test_coach_hint_undo_and_log(page, solutions):
    page.locator(".yc-coach-seed input").fill(str(SEED))
    page.locator(".yc-coach-new").click()
    game = Game("yatzy", seed=SEED, solution=solutions("yatzy"))
    best = game.advice()[0]
    page.locator(".yc-coach-status").click()                         # focus leaves the seed box
    page.keyboard.press("h")
    expect(page.locator(".yc-coach-feedback")).to_have_text(f"Hint: {best.label}")
    for i, h in enumerate(hold_for(game.position.dice, best.keep)):
        expect(page.locator(f".yc-coach-die-{i}")).to_have_class(re.compile("yc-held" if h else "^(?!.*yc-held)"))
    page.locator(".yc-coach-roll").click()
    status = page.locator(".yc-coach-status")
    expect(status).to_contain_text("1 reroll left · move 1")
    page.locator(".yc-coach-undo").click()
    expect(status).to_contain_text("2 rerolls left · move 0")
    expect(page.locator(".yc-coach-feedback")).to_contain_text(f"Took back turn 1: {best.label}")
    page.get_by_text("Game log: save, load, grade a paper game").click()
    page.locator(".yc-coach-log-text textarea").fill("11112 1111 11111 yatzy\n23456 large_straight")
    page.locator(".yc-coach-paper").click()
    expect(status).to_contain_text("yatzy · paper game · turn 3 of 15")
    expect(status).to_contain_text("move 3 · score 70")
    page.locator(".yc-coach-save").click()
    expect(page.locator(".yc-coach-download")).to_have_attribute("download", "yatzy-game.json")
    assert '"rules": "yatzy"' in page.locator(".yc-coach-log-text textarea").input_value()


def test_the_page_fits_a_phone(page):
    """The same page narrowed to a phone's width; the links at its top jump to the coach and
    to the explorer (the coach starts about seven screens down)."""
    desktop = page.viewport_size
    page.set_viewport_size(PHONE)
    try:
        page.locator(".yc-jump").scroll_into_view_if_needed()       # the top of the page
        page.locator(".yc-jump a", has_text="the play-along coach").click()   # one tap to the coach
        expect(page.get_by_role("heading", name="The play-along coach")).to_be_in_viewport()
        page.locator(".yc-jump a", has_text="the explorer").evaluate("a => a.scrollIntoView()")
        page.locator(".yc-jump a", has_text="the explorer").click()
        expect(page.get_by_role("heading", name="The explorer")).to_be_in_viewport()
        page.locator(".yc-coach").scroll_into_view_if_needed()
        for name in ("yc-coach-die-4", "yc-coach-roll", "yc-pad"):
            box = page.locator(f".{name}").bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], name   # on screen
        page.locator(".yc-coach-new").click()                       # a new game: nothing held
        expect(page.locator(".yc-coach-status")).to_contain_text("move 0 ·")
        page.locator(".yc-coach-die-0").click()
        expect(page.locator(".yc-coach-die-0")).to_have_class(re.compile("yc-held"))
        widths = page.evaluate("[document.documentElement.scrollWidth, "
                               "document.querySelector('.yc-coach-main').scrollWidth]")
        assert max(widths) <= PHONE["width"], widths                 # no sideways scrolling
        shot(page.locator(".yc-coach-table"), "coach-phone.png")
        page.screenshot(path=str(SHOTS / "coach-phone-page.png"))
    finally:
        page.set_viewport_size(desktop)


def test_two_visitors_each_get_their_own_game(page, browser, voila):
    """A second page on the same server runs its own kernel: a game started there does not touch
    the first page's, and the first page still answers."""
    other = open_page(browser, voila, viewport=PHONE)
    try:
        other.locator(".yc-coach-rules select").select_option("yahtzee")
        other.locator(".yc-coach-seed input").fill("7")
        other.locator(".yc-coach-new").click()
        expect(other.locator(".yc-coach-status")).to_contain_text("yahtzee · seed 7 · turn 1 of 13 · 2 rerolls left")
        expect(page.locator(".yc-coach-status")).not_to_contain_text("seed 7")
        page.locator(".yc-coach-rules select").select_option("yatzy")
        page.locator(".yc-coach-seed input").fill("8")
        page.locator(".yc-coach-new").click()
        expect(page.locator(".yc-coach-status")).to_contain_text("yatzy · seed 8 · turn 1 of 15 · 2 rerolls left")
        expect(other.locator(".yc-coach-status")).to_contain_text("yahtzee · seed 7 · turn 1 of 13")
    finally:
        other.close()


# --- the rules editor of notebook 09 ----------------------------------------------------------

RULES_NOTEBOOK = ROOT / "notebooks" / "09_changing_the_rules.ipynb"


@pytest.fixture(scope="module")
def rules_page(browser, tmp_path_factory):
    """Notebook 09 served by Voilà, open in a tab once its rules editor shows a solved result."""
    with voila_server(RULES_NOTEBOOK, tmp_path_factory.mktemp("voila-09") / "voila.log") as url:
        page = watched(browser.new_page(viewport={"width": 1024, "height": 1000}))   # a picture with little margin
        page.set_default_timeout(WAIT_MS)
        page.goto(url, timeout=START_S * 1000)
        page.locator(".yc-rules-editor .yc-headline b").first.wait_for(timeout=START_S * 1000)
        try:
            yield page
        finally:
            page.close()


def test_rules_editor_re_solves_a_changed_rule(rules_page):
    """Start from Yatzy and halve its upper bonus with the slider (a rule set the notebook never
    solved): the page shows the package's values, and the best move at 1 1 1 5 5 flips."""
    page = rules_page
    base, changed = get_rules("yatzy"), variant("yatzy", upper_bonus=25)
    before, after = solve(base, progress=False), solve(changed, progress=False)
    spot = dict(dice="11155", rolls_left=2)
    best_before = advise(Position.make(base, **spot), before)[0].label
    best_after = advise(Position.make(changed, **spot), after)[0].label
    assert best_before != best_after                          # the change must show on the page
    headline = page.locator(".yc-rules-editor .yc-headline")

    page.locator(".yc-base select").select_option("yatzy")   # the notebook left it on yahtzee
    expect(headline).to_contain_text(f"expected score {before.expected_score:.4f} (+0.0000")
    for name, value in (("yc-dice-text", spot["dice"]), ("yc-rolls-left", str(spot["rolls_left"]))):
        field = page.locator(f".{name} input")
        field.fill(value)
        field.press("Enter")
    expect(page.locator(".yc-rules-editor .yc-moves tr").nth(1)).to_contain_text(best_before)
    readout = page.locator(".yc-upper-bonus .widget-readout")  # the slider's typed value
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("25")
    page.keyboard.press("Enter")
    expect(headline).to_contain_text(f"{changed.name}: expected score {after.expected_score:.4f} "
                                     f"({after.expected_score - before.expected_score:+.4f}")
    expect(headline).to_contain_text(f"{best_before} becomes {best_after}")
    expect(page.locator(".yc-rules-editor .yc-moves tr").nth(1)).to_contain_text(best_after)
    expect(page.locator(".yc-rules-editor .yc-status")).to_contain_text("done in")
    expect(page.locator(".yc-rules-editor .yc-message")).to_have_text("")
    assert "Traceback" not in page.content()
    assert page.elsewhere == [] and page.failed == []
    headline.click()                                           # the readout loses focus
    shot(page.locator(".yc-rules-editor"), "rules-editor.png")   # the site's picture of chapter 09
