"""Sphinx configuration of the course website: the chapters (notebooks 01-13 and 06b) from their committed outputs.

Two editions from one source (scripts/site.sh builds both). The student's site, the default and
the one to publish: each chapter page is the student's edition of its notebook
(scripts/student_edition.py), so no solution is in its HTML, folded or not, and its one download
is that notebook; the other pages lose their solution blocks the same way. The teacher's site,
built with `-t teacher` and never linked from the student's: the notebooks as they are, each
solution folded (its prose, code and output in one block that opens on a click), and two
downloads per chapter, the teacher's notebook and the student's.

Nothing is executed at build time (nb_execution_mode = "off"). Some things are rewritten on the
way in (source-read), never in the notebooks themselves: a plotly figure is drawn from its JSON
with the plotly.js copied from the installed plotly package (no CDN), a live widget becomes a
picture of it and the command that runs it, a progress bar is dropped.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from pybtex.plugin import register_plugin
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting import BaseSortingStyle

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from student_edition import (fold_solutions, read_notebook, student_notebook,   # noqa: E402
                             without_solutions, write_edition)                   # one reading of a solution

TEACHER = "tags" in globals() and tags.has("teacher")   # noqa: F821 (Sphinx's -t teacher)

project = "Yahtzee, solved: a course in dynamic programming"
author = "yatzy-core"
copyright = "yatzy-core authors"

extensions = ["myst_nb", "sphinx.ext.autodoc", "sphinx.ext.mathjax", "sphinx_exercise", "sphinx_proof",
              "sphinx_togglebutton", "sphinxcontrib.bibtex", "sphinx_design"]
myst_enable_extensions = ["colon_fence", "dollarmath", "amsmath"]
myst_update_mathjax = False   # its MathJax 3 settings (window.MathJax = ...) broke MathJax 2: below
nb_execution_mode = "off"
nb_merge_streams = True
bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "course"          # labels "Glenn 2006", defined below
bibtex_reference_style = "label"         # a citation shows its entry's label: [Glenn 2006]
exclude_patterns = ["_build", "**.ipynb_checkpoints", "play",    # play/: a static page, copied as it is
                    "student"]                                   # student/: downloads, not pages
suppress_warnings = ["mystnb.unknown_mime_type"]

html_theme = "sphinx_book_theme"
html_title = "Yahtzee, solved" + (" (teacher's edition)" if TEACHER else "")
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"   # a die; without one every page asks for /favicon.ico (a 404)
html_js_files = ["plotly.min.js"]
# MathJax 2 as jupyter-server-mathjax ships it (HTML-CSS output, its STIX-Web fonts only), served
# from the site. myst-nb marks a notebook's section "tex2jax_ignore mathjax_ignore": tex2jax skips
# everything inside it but elements of a processClass, so the classes that Sphinx and myst-nb give
# the mathematics are named here (without them no formula of a chapter was typeset).
mathjax_path = "mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"
mathjax2_config = {"tex2jax": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]],
                               "processRefs": False, "processEnvironments": False,
                               "processClass": "math|tex2jax_process|mathjax_process|output_area",
                               "ignoreClass": "tex2jax_ignore|mathjax_ignore"},
                   "HTML-CSS": {"availableFonts": [], "webFont": "STIX-Web", "imageFont": None,
                                "linebreaks": {"automatic": True},
                                # its blank test font was url('about:blank'): a CORS error in
                                # Chromium's console on every page with mathematics
                                "styles": {"@font-face": {"font-family": "MathJax_Blank",
                                                          "src": "local('MathJax_Blank')"}}},
                   "SVG": {"font": "STIX-Web"},
                   # the quick preview draws with MathJax's TeX fonts, which the package lacks (404s)
                   "fast-preview": {"disabled": True}, "menuSettings": {"CHTMLpreview": False},
                   # no "Typesetting math: 100%" box in the corner of every page while it works
                   "messageStyle": "none",
                   # so does the native MathML kept for screen readers (its six TeX web fonts
                   # for double-struck, script, ... letters): looked up locally, never fetched
                   "NativeMML": {"styles": {f"@font-face /*{i}*/": {"src": "local('MathJax_Blank')"}
                                            for i in range(1, 7)}}}
html_css_files = ["course.css"]
html_theme_options = {
    "use_download_button": True,
    "use_fullscreen_button": False,
    "show_toc_level": 2,
    "home_page_in_toc": True,
}
html_context = {"default_mode": "light"}   # an empty mode is a console error in the theme
html_sourcelink_suffix = ""      # the download link gives the .ipynb itself
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True}

PLOTLY = "application/vnd.plotly.v1+json"
WIDGET = "application/vnd.jupyter.widget-view+json"
# A live widget's picture (screenshots of the browser test) and how to run it live.
WIDGET_PICTURES = {
    "07_what_should_i_keep": ["widgets/explorer.png", "widgets/coach-midgame.png"],
    "09_changing_the_rules": ["widgets/rules-editor.png"],
}


def short_label(entry) -> str:
    """An entry's label: its authors' surnames and year ('Larsson and Sjöberg 2012'), or its
    `key` field when it names no author; an undated entry has no year."""
    names = [" ".join(p.prelast_names + p.last_names) for p in entry.persons.get("author", [])]
    who = " and ".join(names) if len(names) <= 2 else f"{names[0]} et al."
    year = entry.fields.get("year", "")
    label = " ".join(part for part in (who or entry.fields["key"], year if year.isdigit() else "") if part)
    return label.replace("{", "").replace("}", "")


class ShortLabels(BaseLabelStyle):
    def format_labels(self, sorted_entries):
        return (short_label(entry) for entry in sorted_entries)


class ByLabel(BaseSortingStyle):
    def sorting_key(self, entry):
        return short_label(entry).casefold()


class CourseStyle(UnsrtStyle):
    """pybtex's unsrt entries, sorted and labelled by author and year, as the citations read."""
    default_label_style = ShortLabels
    default_sorting_style = ByLabel


register_plugin("pybtex.style.formatting", "course", CourseStyle)


def copy_plotly_js() -> None:
    """plotly.js as the installed plotly package ships it, served from the site itself."""
    import plotly
    source = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    target = HERE / "_static" / "plotly.min.js"
    if not target.exists() or target.stat().st_size != source.stat().st_size:
        shutil.copyfile(source, target)


def copy_mathjax() -> None:
    """MathJax 2 as the jupyter-server-mathjax package ships it, so the maths needs no network."""
    import jupyter_server_mathjax
    source = Path(jupyter_server_mathjax.__file__).parent / "static"
    target = HERE / "_static" / "mathjax"
    if not (target / "MathJax.js").exists():
        shutil.copytree(source, target, dirs_exist_ok=True)


def plotly_html(figure: dict, name: str) -> str:
    data, layout = json.dumps(figure.get("data", [])), json.dumps(figure.get("layout", {}))
    height = figure.get("layout", {}).get("height") or 500          # the figure's own, if it set one
    return (f'<div id="{name}" class="plotly-graph-div yc-plotly" style="height:{height}px;width:100%;"></div>'
            f'<script>Plotly.newPlot("{name}", {data}, {layout}, {{"responsive": true}});</script>')


def widget_output(stem: str, index: int) -> dict:
    """A markdown output standing for a live widget: its picture and how to run it."""
    pictures = WIDGET_PICTURES.get(stem, [None])
    picture = pictures[min(index, len(pictures) - 1)]
    run = (f"*A live widget.* To use it, run `voila notebooks/{stem}.ipynb` in the repository "
           f"(or open `notebooks/{stem}.ipynb` in JupyterLab and run it).")
    if stem in PLAY_LINKED:
        run += (' With nothing installed: <a href="../play/index.html">Play and ask</a> in your browser '
                "(ask about any position, or play a graded game).")
    text = f"![A picture of the live widget](/_static/{picture})\n\n{run}" if picture else run
    return {"output_type": "display_data", "metadata": {}, "data": {"text/markdown": text}}


PLAY_LINKED = {"07_what_should_i_keep"}   # chapters whose widgets link to the "Play and ask" page
PLAY = HERE / "play"
PLAY_RULES = ("yahtzee", "yahtzee-no-bonus", "yatzy")


def play_tables() -> None:
    """The state values the "Play and ask" page reads (`yatzy export --what values`), written
    where scripts/site.sh exports them when they are missing or not this package's (another
    version, other rules): a plain Sphinx build gives a working page too."""
    import gzip
    from yatzy_core.engine.cache import get_solution, rules_fingerprint
    from yatzy_core.engine.value_tables import VERSION, gzipped, value_table
    from yatzy_core.game.rules import get_rules
    from yatzy_core.version import __version__
    (PLAY / "tables").mkdir(exist_ok=True)
    for name in PLAY_RULES:
        path, rules = PLAY / "tables" / f"{name}.values.gz", get_rules(name)
        try:
            with gzip.open(path) as f:
                head = f.read(48)            # magic, format version, header length, SHA-256
                header = json.loads(f.read(int.from_bytes(head[12:16], "little")))
            if (int.from_bytes(head[8:12], "little"), header["fingerprint"], header["package_version"]) \
                    == (VERSION, rules_fingerprint(rules), __version__):
                continue
        except (OSError, EOFError, ValueError, KeyError):
            pass
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".partial")   # never a planted name
        with os.fdopen(fd, "wb") as f:
            f.write(gzipped(value_table(get_solution(rules, progress=False))))
        os.replace(tmp, path)


def copy_play(app, exception) -> None:
    """The "Play and ask" page (site/play/, a static page and its tables) into the built site."""
    if exception is None and app.builder.format == "html":
        shutil.copytree(PLAY, Path(app.outdir) / "play", dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".*", "*.partial"))


def downloads_cell(stem: str) -> dict:
    """The chapter's notebook: on the student's site the student's edition only; on the teacher's,
    the notebook as it is, with the solutions, and the student's edition."""
    if TEACHER:
        text = (f"**Download this chapter** as a notebook: {{download}}`the teacher's edition <{stem}.ipynb>` "
                f"(with the solutions) or {{download}}`the student's edition <../student/{stem}.ipynb>` "
                "(the exercises without their solutions).")
    else:
        text = (f"**Download this chapter** as a notebook: {{download}}`{stem}.ipynb <{stem}.ipynb>` "
                "(run it in JupyterLab: the exercises, and the labs with their checks).")
    return {"cell_type": "markdown", "id": f"{stem}-downloads", "metadata": {}, "source": text}


def rewrite_notebook(stem: str, text: str) -> str:
    nb = json.loads(text)
    widgets = figures = 0
    for cell in nb["cells"]:
        outputs = []
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if PLOTLY in data:
                figures += 1
                html = plotly_html(data[PLOTLY], f"plotly-{stem}-{figures}")
                output = {**output, "data": {"text/html": html}}
            elif WIDGET in data:
                if "it/s" in "".join(data.get("text/plain", "")) or "state/s" in "".join(data.get("text/plain", "")):
                    continue                                   # a progress bar
                output = widget_output(stem, widgets)
                widgets += 1
            elif "cdn.plot.ly" in "".join(data.get("text/html", "")):
                continue                                       # plotly's notebook setup
            outputs.append(output)
        if "outputs" in cell:
            cell["outputs"] = outputs
    if TEACHER:
        nb["cells"] = fold_solutions(stem, nb["cells"])
    nb["cells"].insert(1, downloads_cell(stem))                # under the chapter's title
    return json.dumps(nb)


def on_source_read(app, docname: str, source: list[str]) -> None:
    if docname.startswith("chapters/"):
        source[0] = rewrite_notebook(docname.split("/", 1)[1], source[0])
    elif not TEACHER and str(app.env.doc2path(docname)).endswith(".md"):
        source[0] = without_solutions(source[0])          # a page's example solution: teachers only


def copy_notebooks() -> None:
    """Each chapter's notebook into chapters/, the pages' sources (the download link gives these):
    the student's edition, or on the teacher's site the committed notebook as it is."""
    import nbformat
    target = HERE / "chapters"
    target.mkdir(exist_ok=True)
    for path in sorted((ROOT / "notebooks").glob("[01][0-9]*_*.ipynb")):
        text = path.read_bytes() if TEACHER else \
            (nbformat.writes(student_notebook(read_notebook(path))) + "\n").encode("utf-8")
        if not (target / path.name).exists() or (target / path.name).read_bytes() != text:
            (target / path.name).write_bytes(text)


def student_notebooks() -> None:
    """The student's edition of every chapter into student/ (the teacher's chapter pages link it)."""
    if TEACHER:
        write_edition(HERE / "student")


def cli_pages() -> None:
    """One page per subcommand, from the argparse help of the installed command line."""
    from yatzy_core.cli.command import build_parser
    parser = build_parser()
    target = HERE / "cli"
    target.mkdir(exist_ok=True)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    names = []
    for name, command in sub.choices.items():
        names.append(name)
        command.prog = f"yatzy {name}"
        page = f"# yatzy {name}\n\n```text\n{command.format_help()}```\n"
        if (target / f"{name}.md").exists() and (target / f"{name}.md").read_text() == page:
            continue
        (target / f"{name}.md").write_text(page)
    index = ("# The `yatzy` command\n\nEvery page below is the command's own `--help`, generated "
             "when the site is built.\n\n```text\n" + parser.format_help() + "```\n\n"
             "```{toctree}\n:maxdepth: 1\n\n" + "\n".join(names) + "\n```\n")
    if not (target / "index.md").exists() or (target / "index.md").read_text() != index:
        (target / "index.md").write_text(index)


copy_plotly_js()
copy_mathjax()
copy_notebooks()
student_notebooks()
cli_pages()
play_tables()


def plain_bars(app, what, name, obj, options, lines: list[str]) -> None:
    """The package's docstrings are plain text: |x| is an absolute value, not an RST substitution."""
    lines[:] = [re.sub(r"\|(\w+)\|", r"\\|\1\\|", line) for line in lines]


def setup(app):
    app.connect("source-read", on_source_read)
    app.connect("autodoc-process-docstring", plain_bars)
    app.connect("build-finished", copy_play)
