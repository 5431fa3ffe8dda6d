"""The outlook's SVG bars: each bar's place and height from its probability, whole-score ticks
under their bars, the target line at the first green bar, nothing drawn for nothing."""
import re

import numpy as np
import pytest

from yatzy_core.ui.score_bars import HEIGHT, LEFT, RIGHT, REACHED, SHORT, TOP, BOTTOM, WIDTH, bars_svg, nice_step

RECT = re.compile(r'<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="([0-9.]+)" fill="([^"]+)">'
                  r'<title>final (\d+): ([0-9.]+)</title>')


def bars(svg):
    return [(float(x), float(y), float(w), float(h), fill, int(score), float(p))
            for x, y, w, h, fill, score, p in RECT.findall(svg)]


def test_bars_stand_where_their_scores_are_and_as_tall_as_their_chances():
    p = np.zeros(120)
    p[100:114] = np.arange(1, 15) / np.arange(1, 15).sum()      # 14 scores, rising
    svg = bars_svg(p, 105, "fourteen scores")
    drawn = bars(svg)
    assert [b[5] for b in drawn] == list(range(100, 114))
    width = (WIDTH - LEFT - RIGHT) / 14
    assert [b[0] for b in drawn] == pytest.approx([LEFT + i * width for i in range(14)], abs=0.01)
    floor = HEIGHT - BOTTOM                                       # every bar stands on the axis
    assert [b[1] + b[3] for b in drawn] == pytest.approx([floor] * 14, abs=0.02)
    heights = np.array([b[3] for b in drawn])
    assert heights / heights[-1] == pytest.approx(p[100:114] / p[113], abs=1e-3)   # proportional
    assert heights[-1] == pytest.approx((floor - TOP) / 1.05, abs=0.01)           # the tallest: the top but 5%
    assert [b[4] for b in drawn] == [SHORT] * 5 + [REACHED] * 9
    ticks = re.findall(r'text-anchor="middle">([^<]*)<', svg)
    assert ticks == ["100", "105", "110"]                          # whole scores, never 102.5
    line = re.search(r'<line x1="([0-9.]+)" x2="([0-9.]+)" y1="28" y2="196" stroke="#222"', svg)
    assert line and float(line[1]) == pytest.approx(LEFT + 5 * width, abs=0.1)    # left of the 105 bar


def test_a_point_mass_nothing_and_the_title():
    one = bars(bars_svg(np.array([0, 0, 1.0]), 3, "a <sure> & done"))
    assert len(one) == 1 and one[0][5] == 2 and one[0][4] == SHORT and one[0][2] > WIDTH - LEFT - RIGHT
    empty = bars_svg([], 0, "nothing")
    assert 'data-bars="0"' in empty and "<rect" not in empty and 'data-first=""' in empty
    assert 'aria-label="a &lt;sure&gt; &amp; done"' in bars_svg(np.array([1.0]), 0, "a <sure> & done")
    y_ticks = re.findall(r'text-anchor="end">([^<]*)<', bars_svg(np.array([0.5, 0.5]), 0, "t"))
    assert y_ticks == ["0%", "20%", "40%"]


@pytest.mark.parametrize("span, ticks, whole, step", [(0.043, 4, False, 0.02), (1.05, 4, False, 0.5),
                                                      (275, 6, True, 50), (2, 6, True, 1), (14, 6, True, 5),
                                                      (754, 6, True, 200)])
def test_nice_steps(span, ticks, whole, step):
    assert nice_step(span, ticks, whole) == step
