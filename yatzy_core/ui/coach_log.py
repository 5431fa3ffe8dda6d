"""The coach's game-log panel: save the game as JSON (shown and offered as a download), load a
saved log, or type a game played on paper (one turn a line, `gamelog.paper_game`) and have
it graded. The panel only edits text; `CoachApp` turns the text into a game.

>>> download_link('{"a": 1}')
'<a class="yc-coach-download" download="yatzy-game.json" href="data:application/json;charset=utf-8,%7B%22a%22%3A%201%7D">Download the log (yatzy-game.json)</a>'
"""
from __future__ import annotations

import urllib.parse

import ipywidgets as W

from ..engine.cache import rules_fingerprint
from ..game.rules import get_rules, rule_names

__all__ = ["LogPanel", "download_link", "own_rules", "PAPER_HELP"]

FILENAME = "yatzy-game.json"
PAPER_HELP = ("A game on paper, one turn a line: the dice and your choices as they happened, e.g. "
              "<code>11256 11 11136 111 11111 yatzy</code> (rolled 11256, kept 11, rolled 11136, "
              "kept 111, rolled 11111, scored yatzy); <code>-</code> keeps nothing. "
              "Pick the rules above first.")


def download_link(text: str, filename: str = FILENAME) -> str:
    """An HTML link that saves `text` as a JSON file (a data URL: works on a static page too)."""
    href = "data:application/json;charset=utf-8," + urllib.parse.quote(text)
    return f'<a class="yc-coach-download" download="{filename}" href="{href}">Download the log ({filename})</a>'


def own_rules(rules, extra=None):
    """A log's rules, checked before its game is replayed (a log holding a large rule file
    would otherwise be solved for minutes, then refused): the coach offers the built-in set of
    their name (the menu shows a name, and a new game starts under it) or the rules the page
    was opened with (`extra`: a rule file's or a saved-roll game's); another variant's or rule
    file's game is graded by `yatzy grade FILE` instead."""
    name = rules.name
    offered = get_rules(extra) if extra is not None else None
    if offered is None or offered.name != name:
        offered = get_rules(name) if name in rule_names() else None
    if offered is None:
        raise ValueError(f"the log's rules {name[:40]!r} are not offered by the coach "
                         f"({', '.join(rule_names())}): grade the log with `yatzy grade FILE`")
    if rules_fingerprint(rules) != rules_fingerprint(offered):
        raise ValueError(f"the log's game was played under a variant of {name!r}, not the "
                         "rules the coach plays: grade the log with `yatzy grade FILE`")
    return rules


class LogPanel:
    """A text area and three buttons; `on_save`, `on_load` and `on_paper` are set by the owner."""

    def __init__(self, capture):
        self.text_w = W.Textarea(placeholder="a saved game log (JSON), or a paper game",
                                 layout=W.Layout(width="100%", max_width="640px", height="140px"))
        self.text_w.add_class("yc-coach-log-text")
        self.save_w = W.Button(description="Save log", icon="download")
        self.load_w = W.Button(description="Load log", icon="upload")
        self.paper_w = W.Button(description="Grade paper game", icon="pencil")
        for button, css in [(self.save_w, "yc-coach-save"), (self.load_w, "yc-coach-load"),
                            (self.paper_w, "yc-coach-paper")]:
            button.add_class(css)
        self.link_w = W.HTML("")
        self.on_save = self.on_load = self.on_paper = lambda: None
        self.save_w.on_click(capture(lambda _: self.on_save()))
        self.load_w.on_click(capture(lambda _: self.on_load(self.text_w.value)))
        self.paper_w.on_click(capture(lambda _: self.on_paper(self.text_w.value)))
        body = W.VBox([W.HTML(f"<small>{PAPER_HELP}</small>"), self.text_w,
                       W.HBox([self.save_w, self.load_w, self.paper_w], layout=W.Layout(flex_flow="row wrap")),
                       self.link_w])
        self.widget = W.Accordion([body], titles=("Game log: save, load, grade a paper game",))
        self.widget.add_class("yc-coach-log")

    def saved(self, text: str) -> None:
        """Show a saved log in the text area and offer it as a download."""
        self.text_w.value = text
        self.link_w.value = download_link(text)
