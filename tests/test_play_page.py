"""The course site's "Play and ask" page (site/play/) in Chromium, checked against the package.

The page is served as the built site serves it (a local HTTP server, never file://): site/play/
copied with the three tables `yatzy export --what values` writes, as site/conf.py's copy_play and
scripts/site.sh lay them out. For each rule set, inside one page load, the page's own module
values 2,000 positions spread over the game (every rerolls-left count, every number of boxes used,
the upper bonus reached and not, the Yahtzee bonus on and off where the rules have one) and each
option must agree with the package's ranking to 1e-4 (the table is float32), the page's best
choice within 1e-4 of the package's best. Then a seeded game is played at phone width (390x844:
the dice and every box on one screen, 44 px targets) by clicks and keys, reloaded mid-game, saved
as a log, and the card and the grade are checked against the package's replay of that log
(`gamelog.loads`). Errors a player can meet (a damaged table, a missing one, a link that cannot be
read) are shown. Screenshots go to $YATZY_SCREENSHOTS (default tests/screenshots/).
"""
from __future__ import annotations

import contextlib
import functools
import gzip
import io
import json
import os
import random
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pytest

from yatzy_core.advice.advisor import advise
from yatzy_core.advice.gamelog import loads
from yatzy_core.advice.ranking import choices
from yatzy_core.cli import command as cli
from yatzy_core.engine.position import Position, upper_totals
from yatzy_core.engine.turn import box_values, evaluate
from yatzy_core.engine.value_tables import gzipped, value_table
from yatzy_core.game.states import StateSpace

pytest.importorskip("playwright.sync_api", reason="playwright is not installed (dev extra)")
from playwright.sync_api import expect  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("YATZY_SCREENSHOTS", ROOT / "tests" / "screenshots"))
RULES = ("yahtzee", "yahtzee-no-bonus", "yatzy")
POSITIONS = 2000
PER_STATE = 5            # positions of one turn state (other dice, other rerolls left)
TOLERANCE = 1e-4         # float32 values
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def served(tmp_path_factory, solutions):
    """site/play/ and its three tables on a local HTTP server, as the built site holds them."""
    root = tmp_path_factory.mktemp("site")
    shutil.copytree(ROOT / "site" / "play", root / "play", ignore=shutil.ignore_patterns(".*", "tables"))
    (root / "play" / "tables").mkdir()
    for name in RULES:
        (root / "play" / "tables" / f"{name}.values.gz").write_bytes(gzipped(value_table(solutions(name))))

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/play/index.html"
    finally:
        server.shutdown()
        server.server_close()


def open_page(browser, url: str, viewport: dict):
    """The page with requests to any other host refused (and counted), console errors collected."""
    page = browser.new_page(viewport=viewport, accept_downloads=True)
    page.set_default_timeout(60_000)
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)

    def local_only(route):
        if urlsplit(route.request.url).hostname in ("127.0.0.1", None):
            route.continue_()
        else:
            problems.append(f"request to another host: {route.request.url}")
            route.abort()
    page.route("**/*", local_only)
    page.goto(url)
    return page, problems


def ready(page, rules: str) -> None:
    expect(page.locator("body")).to_have_attribute("data-ready", rules)


# ---- the values ---------------------------------------------------------------------------------

def spread_positions(rules, n: int, seed: int) -> list[Position]:
    """`n` positions: turn states taken in turn from every number of boxes used (early and late
    cards), every second one with the upper bonus reached where such states exist, PER_STATE
    positions each with random dice and rerolls left 0, 1, 2, 0, 1."""
    space, rng = StateSpace(rules), random.Random(seed)
    layers = [space.layer(k) for k in range(rules.n_boxes)]
    out = []
    for i in range(n // PER_STATE):
        layer = layers[i % len(layers)]
        mask, upper, flag = space.decode(layer)
        reached = layer[upper == rules.upper_cap] if rules.tracks_upper else layer[:0]
        state = int(rng.choice(reached if i % 2 and len(reached) else layer))
        mask, upper, flag = (int(x) for x in space.decode(state))
        used = {rules.box_names[b] for b in range(rules.n_boxes) if mask >> b & 1}
        total = rng.choice(sorted(t for t in upper_totals(rules, used) if min(t, rules.upper_cap) == upper))
        for j in range(PER_STATE):
            out.append(Position.make(rules, used=used, upper_total=total, yahtzee_bonus=bool(flag),
                                     dice=[rng.randint(1, rules.faces) for _ in range(rules.n_dice)],
                                     rolls_left=j % rules.rolls_per_turn))
    return out


def package_advice(positions: list[Position], solution) -> list[list]:
    """The package's ranked options of each position: `advise`'s own steps (`evaluate` of the
    state's turn, `choices`), the turn worked once for the PER_STATE positions of a state."""
    space, out, turn, last = solution.space, [], None, None
    for p in positions:
        state = p.state(space)
        if state != last:
            turn = evaluate(space, box_values(space, solution.values, np.array([state])), choose=False)
            last = state
        out.append(choices(p, turn, lambda a: a))
    return out


def as_js(p: Position) -> dict:
    return {"dice": list(p.dice), "used": sorted(p.used), "upperTotal": p.upper_total,
            "yahtzeeBonus": p.yahtzee_bonus, "rollsLeft": p.rolls_left}


JS_ADVISE = """async ([rules, positions]) => {
  const table = await window.yatzyPlay.table(rules);
  return positions.map((p) => table.advise(p).map((o) => [o.label, o.expected]));
}"""


@pytest.mark.parametrize("rules", RULES)
def test_the_page_values_every_option_as_the_package(browser, served, solutions, rules):
    solution = solutions(rules)
    r = solution.rules
    positions = spread_positions(r, POSITIONS, seed=RULES.index(rules))
    assert len(positions) == POSITIONS
    assert {p.rolls_left for p in positions} == {0, 1, 2}
    assert {len(p.used) for p in positions} == set(range(r.n_boxes))
    assert {p.upper_total >= r.upper_bonus_threshold for p in positions} == {True, False}
    assert {p.yahtzee_bonus for p in positions} == ({True, False} if r.tracks_yahtzee_bonus else {False})
    want = package_advice(positions, solution)
    for p, ranked in list(zip(positions, want))[:20]:          # advise's own answer, the same numbers
        assert [(a.label, a.value) for a in advise(p, solution)] == [(a.label, a.value) for a in ranked]

    page, problems = open_page(browser, f"{served}#mode=ask&rules={rules}", DESKTOP)
    ready(page, rules)
    got = page.evaluate(JS_ADVISE, [rules, [as_js(p) for p in positions]])
    bad = []
    for p, ranked, mine in zip(positions, want, got):
        value = dict(mine)
        if sorted(value) != sorted(a.label for a in ranked):
            bad.append(f"{p}: options {sorted(value)} vs {sorted(a.label for a in ranked)}")
            continue
        worst = max(abs(value[a.label] - a.value) for a in ranked)
        best = next(a.value for a in ranked if a.label == mine[0][0])
        if worst > TOLERANCE or ranked[0].value - best > TOLERANCE:
            bad.append(f"{p}: off by {worst:.2e}, best {mine[0][0]} vs {ranked[0].label}")
    assert not bad, "\n".join(bad[:10])
    assert problems == []
    page.close()


# ---- a game by clicks and keys ------------------------------------------------------------------

def turn_text(page) -> str:
    return page.locator("#turn").inner_text()


def play_turn(page, number: int) -> None:
    """One turn: by keys (hint, reroll, hint, reroll, Enter: the advisor's moves), by clicks (hold
    the first two dice, reroll, the first open box on the card) or by arrows (the second open box
    picked with the arrow keys, scored with Enter), in turn."""
    before = turn_text(page)
    if number % 3 == 1:                                               # by clicks
        page.locator(".die").nth(0).click()
        page.locator(".die").nth(1).click()
        expect(page.locator(".die[aria-pressed=true]")).to_have_count(2)
        page.locator("#reroll").click()
        expect(page.locator("#rolls-left")).to_have_text("1 reroll left")
        page.locator("#card button.box").first.click()
    elif number % 3 == 2:                                             # the card by arrow keys
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        expect(page.locator("#card button.box").nth(1)).to_be_focused()
        page.keyboard.press("Enter")
    else:
        page.evaluate("document.activeElement && document.activeElement.blur()")
        for left in ("1 reroll left", "0 rerolls left"):
            page.keyboard.press("h")
            expect(page.locator("#hint-box")).to_contain_text("Hint:")
            if "score" in page.locator("#hint-box").inner_text().split("\n")[0]:
                break                                                 # the advisor stops rolling
            page.keyboard.press("r")
            expect(page.locator("#rolls-left")).to_have_text(left)
        page.keyboard.press("Enter")
    expect(page.locator("#turn")).not_to_have_text(before)


PHONE_LAYOUT = """() => {
  const box = (el) => el.getBoundingClientRect();
  const small = [...document.querySelectorAll('#card button.box, .die, #reroll, #hint, #undo, #new-game, #save, #seed, #tab-play, #tab-ask, #rules')]
    .filter((el) => box(el).height < 44 || box(el).width < 44).map((el) => el.id || el.getAttribute('aria-label'));
  const seen = [...document.querySelectorAll('.die, #card tr')].filter((el) => box(el).top < 0 || box(el).bottom > innerHeight);
  return {small, offScreen: seen.length, rows: document.querySelectorAll('#card tr').length, scrollY,
          keys: getComputedStyle(document.querySelector('.keys')).display};
}"""


def card_and_dice(page) -> tuple:
    cells = {td.get_attribute("data-box"): td.inner_text() for td in page.locator("#card td[data-box]").all()}
    dice = page.locator(".die").evaluate_all("ds => ds.map(d => d.getAttribute('aria-label'))")
    return turn_text(page), page.locator("#rolls-left").inner_text(), cells, dice


def test_a_seeded_game_by_clicks_and_keys_is_graded_as_the_package_grades_its_log(browser, served, solutions):
    rules = "yahtzee"
    solution = solutions(rules)
    page, problems = open_page(browser, f"{served}#mode=play&rules={rules}&seed=2026", PHONE)
    ready(page, rules)
    expect(page.locator("#turn")).to_have_text("Seed 2026: turn 1 of 13")
    dice = page.locator(".die").evaluate_all("ds => ds.map(d => d.getAttribute('aria-label'))")
    page.keyboard.press("3")                                          # hold by key, then undo a reroll
    expect(page.locator(".die").nth(2)).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("r")
    expect(page.locator("#rolls-left")).to_have_text("1 reroll left")
    page.keyboard.press("u")
    expect(page.locator("#rolls-left")).to_have_text("2 rerolls left")
    assert page.locator(".die").evaluate_all("ds => ds.map(d => d.getAttribute('aria-label'))") == dice
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    layout = page.evaluate(PHONE_LAYOUT)            # dice and card on one screen, 44 px targets, no key help
    assert layout == {"small": [], "offScreen": 0, "rows": 13 + 4, "scrollY": 0, "keys": "none"}
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "play-phone.png"), full_page=True)
    page.locator("#new-game").click()                                # Enter is the advisor's box, wherever focus is
    expect(page.locator("#new-game")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#turn")).to_have_text("Seed 2026: turn 2 of 13")
    page.locator("#reroll").click()
    expect(page.locator("#rolls-left")).to_have_text("1 reroll left")
    page.keyboard.press("Enter")
    expect(page.locator("#turn")).to_have_text("Seed 2026: turn 3 of 13")
    expect(page.locator("#rolls-left")).to_have_text("2 rerolls left")
    for number in range(2, 13):
        play_turn(page, number)
        if number == 7:
            mid_game(page)
    expect(page.locator("#grade")).to_contain_text("Game over")
    page.screenshot(path=str(SHOTS / "play-graded-phone.png"), full_page=True)
    with page.expect_download() as download:
        page.locator("#save").click()
    log = Path(download.value.path()).read_text()
    game = loads(log, solution=solution)                              # the package's replay
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["grade", str(download.value.path())]) == 0     # what a student runs on it
    assert out.getvalue().startswith(f"Total: {game.total} points (yahtzee")
    assert game.over and json.loads(log)["rules"] == rules
    cells = {td.get_attribute("data-box"): td.inner_text() for td in page.locator("#card td[data-box]").all()}
    assert cells == {box: str(points) for box, points in game.scores.items()}
    assert page.locator("#total").inner_text() == page.locator("#grade-total").inner_text() == str(game.total)
    shown = page.locator("#play").inner_text()
    assert "_" not in shown and "Costliest decisions" in shown          # boxes by their display names
    summary = game.summary()
    mine = page.evaluate("""() => { const s = window.yatzyPlay.view.game.summary();
        return {...s, costliest: s.costliest.map((d) => [d.choice.label, d.loss])}; }""")
    assert mine["total"] == summary.total and mine["moves"] == summary.moves == len(game.decisions)
    assert abs(mine["optimalExpected"] - summary.optimal_expected) < TOLERANCE
    assert mine["optimalMoves"] == sum(d.loss <= TOLERANCE for d in game.decisions)
    assert abs(mine["totalLoss"] - summary.total_loss) < 0.01 and abs(mine["luck"] - summary.luck) < 0.01
    assert page.locator("#grade-expected").inner_text() == f"{summary.optimal_expected:.2f}"
    worst = sorted((d for d in game.decisions if d.loss > TOLERANCE), key=lambda d: -d.loss)[:3]
    assert len(mine["costliest"]) == len(worst) > 0                   # the clicked turns lost points
    for (label, loss), d in zip(mine["costliest"], worst):
        assert abs(loss - d.loss) < 1e-3 and label == d.label
    assert problems == []
    page.close()


def mid_game(page) -> None:
    """Turn 9 of the phone game: a screenshot; the hint says its numbers are points to come; a new
    rule set asks first (answered no: the game stays); a reload resumes the game, held dice too."""
    expect(page.locator("#turn")).to_have_text("Seed 2026: turn 9 of 13")
    page.screenshot(path=str(SHOTS / "play-phone-midgame.png"))
    total = int(page.locator("#total").inner_text())
    page.locator("#hint").click()
    expect(page.locator("#hint-box")).to_contain_text("Points still to come from here with optimal play "
                                                      f"(not the final score: add the {total} on the card)")
    best = page.evaluate("window.yatzyPlay.view.game.advice()[0].expected")
    assert f"{best:.2f} to come, final {total + best:.2f}" in page.locator("#hint-box li").first.inner_text()
    assert "_" not in page.locator("#hint-box").inner_text()
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.locator("#rules").select_option("yatzy")
    expect(page.locator("#rules")).to_have_value("yahtzee")
    assert asked == ["Start a Yatzy (Scandinavian) game? The yahtzee game in progress (turn 9 of 13) will be lost."]
    before = card_and_dice(page)
    held = page.locator(".die[aria-pressed=true]").count()
    page.reload()
    ready(page, "yahtzee")
    assert card_and_dice(page) == before and page.locator(".die[aria-pressed=true]").count() == held
    page.evaluate("document.activeElement && document.activeElement.blur()")


def test_ask_shows_a_linked_position_ranked(browser, served, solutions):
    link = "#mode=ask&rules=yatzy&dice=11256&used=ones,twos&upper=3&bonus=0&rolls=1"
    page, problems = open_page(browser, served + link, DESKTOP)
    ready(page, "yatzy")
    rows = page.locator("#options tbody tr")
    want = advise(Position.make("yatzy", dice="11256", used="ones,twos", upper_total=3, rolls_left=1), solutions("yatzy"))
    expect(rows).to_have_count(len(want))
    first = rows.first.locator("td")
    assert [first.nth(1).inner_text(), first.nth(2).inner_text()] == [want[0].text, f"{want[0].value:.4f}"]
    assert "_" not in page.locator("#ask").inner_text()
    assert page.locator("#ask-link").get_attribute("href") == link
    page.screenshot(path=str(SHOTS / "ask-desktop.png"), full_page=True)
    page.locator("#ask-upper").fill("16")                             # ones and twos make at most 15
    expect(page.locator("#ask-error")).to_contain_text("upper total 16 cannot be made")
    expect(rows).to_have_count(0)
    page.locator("#ask-upper").fill("15")
    expect(rows).to_have_count(len(want))
    assert problems == []
    page.close()


def test_a_damaged_or_missing_table_is_a_clear_error(browser, served):
    page, _ = open_page(browser, "about:blank", PHONE)
    page.route("**/tables/yahtzee-no-bonus.values.gz",
               lambda route: route.fulfill(status=200, body=gzipped(damaged_table(route)), content_type="application/gzip"))
    page.goto(f"{served}#mode=ask&rules=yahtzee-no-bonus")
    expect(page.locator("#error")).to_contain_text("checksum mismatch")
    page.route("**/tables/yatzy.values.gz", lambda route: route.fulfill(status=404, body="missing"))
    page.locator("#rules").select_option("yatzy")
    expect(page.locator("#error")).to_contain_text("Could not load the yatzy table: could not fetch tables/yatzy.values.gz: HTTP 404")
    page.close()


def damaged_table(route) -> bytes:
    """The real table with one value's byte flipped (its SHA-256 no longer matches)."""
    response = route.fetch()
    data = bytearray(gzip.decompress(response.body()))
    data[-5] ^= 1
    return bytes(data)


BAD_LINKS = {      # a link that cannot be read: what the page says, in one page load
    "mode=ask&rules=yatzy&dice=99999": "dice=99999: a roll is 5 dice, each 1 to 6, written as digits (dice=11256)",
    "mode=ask&rules=yatzy&dice=1234": "dice=1234: a roll is 5 dice, each 1 to 6",
    "mode=ask&rules=yatzy&used=ones,nobox": "used=: yatzy has no box nobox (its boxes: ones, twos,",
    "mode=ask&rules=yatzy&rolls=7": "rolls=7: rerolls left are 0, 1, 2",
    "mode=play&rules=yahtzee&seed=" + "9" * 400: "seed=99999999999999999999…: a seed is a whole number from 0 to 4294967295 "
                                               "(a new game with a random seed instead)",
    "mode=play&rules=yahtzee&seed=5&moves=k1.s40": "moves=k1.s40: move 2 (s40) cannot be played: a move is k and the dice "
                                                   "held (k13: hold dice 1 and 3) or s and a box number from 0 to 12",
    "mode=play&rules=chess": "rules=chess: the rule sets here are yahtzee, yahtzee-no-bonus, yatzy",
}


def test_a_link_says_what_is_wrong_and_the_last_game_is_kept(browser, served):
    page, problems = open_page(browser, f"{served}#mode=play&rules=yahtzee&seed=7&moves=k1.s12&held=2", DESKTOP)
    ready(page, "yahtzee")
    expect(page.locator("#turn")).to_have_text("Seed 7: turn 2 of 13")
    expect(page.locator(".die").nth(1)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#error")).to_be_hidden()
    for link, says in BAD_LINKS.items():
        page.evaluate("(hash) => { location.hash = hash; }", link)
        expect(page.locator("#error")).to_contain_text(f"This link cannot be read as it is: {says}")
        if "rolls=7" in link:
            expect(page.locator("input[name=rolls][value='2']")).to_be_checked()     # the default, said so
    expect(page.locator("#turn")).not_to_contain_text("NaN")
    page.goto(served)                                                 # the page opened again without a link
    ready(page, "yahtzee")
    expect(page.locator("#turn")).to_have_text("Seed 5: turn 1 of 13")      # the last game: seed 5, no move played
    page.keyboard.press("Enter")
    expect(page.locator("#turn")).to_have_text("Seed 5: turn 2 of 13")
    page.once("dialog", lambda dialog: dialog.accept())                # a new rule set, the player says yes
    page.locator("#rules").select_option("yatzy")
    ready(page, "yatzy")
    expect(page.locator("#turn")).to_contain_text("turn 1 of 15")
    assert problems == []
    page.close()


def test_a_hostile_table_header_is_a_visible_error_before_any_work(browser, served):
    """A header promising 14 dice, signed so that only the header's own checks can refuse it
    (it froze the page for a minute), is one message on the page."""
    from test_value_tables import forged, header_of

    def hostile(route):
        data = gzip.decompress(route.fetch().body())
        header = header_of(data)
        header["scoring"]["n_dice"] = 14
        return gzipped(forged(header, data[-4 * header["count"]:]))
    page, _ = open_page(browser, "about:blank", PHONE)
    page.route("**/tables/yahtzee-no-bonus.values.gz",
               lambda route: route.fulfill(status=200, body=hostile(route), content_type="application/gzip"))
    page.goto(f"{served}#mode=ask&rules=yahtzee-no-bonus")
    expect(page.locator("#error")).to_contain_text("scoring.n_dice must be a whole number 1..6, got 14")
    page.close()
