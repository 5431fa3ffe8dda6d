from types import SimpleNamespace

import numpy as np
import pytest

from yatzy_core.cli.command import main
from yatzy_core.players.study import GAMES, SLOW, STAT_COLUMNS, comparison, run_study
from yatzy_core.ui.plots import box_bars_figure, gap_figure, histogram_figure

NAMES = ["optimal", "greedy", "random"]


@pytest.fixture(scope="module")
def small():
    return run_study("yahtzee", NAMES, games=400, seed=4)


def test_table(small):
    table = small.table()
    assert list(table.index) == NAMES
    assert list(table.columns[:len(STAT_COLUMNS)]) == STAT_COLUMNS
    assert "full_house" in table.columns and "upper_bonus" in table.columns
    assert (table["games"] == 400).all()
    totals = small.frames["greedy"]["total"]
    assert table.loc["greedy", "mean"] == pytest.approx(totals.mean())
    assert table.loc["greedy", "sem"] == pytest.approx(totals.std() / 20)
    assert table.loc["greedy", "max"] == totals.max()
    assert table["mean"].idxmax() == "optimal"
    boxes = table.columns[len(STAT_COLUMNS):]
    assert np.allclose(table[boxes].sum(axis=1), table["mean"])    # the boxes add up to the mean


def test_default_games_give_a_standard_error_below_half_a_point():
    study = run_study("yahtzee", ["random", "greedy", "strategic", "turn_expectation"],
                      games=2000, seed=1)
    sd = study.table()["std"]
    assert (sd / np.sqrt(GAMES) < 0.5).all(), sd.to_dict()
    assert SLOW == ("mc_planner",)


def test_comparison_over_rule_sets():
    table = comparison(["yahtzee-no-bonus", "yatzy"], strategies=["greedy"], games=50, seed=0)
    assert list(table.index) == [("yahtzee-no-bonus", "greedy"), ("yatzy", "greedy")]


def test_figures(small):
    hist = histogram_figure(small)
    assert [t.type for t in hist.data] == ["histogram"] * 3
    assert "greedy" in hist.data[1].name
    assert "points" in hist.layout.xaxis.title.text and hist.layout.yaxis.title.text
    assert "yahtzee" in hist.layout.title.text
    exact = SimpleNamespace(probabilities=np.full(301, 1 / 301))
    with_curve = histogram_figure(small, bin_width=5, exact=exact)
    curve = with_curve.data[-1]
    assert curve.type == "scatter" and np.allclose(curve.y[:60], 1 / 301)
    bars = box_bars_figure(small)
    assert [t.name for t in bars.data] == NAMES
    assert list(bars.data[0].x) == list(small.table().columns[len(STAT_COLUMNS):])
    assert "points" in bars.layout.yaxis.title.text and bars.layout.xaxis.title.text == "box"
    gap = gap_figure(small)
    assert [t.name for t in gap.data] == ["greedy", "random"]
    table = small.table()
    chance = list(gap.data[1].x).index("chance")
    assert gap.data[1].y[chance] == pytest.approx(
        table.loc["random", "chance"] - table.loc["optimal", "chance"], abs=0.005)


def test_cli_study(capsys):
    assert main(["study", "--rules", "yatzy", "--strategies", "greedy,strategic", "--games", "60",
                 "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "yatzy: every strategy from seed 0" in printed
    assert "strategic" in printed and "average points per box" in printed and "one_pair" in printed
    assert main(["study", "--strategies", "nobody", "--games", "5", "--quiet"]) == 2
