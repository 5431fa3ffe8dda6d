"""The course website: built (a warning fails it), every internal link resolves, and every page
works in Chromium at desktop and phone width with no network.

The student's site (the default build, the one published) is built once into a temporary folder
from the committed notebooks (nothing is executed); it holds no solution and offers the student's
notebook only. The teacher's edition (`-t teacher`) is not built here: its one difference, the
folding of each solution, is checked on the notebooks in tests/test_student_edition.py. Needs the site extra (the dev extra includes it); the browser half also needs
/usr/bin/chromium and playwright, as tests/test_browser.py. Screenshots go to $YATZY_SCREENSHOTS
(default tests/screenshots/), as the coach's do.
"""
from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

pytest.importorskip("sphinx", reason="sphinx is not installed (site extra)")
pytest.importorskip("myst_nb", reason="myst-nb is not installed (site extra)")
bs4 = pytest.importorskip("bs4", reason="beautifulsoup4 is not installed (dev extra)")

from yatzy_core.cli.command import build_parser   # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from student_edition import SOLUTION, student_notebook, tags, without_solutions   # noqa: E402
sys.path.pop(0)
SHOTS = Path(os.environ.get("YATZY_SCREENSHOTS", ROOT / "tests" / "screenshots"))
WAIT_MS = 30_000
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 800}    # a narrow Android phone: room for fonts that set wider than here
PLOTLY = "application/vnd.plotly.v1+json"
LINKS = {"a": "href", "link": "href", "script": "src", "img": "src", "iframe": "src", "source": "src"}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The built site's folder; the build must finish without one warning."""
    out = tmp_path_factory.mktemp("site") / "html"
    run = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q",
                          str(ROOT / "site"), str(out)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, f"site build failed:\n{run.stdout}\n{run.stderr}"
    return out


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "_static" not in p.parts and "_sources" not in p.parts)


def soup(path: Path):
    return bs4.BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def student(notebook: Path) -> dict:
    """A chapter's student edition, as the site writes it (a dict, as json reads a notebook)."""
    import nbformat
    return json.loads(nbformat.writes(student_notebook(nbformat.read(notebook, as_version=4))))


def subcommands() -> list[str]:
    return list(build_parser()._subparsers._group_actions[0].choices)


def test_every_chapter_and_command_has_a_page(site):
    chapters = sorted(p.stem for p in (ROOT / "notebooks").glob("[01][0-9]*_*.ipynb"))
    assert len(chapters) == 14                                  # 01-13 and 06b
    assert sorted(p.stem for p in (site / "chapters").glob("*.html")) == chapters
    assert sorted(p.stem for p in (site / "cli").glob("*.html")) == sorted(["index", *subcommands()])
    assert "--rolls-left" in (site / "cli" / "advise.html").read_text()      # the real help text
    for chapter in chapters:                                 # "download this notebook": the student's
        source = json.loads((site / "_sources" / "chapters" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
        assert source["cells"] == student(ROOT / "notebooks" / f"{chapter}.ipynb")["cells"]
        assert f"_sources/chapters/{chapter}.ipynb" in (site / "chapters" / f"{chapter}.html").read_text()


def test_every_plotly_figure_is_drawn_from_the_site(site):
    """One figure on the page per plotly output in the notebook, and no script from elsewhere."""
    for notebook in sorted((ROOT / "notebooks").glob("[01][0-9]*_*.ipynb")):
        cells = student(notebook)["cells"]
        figures = sum(PLOTLY in o.get("data", {}) for c in cells for o in c.get("outputs", []))
        page = soup(site / "chapters" / f"{notebook.stem}.html")
        assert len(page.select("div.yc-plotly")) == figures, notebook.name
    for path in pages(site):
        for tag in soup(path).find_all(["script", "link", "img", "iframe"]):
            target = tag.get("src") or tag.get("href") or ""
            assert not urlsplit(target).netloc, f"{path.name} loads {target}"
    assert (site / "_static" / "plotly.min.js").stat().st_size > 1_000_000


def test_references_page_lists_the_sources(site):
    text = soup(site / "references.html").get_text(" ")
    for title in ("Optimal Yatzy Strategy", "Optimal Yahtzee", "Porting the optimal yahtzee algorithm",
                  "Monte-Carlo Planning in the Yahtzee Domain", "An expectation maximization Yahtzee AI",
                  "An Optimal Strategy for Yahtzee", "How to Maximize Your Score in Solitaire Yahtzee"):
        assert title in text, title


CITE = re.compile(r"\{cite(?::\w+)?\}`([^`]+)`")


def test_every_source_is_cited_by_key_and_linked(site):
    """Each .bib entry is cited by key in some chapter's markdown, each citation on a page (the
    student's edition: a solution's citations are not on it) is a link to its entry on the
    references page, and that page lists exactly the entries the pages cite."""
    bib = (ROOT / "site" / "references.bib").read_text(encoding="utf-8")
    keys = set(re.findall(r"^@\w+\{([^,\s]+),", bib, re.M))
    cited: set[str] = set()
    in_course: set[str] = set()
    references = soup(site / "references.html")
    entries = {t["id"] for t in references.select("div.citation[id]")}
    for notebook in sorted((ROOT / "notebooks").glob("[01][0-9]*_*.ipynb")):
        teacher = "".join("".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]
                          if c["cell_type"] == "markdown")
        in_course |= {key.strip() for role in CITE.findall(teacher) for key in role.split(",")}
        text = "".join("".join(c["source"]) for c in student(notebook)["cells"] if c["cell_type"] == "markdown")
        here = [key.strip() for role in CITE.findall(text) for key in role.split(",")]
        cited |= set(here)
        page = soup(site / "chapters" / f"{notebook.stem}.html")
        links = [a["href"] for a in page.select("a[href]") if a["href"].startswith("../references.html#")]
        assert len(links) == len(here), notebook.name            # every key became a link ...
        assert {href.split("#", 1)[1] for href in links} <= entries, notebook.name   # ... to an entry
        assert "{cite" not in page.get_text(), notebook.name
    assert in_course == keys, (sorted(keys - in_course), sorted(in_course - keys))
    assert len(entries) == len(cited) and cited <= keys           # only what is cited, once each


def ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 7, 8] -> '1–3 and 7–8'."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return " and ".join(f"{r[0]}–{r[-1]}" for r in runs)


def test_the_week_plan_points_at_each_chapters_own_exercises(site):
    """Each chapter's objectives cite exercises of that chapter, and each week's load line gives
    the numbers its chapters' exercises really have on the site (the extension counted apart)."""
    index = soup(site / "index.html")
    weeks = index.select("section[id^=week-]")
    assert len(weeks) == 6
    numbers = {}
    for page in (site / "chapters").glob("*.html"):
        titles = [t.get_text(" ", strip=True) for t in soup(page).select(".exercise .admonition-title")]
        numbers[page.name] = [int(re.match(r"Exercise (\d+)", t).group(1)) for t in titles]
    planned = []
    for week in weeks:
        core = []
        for item in week.select("li"):
            chapter = item.select_one("a[href^='chapters/']")["href"].split("#")[0].split("/")[1]
            targets = {a["href"].split("#")[0] for a in item.select("a[href*='#ex-']")}
            assert targets == {f"chapters/{chapter}"}, item.get_text()[:60]
            planned.append(chapter)
            if not item.get_text().lstrip().startswith("Extension"):
                core += numbers[chapter]
        load = week.select_one("h3 ~ p").get_text()                 # "About 3,300 words; exercises 1–8."
        assert f"exercises {ranges(core)}." in load, load
    assert sorted(planned) == sorted(numbers)                     # every chapter in the plan once


def test_the_week_plan_gives_each_weeks_reading_within_five_percent(site):
    """'About N words' of a week is the words of its core chapters' markdown cells (an extension
    chapter says its own), counted from the committed notebooks."""
    index = soup(site / "index.html")
    loads = []
    for week in index.select("section[id^=week-]"):
        core, extension = [], []
        for item in week.select("li"):
            stem = item.select_one("a[href^='chapters/']")["href"].split("#")[0].split("/")[1][:-5]
            (extension if item.get_text().lstrip().startswith("Extension") else core).append(stem)
            if extension and extension[-1] == stem:
                loads.append((int(re.search(r"about ([\d,]+) words", item.get_text()).group(1).replace(",", "")),
                              [stem]))
        stated = re.search(r"About ([\d,]+) words", week.select_one("h3 ~ p").get_text()).group(1)
        loads.append((int(stated.replace(",", "")), core))
    assert len(loads) == 9                                        # six weeks and three extensions
    for stated, stems in loads:
        words = 0
        for stem in stems:
            cells = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
            words += sum(len("".join(c["source"]).split()) for c in cells if c["cell_type"] == "markdown")
        assert abs(words - stated) <= 0.05 * words, (stems, words, stated)


def test_code_on_the_pages_carries_no_test_marker(site):
    """No nbval marker reaches a page or a downloadable notebook's code: the checked cells carry the
    tag `nbval-check-output` in their metadata, not a comment in the code."""
    chapters = sorted((site / "chapters").glob("*.html"))
    assert len(chapters) == len(list((ROOT / "notebooks").glob("[01][0-9]*_*.ipynb")))
    for page in chapters:
        assert "NBVAL" not in page.read_text(encoding="utf-8"), page.name
    source = (site / "_sources" / "chapters" / "01_rules_and_scoring.ipynb").read_text(encoding="utf-8")
    assert "NBVAL" not in source and '"nbval-check-output"' in source


def solution_lines(notebook: Path) -> list[str]:
    """Lines only a chapter's solutions hold (20 characters or more): the code and printed output
    of its `solution` cells and the prose of its solution blocks, less any line the rest says."""
    import nbformat
    nb = nbformat.read(notebook, as_version=4)
    def texts(cell) -> list[str]:
        out = [cell.source] + [o.get("text", "") if o.get("output_type") == "stream" else
                               str(o.get("data", {}).get("text/plain", "")) for o in cell.get("outputs", [])]
        return [l.strip() for t in out for l in t.splitlines()]
    secret, public = [], set()
    for cell in nb.cells:
        if SOLUTION in tags(cell):
            secret += texts(cell)
        elif cell.cell_type == "markdown":
            kept = without_solutions(cell.source)
            public |= {l.strip() for l in kept.splitlines()}
            secret += [l.strip() for l in cell.source.splitlines() if l.strip() not in public]
        else:
            public |= set(texts(cell))
    return [l for l in secret if sum(ch.isalnum() for ch in l) >= 12 and l not in public and not l.startswith((":", "#", "$"))
            and not re.search(r"[`*$\\{}\[\]]", l)]


def test_the_student_site_holds_no_solution(site):
    """No solution on a chapter page, folded or open: no solution block, no cell tagged `solution`,
    and not one line of a solution's code, output or prose in the page's text (the pages are
    built from the student's editions). The teachers' page loses its example solution too."""
    checked = 0
    for notebook in sorted((ROOT / "notebooks").glob("[01][0-9]*_*.ipynb")):
        page = soup(site / "chapters" / f"{notebook.stem}.html")
        # (a folded "Checking the source" aside's code, tagged hide-cell, is no solution: it stays)
        assert not page.select(".solution, div.cell.tag_solution"), notebook.name
        text = " ".join(page.get_text(" ").split())
        lines = solution_lines(notebook)
        leaked = [l for l in lines if " ".join(l.split()) in text]
        assert not leaked, f"{notebook.name}: {leaked[:3]}"
        checked += len(lines)
    assert checked > 100                                      # the check reads real solutions
    teachers = soup(site / "teachers.html")
    assert teachers.select(".exercise") and not teachers.select(".solution")
    assert "(stars and bars)" not in teachers.get_text()


def test_each_chapter_offers_the_student_notebook_only(site):
    """One download under each chapter's title, the student's edition; no teacher's notebook is
    anywhere in the site (not as a download, a source or a copy), and no page links the teacher's
    edition."""
    teacher_files = {p.read_bytes() for p in (ROOT / "notebooks").glob("[01][0-9]*_*.ipynb")}
    for notebook in sorted((ROOT / "notebooks").glob("[01][0-9]*_*.ipynb")):
        page = site / "chapters" / f"{notebook.stem}.html"
        links = [a["href"] for a in soup(page).select("a.download[href]")]
        assert len(links) == 1, (notebook.name, links)
        written = json.loads((page.parent / unquote(links[0])).resolve().read_text(encoding="utf-8"))
        assert written["cells"] == student(notebook)["cells"], notebook.name
        assert "{exercise}" in json.dumps(written) and not any(SOLUTION in tags(c) for c in written["cells"])
    copies = [p for p in site.rglob("*.ipynb") if p.read_bytes() in teacher_files]
    assert not copies, copies[:3]
    assert not list(site.rglob("student/*.ipynb"))
    for path in pages(site):
        for a in soup(path).select("a[href]"):
            assert not re.search(r"teacher(/|\.zip|s?_edition)", a["href"]), (path.name, a["href"])


def test_every_internal_link_resolves(site):
    """Every relative href/src names a file of the site, and its #fragment an id on that page."""
    ids: dict[Path, set[str]] = {}
    broken, checked = [], 0
    for path in pages(site):
        for tag in soup(path).find_all(list(LINKS)):
            target = tag.get(LINKS[tag.name])
            parts = urlsplit(target or "")
            if not target or parts.scheme or parts.netloc:
                continue                                 # external, mailto:, javascript:
            checked += 1
            file = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if file.is_dir():
                file = file / "index.html"
            if not file.is_file():
                broken.append(f"{path.relative_to(site)} -> {target}")
            elif parts.fragment and file.suffix == ".html":
                if file not in ids:
                    ids[file] = {t["id"] for t in soup(file).find_all(id=True)}
                if unquote(parts.fragment) not in ids[file]:
                    broken.append(f"{path.relative_to(site)} -> {target} (no such id)")
    assert not broken, "\n".join(broken[:20])
    assert checked > 1000                                # every page's navigation, at least


# --- in the browser -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def served(site):
    """The built site on a local HTTP server; always stopped afterwards."""
    handler = functools.partial(Quiet, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def open_page(browser, url: str, viewport: dict):
    """A page with every request off this machine refused, and its console errors collected."""
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.route("**/*", lambda route: route.continue_() if urlsplit(route.request.url).hostname
               in ("127.0.0.1", None) else route.abort())
    page.goto(url, wait_until="load")
    return page, errors


DELIMITERS = re.compile(r"\\\(|\\\[|\$\$|\\begin\{")   # \( \[ $$ \begin{: a formula starts


def formulas(path: Path) -> int:
    """The formulas a built page holds: Sphinx and myst-nb put each in an element of class math."""
    return sum(len(DELIMITERS.findall(el.get_text())) for el in soup(path).select(".math"))


def typesetting_problems(page, name: str, expected: int) -> list[str]:
    """What a reader would see wrong with the page's mathematics once MathJax has finished: a
    formula not typeset (MathJax keeps each typeset one's TeX in a math/tex script), one it could
    not typeset, or raw TeX delimiters in the visible text."""
    if expected:
        page.wait_for_function("window.MathJax && MathJax.isReady === true")
        page.evaluate("new Promise(done => MathJax.Hub.Queue(() => done(true)))")
    typeset = page.locator("script[type^='math/tex']").count()
    failed = page.locator(".MathJax_Error, merror").count()
    text = page.evaluate("(document.querySelector('main') || document.body).innerText")
    raw = DELIMITERS.findall(text)
    return ([f"{name}: {typeset} of {expected} formulas typeset"] if typeset != expected else []) + \
           ([f"{name}: {failed} formulas MathJax could not typeset"] if failed else []) + \
           ([f"{name}: raw TeX in the text: {raw[:5]}"] if raw else [])


@pytest.mark.parametrize("width", ["desktop", "phone"])
def test_every_page_works_in_the_browser(site, served, browser, width):
    from playwright.sync_api import expect
    viewport = DESKTOP if width == "desktop" else PHONE
    problems = []
    for path in pages(site):
        name = path.relative_to(site).as_posix()
        page, errors = open_page(browser, served + name, viewport)
        problems += typesetting_problems(page, name, formulas(path))
        figures = page.locator("div.yc-plotly")
        for i in range(figures.count()):                        # plotly drew every figure
            expect(figures.nth(i).locator("svg.main-svg").first).to_be_attached()
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if width == "phone" and wide > 0:
            problems.append(f"{name}: scrolls sideways by {wide} px on a phone")
        problems += [f"{name}: console error: {e}" for e in errors]
        if name in ("index.html", "chapters/04_keepers.html", "chapters/06_strategies_compared.html"):
            SHOTS.mkdir(parents=True, exist_ok=True)
            shot = SHOTS / f"site-{path.stem}-{width}.png"
            expect(page.locator("#MathJax_Message")).to_be_hidden()          # the maths is typeset
            target = figures.first if figures.count() else page
            target.screenshot(path=str(shot))
            assert shot.stat().st_size > 10_000
        page.close()
    assert not problems, "\n".join(problems)


def test_mathjax_shows_no_progress_box(served, browser):
    """No "Typesetting math: 100%" box at any moment while a page with mathematics loads (MathJax
    makes its hidden #MathJax_Message at startup either way; it must never be shown)."""
    page = browser.new_page(viewport=DESKTOP)
    page.add_init_script("""window.mathjaxMessages = [];
        new MutationObserver(() => {
            const box = document.getElementById("MathJax_Message");
            if (box && getComputedStyle(box).display !== "none" && box.textContent.trim())
                window.mathjaxMessages.push(box.textContent);     // shown (it is position: fixed)
        }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});""")
    page.goto(served + "chapters/05_solving_the_game.html", wait_until="load")
    page.wait_for_function("window.MathJax && MathJax.isReady === true")
    page.evaluate("new Promise(done => MathJax.Hub.Queue(() => done(true)))")
    assert page.locator("script[type^='math/tex']").count() > 10          # it did typeset
    assert page.evaluate("window.mathjaxMessages") == []
    page.close()


def test_search_finds_keeper(served, browser):
    from playwright.sync_api import expect
    page, errors = open_page(browser, served + "search.html?q=keeper", DESKTOP)
    results = page.locator("#search-results li")
    expect(results.first).to_be_visible()
    expect(page.locator("#search-results")).to_contain_text("Keepers")
    assert not errors, errors


def test_api_reference_shows_public_names_with_their_examples(site):
    page = soup(site / "api.html")
    ids = {t["id"] for t in page.select("dt.sig[id]")}
    assert {"yatzy_core.advise", "yatzy_core.get_solution", "yatzy_core.Position"} <= ids
    assert any(">>> " in block.get_text() for block in page.select("div.doctest, pre"))


@pytest.mark.parametrize("chapter, shots", [("07_what_should_i_keep", {"explorer.png", "coach-midgame.png"}),
                                           ("09_changing_the_rules", {"rules-editor.png"})])
def test_a_live_widget_shows_its_picture_and_how_to_run_it(site, chapter, shots):
    page = soup(site / "chapters" / f"{chapter}.html")
    pictures = {Path(img["src"]).name for img in page.select("img")}
    assert shots <= pictures
    assert all((site / "_static" / "widgets" / name).stat().st_size > 10_000 for name in shots)
    assert f"voila notebooks/{chapter}.ipynb" in page.get_text()
