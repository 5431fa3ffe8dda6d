"""The outscore table stored as bands (objectives/outscore.py, `outscore_bands`): equal to the dense
table and to the numpy reference on small games, what it leaves out exactly zero, and the early
positions of the full games sized, refused or deferred before anything is solved."""
import numpy as np
import pytest

from yatzy_core.engine.position import Position
from yatzy_core.game.rules import get_rules
from yatzy_core.game.states import StateSpace
from yatzy_core.objectives import outscore
from yatzy_core.objectives.opponent_card import OpponentCard
from yatzy_core.objectives.outscore import Outscore, outscore_table, table_bytes
from yatzy_core.objectives.targets import most_gain
from yatzy_core.objectives.versus_objective import Versus

from test_two_player import GAMES


def reached_states(rules, within=0):
    space = StateSpace(rules)
    mask = space.decode(np.arange(space.size))[0]
    return np.flatnonzero(space.reachable & ((mask & within) == within))


@pytest.mark.parametrize("name, card, lead, within", [
    ("upper-bonus", OpponentCard(), None, 0),
    ("forced", OpponentCard(frozenset({"ones"}), upper_total=1), -4, 0),
    ("three-dice", OpponentCard(), 3, 0),
    ("pair-or-chance", OpponentCard(frozenset({"pair"})), -2, 1)])
def test_the_banded_table_equals_the_dense_one_and_the_reference(name, card, lead, within):
    rules = GAMES[name]
    states = reached_states(rules, within)
    banded = outscore_table(rules, card, lead, within)
    dense = outscore_table(rules, card, lead, within, dense=True)
    reference = outscore_table(rules, card, lead, within, compiled=False)
    assert banded.width == dense.width == reference.width
    assert np.abs(banded.values[states] - dense.values[states]).max() < 1e-12
    assert np.abs(banded.values[states] - reference.values[states]).max() < 1e-12
    assert banded.nbytes < dense.nbytes


def test_the_lanes_left_out_are_exactly_zero_in_the_dense_table():
    rules = GAMES["upper-bonus"]
    dense = outscore_table(rules, OpponentCard(), None, dense=True)
    space, states = dense.space, reached_states(rules)
    k = len(dense.final) - 1
    first_zero = most_gain(space, states) + k + 2           # lane M(s) + K + 2 and above: behind by more than M(s)
    lanes = np.arange(dense.width)
    values = dense.values[states]
    assert np.all(values[lanes >= first_zero[:, None]] == 0.0)
    assert values[lanes < first_zero[:, None]].min() > 0.0       # and the band is not wider than it need be here


def test_a_lead_ahead_narrows_the_table_to_the_lanes_it_reads():
    rules = GAMES["three-dice"]
    even, ahead = outscore_table(rules, OpponentCard(), 0), outscore_table(rules, OpponentCard(), 3)
    assert (even.width, ahead.width) == (len(even.final) + 1, len(even.final) - 2)
    for lead in (3, 5, 40):
        assert ahead.value(0, lead=lead) == pytest.approx(even.value(0, lead=lead), abs=1e-15)


@pytest.mark.parametrize("name, gigabytes, dense_refused", [
    ("yatzy", 2.88, True), ("yahtzee-no-bonus", 0.72, False), ("yahtzee", 4.53, True)])
def test_the_first_turn_of_the_full_games_fits_the_budget(name, gigabytes, dense_refused):
    space = StateSpace(get_rules(name))
    start = space.index(0, 0, 0)
    assert table_bytes(space, start, 0) / 1e9 == pytest.approx(gigabytes, abs=0.005)
    assert table_bytes(space, start, 0) < outscore.TABLE_BUDGET
    assert (table_bytes(space, start, 0, dense=True) > 2 * 1024 ** 3) == dense_refused   # the dense table's budget


def test_a_table_over_the_budget_is_refused_in_one_line_before_it_is_solved(monkeypatch):
    monkeypatch.setattr(outscore, "TABLE_BUDGET", 10 ** 9)
    monkeypatch.setattr(outscore, "opponent_final", lambda *a: 1 / 0)     # nothing solved before the refusal
    position = Position.make("yahtzee", dice="12345")
    with pytest.raises(ValueError, match=r"^the outscore table here would take 4\.5 GB \(more than 1\.0 here\): "
                                         r"fill more boxes first$"):
        outscore_table(position.rules, OpponentCard(), 0)


def test_a_click_never_starts_a_build_of_minutes(monkeypatch):
    objective = Outscore(OpponentCard(), 0)
    early = Position.make("yahtzee", dice="12345")
    what, seconds = objective.work(early.rules, early)
    assert what == "solving the outscore table of yahtzee against this card (5.67e+08 values, 4.5 GB; not cached)"
    assert seconds == pytest.approx(5.665e8 * outscore.LANE_SECONDS, rel=1e-3)
    monkeypatch.setattr(outscore, "LANE_SECONDS", 1e-6)
    with pytest.raises(ValueError, match=r"^outscore: from this early a position the approximation is the "
                                         r"outscore table of yahtzee .* about 9 min: ask `yatzy advise --rules yahtzee"):
        objective.ready(early)
    with pytest.raises(ValueError, match=r"^versus: beyond the endgame tables \(13 boxes open, the opponent 13\) the "
                                         r"approximation answers, but outscore: from this early"):
        Versus(OpponentCard(), 0).ready(early)                   # the exact objective hands over to it
    late = Position.make("yahtzee", used=",".join(early.rules.box_names[:10]), dice="12345")
    assert objective.work(late.rules, late) == ("", 0.0)
    objective.ready(late)


def test_a_sure_loss_builds_no_table_and_ranks_by_the_mean(monkeypatch):
    from yatzy_core import advise
    position = Position.make("yahtzee", dice="12345", rolls_left=2)
    behind = Outscore(OpponentCard(), -1576)                   # the mover can score at most 1575 more
    assert behind.hopeless(position) and behind.work(position.rules, position) == ("", 0.0)
    monkeypatch.setattr(outscore, "outscore_table", lambda *a, **k: 1 / 0)
    ranked = advise(position, objective=behind)
    assert {a.value for a in ranked} == {0.0}
    assert [a.label for a in ranked[:3]] == [a.label for a in advise(position)[:3]]      # the mean's order
    assert not Outscore(OpponentCard(), -1575).hopeless(position)                        # a tie is still possible
