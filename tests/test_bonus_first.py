"""Upper bonus first (objectives/bonus_first.py): its table is an exact lexicographic brute force
on a tiny game (P(bonus) first, then the mean of that very policy, in Fractions), its compiled
whole-game pass plays that policy (the table's chance and mean come back), and the registry
offers it to `advise`, `yatzy advise` and `yatzy distribution` unedited."""
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from test_table_solver import TINY
from yatzy_core import Position, advise
from yatzy_core.cli.command import main
from yatzy_core.engine.bruteforce import _enumerated, moves
from yatzy_core.objectives.bonus_first import UpperBonus, bonus_table
from yatzy_core.objectives.registry import objective_for, offered


def brute_force_bonus_first(rules):
    """(P(upper total >= threshold), mean) of the lexicographically best policy from every state,
    exactly: ordered dice, every subset kept, tuples of Fractions compared as tuples."""
    n, faces, full, rolls, choices, scores = _enumerated(rules)

    def average(pairs):
        pairs = list(pairs)
        return tuple(sum(p[i] for p in pairs) / len(pairs) for i in (0, 1))

    @lru_cache(maxsize=None)
    def value(state):
        if state[0] == full:
            return (Fraction(int(state[1] >= rules.upper_bonus_threshold)), Fraction(0))
        later = {dice: max((value(after)[0], points + value(after)[1])
                           for points, after in moves(rules, dice, scores[dice], state)) for dice in rolls}
        for _ in range(rules.rolls_per_turn - 1):
            later = {dice: max([later[dice]] + [average(later[d] for d in outcomes) for _, outcomes in choices[dice]])
                     for dice in rolls}
        return average(later.values())
    return value


@pytest.fixture(scope="module")
def table():
    return bonus_table(TINY, use_cache=False)


def test_the_table_is_the_lexicographic_brute_force(table):
    value = brute_force_bonus_first(TINY)
    space = table.space
    for mask, upper in [(0, 0), (0b0001, 2), (0b0100, 0), (0b1101, 1), (0b0011, 4), (0b0011, 0)]:
        p, m = value((mask, upper, 0))
        assert table.values[space.index(mask, min(upper, TINY.upper_cap)), 0] == pytest.approx(float(p), abs=1e-12)
        assert table.values[space.index(mask, min(upper, TINY.upper_cap)), 1] == pytest.approx(float(m), abs=1e-12)
    p, m = value((0, 0, 0))
    assert round(table.start_value, 4) == round(float(p), 4) == 0.6583
    assert round(float(m), 4) == 21.0236


def test_the_whole_game_plays_the_tables_policy(table):
    play = UpperBonus().play(TINY, use_cache=False)
    start = table.values[table.space.index(0, 0)]
    assert play.bonus_probabilities["upper_bonus"] == pytest.approx(start[0], abs=1e-12)
    assert play.distribution.mean == pytest.approx(start[1], abs=1e-12)
    assert play.distribution.probabilities.sum() == pytest.approx(1.0, abs=1e-12)


def test_advise_ranks_by_the_chance_then_by_this_policys_mean(table):
    """Ones and twos used, the bonus decided: every choice has the same chance, the mean orders them."""
    objective = objective_for("bonus")
    assert objective == UpperBonus() and offered()["bonus"] == "upper bonus first"
    position = Position.make(TINY, used=["ones", "twos"], upper_total=4, dice="22", rolls_left=0)
    ranked = advise(position, objective=objective)
    assert [a.probability for a in ranked] == [1.0, 1.0]
    assert [a.box for a in ranked] == ["pair", "chance"]     # 10 now, chance later, beats 4 now


def test_the_cli_offers_it(capsys):
    """Threes, fours and chance open, 45 upper points, 4 4 4 3 3 on the last roll: fours make 57,
    and two turns (chance a dump) for two threes or more: 1 - (1 - 0.6987)^2."""
    used = "ones,twos,fives,sixes,three_of_a_kind,four_of_a_kind,full_house,small_straight,large_straight,yahtzee"
    assert main(["advise", "--rules", "yahtzee", "--used", used, "--upper", "45", "--dice", "44433",
                 "--rolls-left", "0", "--bonus-first"]) == 0
    out = capsys.readouterr().out
    assert "playing for the upper bonus first, then for points" in out and "P(bonus)" in out
    assert "1  score Fours        0.909302" in out
    p_two_threes = 1 - (5 / 6) ** 3
    p_turn = 1 - (1 - p_two_threes) ** 5 - 5 * p_two_threes * (1 - p_two_threes) ** 4
    assert f"{1 - (1 - p_turn) ** 2:.6f}" == "0.909302"


def test_an_early_position_is_refused_only_when_the_whole_table_is_long(tmp_path, monkeypatch):
    """The compiled whole table is seconds (yahtzee-no-bonus: 239,742 distinct states, the
    solve's bar, at 1e-5 s), so an early position is answered and its solve announced; Maxi
    Yatzy's (minutes) is still refused without a cached table."""
    from yatzy_core.game.rules import get_rules
    from yatzy_core.objectives.bonus_first import UpperBonus, table_seconds
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    rules = get_rules("yahtzee-no-bonus")
    early = Position.make(rules, dice="12345", rolls_left=2)
    UpperBonus().ready(early)
    what, seconds = UpperBonus().work(rules, early, use_cache=True)
    assert what == "solving the upper bonus table of yahtzee-no-bonus" and round(seconds, 4) == 2.3974
    maxi = get_rules("maxi-yatzy")
    assert round(table_seconds(maxi)) == 335
    with pytest.raises(ValueError, match=r"needs the whole table \(about 6 min\): run `yatzy distribution"):
        UpperBonus().ready(Position.make(maxi, dice="123456", rolls_left=2))
